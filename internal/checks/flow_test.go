package checks

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNeverReturnsBuiltin(t *testing.T) {
	code := "void Error_Handler(void) { while (1) { } }\nvoid run(void (*cb)(void)) { cb(); }\nint get(void) { return 0; }\n"
	assert.Equal(t, "(True, None, False, True, None)", evalExpr(t,
		`(c.never_returns(code, "Error_Handler"), c.never_returns(code, "run"), c.never_returns(code, "get"), c.never_returns(code, function = "esp_restart"), c.never_returns(code, "HAL_Delay"))`, code))
	assert.Equal(t, "(None, True)", evalExpr(t, `(c.never_returns(code, "Error_Handler"), c.never_returns(code, "abort"))`, "garbage ((("))
}

func TestBranchExitsBuiltin(t *testing.T) {
	code := "int f(int ret)\n{\n\tif (ret < 0) {\n\t\tabort();\n\t} else {\n\t\tlog();\n\t}\n\treturn 0;\n}\n"
	assert.Equal(t, `[{"function": "f", "line": 3, "condition": "ret < 0", "exits": ["halt"], "else_exits": ["falls_through"]}]`,
		evalExpr(t, `c.branch_exits(code, "f", "ret<0")`, code))
	assert.Equal(t, `([], [], 1)`, evalExpr(t, `(c.branch_exits(code, "g"), c.branch_exits(code, line = 4), len(c.branch_exits(code)))`, code))
	assert.Equal(t, `[]`, evalExpr(t, `c.branch_exits(code)`, ""))
}

func TestFlowBuiltinsMisuse(t *testing.T) {
	rt := newRuntime(t, Limits{})
	for expr, msg := range map[string]string{
		`c.never_returns(code)`:                "c.never_returns: missing argument for function",
		`c.never_returns(code, 3)`:             "c.never_returns: function must be a string or None, got int",
		`c.branch_exits(code, 1)`:              "c.branch_exits: function must be a string or None, got int",
		`c.branch_exits(code, "f", ["ret"])`:   "c.branch_exits: condition must be a string or None, got list",
		`c.branch_exits(code, line = 0)`:       "c.branch_exits: line must be a positive int or None, got 0",
		`c.branch_exits(code, line = "3")`:     `c.branch_exits: line must be a positive int or None, got "3"`,
		`c.branch_exits(code, "f", "x", 3, 4)`: "c.branch_exits: got 5 arguments, want at most 4",
		`c.branch_exits(code, colour = "red")`: "c.branch_exits: unexpected keyword argument \"colour\"",
	} {
		_, err := run(t, rt, "def run_checks(code):\n    return [CheckDetail(check_name = \"x\", passed = True, actual = repr("+expr+"))]\n", "int f(void) { return 0; }")
		require.Error(t, err, expr)
		assert.Contains(t, err.Error(), msg, expr)
	}
}

func TestFlowBuiltinsShareTheParse(t *testing.T) {
	rt := newRuntime(t, Limits{})
	m, err := rt.LoadChecks(context.Background(), "t.star", []byte(`
def run_checks(code):
    n = c.never_returns(code, "halt")
    b = c.branch_exits(code, "main")
    fs = c.functions(code)
    return [CheckDetail(check_name = "x", passed = n == True and len(b) == 1 and len(fs) == 2)]
`))
	require.NoError(t, err)
	s := rt.NewSession()
	defer s.Close()
	ds, err := m.Run(context.Background(), s, "void halt(void) { for (;;) { } }\nint main(void) { if (init()) halt(); return 0; }\n")
	require.NoError(t, err)
	assert.True(t, ds[0].Passed)
	assert.Equal(t, 1, s.Parses())
}
