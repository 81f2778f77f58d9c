package checks

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/result"
)

func newRuntime(t *testing.T, limits Limits) *Runtime {
	t.Helper()
	rt, err := NewRuntime(limits, nil)
	require.NoError(t, err)
	return rt
}

// run loads src as a check file and runs it on code.
func run(t *testing.T, rt *Runtime, src, code string) ([]result.CheckDetail, error) {
	t.Helper()
	m, err := rt.LoadChecks(context.Background(), "t.star", []byte(src))
	if err != nil {
		return nil, err
	}
	s := rt.NewSession()
	defer s.Close()
	return m.Run(context.Background(), s, code)
}

// eval runs a one-expression check and returns the expression's repr in actual.
func evalExpr(t *testing.T, expr, code string) string {
	t.Helper()
	return evalExprWithin(t, 0, expr, code)
}

// evalExprWithin is evalExpr with a wall-clock limit per call (0: the
// default), for tests of bounded work on large inputs that must not depend
// on the machine's load.
func evalExprWithin(t *testing.T, timeout time.Duration, expr, code string) string {
	t.Helper()
	src := "def run_checks(code):\n    return [CheckDetail(check_name = \"x\", passed = True, actual = repr(" + expr + "))]\n"
	ds, err := run(t, newRuntime(t, Limits{Timeout: timeout}), src, code)
	require.NoError(t, err)
	return *ds[0].Actual
}

func TestCheckRecords(t *testing.T) {
	rt := newRuntime(t, Limits{})
	ds, err := run(t, rt, `
def run_checks(code):
    return [
        CheckDetail(check_name = "a", passed = True, expected = "e", actual = "x", check_type = "exact_match", weight = 2),
        {"check_name": "b", "passed": False},
    ]
`, "int x;")
	require.NoError(t, err)
	require.Equal(t, []result.CheckDetail{
		{CheckName: "a", Passed: true, Expected: result.Ptr("e"), Actual: result.Ptr("x"), CheckType: "exact_match", Weight: 2},
		{CheckName: "b", Passed: false, CheckType: "constraint", Weight: 1},
	}, ds)
}

