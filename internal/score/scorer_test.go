package score

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
)

func testLookup() Lookup {
	return LookupFrom([]cases.Metadata{
		{ID: "gpio-basic-001", Category: "gpio-basic", Difficulty: "easy", Tier: "core", ReasoningTypes: []string{"api_recall"}},
		{ID: "dma-001", Category: "dma", Difficulty: "hard", Tier: "challenge", ReasoningTypes: []string{"api_recall", "cross_domain"}},
		{ID: "uart-001", Category: "uart", Difficulty: "easy", Tier: "sanity"},
		{ID: "timer-001", Category: "timer", Difficulty: "medium"},
	})
}

// res builds a result; failAt < 0 means passed, failAt 99 means error.
func res(model, caseID string, attempt, failAt int, checks ...result.CheckDetail) result.EvalResult {
	r := result.EvalResult{CaseID: caseID, Model: model, Attempt: attempt}
	for n := 0; n <= result.LayerMutation; n++ {
		l := result.LayerResult{Layer: n, Name: result.LayerName(n), Status: result.StatusPassed}
		switch {
		case failAt == 99 && n == 1:
			l.Status = result.StatusError
		case failAt == 99 && n > 1:
			l.Status = result.StatusSkipped
		case failAt >= 0 && failAt != 99 && n == failAt:
			l.Status = result.StatusFailed
		case failAt >= 0 && failAt != 99 && n > failAt:
			l.Status = result.StatusSkipped
		case n == 2:
			l.Status = result.StatusSkipped
			l.Reason = "case opts out (l2_skip: true)"
		}
		if n == 0 {
			l.Details = checks
		}
		if n == result.LayerMutation && l.Status == result.StatusPassed {
			l.Details = []result.CheckDetail{{CheckName: "neg/x", Passed: true, CheckType: result.CheckTypeMutation}}
		}
		l.Passed = l.Status == result.StatusPassed
		r.Layers = append(r.Layers, l)
	}
	switch {
	case failAt == 99:
		r.Status = result.StatusError
		r.InfraError = "toolchain crashed"
	case failAt >= 0:
		r.Status = result.StatusFailed
		f := failAt
		r.FailedAtLayer = &f
	default:
		r.Status, r.Passed = result.StatusPassed, true
	}
	return r
}

func chk(name string, passed bool) result.CheckDetail {
	return result.CheckDetail{CheckName: name, Passed: passed, CheckType: "constraint", Weight: 1}
}

func scoreAll(t *testing.T, rs []result.EvalResult) *Report {
	t.Helper()
	s := New(testLookup())
	for i := range rs {
		require.NoError(t, s.Add(&rs[i]))
	}
	return s.Finish()
}

func sampleResults() []result.EvalResult {
	return []result.EvalResult{
		// model a: gpio 2/3, dma 0/2 + 1 error, uart (sanity) 1/1, timer 1/1.
		res("a", "gpio-basic-001", 0, -1, chk("has_include", true)),
		res("a", "gpio-basic-001", 1, -1, chk("has_include", true)),
		res("a", "gpio-basic-001", 2, 0, chk("has_include", false)),
		res("a", "dma-001", 0, 3, chk("has_include", true), chk("barrier", true)),
		res("a", "dma-001", 1, 0, chk("has_include", true), chk("barrier", false)),
		res("a", "dma-001", 2, 99),
		res("a", "uart-001", 0, -1),
		res("a", "timer-001", 0, -1),
		// model b: gpio 1/1, dma never judged (error only).
		res("b", "gpio-basic-001", 0, -1, chk("has_include", true)),
		res("b", "dma-001", 0, 99),
		// unknown case and a duplicate.
		res("b", "removed-001", 0, -1),
		res("a", "gpio-basic-001", 1, 0, chk("has_include", false)),
	}
}

