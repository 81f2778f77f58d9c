package eval

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/result"
)

const staticSrc = `
def run_checks(code):
    ok = scoped_contains(code, "#include <zephyr/kernel.h>", scope = "code_only")
    return [CheckDetail(check_name = "kernel_header", passed = ok)]
`

const behaviorSrc = `
def run_checks(code):
    return [CheckDetail(check_name = "timer_started", passed = has_api_call(code, "k_timer_start"))]
`

const negativesSrc = `
NEGATIVES = [
    {"name": "never_started", "mutation": lambda code: code.replace("k_timer_start(&t, K_MSEC(1), K_MSEC(1));", ""), "must_fail": ["timer_started"]},
    {"name": "no_header", "mutation": lambda code: code.replace("#include <zephyr/kernel.h>\n", ""), "must_fail": ["kernel_header"]},
    {"name": "cosmetic", "mutation": lambda code: code.replace("K_MSEC(1)", "K_USEC(1000)"), "must_fail": ["timer_started"]},
]
`

const goodCode = "#include <zephyr/kernel.h>\nK_TIMER_DEFINE(t, NULL, NULL);\nint main(void)\n{\n\tk_timer_start(&t, K_MSEC(1), K_MSEC(1));\n\treturn 0;\n}\n"

func fixture(t *testing.T, meta cases.Metadata) (*checks.Runtime, *CaseChecks) {
	t.Helper()
	rt, err := checks.NewRuntime(checks.Limits{}, nil)
	require.NoError(t, err)
	ctx := context.Background()
	st, err := rt.LoadChecks(ctx, "static.star", []byte(staticSrc))
	require.NoError(t, err)
	bh, err := rt.LoadChecks(ctx, "behavior.star", []byte(behaviorSrc))
	require.NoError(t, err)
	ng, err := rt.LoadNegatives(ctx, "negatives.star", []byte(negativesSrc))
	require.NoError(t, err)
	if meta.ID == "" {
		meta = cases.Metadata{ID: "timer-001", Platform: "native_sim"}
	}
	return rt, &CaseChecks{Case: &cases.Case{Meta: meta}, Static: st, Behavior: bh, Negatives: ng}
}

func evaluate(t *testing.T, e *Evaluator, cc *CaseChecks, rt *checks.Runtime, code string) result.EvalResult {
	t.Helper()
	s := rt.NewSession()
	defer s.Close()
	return e.Evaluate(context.Background(), s, cc, code, Subject{Model: "m", Attempt: 1})
}

type statusLine []string

func statuses(r result.EvalResult) statusLine {
	var out statusLine
	for _, l := range r.Layers {
		s := fmt.Sprintf("L%d %s", l.Layer, l.Status)
		if l.Reason != "" {
			s += ": " + l.Reason
		}
		out = append(out, s)
	}
	return out
}

func TestPassingCode(t *testing.T) {
	rt, cc := fixture(t, cases.Metadata{})
	r := evaluate(t, New(nil, AllLayers), cc, rt, goodCode)
	require.Equal(t, statusLine{
		"L0 passed",
		"L1 skipped: toolchain unavailable: no compile backend for platform native_sim in this build",
		"L2 skipped: needs L1, which was skipped: toolchain unavailable: no compile backend for platform native_sim in this build",
		"L3 passed",
		"L4 failed: 1 seeded bug(s) not caught by the checks they name",
	}, statuses(r))
	require.True(t, r.Passed, "L4 never changes the verdict")
	require.Equal(t, result.StatusPassed, r.Status)
	require.Nil(t, r.FailedAtLayer)
	l4, _ := r.Layer(result.LayerMutation)
	require.Equal(t, []result.MutationOutcome{result.MutationApplied, result.MutationApplied, result.MutationApplied}, []result.MutationOutcome{l4.Mutations[0].Outcome, l4.Mutations[1].Outcome, l4.Mutations[2].Outcome})
	require.Equal(t, "never_started/timer_started", l4.Details[0].CheckName)
	require.Equal(t, result.CheckTypeMutation, l4.Details[0].CheckType)
	// The cosmetic mutation does not remove the call, so the check it names is not
	// caught; the pair is recorded as a miss.
	require.Equal(t, "cosmetic/timer_started", l4.Details[2].CheckName)
	require.False(t, l4.Details[2].Passed)
	require.Equal(t, "passed", *l4.Details[2].Actual)
}

