package csyntax

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestQualifierOnVariable(t *testing.T) {
	tests := []struct {
		name, code, variable, qualifier string
		want                            bool
	}{
		{"static volatile with init", "static volatile uint32_t x = 0;", "x", "volatile", true},
		{"static volatile storage", "static volatile uint32_t x = 0;", "x", "static", true},
		{"qualifier after type", "uint32_t volatile x;", "x", "volatile", true},
		{"second declarator", "volatile bool a, b;", "b", "volatile", true},
		{"after initialized declarator", "volatile int a = (1 + 2) * 3, b;", "b", "volatile", true},
		{"array", "static volatile uint8_t buf[16];", "buf", "volatile", true},
		{"volatile pointer", "int *volatile p;", "p", "volatile", true},
		{"pointer to volatile", "volatile int *p;", "p", "volatile", true},
		{"atomic", "static _Atomic int counter;", "counter", "_Atomic", true},
		{"const", "static const int table[] = {1, 2, 3};", "table", "const", true},
		{"trailing attribute", "static uint8_t buf[64] __aligned(4);", "buf", "__aligned(4)", true},
		{"attribute token spacing", "static uint8_t buf[64] __aligned( 4 );", "buf", "__aligned(4)", true},
		{"wrong alignment", "static uint8_t buf[64] __aligned(8);", "buf", "__aligned(4)", false},
		{"local", "void f(void)\n{\n\tvolatile int done = 0;\n\twhile (!done) {}\n}\n", "done", "volatile", true},
		{"parameter", "void f(int a, volatile uint32_t *reg) { *reg = a; }", "reg", "volatile", true},
		{"for init", "void f(void) { for (volatile int i = 0; i < 3; i++) {} }", "i", "volatile", true},
		{"struct member", "struct s { volatile int flag; int other; };", "flag", "volatile", true},
		{"struct typed variable", "static volatile struct { int a; } state;", "state", "volatile", true},
		{"function pointer", "static void (*volatile cb)(void);", "cb", "volatile", true},
		{"missing", "static uint32_t x = 0;", "x", "volatile", false},
		{"in comment", "static uint32_t x; /* volatile */", "x", "volatile", false},
		{"in string", "static const char *x = \"volatile\";", "x", "volatile", false},
		{"other variable", "volatile int y; int x;", "x", "volatile", false},
		{"use not declaration", "int x;\nvoid f(void) { volatile_write(x); y = (volatile int)x; }", "x", "volatile", false},
		{"initializer use", "int x; volatile int y = x;", "x", "volatile", false},
		{"function not variable", "volatile int x(void);", "x", "volatile", false},
		{"call argument", "void f(void) { g(volatile_flag, x); }", "x", "volatile", false},
		{"macro line", "#define DECL volatile int x\nint x;", "x", "volatile", false},
		{"prefix name", "volatile int xy; int x;", "x", "volatile", false},
		{"return statement", "int f(void) { return volatile_x + x; }", "x", "volatile", false},
		{"empty qualifier", "volatile int x;", "x", "", false},
		{"after previous function", "void f(void) { }\nvolatile int x;", "x", "volatile", true},
		// Masked decorators, before or after the declaration's first token.
		{"masked decorator first", "RTC_DATA_ATTR static int boots;", "boots", "RTC_DATA_ATTR", true},
		{"masked decorator after storage", "static RTC_NOINIT_ATTR int boots;", "boots", "RTC_NOINIT_ATTR", true},
		{"masked decorator belongs to its declaration", "RTC_DATA_ATTR static int a;\nstatic int boots;", "boots", "RTC_DATA_ATTR", false},
		{"CMSIS __IO as written", "static __IO uint32_t ticks;", "ticks", "__IO", true},
		{"CMSIS __IO is volatile", "static __IO uint32_t ticks;", "ticks", "volatile", true},
		{"masked parameter decorator", "void f(__IO uint32_t *reg);", "reg", "volatile", true},
		{"struct member with decorator", "struct ring { uint8_t buf[8] __aligned(4); };", "buf", "__aligned(4)", true},
		// What a declarator's own part leaves out.
		{"name is not its own qualifier", "int volatile_x;", "volatile_x", "volatile_x", false},
		{"function pointer parameters say nothing about the pointer", "static void (*cb)(volatile int *p);", "cb", "volatile", false},
		{"earlier declarator's pointer qualifier", "int *volatile p, q;", "q", "volatile", false},
		{"bit-field width", "struct s { unsigned flag : 1; };", "flag", "1", false},
		{"typedef name is not a variable", "typedef volatile int vint;", "vint", "volatile", false},
		{"macro call that looks like a declaration", "static DEVICE_ATTR_RO(count);", "count", "static", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, parse(t, tt.code).QualifierOnVariable(tt.variable, tt.qualifier))
		})
	}
}

func TestDeclarators(t *testing.T) {
	code := "static volatile int g = 1;\nstruct ring { uint8_t head; };\nint f(const char *name, int n)\n{\n\tfor (int i = 0; i < n; i++) { }\n\treturn 0;\n}\n"
	f := parse(t, code)
	require.Equal(t, []Declarator{{Name: "g", Kind: "variable", Scope: GlobalScope, Line: 1, Tokens: []string{"static", "volatile", "int"}}}, f.Declarators("g"))
	require.Equal(t, []Declarator{{Name: "head", Kind: "field", Scope: "ring", Line: 2, Tokens: []string{"uint8_t"}}}, f.Declarators("head"))
	require.Equal(t, []Declarator{{Name: "name", Kind: "parameter", Scope: "f", Line: 3, Tokens: []string{"const", "char", "*"}}}, f.Declarators("name"))
	require.Equal(t, []Declarator{{Name: "i", Kind: "variable", Scope: "f", Line: 5, Tokens: []string{"int"}}}, f.Declarators("i"))
	require.Nil(t, f.Declarators("f"))
	require.Nil(t, f.Declarators("missing"))
}

func TestCTokens(t *testing.T) {
	require.Equal(t, []string{"__aligned", "(", "4", ")"}, cTokens("__aligned( 4 ) /* x */ // y"))
	require.Equal(t, []string{"__attribute__", "(", "(", "section", "(", `".a b"`, ")", ")", ")"}, cTokens(`__attribute__((section(".a b")))`))
	require.Equal(t, []string{"a", "-", ">", "b"}, cTokens("a->b /* unterminated"))
	require.True(t, hasToken("GFP_KERNEL | __GFP_ZERO", "GFP_KERNEL"))
	require.False(t, hasToken(`"GFP_KERNEL" | MY_GFP_KERNEL`, "GFP_KERNEL"))
}
