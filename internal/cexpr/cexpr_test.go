package cexpr

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEval(t *testing.T) {
	env := Env{
		Objects: map[string]string{
			"CORE_CLOCK_HZ": "25000000U", "TICK_RATE_HZ": "1000U", "RELOAD": "(CORE_CLOCK_HZ / TICK_RATE_HZ - 1U)",
			"PAGE": "32", "SELF": "SELF + 1", "RED": "0", "GREEN": "(RED) + 1", "BASE": "0x40000000UL",
		},
		Functions: map[string]FuncMacro{
			"REG":     {Params: []string{"off"}, Body: "(BASE + (off))"},
			"BIT":     {Params: []string{"n"}, Body: "(1U << (n))"}, // the code's own definition wins
			"MS2TICK": {Params: []string{"ms", "hz"}, Body: "((ms) * (hz) / 1000)"},
		},
	}
	tests := []struct {
		expr string
		want int64
	}{
		{"RELOAD", 24999},
		{"CORE_CLOCK_HZ / TICK_RATE_HZ - 1", 24999},
		{"BIT(3) | BIT(0)", 9},
		{"0x7", 7}, {"0b101", 5}, {"017", 15}, {"'A'", 65},
		{"(uint16_t)~0", 65535},
		{"(int8_t)0xFF", -1},
		{"(uint32_t)-1", 4294967295},
		{"(volatile uint32_t *)REG(0x08)", 0x40000008},
		{"KB(4)", 4096},
		{"MS2TICK(100, 250)", 25},
		{"GREEN", 1},
		{"PAGE - 500 % PAGE", 12},
		{"1 ? 2 : 3", 2}, {"0 ? 2 : 3", 3},
		{"!5 || 3 > 2 && 1 == 1", 1},
		{"-(2 + 3) * 4", -20},
		{"UINT16_MAX + 1", 65536},
		{"10 * MSEC_PER_SEC", 10000},
		{"1u << 31", 2147483648},
		// C's integer types on ILP32.
		{"~0u >> 28", 15},
		{"-1 >> 28", -1},
		{"~(1U << 2) >> 30", 3},
		{"(0u - 1) / 2", 2147483647},
		{"~0u > 5u", 1},
		{"-1 < 0u", 0},
		{"-1 < 0", 1},
		{"0xFFFFFFFF", 4294967295},
		{"0xFFFFFFFF + 1", 0},
		{"4294967295 + 1", 4294967296},
		{"1ULL << 40", 1 << 40},
		{"(unsigned long long)1 << 40", 1 << 40},
		{"(uint64_t)~0u", 4294967295},
		{"-7 / 2", -3}, {"-7 % 2", -1},
		{"UINT32_MAX + 1", 0},
		{"GENMASK(7, 4)", 0xF0},
		{"DT_SIZE_K(4)", 4096},
	}
	for _, tc := range tests {
		got, err := Eval(tc.expr, env)
		require.NoError(t, err, tc.expr)
		require.Equal(t, tc.want, got, tc.expr)
	}
	for expr, msg := range map[string]string{
		"HZ * 2":          "HZ is not a known constant",
		"get_hz()":        "get_hz(...) is a call, not a constant",
		"sizeof(long)":    "sizeof(long) is not known",
		"1 / (PAGE - 32)": "division by zero",
		"SELF":            "too deep",
		"1 +":             "ends early",
		"2.5":             "not an integer",
		"(1 + 2":          "missing )",
		"REG(1, 2)":       "REG takes 1 arguments, got 2",
		"1 << 64":         "shift by 64",
		"1 << 32":         "shift by 32 of a 32-bit value",
	} {
		_, err := Eval(expr, env)
		require.ErrorContains(t, err, msg, expr)
	}
}

func TestSizeof(t *testing.T) {
	objects := map[string]int64{"table": 192, "table [ 0 ]": 4, "* table": 4}
	env := Env{
		Objects: map[string]string{"ENTRIES": "(sizeof(table) / sizeof(table[0]))"},
		Types:   map[string]string{"vector_t": "uint32_t", "reg_t": "volatile uint16_t"},
		Sizeof: func(operand string) (int64, bool) {
			n, ok := objects[operand]
			return n, ok
		},
	}
	for expr, want := range map[string]int64{
		"sizeof(int)": 4, "sizeof(char)": 1, "sizeof(unsigned short)": 2, "sizeof(long long)": 8,
		"sizeof(uint64_t)": 8, "sizeof(vector_t)": 4, "sizeof(reg_t)": 2, "sizeof(double)": 8, "sizeof(float)": 4,
		"sizeof(table)": 192, "sizeof table / sizeof *table": 48, "ENTRIES": 48,
		"48 * sizeof(vector_t)": 192, "sizeof(TickType_t)": 4,
	} {
		got, err := Eval(expr, env)
		require.NoError(t, err, expr)
		require.Equal(t, want, got, expr)
	}
	for expr, msg := range map[string]string{
		"sizeof(long)":          "sizeof(long) is not known",
		"sizeof(unsigned long)": "is not known",
		"sizeof(char *)":        "sizeof(char *) is not known",
		"sizeof(size_t)":        "sizeof(size_t) is not known",
		"sizeof(struct cfg)":    "sizeof(struct cfg) is not known",
		"sizeof(other)":         "sizeof(other) is not known",
		"sizeof(table":          "missing )",
		"sizeof 3":              "operand is not a name",
	} {
		_, err := Eval(expr, env)
		require.ErrorContains(t, err, msg, expr)
	}
	_, err := Eval("sizeof(table)", Env{})
	require.ErrorContains(t, err, "not known", "without Sizeof, objects have no size")
}