func TestScorerNumbers(t *testing.T) {
	rep := scoreAll(t, sampleResults())
	require.Len(t, rep.Models, 2)
	a, b := rep.Models[0], rep.Models[1]
	require.Equal(t, "a", a.Model)

	// Overall for a: gpio 2/3, dma 0/2, timer 1/1 (uart is sanity).
	require.Equal(t, 3, a.TotalCases)
	require.InDelta(t, (2.0/3+0+1)/3, a.PassAt1, 1e-12)
	require.InDelta(t, (1+0+1)/3.0, a.PassAt3, 1e-12)
	require.Equal(t, 6, a.JudgedSamples)
	require.Equal(t, 3, a.PassedSamples)
	require.Equal(t, 1, a.PassedCases)
	lo, hi := Wilson(a.PassAt1, 6, Z95)
	require.Equal(t, [2]float64{lo, hi}, a.PassAt1CI)
	require.Equal(t, Stability{Always: 0, Flaky: 1, Never: 1, Single: 1}, a.Stability)

	// Errors are counted apart and never judged.
	require.Equal(t, ErrorCounts{Results: 1, Infrastructure: 1}, a.Errors)
	require.Equal(t, ErrorCounts{Results: 1, Infrastructure: 1, UnjudgedCases: 1}, b.Errors)

	// Tiers: sanity reported, not scored.
	require.Equal(t, []string{"sanity", "core", "challenge"}, tierNames(a.TierScores))
	require.False(t, a.TierScores[0].Scored)
	require.Equal(t, 1, a.TierScores[0].TotalCases)

	// Reasoning: dma counts in two types; uart (sanity) in none.
	require.Len(t, a.ReasoningScores, 2)
	require.Equal(t, "api_recall", a.ReasoningScores[0].ReasoningType)
	require.Equal(t, 2, a.ReasoningScores[0].TotalCases)

	// Layers over scored judged results (uart excluded): 6 results.
	l0 := a.LayerStats[0]
	require.Equal(t, LayerStat{Layer: 0, Name: "static_analysis", Ran: 6, Passed: 4, Failed: 2, PassRate: 4.0 / 6}, l0)
	l2 := a.LayerStats[2]
	require.Equal(t, 0, l2.Ran, "a skipped layer never counts as run")
	require.Equal(t, 6, l2.Skipped, "skipped after a failure or opted out")
	_, has := a.LayerPassRates["runtime_execution"]
	require.False(t, has, "no rate for a layer that never ran")
	require.Equal(t, map[string]float64{"static_analysis": 4.0 / 6, "compile_gate": 1, "static_heuristic": 3.0 / 4, "test_quality_proof": 1},
		a.LayerPassRates, "keyed by the seed's layer names")
	require.Equal(t, []FailureCount{{0, "static_analysis", 2}, {3, "static_heuristic", 1}}, a.FailureDistribution)

	// The seed's quality figures: a task counts once any judged sample
	// passes L0 and L3 (gpio: two of three; dma: L3 failed, then L0 failed;
	// timer passed), over the scored tasks; avg_score is pass@1.
	require.Equal(t, 2, a.PassedCasesQuality)
	require.InDelta(t, 2.0/3, a.PassAt1Quality, 1e-12)
	require.Equal(t, a.PassAt1, a.AvgScore)
	require.Equal(t, 1, b.PassedCasesQuality)
	require.Equal(t, 1.0, b.PassAt1Quality)
	require.Equal(t, 5, rep.PassedResults, "judged passes of known cases, every tier, duplicates once")

	// Per-check stats exclude mutation checks and sort failing ids.
	require.Equal(t, []PerCheckStat{
		{CheckName: "barrier", Category: "dma", TotalRuns: 2, FailCount: 1, PassRate: 0.5, FailingTCIDs: []string{"dma-001"}},
		{CheckName: "has_include", Category: "dma", TotalRuns: 2, FailCount: 0, PassRate: 1, FailingTCIDs: []string{}},
		{CheckName: "has_include", Category: "gpio-basic", TotalRuns: 3, FailCount: 1, PassRate: 2.0 / 3, FailingTCIDs: []string{"gpio-basic-001"}},
	}, a.PerCheckStats)
	require.Equal(t, PerCheckRow{CaseID: "dma-001", Category: "dma", CheckName: "barrier", Model: "a", Samples: 2, Passed: 1, PassRate: 0.5}, rep.PerCheckRows[0])
	for i := 1; i < len(rep.PerCheckRows); i++ {
		require.LessOrEqual(t, rep.PerCheckRows[i-1].PassRate, rep.PerCheckRows[i].PassRate)
	}

	// Different case sets: comparable scores and a warning.
	require.NotNil(t, rep.Overall.CommonCases)
	require.Equal(t, 1, *rep.Overall.CommonCases)
	require.NotNil(t, a.PassAt1Comparable)
	require.InDelta(t, 2.0/3, *a.PassAt1Comparable, 1e-12)
	require.Equal(t, 1.0, *b.PassAt1Comparable)
	require.Equal(t, "b", rep.Overall.BestModel)

	require.Equal(t, RunCounts{Results: 12, Judged: 8, Errors: ErrorCounts{Results: 2, Infrastructure: 2, UnjudgedCases: 1}, UnknownCaseResults: 1, DuplicateResults: 1}, rep.Counts)
	require.Equal(t, []string{
		"warning: 1 results for 1 cases that are not in the case metadata (removed or renamed?) were excluded from every score: removed-001",
		"warning: 1 duplicate results (same model, case, scenario, mutation and attempt) were ignored, keeping the first occurrence of each: a gpio-basic-001 attempt 1",
		"warning: models were scored on different case sets (a 3, b 1); only 1 cases are common to all 2 models. pass_at_1 values are not directly comparable; pass_at_1_comparable scores every model on the common cases only",
	}, rep.Warnings)
}