func TestInconclusiveRecords(t *testing.T) {
	rt := newRuntime(t, Limits{})
	ds, err := run(t, rt, `
def run_checks(code):
    kw = CheckDetail(check_name = "kw", passed = False, actual = "called through a pointer", inconclusive = True)
    return [
        kw,
        {"check_name": "dict", "passed": False, "inconclusive": True},
        CheckDetail(check_name = "decided", passed = False, inconclusive = False),
        {"check_name": "decided_dict", "passed": True, "inconclusive": False},
        CheckDetail(check_name = "seen", passed = kw.passed and kw.inconclusive),
    ]
`, "int x;")
	require.NoError(t, err)
	require.Equal(t, []result.CheckDetail{
		{CheckName: "kw", Passed: true, Actual: result.Ptr("called through a pointer"), CheckType: "constraint", Weight: 1, Inconclusive: true},
		{CheckName: "dict", Passed: true, CheckType: "constraint", Weight: 1, Inconclusive: true},
		{CheckName: "decided", Passed: false, CheckType: "constraint", Weight: 1},
		{CheckName: "decided_dict", Passed: true, CheckType: "constraint", Weight: 1},
		{CheckName: "seen", Passed: true, CheckType: "constraint", Weight: 1},
	}, ds, "passed=False with inconclusive=True is accepted and normalised to passed=True")

	// Only an inconclusive record carries the field, so other records keep
	// the contract's repr.
	require.Equal(t, `CheckDetail(actual = None, check_name = "a", check_type = "constraint", expected = None, passed = True, weight = 1.0)`,
		evalExpr(t, `CheckDetail(check_name = "a", passed = True, inconclusive = False)`, ""))
	require.Equal(t, `CheckDetail(actual = None, check_name = "a", check_type = "constraint", expected = None, inconclusive = True, passed = True, weight = 1.0)`,
		evalExpr(t, `CheckDetail(check_name = "a", passed = False, inconclusive = True)`, ""))

	for _, tt := range []struct{ name, body, want string }{
		{"kwarg not a bool", `return [CheckDetail(check_name = "a", passed = False, inconclusive = 1)]`,
			`t.star:2:24: check "a": inconclusive must be True or False, got int (in CheckDetail) [check-runtime]`},
		{"dict value None", `return [{"check_name": "a", "passed": False, "inconclusive": None}]`,
			`t.star:1:1: run_checks returned a list whose item 0 is wrong: check "a": inconclusive must be True or False, got NoneType [check-shape]`},
		{"dict value string", `return [{"check_name": "a", "passed": True, "inconclusive": "yes"}]`,
			`t.star:1:1: run_checks returned a list whose item 0 is wrong: check "a": inconclusive must be True or False, got string [check-shape]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(t, rt, "def run_checks(code):\n    "+tt.body+"\n", "")
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestRequirementRecords(t *testing.T) {
	rt := newRuntime(t, Limits{})
	ds, err := run(t, rt, `
REQ = "Toggle the LED every 500 ms using k_msleep()."
def run_checks(code):
    kw = CheckDetail(check_name = "kw", passed = True, requirement = REQ)
    return [
        kw,
        {"check_name": "dict", "passed": False, "requirement": "the second\nline"},
        CheckDetail(check_name = "none", passed = True),
        {"check_name": "both", "passed": False, "inconclusive": True, "requirement": ""},
        CheckDetail(check_name = "seen", passed = kw.requirement == REQ),
    ]
`, "int x;")
	require.NoError(t, err)
	require.Equal(t, []result.CheckDetail{
		{CheckName: "kw", Passed: true, CheckType: "constraint", Weight: 1, Requirement: result.Ptr("Toggle the LED every 500 ms using k_msleep().")},
		{CheckName: "dict", Passed: false, CheckType: "constraint", Weight: 1, Requirement: result.Ptr("the second\nline")},
		{CheckName: "none", Passed: true, CheckType: "constraint", Weight: 1},
		{CheckName: "both", Passed: true, CheckType: "constraint", Weight: 1, Inconclusive: true, Requirement: result.Ptr("")},
		{CheckName: "seen", Passed: true, CheckType: "constraint", Weight: 1},
	}, ds, "the keyword and the dict key give the record's requirement; the field reads back")

	// Only a record given a requirement carries the field, so other records
	// keep the contract's repr.
	require.Equal(t, `CheckDetail(actual = None, check_name = "a", check_type = "constraint", expected = None, passed = True, weight = 1.0)`,
		evalExpr(t, `CheckDetail(check_name = "a", passed = True)`, ""))
	require.Equal(t, `CheckDetail(actual = None, check_name = "a", check_type = "constraint", expected = None, passed = True, requirement = "Blink the LED.", weight = 1.0)`,
		evalExpr(t, `CheckDetail(check_name = "a", passed = True, requirement = "Blink the LED.")`, ""))

	for _, tt := range []struct{ name, body, want string }{
		{"kwarg not a string", `return [CheckDetail(check_name = "a", passed = True, requirement = 6)]`,
			`t.star:2:24: check "a": requirement must be a string, got int (in CheckDetail) [check-runtime]`},
		{"kwarg None", `return [CheckDetail(check_name = "a", passed = True, requirement = None)]`,
			`t.star:2:24: check "a": requirement must be a string, got NoneType (in CheckDetail) [check-runtime]`},
		{"dict value list", `return [{"check_name": "a", "passed": True, "requirement": ["Blink", "the", "LED"]}]`,
			`t.star:1:1: run_checks returned a list whose item 0 is wrong: check "a": requirement must be a string, got list [check-shape]`},
		{"dict value bytes", `return [{"check_name": "a", "passed": True, "requirement": b"Blink the LED"}]`,
			`t.star:1:1: run_checks returned a list whose item 0 is wrong: check "a": requirement must be a string, got bytes [check-shape]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(t, rt, "def run_checks(code):\n    "+tt.body+"\n", "")
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestWrongShapes(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"not a list", `return "ok"`, `t.star:1:1: run_checks returned string, want a list of check records [check-shape]`},
		{"item not a record", `return [1]`, `t.star:1:1: run_checks returned a list whose item 0 is a int, want a dict or CheckDetail(...) [check-shape]`},
		{"missing passed", `return [{"check_name": "a"}]`, `t.star:1:1: run_checks returned a list whose item 0 is wrong: check "a": missing passed [check-shape]`},
		{"unknown key", `return [{"check_name": "a", "passed": True, "severity": 1}]`, `t.star:1:1: run_checks returned a list whose item 0 is wrong: unknown field "severity" (allowed: check_name, passed, expected, actual, check_type, weight, inconclusive, requirement) [check-shape]`},
		{"duplicate name", `return [{"check_name": "a", "passed": True}, {"check_name": "a", "passed": True}]`, `t.star:1:1: run_checks returned check_name "a" twice (items 0 and 1); check names must be unique in a case [check-shape]`},
		{"mutation type reserved", `return [{"check_name": "a", "passed": True, "check_type": "mutation"}]`, `t.star:1:1: run_checks returned a list whose item 0 is wrong: check "a": check_type "mutation" is reserved for L4 records [check-shape]`},
		{"negative weight", `return [{"check_name": "a", "passed": True, "weight": -1}]`, `t.star:1:1: run_checks returned a list whose item 0 is wrong: check "a": weight must be a number >= 0, got -1 [check-shape]`},
		{"expected not string", `return [{"check_name": "a", "passed": True, "expected": 3}]`, `t.star:1:1: run_checks returned a list whose item 0 is wrong: check "a": expected must be a string or None, got int [check-shape]`},
		{"raises", `fail("no luck")`, `t.star:2:9: fail: no luck (in fail) [check-runtime]`},
		{"None attribute", `return extract_function_body(code, "nope").strip()`, `t.star:2:47: NoneType has no .strip field or method [check-runtime]`},
	}
	rt := newRuntime(t, Limits{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(t, rt, "def run_checks(code):\n    "+tt.body+"\n", "int main(void) { return 0; }")
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"syntax", "def run_checks(code)\n    return []\n", `t.star:2:1: syntax error: got newline, want ':' [check-load]`},
		{"undefined name", "def run_checks(code):\n    return open(code)\n", `t.star:2:12: undefined: open [check-load]`},
		{"no run_checks", "x = 1\n", `t.star: no run_checks function defined (want: def run_checks(code): ...) [check-load]`},
		{"two params", "def run_checks(code, extra):\n    return []\n", `t.star:1:1: run_checks must take exactly one parameter (the code), it takes 2 [check-load]`},
		{"load forbidden", "load(\"x.star\", \"y\")\ndef run_checks(code):\n    return []\n", `t.star:1:1: cannot load x.star: load() is not available: check files are self-contained and every helper is predeclared [check-load]`},
		{"top-level raise", "fail(\"boom\")\n", `t.star:1:5: fail: boom (in fail) [check-load]`},
	}
	rt := newRuntime(t, Limits{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rt.LoadChecks(context.Background(), "t.star", []byte(tt.src))
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestLimits(t *testing.T) {
	loop := "def run_checks(code):\n    while True:\n        pass\n"
	_, err := run(t, newRuntime(t, Limits{MaxSteps: 10_000}), loop, "")
	require.ErrorContains(t, err, "exceeded the step limit of 10000 [check-runtime]")

	start := time.Now()
	_, err = run(t, newRuntime(t, Limits{MaxSteps: 1 << 62, Timeout: 100 * time.Millisecond}), loop, "")
	require.ErrorContains(t, err, "exceeded the time limit of 100ms [check-runtime]")
	require.Less(t, time.Since(start), 5*time.Second, "the wall-clock limit stops the loop")

	// Top-level code is bounded too.
	_, err = newRuntime(t, Limits{MaxSteps: 10_000}).LoadChecks(context.Background(), "t.star", []byte("while True:\n    pass\n"))
	require.ErrorContains(t, err, "exceeded the step limit of 10000 [check-load]")
}

func TestContextCancellationStopsCheck(t *testing.T) {
	rt := newRuntime(t, Limits{MaxSteps: 1 << 62, Timeout: time.Hour})
	m, err := rt.LoadChecks(context.Background(), "t.star", []byte("def run_checks(code):\n    while True:\n        pass\n"))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	s := rt.NewSession()
	defer s.Close()
	_, err = m.Run(ctx, s, "")
	require.ErrorContains(t, err, "cancelled")
}

func TestParseOncePerCodeString(t *testing.T) {
	rt := newRuntime(t, Limits{})
	m, err := rt.LoadChecks(context.Background(), "t.star", []byte(`
def run_checks(code):
    n = len(c.functions(code)) + len(c.calls(code)) + len(c.includes(code)) + len(c.declarations(code))
    return [CheckDetail(check_name = "n", passed = n > 0)]
`))
	require.NoError(t, err)
	s := rt.NewSession()
	defer s.Close()
	code := "#include <a.h>\nint x;\nint main(void) { f(); return 0; }\n"
	for i := 0; i < 3; i++ {
		ds, err := m.Run(context.Background(), s, code)
		require.NoError(t, err)
		require.True(t, ds[0].Passed)
	}
	require.Equal(t, 1, s.Parses(), "four queries over three runs parse the same code once")
	_, err = m.Run(context.Background(), s, code+"\n")
	require.NoError(t, err)
	require.Equal(t, 2, s.Parses())

	// A check that never asks for the syntax tree never parses.
	m2, err := rt.LoadChecks(context.Background(), "u.star", []byte("def run_checks(code):\n    return [CheckDetail(check_name = \"w\", passed = has_word(code, \"x\"))]\n"))
	require.NoError(t, err)
	s2 := rt.NewSession()
	defer s2.Close()
	_, err = m2.Run(context.Background(), s2, code)
	require.NoError(t, err)
	require.Equal(t, 0, s2.Parses())
}

func TestHelpersThroughStarlark(t *testing.T) {
	code := `#include <zephyr/kernel.h>
/* k_sleep(K_FOREVER) in a comment */
static volatile int counter;
static void my_isr(const void *arg)
{
	counter++;
	k_msleep(1);
}
int main(void)
{
	IRQ_CONNECT(5, 2, my_isr, NULL, 0);
	printk("k_sleep\n");
	return 0;
}
`
	tests := []struct{ expr, want string }{
		{`has_word(code, "k_sleep")`, "False"},
		{`scoped_contains(code, "k_sleep")`, "False"},
		{`scoped_contains(code, "k_sleep", scope = "code_only")`, "True"},
		{`scoped_contains(code, "k_sleep(K_FOREVER)", scope = "raw")`, "True"},
		{`has_api_call(code, "k_msleep")`, "True"},
		{`[f.name for f in find_isr_bodies(code)]`, `["my_isr"]`},
		{`[(v.function, v.api) for v in check_no_isr_forbidden(code)]`, `[("my_isr", "k_msleep")]`},
		{`check_qualifier_on_variable(code, "counter", "volatile")`, "True"},
		{`check_api_in_function(code, "main", "k_msleep")`, "False"},
		{`extract_function_body(code, "nope")`, "None"},
		{`[i.path for i in c.includes(code)]`, `["zephyr/kernel.h"]`},
		{`[(d.name, d.qualifiers) for d in c.declarations(code, within = "<global>")]`, `[("counter", ["volatile"])]`},
		{`[x.name for x in c.calls(code, within = "main")]`, `["IRQ_CONNECT", "printk"]`},
		{`c.function(code, "main").return_type`, `"int"`},
		{`[m["name"][0].text for m in c.query(code, "(function_definition declarator: (function_declarator declarator: (identifier) @name))")]`, `["my_isr", "main"]`},
		{`[h.api for h in check_no_cross_platform_apis("vTaskDelay(10);")]`, `["vTaskDelay"]`},
		{`check_no_cross_platform_apis("vTaskDelay(10);", skip_platforms = ["FreeRTOS"])`, `[]`},
		{`check_no_cross_platform_apis("vTaskDelay(10);", skip_platforms = ("freertos",))`, `[]`},
		{`[(s.function, s.handled) for s in error_handling_sites("int f(void) { g(); return 0; }", "g")]`, `[("f", False)]`},
		{`[(d.pointer_qualifiers, d.attributes) for d in c.declarations("static const struct device *const dev;\nuint8_t buf[4] __aligned(4);", within = "<global>")]`, `[(["const"], []), ([], ["__aligned(4)"])]`},
		{`re.findall(r"(\w+)\(", "a(b(")`, `["a", "b"]`},
		{`re.sub(r"(\d+)", r"<\1>", "x1y22")`, `"x<1>y<22>"`},
		{`re.search(r"(?P<n>\d+)", "ab12").group("n")`, `"12"`},
		{`re.match(r"\d", "a1")`, "None"},
		{`re.fullmatch(r"[a-z]+", "abc") != None`, "True"},
		{`re.split(r",\s*", "a, b,c")`, `["a", "b", "c"]`},
		{`re.findall(r"^x", "x\nx", re.M)`, `["x", "x"]`},
		{`kconfig.parse("CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=0x10\n").enabled("CONFIG_A")`, "True"},
		{`kconfig.parse("CONFIG_B=n\n").enabled("B")`, "False"},
		{`kconfig.parse("CONFIG_C=0x10\n").value("CONFIG_C")`, `"0x10"`},
		{`dts.parse("&i2c0 { s: sensor@76 { reg = <0x76>; status = \"okay\"; }; };").node("s").cells("reg")`, `["0x76"]`},
		{`dts.parse("&i2c0 { sensor@76 { reg = <0x76> }; };").error != None`, "True"},
		{`udev_rule_matches("SUBSYSTEM==\"tty\", ATTRS{idVendor}==\"0403\", SYMLINK+=\"ftdi\"", "ATTRS{idVendor}", "0403")`, "True"},
		{`udev_rule_assigns("SUBSYSTEM==\"tty\", SYMLINK+=\"ftdi\"", "SYMLINK")`, "True"},
		{`[(m.key, m.line) for m in udev_match_key_used_as_assign("SUBSYSTEM=\"tty\", MODE=\"0660\"")]`, `[("SUBSYSTEM", 1)]`},
		{`check_cleanup_reverse_order("void f(void) { a_init(); b_init(); b_exit(); a_exit(); }", [("a_init", "a_exit"), ("b_init", "b_exit")])`, "True"},
		{`check_cleanup_reverse_order("void f(void) { a_init(); b_init(); a_exit(); b_exit(); }", [("a_init", "a_exit"), ("b_init", "b_exit")])`, "False"},
		{`check_return_after_error("int f(void) { int r = g(); if (r < 0) { return r; } return 0; }", "g")`, "True"},
		{`check_return_after_error("int f(void) { g(); return 0; }", "g")`, "False"},
		{`strip_comments("a /* b */ c")`, `"a         c"`},
		{`strip_string_literals("x(\"abc\")")`, `"x(\"   \")"`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			require.Equal(t, tt.want, evalExpr(t, tt.expr, code))
		})
	}
}

func TestHelperMisuseRaises(t *testing.T) {
	rt := newRuntime(t, Limits{})
	for expr, want := range map[string]string{
		`scoped_contains(code, "x", scope = "comments")`:                  `scoped_contains: unknown scope "comments" (want stripped, code_only or raw)`,
		`re.search("(?=x)", code)`:                                        "re.search: bad pattern \"(?=x)\": error parsing regexp: invalid or unsupported Perl syntax: `(?=` (patterns use RE2 syntax: no look-around, no backreferences)",
		`c.query(code, "(nonsense_kind) @x")`:                             "c.query: csyntax: bad query",
		`check_cleanup_reverse_order(code, ["a"])`:                        `check_cleanup_reverse_order: pairs[0] must be an (acquire, release) pair of strings`,
		`has_word(code)`:                                                  `has_word: missing argument for word`,
		`check_no_cross_platform_apis(code, skip_platforms = ["Zephry"])`: `check_no_cross_platform_apis: skip_platforms: unknown platform "Zephry" (known: Arduino, ESP_IDF, FreeRTOS, Linux_Userspace, POSIX, STM32_HAL, Zephyr)`,
		`re.search(r"(?<=k_)\w+", code)`:                                  `(patterns use RE2 syntax: no look-around, no backreferences)`,
		`CheckDetail("", True)`:                                           `check_name must not be empty`,
	} {
		_, err := run(t, rt, "def run_checks(code):\n    return ["+expr+"]\n", "int x;")
		require.Error(t, err, expr)
		require.Contains(t, err.Error(), want, expr)
	}
}

func TestHelpersTotalOnHostileInput(t *testing.T) {
	rt := newRuntime(t, Limits{})
	src := `
def run_checks(code):
    n = len(c.functions(code)) + len(c.calls(code)) + len(find_isr_bodies(code)) + len(check_no_isr_forbidden(code))
    n += len(dts.parse(code).nodes) + len(kconfig.parse(code).assignments) + len(check_no_cross_platform_apis(code))
    ok = has_word(code, "x") or check_return_after_error(code, "f") or check_qualifier_on_variable(code, "v", "volatile")
    return [CheckDetail(check_name = "n", passed = n >= 0)]
`
	for _, code := range []string{"", "\xff\xfe\x00{{{", "int f( { ) }}}}", strings.Repeat("{", 5000), "/* unterminated", "\"unterminated"} {
		ds, err := run(t, rt, src, code)
		require.NoError(t, err, "%q", code)
		require.True(t, ds[0].Passed)
	}
}

func TestNegatives(t *testing.T) {
	rt := newRuntime(t, Limits{})
	src := `
NEGATIVES = [
    {"name": "a", "mutation": lambda code: code.replace("x", "y"), "must_fail": ["c1"], "description": "d", "factor_id": "F1"},
    {"name": "b", "mutation": lambda code: code + "!", "should_fail": ["c2"], "bug_description": "soft"},
]
`
	set, err := rt.LoadNegatives(context.Background(), "n.star", []byte(src))
	require.NoError(t, err)
	require.Len(t, set.Negatives, 2)
	require.Equal(t, []string{"c1"}, set.Negatives[0].MustFail)
	require.Equal(t, 3, int(set.Negatives[0].Pos.Line))
	require.Equal(t, 3, int(set.Negatives[0].LabelPos("c1").Line))
	s := rt.NewSession()
	defer s.Close()
	out, err := set.Negatives[0].Apply(context.Background(), s, "xx")
	require.NoError(t, err)
	require.Equal(t, "yy", out)

	bad := []struct{ name, src, want string }{
		{"not a list", "NEGATIVES = {}\n", `n.star: NEGATIVES is a dict, want a list of dicts [negatives]`},
		{"missing", "X = 1\n", `n.star: no NEGATIVES list defined [negatives]`},
		{"unknown key", "NEGATIVES = [{\"name\": \"a\", \"mutation\": len, \"must_fail\": [\"c\"], \"mustfail\": []}]\n", `n.star:1:14: NEGATIVES[0]: unknown key "mustfail" (allowed: name, mutation, must_fail, should_fail, description, bug_description, factor_id) [negatives]`},
		{"no labels", "NEGATIVES = [{\"name\": \"a\", \"mutation\": len}]\n", `n.star:1:14: NEGATIVES[0]: negative "a" needs must_fail or should_fail (a non-empty list of check names) [negatives]`},
		{"string labels", "NEGATIVES = [{\"name\": \"a\", \"mutation\": len, \"must_fail\": \"c\"}]\n", `n.star:1:14: NEGATIVES[0]: must_fail must be a list of check names, got a single string [negatives]`},
		{"mutation not callable", "NEGATIVES = [{\"name\": \"a\", \"mutation\": \"x\", \"must_fail\": [\"c\"]}]\n", `n.star:1:14: NEGATIVES[0]: mutation must be a function from code to code, got string [negatives]`},
		{"duplicate", "NEGATIVES = [{\"name\": \"a\", \"mutation\": len, \"must_fail\": [\"c\"]}, {\"name\": \"a\", \"mutation\": len, \"must_fail\": [\"c\"]}]\n", `n.star:1:66: NEGATIVES[1]: duplicate negative name "a" [negatives]`},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rt.LoadNegatives(context.Background(), "n.star", []byte(tt.src))
			require.EqualError(t, err, tt.want)
		})
	}

	// A mutation returning a non-string is reported with the negative's name.
	set, err = rt.LoadNegatives(context.Background(), "n.star", []byte("NEGATIVES = [{\"name\": \"a\", \"mutation\": len, \"must_fail\": [\"c\"]}]\n"))
	require.NoError(t, err)
	_, err = set.Negatives[0].Apply(context.Background(), s, "abc")
	require.EqualError(t, err, `n.star:1:14: negative "a": mutation returned int, want a string [negatives]`)
}

func TestAuditScope(t *testing.T) {
	src := `
def helper(code, x):
    return x in code

def other(text):
    return "y" in text

def run_checks(code):
    a = "#include" in code
    b = "z" not in code
    n = code.count("k_")
    ok = scoped_contains(code, "x")
    names = ["a", "b"]
    m = "a" in names
    s = strip_comments(code)
    t = "q" in s
    f = lambda code: "w" in code
    return []
`
	var got []string
	for _, p := range AuditScope("a.star", []byte(src)) {
		got = append(got, p.String())
	}
	require.Equal(t, []string{
		`a.star:3:12: raw substring test "in" on the code argument; use scoped_contains(code, needle, scope="stripped"|"code_only"|"raw") [scope-audit]`,
		`a.star:9:9: raw substring test "in" on the code argument; use scoped_contains(code, needle, scope="stripped"|"code_only"|"raw") [scope-audit]`,
		`a.star:10:9: raw substring test "not in" on the code argument; use scoped_contains(code, needle, scope="stripped"|"code_only"|"raw") [scope-audit]`,
		`a.star:11:9: raw substring search code.count() on the code argument; use scoped_contains or the c module [scope-audit]`,
		`a.star:17:22: raw substring test "in" on the code argument; use scoped_contains(code, needle, scope="stripped"|"code_only"|"raw") [scope-audit]`,
	}, got)
}

// TestCheckShortForm holds check(...) to CheckDetail(...): the same record,
// the requirement second, the same validation.
func TestCheckShortForm(t *testing.T) {
	long := `CheckDetail(check_name = "n", requirement = "The LED blinks every 500 ms.", passed = False, expected = "500 ms", actual = "250 ms", check_type = "behavioral")`
	short := `check("n", "The LED blinks every 500 ms.", False, "500 ms", "250 ms", check_type = "behavioral")`
	require.Equal(t, evalExpr(t, long, ""), evalExpr(t, short, ""))
	require.Equal(t, evalExpr(t, `CheckDetail(check_name = "n", requirement = "r", passed = True, inconclusive = True)`, ""),
		evalExpr(t, `check("n", "r", True, inconclusive = True)`, ""))
	for expr, msg := range map[string]string{
		`check("n", True)`:                      "missing argument for passed",
		`check("n", "r", 1)`:                    "passed",
		`check("n", "r", True, weight = -1)`:    "weight",
		`check("n", "r", True, check_type = 3)`: "check_type",
	} {
		src := "def run_checks(code):\n    return [" + expr + "]\n"
		_, err := run(t, newRuntime(t, Limits{}), src, "")
		require.Error(t, err, expr)
		require.Contains(t, err.Error(), msg, expr)
	}
}
