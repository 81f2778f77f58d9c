package csyntax

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDefinitions checks the positions of the function index and the
// definitions tree-sitter does not read as function_definition: wrapper
// macros, implicit int and bodies left unterminated inside an ERROR node.
func TestDefinitions(t *testing.T) {
	tests := []struct {
		name, code string
		want       []Definition
	}{
		{"plain", "static int\nf(void)\n{ return 0; }\n",
			[]Definition{{Name: "f", Line: 2, Start: 0, Head: 11, NameStart: 11, Open: 19, Close: 31}}},
		{"wrapper one argument", "ISR_DIRECT_DECLARE(my_isr)\n{\n\treturn 1;\n}\n",
			[]Definition{{Name: "my_isr", Line: 1, Start: 0, Head: 0, NameStart: 19, Open: 27, Close: 40, Wrapper: "ISR_DIRECT_DECLARE"}}},
		{"wrapper name second", "ZTEST(suite, test_one)\n{\n}\n",
			[]Definition{{Name: "test_one", Line: 1, Start: 0, Head: 0, NameStart: 13, Open: 23, Close: 25, Wrapper: "ZTEST"}}},
		{"implicit int", "foo(x)\n{\n}\n", []Definition{{Name: "foo", Line: 1, Start: 0, Head: 0, NameStart: 0, Open: 7, Close: 9}}},
		{"unterminated", "void f(void)\n{\n\tint x;\n", []Definition{{Name: "f", Line: 1, Start: 0, Head: 5, NameStart: 5, Open: 13, Close: -1}}},
		{"unbalanced in ERROR", "int f(void)\n{\n\tx = (1;\n", []Definition{{Name: "f", Line: 1, Start: 0, Head: 4, NameStart: 4, Open: 12, Close: -1}}},
		{"prototype", "int f(void);\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse(tt.code)
			require.NoError(t, err)
			defer f.Close()
			require.Equal(t, tt.want, f.Definitions())
			fs := f.Functions()
			require.Len(t, fs, len(tt.want))
			for i, d := range tt.want {
				require.Equal(t, d.Name, fs[i].Name)
				require.Equal(t, byte('{'), tt.code[d.Open])
				require.True(t, strings.HasPrefix(tt.code[d.Open:], fs[i].Body), fs[i].Body)
				if d.Close >= 0 {
					require.Equal(t, tt.code[d.Open:d.Close+1], fs[i].Body)
				}
			}
		})
	}
}