// TestQualityPass: only a failed L0 or a failed L3 fails on quality; an L3
// skipped after an L1 or L2 failure, a skipped or absent layer and L1, L2,
// L4 failures do not (the seed's _count_quality_passes).
func TestQualityPass(t *testing.T) {
	for _, tc := range []struct {
		failAt int
		want   bool
	}{{-1, true}, {0, false}, {1, true}, {2, true}, {3, false}} {
		r := res("a", "gpio-basic-001", 0, tc.failAt)
		require.Equal(t, tc.want, QualityPass(&r), "failed at %d", tc.failAt)
	}
	r := res("a", "gpio-basic-001", 0, -1)
	r.Layers[result.LayerMutation].Status = result.StatusFailed
	require.True(t, QualityPass(&r), "L4 grades the checks, not the code")
	r.Layers = r.Layers[:1]
	require.True(t, QualityPass(&r), "an absent L3 does not fail")
}

func tierNames(ts []TierScore) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Tier)
	}
	return out
}

func TestScorerOrderIndependent(t *testing.T) {
	rs := sampleResults()
	rs = rs[:len(rs)-1] // without the duplicate, whose survivor depends on order
	want := scoreAll(t, rs)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
		require.Equal(t, want, scoreAll(t, rs))
	}
}

func TestScorerSameCaseSetsNoWarning(t *testing.T) {
	rep := scoreAll(t, []result.EvalResult{
		res("a", "gpio-basic-001", 0, -1), res("b", "gpio-basic-001", 0, 0),
	})
	require.Empty(t, rep.Warnings)
	require.Nil(t, rep.Overall.CaseSetWarning)
	require.Nil(t, rep.Models[0].PassAt1Comparable)
	require.Equal(t, 1, *rep.Overall.CommonCases)
	require.Equal(t, "a", rep.Overall.BestModel)
}

func TestScorerBugfixTasks(t *testing.T) {
	r1 := res("a", "gpio-basic-001", 0, -1)
	r1.Scenario, r1.Mutation = "bugfix", "drop_volatile"
	r2 := res("a", "gpio-basic-001", 0, 0)
	r2.Scenario, r2.Mutation = "bugfix", "swap_lock"
	rep := scoreAll(t, []result.EvalResult{r1, r2})
	require.Equal(t, 2, rep.Models[0].TotalCases, "each mutation is its own task, not a duplicate")
	require.Equal(t, 0, rep.Counts.DuplicateResults)
	require.Equal(t, []string{"bugfix"}, rep.Scenarios)
}