func TestHaltingRule(t *testing.T) {
	rt, cc := fixture(t, cases.Metadata{})
	code := strings.Replace(goodCode, "#include <zephyr/kernel.h>\n", "", 1)
	r := evaluate(t, New(nil, AllLayers), cc, rt, code)
	require.Equal(t, statusLine{
		"L0 failed",
		"L1 skipped: halted: L0 static failed",
		"L2 skipped: halted: L0 static failed",
		"L3 skipped: halted: L0 static failed",
		"L4 skipped: halted: L0 static failed",
	}, statuses(r))
	require.False(t, r.Passed)
	require.Equal(t, 0, *r.FailedAtLayer)
	require.Equal(t, result.StatusFailed, r.Status)
}

func TestL4NeverChangesVerdictAndSkipsUnchangedMutations(t *testing.T) {
	rt, cc := fixture(t, cases.Metadata{})
	// Model code that the negatives' literal replacements do not touch.
	code := "#include <zephyr/kernel.h>\nstatic struct k_timer tm;\nint main(void) { k_timer_start(&tm, K_SECONDS(1), K_NO_WAIT); return 0; }\n"
	r := evaluate(t, New(nil, AllLayers), cc, rt, code)
	l4, _ := r.Layer(result.LayerMutation)
	require.Equal(t, result.StatusPassed, l4.Status, "the header mutation applies and is caught")
	require.Equal(t, result.MutationUnchanged, l4.Mutations[0].Outcome)
	require.Equal(t, result.MutationApplied, l4.Mutations[1].Outcome)
	require.Equal(t, result.MutationUnchanged, l4.Mutations[2].Outcome)
	require.True(t, r.Passed)

	rt2, cc2 := fixture(t, cases.Metadata{})
	r = evaluate(t, New(nil, AllLayers), cc2, rt2, goodCode)
	l4, _ = r.Layer(result.LayerMutation)
	require.Equal(t, result.StatusFailed, l4.Status, "the cosmetic negative is not caught")
	require.True(t, r.Passed, "L4 failing does not change the verdict")
}

func TestOptOutsAndSelection(t *testing.T) {
	rt, cc := fixture(t, cases.Metadata{ID: "timer-001", Platform: "esp_idf", L1Skip: true, L2Skip: true})
	set, err := ParseLayers("L0,L1,L3")
	require.NoError(t, err)
	r := evaluate(t, New(nil, set), cc, rt, goodCode)
	require.Equal(t, statusLine{
		"L0 passed",
		"L1 skipped: case opts out (l1_skip: true)",
		"L2 skipped: not selected (--layers)",
		"L3 passed",
		"L4 skipped: not selected (--layers)",
	}, statuses(r))
}

func TestCheckErrorIsNotAModelFailure(t *testing.T) {
	rt, cc := fixture(t, cases.Metadata{})
	var err error
	cc.Behavior, err = rt.LoadChecks(context.Background(), "behavior.star", []byte("def run_checks(code):\n    return [CheckDetail(check_name = \"x\", passed = extract_function_body(code, \"nope\").startswith(\"a\"))]\n"))
	require.NoError(t, err)
	r := evaluate(t, New(nil, AllLayers), cc, rt, goodCode)
	require.Equal(t, result.StatusError, r.Status)
	require.False(t, r.Passed)
	require.Nil(t, r.FailedAtLayer, "an error is not a failure at a layer")
	l3, _ := r.Layer(result.LayerHeuristic)
	require.Equal(t, `behavior.star:2:87: NoneType has no .startswith field or method [check-runtime]`, *l3.Error)
	l4, _ := r.Layer(result.LayerMutation)
	require.Equal(t, "halted: L3 heuristic could not run", l4.Reason)
}

func TestDuplicateCheckNamesAcrossFiles(t *testing.T) {
	rt, cc := fixture(t, cases.Metadata{})
	var err error
	cc.Behavior, err = rt.LoadChecks(context.Background(), "behavior.star", []byte(staticSrc))
	require.NoError(t, err)
	r := evaluate(t, New(nil, AllLayers), cc, rt, goodCode)
	l3, _ := r.Layer(result.LayerHeuristic)
	require.Equal(t, result.StatusError, l3.Status)
	require.Equal(t, `behavior.star: check_name "kernel_header" is also returned by static.star; check names must be unique in a case [check-shape]`, *l3.Error)
}

