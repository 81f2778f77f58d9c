package checks

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWalkOnSyntaxTrees covers what the value walker reads from csyntax's
// statement trees: stores evaluated on some paths only, #if branches,
// comments inside stored values, a for loop's clauses, labels.
func TestWalkOnSyntaxTrees(t *testing.T) {
	code := `int f(int n) {
	int a = 1, b = 1, c = 1, d = 1;
	if (n > 0 && (a = 2)) {}
	b = n ? (b = 3) : 1;
	c = 5 // five
	    + 1;
#if CONFIG_X
	d = 7;
#endif
	int s = 0;
	for (int i = 0; i < 3; i++) {}
	for (s = 5; n < 3; n++) {}
	return a + b + c + d + s;
}
int g(int n) {
	int e = 2;
again:
	e = 4;
	return e;
}
`
	cases := map[string]string{
		`c.eval_int(code, "a", function = "f")`:            "None",
		`c.eval_int(code, "a", function = "f", line = 3)`:  "1",
		`c.eval_int(code, "b", function = "f")`:            "None",
		`c.eval_int(code, "c", function = "f")`:            "6",
		`c.eval_int(code, "d", function = "f")`:            "None",
		`c.eval_int(code, "d", function = "f", line = 8)`:  "1",
		`c.eval_int(code, "s", function = "f")`:            "5",
		`c.eval_int(code, "s", function = "f", line = 12)`: "0",
		`c.eval_int(code, "e", function = "g")`:            "None",
	}
	for expr, want := range cases {
		require.Equal(t, want, evalExpr(t, expr, code), expr)
	}
}