func TestAddRejectsUnscorable(t *testing.T) {
	tests := []struct {
		name string
		edit func(*result.EvalResult)
		want string
	}{
		{"no case", func(r *result.EvalResult) { r.CaseID = "" }, "result has no case_id"},
		{"no model", func(r *result.EvalResult) { r.Model = "" }, `result for case "timer-001" has no model`},
		{"newline in model", func(r *result.EvalResult) { r.Model = "a\nb" }, `result for case "timer-001": model "a\nb" contains a control character`},
		{"no status", func(r *result.EvalResult) { r.Status = "" }, "result a/timer-001 attempt 0 has no status (want passed, failed or error)"},
		{"bad status", func(r *result.EvalResult) { r.Status = "skipped" }, `result a/timer-001 attempt 0: status "skipped" is not passed, failed or error`},
		{"contradiction", func(r *result.EvalResult) { r.Passed = false }, `result a/timer-001 attempt 0: passed=false contradicts status "passed"`},
		{"bad layer", func(r *result.EvalResult) { r.Layers[1].Layer = 7 }, "result a/timer-001 attempt 0: layers[1].layer 7 is not a layer (0-4)"},
		{"bad layer status", func(r *result.EvalResult) { r.Layers[0].Status = "ok" }, `result a/timer-001 attempt 0: layers[0].status "ok" is not passed, failed, skipped or error`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := res("a", "timer-001", 0, -1)
			tt.edit(&r)
			s := New(testLookup())
			require.EqualError(t, s.Add(&r), tt.want)
			require.Equal(t, 0, s.Finish().Counts.Results)
		})
	}
}

func TestInconclusiveChecks(t *testing.T) {
	s := New(testLookup())
	ok := func(name string) result.CheckDetail { return result.CheckDetail{CheckName: name, Passed: true} }
	bad := func(name string) result.CheckDetail { return result.CheckDetail{CheckName: name} }
	// passed=false kept on an inconclusive record (written by another
	// producer) must not count as a failure either.
	undecided := func(name string) result.CheckDetail {
		return result.CheckDetail{CheckName: name, Passed: false, Inconclusive: true}
	}
	for i, checks := range [][]result.CheckDetail{
		{ok("period"), undecided("pointer")},
		{bad("period"), undecided("pointer")},
		{undecided("period"), undecided("pointer")},
		{ok("period"), undecided("pointer")},
	} {
		failAt := -1
		if i == 1 {
			failAt = 0
		}
		r := res("a", "timer-001", i, failAt, checks...)
		require.NoError(t, s.Add(&r))
	}
	// One result reports a check twice: a decided report wins over an
	// inconclusive one.
	r := res("a", "dma-001", 0, -1, undecided("period"), ok("period"))
	require.NoError(t, s.Add(&r))
	rep := s.Finish()

	require.Equal(t, []PerCheckStat{
		{CheckName: "period", Category: "dma", TotalRuns: 1, PassRate: 1, FailingTCIDs: []string{}},
		// 3 runs decided: 2 passed, 1 failed.
		{CheckName: "period", Category: "timer", TotalRuns: 4, FailCount: 1, Inconclusive: 1, PassRate: 2.0 / 3, FailingTCIDs: []string{"timer-001"}},
		// Never decided: no evidence of a failure.
		{CheckName: "pointer", Category: "timer", TotalRuns: 4, Inconclusive: 4, PassRate: 1, FailingTCIDs: []string{}},
	}, rep.Models[0].PerCheckStats)
	require.Equal(t, []PerCheckRow{
		{CaseID: "timer-001", Category: "timer", CheckName: "period", Model: "a", Samples: 4, Passed: 2, Inconclusive: 1, PassRate: 2.0 / 3},
		{CaseID: "dma-001", Category: "dma", CheckName: "period", Model: "a", Samples: 1, Passed: 1, PassRate: 1},
		{CaseID: "timer-001", Category: "timer", CheckName: "pointer", Model: "a", Samples: 4, Inconclusive: 4, PassRate: 1},
	}, rep.PerCheckRows)
	require.Equal(t, 5, rep.InconclusiveChecks)
}

func TestPassRateOf(t *testing.T) {
	require.Equal(t, 0.5, PassRateOf(1, 2, 0))
	require.Equal(t, 0.5, PassRateOf(1, 4, 2), "over decided outcomes only")
	require.Equal(t, 1.0, PassRateOf(0, 3, 3), "nothing decided, nothing failed")
	require.Equal(t, 1.0, PassRateOf(0, 0, 0))
}