// TestSharedCheckNamesInFlatLayout: a flat-layout case may report a name
// from both check files, as the Python implementation allows. Each layer
// keeps its record, and on a mutant the name catches the bug only when
// every report of it fails (that implementation's L4 rule).
func TestSharedCheckNamesInFlatLayout(t *testing.T) {
	rt, cc := fixture(t, cases.Metadata{})
	cc.Case.Layout = cases.LayoutFlat
	cc.Case.Notes = []string{"sdk from platform"}
	ctx := context.Background()
	var err error
	// L0 looks for the call; L3, under the same name, for K_MSEC periods.
	cc.Static, err = rt.LoadChecks(ctx, "static.star", []byte(`
def run_checks(code):
    return [CheckDetail(check_name = "timer_started", passed = has_api_call(code, "k_timer_start"))]
`))
	require.NoError(t, err)
	cc.Behavior, err = rt.LoadChecks(ctx, "behavior.star", []byte(`
def run_checks(code):
    return [CheckDetail(check_name = "timer_started", passed = "K_MSEC" in code)]
`))
	require.NoError(t, err)
	cc.Negatives, err = rt.LoadNegatives(ctx, "negatives.star", []byte(`
NEGATIVES = [
    {"name": "never_started", "mutation": lambda code: code.replace("k_timer_start(&t, K_MSEC(1), K_MSEC(1));", ""), "must_fail": ["timer_started"]},
    {"name": "renamed_call", "mutation": lambda code: code.replace("k_timer_start(", "k_timer_begin("), "must_fail": ["timer_started"]},
    {"name": "usec_periods", "mutation": lambda code: code.replace("K_MSEC(1)", "K_USEC(1000)"), "must_fail": ["timer_started"]},
]
`))
	require.NoError(t, err)
	r := evaluate(t, New(nil, AllLayers), cc, rt, goodCode)
	require.Equal(t, result.StatusPassed, r.Status)
	require.Equal(t, []string{"sdk from platform"}, r.Notes)
	for _, n := range []int{result.LayerStatic, result.LayerHeuristic} {
		l, _ := r.Layer(n)
		require.Len(t, l.Details, 1, "L%d", n)
		require.Equal(t, "timer_started", l.Details[0].CheckName)
	}
	l4, _ := r.Layer(result.LayerMutation)
	require.Equal(t, result.StatusFailed, l4.Status)
	require.Len(t, l4.Mutations, 3)
	require.True(t, l4.Mutations[0].MustFail[0].Caught, "both reports fail: caught")
	require.False(t, l4.Mutations[1].MustFail[0].Caught, "only the L0 report fails; both files ran, and the L3 one still passes")
	require.False(t, l4.Mutations[2].MustFail[0].Caught, "only the L3 report fails")

	// The same files in this project's layout are refused.
	cc.Case.Layout = cases.LayoutSDK
	r = evaluate(t, New(nil, AllLayers), cc, rt, goodCode)
	require.Equal(t, result.StatusError, r.Status)
}

func TestHugeCode(t *testing.T) {
	rt, cc := fixture(t, cases.Metadata{})
	code := goodCode + strings.Repeat("/* padding */\n", 10<<20/14)
	r := evaluate(t, New(nil, AllLayers), cc, rt, code)
	l0, _ := r.Layer(result.LayerStatic)
	require.Equal(t, result.StatusFailed, l0.Status)
	require.Equal(t, fmt.Sprintf("generated code is %d bytes; the limit is 1048576 bytes", len(code)), l0.Reason)
	require.Equal(t, result.StatusFailed, r.Status)
}

func TestInvalidUTF8(t *testing.T) {
	rt, cc := fixture(t, cases.Metadata{})
	code := strings.Replace(goodCode, "int main", "/* \xff\xfe\xfd */ int main", 1)
	r := evaluate(t, New(nil, AllLayers), cc, rt, code)
	require.Equal(t, []string{"generated code held 3 invalid UTF-8 byte(s); each run was replaced by U+FFFD"}, r.Notes)
	require.NotContains(t, r.GeneratedCode, "\xff")
	require.True(t, r.Passed, "the checks still run on the repaired text")
}