func TestComments(t *testing.T) {
	env := Env{Objects: map[string]string{"A": "25u /* clocks */", "B": "(A * 100u) // per period", "E": "3 /* e */"}}
	for expr, want := range map[string]int64{"A": 25, "B": 2500, "E + 1": 4, "1 /* x */ + // y\n 2": 3} {
		got, err := Eval(expr, env)
		require.NoError(t, err, expr)
		require.Equal(t, want, got, expr)
	}
	_, err := Eval("1 /* open", env)
	require.ErrorContains(t, err, "unterminated comment")
}

func TestExpansionBlowUpStops(t *testing.T) {
	// Each object-like macro names the next one twice: evaluating A0 would
	// take 2^30 evaluations.
	objects := map[string]string{"A30": "1"}
	for i := 0; i < 30; i++ {
		objects[fmt.Sprintf("A%d", i)] = fmt.Sprintf("A%d + A%d", i+1, i+1)
	}
	// A function-like macro repeating its argument, applied to itself, grows
	// its text fourfold per level.
	env := Env{Objects: objects, Functions: map[string]FuncMacro{"Q": {Params: []string{"x"}, Body: "x + x + x + x"}}}
	for _, expr := range []string{"A0", "Q(Q(Q(Q(Q(Q(Q(Q(Q(Q(Q(Q(Q(1)))))))))))))"} {
		_, err := Eval(expr, env)
		require.ErrorContains(t, err, "macro expansion too large", expr)
	}
	v, err := Eval("A20", env) // 2^10 evaluations fit
	require.NoError(t, err)
	require.Equal(t, int64(1024), v)
}

func TestEvalNum(t *testing.T) {
	env := Env{Objects: map[string]string{"F_CPU": "16000000UL", "HALF": "0.5f", "LOOP": "LOOP * 1.0"}}
	floats := map[string]float64{
		"1.5f * 2": 3, ".5 + 1": 1.5, "1e-3": 0.001, "2.5E+2": 250, "10 / 4.0": 2.5,
		"(double)7 / 2": 3.5, "(float)1 / 4": 0.25, "F_CPU * HALF": 8e6, "-1.5 * 2": -3,
		"1 ? 2.5 : 1": 2.5, "(float)0.1": float64(float32(0.1)), "0.1f + 0.2f": float64(float32(float32(0.1) + float32(0.2))),
	}
	for expr, want := range floats {
		n, err := EvalNum(expr, env)
		require.NoError(t, err, expr)
		require.True(t, n.Float, expr)
		require.Equal(t, want, n.F, expr)
	}
	ints := map[string]int64{
		"(int)2.7": 2, "(int)-2.7": -2, "(uint32_t)(F_CPU * 0.5)": 8000000, "10 / 4": 2, "1.5 > 1": 1,
		"(uint8_t)255.9": 255, "!0.0": 1, "0.5 && 1": 1,
	}
	for expr, want := range ints {
		n, err := EvalNum(expr, env)
		require.NoError(t, err, expr)
		require.False(t, n.Float, expr)
		require.Equal(t, want, n.Int.Int64(), expr)
	}
	for expr, msg := range map[string]string{
		"1.0 / 0":        "division by zero",
		"1.5 % 2":        "operator % on a floating-point value",
		"1.0 << 2":       "operator << on a floating-point value",
		"~1.0":           "~ of a floating-point value",
		"(uint8_t)256.0": "does not fit",
		"(int)-1e10":     "does not fit",
		"1e400":          "bad floating literal",
		"1.5ff":          "bad floating literal",
		"0x1.8p1":        "hexadecimal floating",
		"LOOP":           "too deep",
		"1e308 * 10":     "overflows",
	} {
		_, err := EvalNum(expr, env)
		require.ErrorContains(t, err, msg, expr)
	}
	// The integer API still refuses floating point.
	for _, expr := range []string{"1.5", "(int)2.7", "(float)1"} {
		_, err := Eval(expr, env)
		require.Error(t, err, expr)
	}
}

func TestCastsToTypedefs(t *testing.T) {
	env := Env{Objects: map[string]string{"pdTRUE": "((BaseType_t)1)", "LIMIT": "300"}, Types: map[string]string{"my_u8": "unsigned char", "reg_t": "my_u8"}}
	for expr, want := range map[string]int64{
		"(UBaseType_t)pdTRUE":     1,
		"(psa_key_id_t)0x10001":   0x10001,
		"(TickType_t)(LIMIT * 2)": 600,
		"(my_u8)LIMIT":            44,
		"(reg_t)LIMIT":            44,
		"(app_id_t)0x1234":        0x1234, // declared elsewhere: width unknown, value kept
		"(LIMIT) - 1":             299,
		"(LIMIT)*2":               600,
	} {
		v, err := EvalValue(expr, env)
		require.NoError(t, err, expr)
		require.Equal(t, want, v.Int64(), expr)
	}
	_, err := EvalValue("(unknown_name)", env)
	require.Error(t, err, "a name alone in parentheses is not a cast")
}