func TestParseLayers(t *testing.T) {
	for in, want := range map[string]string{"all": "L0,L1,L2,L3,L4", "": "L0,L1,L2,L3,L4", "L0,L3": "L0,L3", "0, 4": "L0,L4", "static,heuristic": "L0,L3", "static_analysis,test_quality_proof": "L0,L4"} {
		set, err := ParseLayers(in)
		require.NoError(t, err)
		require.Equal(t, want, set.String(), in)
	}
	_, err := ParseLayers("L5")
	require.EqualError(t, err, `unknown layer "L5" (want L0..L4, 0..4, static, compile, runtime, heuristic, mutation, or static_analysis, compile_gate, runtime_execution, static_heuristic, test_quality_proof)`)
}

// fakeToolchain scripts L1 and L2 outcomes and records what was built.
type fakeToolchain struct {
	build, run result.Status
	built      []string
	closed     int
}

type fakeArtifact struct{ tc *fakeToolchain }

func (f *fakeToolchain) Build(_ context.Context, c *cases.Case, code string) (result.LayerResult, Artifact) {
	f.built = append(f.built, c.Meta.ID)
	if f.build != result.StatusPassed {
		return result.LayerResult{Status: f.build, Reason: "scripted"}, nil
	}
	return result.LayerResult{Status: result.StatusPassed}, fakeArtifact{f}
}

func (a fakeArtifact) Run(context.Context) result.LayerResult {
	return result.LayerResult{Status: a.tc.run, Reason: "scripted run"}
}

func (a fakeArtifact) Close() error { a.tc.closed++; return nil }

func TestToolchainLayers(t *testing.T) {
	rt, cc := fixture(t, cases.Metadata{})
	tc := &fakeToolchain{build: result.StatusPassed, run: result.StatusPassed}
	r := evaluate(t, New(tc, AllLayers), cc, rt, goodCode)
	require.Equal(t, statusLine{"L0 passed", "L1 passed", "L2 passed: scripted run", "L3 passed", "L4 failed: 1 seeded bug(s) not caught by the checks they name"}, statuses(r))
	require.Equal(t, 1, tc.closed, "the build is removed after L2")

	tc = &fakeToolchain{build: result.StatusPassed, run: result.StatusFailed}
	r = evaluate(t, New(tc, AllLayers), cc, rt, goodCode)
	require.Equal(t, 2, *r.FailedAtLayer)
	require.Equal(t, "halted: L2 runtime failed", r.Layers[3].Reason)
	require.Equal(t, 1, tc.closed)

	tc = &fakeToolchain{build: result.StatusFailed}
	r = evaluate(t, New(tc, AllLayers), cc, rt, goodCode)
	require.Equal(t, 1, *r.FailedAtLayer)
	require.Equal(t, "halted: L1 compile failed", r.Layers[2].Reason)

	tc = &fakeToolchain{build: result.StatusError}
	r = evaluate(t, New(tc, AllLayers), cc, rt, goodCode)
	require.Equal(t, result.StatusError, r.Status, "a crashed toolchain is not a model failure")
	require.Nil(t, r.FailedAtLayer)

	// A failing L0 never reaches the toolchain.
	tc = &fakeToolchain{build: result.StatusPassed, run: result.StatusPassed}
	evaluate(t, New(tc, AllLayers), cc, rt, "int main(void) { return 0; }")
	require.Empty(t, tc.built)

	// l2_skip: built, not run, and still cleaned up.
	rt2, cc2 := fixture(t, cases.Metadata{ID: "timer-001", Platform: "native_sim", L2Skip: true})
	tc = &fakeToolchain{build: result.StatusPassed, run: result.StatusFailed}
	r = evaluate(t, New(tc, AllLayers), cc2, rt2, goodCode)
	require.Equal(t, "L2 skipped: case opts out (l2_skip: true)", statuses(r)[2])
	require.True(t, r.Passed)
	require.Equal(t, 1, tc.closed)
}

// inconclusiveBehavior cannot decide on a call through a function pointer
// (sleep_called) or on a period it cannot evaluate (period_known).
const inconclusiveBehavior = `
def run_checks(code):
    calls = c.calls(code)
    direct = [x for x in calls if x.name == "k_timer_start"]
    pointer = [x for x in calls if x.name.startswith("(*")]
    periods = [c.eval_int(code, x.args[1]) for x in direct if len(x.args) > 1]
    return [
        CheckDetail(check_name = "timer_started", passed = len(direct) > 0, inconclusive = not direct and len(pointer) > 0),
        {"check_name": "period_known", "passed": False, "inconclusive": None in periods or not periods},
    ]
`

func TestInconclusiveIsNeverAFailure(t *testing.T) {
	rt, cc := fixture(t, cases.Metadata{})
	var err error
	cc.Behavior, err = rt.LoadChecks(context.Background(), "behavior.star", []byte(inconclusiveBehavior))
	require.NoError(t, err)
	cc.Negatives, err = rt.LoadNegatives(context.Background(), "negatives.star", []byte(`
NEGATIVES = [
    {"name": "via_pointer", "mutation": lambda code: code.replace("k_timer_start(", "(*start_fn)("), "must_fail": ["timer_started"], "should_fail": ["period_known"]},
    {"name": "never_started", "mutation": lambda code: code.replace("k_timer_start(&t, K_MSEC(1), K_MSEC(1));", ""), "must_fail": ["timer_started"]},
]
`))
	require.NoError(t, err)

	// K_MSEC(1) is not evaluated, so period_known is undecided on good code.
	r := evaluate(t, New(nil, AllLayers), cc, rt, goodCode)
	require.Equal(t, "L3 passed: 1 check inconclusive", statuses(r)[3])
	require.True(t, r.Passed)
	l3, _ := r.Layer(result.LayerHeuristic)
	require.Equal(t, result.CheckDetail{CheckName: "period_known", Passed: true, CheckType: "constraint", Weight: 1, Inconclusive: true}, l3.Details[1])

	// Only an inconclusive check left: the layer passes and says so.
	r = evaluate(t, New(nil, AllLayers), cc, rt, strings.Replace(goodCode, "k_timer_start(", "(*start_fn)(", 1))
	require.Equal(t, "L3 passed: 2 checks inconclusive", statuses(r)[3])
	require.True(t, r.Passed)

	// A decided failure still fails, inconclusive checks beside it or not.
	r = evaluate(t, New(nil, AllLayers), cc, rt, strings.Replace(goodCode, "k_timer_start(&t, K_MSEC(1), K_MSEC(1));", "", 1))
	require.Equal(t, "L3 failed: 1 check inconclusive", statuses(r)[3])
	require.Equal(t, result.LayerHeuristic, *r.FailedAtLayer)

	// L4 on good code: the mutant that only makes timer_started inconclusive
	// is not caught; the one that removes the call is.
	r = evaluate(t, New(nil, AllLayers), cc, rt, goodCode)
	l4, _ := r.Layer(result.LayerMutation)
	require.Equal(t, "L4 failed: 1 seeded bug(s) not caught by the checks they name (1 inconclusive on the mutant)", statuses(r)[4])
	require.Equal(t, []result.CheckVerdict{{CheckName: "timer_started", Inconclusive: true}}, l4.Mutations[0].MustFail)
	require.Equal(t, []result.CheckVerdict{{CheckName: "period_known", Inconclusive: true}}, l4.Mutations[0].ShouldFail)
	require.Equal(t, []result.CheckVerdict{{CheckName: "timer_started", Caught: true}}, l4.Mutations[1].MustFail)
	require.Equal(t, result.CheckDetail{CheckName: "via_pointer/timer_started", Passed: false,
		Expected: result.Ptr("check fails on the mutant"), Actual: result.Ptr("inconclusive on the mutant"),
		CheckType: result.CheckTypeMutation, Weight: 1}, l4.Details[0])
}

func TestVerdictsIgnorePassedOfInconclusiveRecords(t *testing.T) {
	// A record read from elsewhere may keep passed=false with inconclusive:
	// it is still no catch.
	neg := &checks.Negative{Name: "n", MustFail: []string{"a", "b", "c"}}
	mr := verdicts(neg, []result.CheckDetail{
		{CheckName: "a", Passed: false, Inconclusive: true},
		{CheckName: "b", Passed: false},
	})
	require.Equal(t, []result.CheckVerdict{
		{CheckName: "a", Inconclusive: true},
		{CheckName: "b", Caught: true},
		{CheckName: "c", Missing: true},
	}, mr.MustFail)
}
