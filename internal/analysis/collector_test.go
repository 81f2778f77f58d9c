package analysis

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/result"
)

// collectorInput: models a and b; gpio-basic-001 is a ceiling case,
// dma-001 a floor case, timer-001 is labelled easy but empirically hard;
// uart-001 is sanity; plus an unknown case, a duplicate and an error.
func collectorInput() []result.EvalResult {
	implicit := mk("b", "dma-001", 0, layer(0, result.StatusPassed),
		ls{n: 1, st: result.StatusFailed, err: "error: implicit declaration of function 'dma_go'"},
		ls{n: 2, st: result.StatusSkipped}, ls{n: 3, st: result.StatusSkipped}, ls{n: 4, st: result.StatusSkipped})
	errored := mk("b", "gpio-basic-001", 2, ls{n: 0, st: result.StatusError, err: "broken check"})
	return []result.EvalResult{
		pass("a", "gpio-basic-001", 0), pass("a", "gpio-basic-001", 1),
		pass("b", "gpio-basic-001", 0), pass("b", "gpio-basic-001", 1), errored,
		failAt("a", "dma-001", 0, 0, "no_foreign_platform_apis"), failAt("a", "dma-001", 1, 0, "no_foreign_platform_apis", "mystery"),
		implicit,
		pass("a", "timer-001", 0), failAt("a", "timer-001", 1, 3, "isr_no_blocking_api"),
		failAt("b", "timer-001", 0, 2), failAt("b", "timer-001", 1, 0, "startup_order_correct"),
		pass("a", "uart-001", 0), failAt("a", "uart-001", 1, 0, "mystery"),
		pass("a", "ble-099", 0),
		pass("a", "gpio-basic-001", 0),
	}
}

func collect(t *testing.T, rs []result.EvalResult) *Analysis {
	t.Helper()
	c := NewCollector(testLookup())
	for i := range rs {
		require.NoError(t, c.Add(&rs[i]))
	}
	return c.Finish()
}

func TestCollectorCounts(t *testing.T) {
	an := collect(t, collectorInput())
	require.Equal(t, []string{"a", "b"}, an.Models)
	require.Equal(t, Counts{Results: 16, Judged: 13, Failed: 7, Errors: 1, Classified: 6, UnknownCaseResults: 1, DuplicateResults: 1}, an.Counts)
	var rows []string
	for _, tr := range an.Tasks {
		rows = append(rows, tr.CaseID+" "+tr.Model+" "+tr.Status())
	}
	require.Equal(t, []string{"dma-001 a FAIL", "dma-001 b FAIL", "gpio-basic-001 a PASS", "gpio-basic-001 b PASS",
		"timer-001 a FLAKY", "timer-001 b FAIL", "uart-001 a FLAKY"}, rows)
	require.Equal(t, 1, an.Tasks[3].Errors)
	require.Equal(t, TaskError, TaskResult{Errors: 2}.Status())
}

func TestCollectorTaxonomy(t *testing.T) {
	an := collect(t, collectorInput())
	got := map[string]map[Pattern]int{}
	for _, mt := range append(an.Taxonomy, an.TaxonomyAll) {
		require.Len(t, mt.Rows, 8)
		got[mt.Model] = map[Pattern]int{}
		for _, r := range mt.Rows {
			if r.Failures > 0 {
				got[mt.Model][r.Pattern] = r.Failures
			}
		}
	}
	require.Equal(t, map[string]map[Pattern]int{
		"a":   {CrossPlatform: 2, MissingSafety: 1},
		"b":   {APIHallucination: 1, SemanticMismatch: 1, OrderViolation: 1},
		"all": {CrossPlatform: 2, MissingSafety: 1, APIHallucination: 1, SemanticMismatch: 1, OrderViolation: 1},
	}, got)
	cp := an.Taxonomy[0].Rows[patternIndex(CrossPlatform)]
	require.InDelta(t, 0.75, cp.MeanConfidence, 1e-12) // 1 and 1/2
	require.InDelta(t, 2.0/3, cp.Share, 1e-12)
	require.Equal(t, []string{"dma-001"}, cp.Cases)
}

func TestCollectorCalibration(t *testing.T) {
	cal := collect(t, collectorInput()).Calibration
	require.Equal(t, 1, cal.Floor)
	require.Equal(t, 1, cal.Ceiling)
	require.Equal(t, 1, cal.Mislabelled)
	tests := []struct {
		id                       string
		rate, b, a               float64
		empirical                string
		mislabelled, floor, ceil bool
	}{
		{"dma-001", 0, 1, 0, "hard", false, true, false},
		{"gpio-basic-001", 1, 0, 0, "easy", false, false, true},
		{"timer-001", 0.25, 0.75, 0.25, "hard", true, false, false},
	}
	require.Len(t, cal.Cases, len(tests))
	for i, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			c := cal.Cases[i]
			require.Equal(t, tc.id, c.CaseID)
			require.Equal(t, 2, c.Models)
			require.InDelta(t, tc.rate, c.PassRate, 1e-12)
			require.InDelta(t, tc.b, c.B, 1e-12)
			require.InDelta(t, tc.a, c.A, 1e-12)
			require.Equal(t, tc.empirical, c.Empirical)
			require.Equal(t, tc.mislabelled, c.Mislabelled)
			require.Equal(t, tc.floor, c.Floor)
			require.Equal(t, tc.ceil, c.Ceiling)
		})
	}
}

func TestEmpiricalDifficulty(t *testing.T) {
	for _, tc := range []struct {
		rate float64
		want string
	}{{1, "easy"}, {0.81, "easy"}, {0.8, "medium"}, {0.4, "medium"}, {0.39, "hard"}, {0, "hard"}} {
		require.Equal(t, tc.want, EmpiricalDifficulty(tc.rate), tc.rate)
	}
}

func TestCollectorAblation(t *testing.T) {
	ab := collect(t, collectorInput()).Ablation
	require.Len(t, ab.Models, 2)
	a := ab.Models[0]
	require.Equal(t, "a", a.Model)
	rates := map[string]float64{}
	partial := map[string]int{}
	for _, c := range a.Configs {
		rates[c.Name] = c.PassRate
		partial[c.Name] = c.Partial
	}
	want := map[string]float64{"L0 only": 2.0 / 3, "L0+L3": 0.5, "L0+L1": 2.0 / 3, "L0+L1+L3": 0.5, "Full (L0-L4)": 0.5}
	for k, v := range want {
		require.InDelta(t, v, rates[k], 1e-12, k)
	}
	require.Equal(t, map[string]int{"L0 only": 0, "L0+L3": 2, "L0+L1": 2, "L0+L1+L3": 2, "Full (L0-L4)": 2}, partial)
	deltas := []float64{}
	for _, c := range a.Contributions {
		deltas = append(deltas, c.Delta)
	}
	require.InDeltaSlice(t, []float64{1.0 / 6, 0, 1.0 / 6, 0}, deltas, 1e-12)
	require.Equal(t, AllModels, ab.All.Model)
}

func TestRejudge(t *testing.T) {
	full, l0l3 := Configs()[4], Configs()[1]
	tests := []struct {
		name string
		res  result.EvalResult
		cfg  Config
		want Verdict
	}{
		{"all passed", pass("m", "c", 0), full, Verdict{Judged: true, Passed: true}},
		{"fail outside the config", failAt("m", "c", 0, 1), l0l3, Verdict{Judged: true, Passed: true, Partial: true}},
		{"fail inside the config", failAt("m", "c", 0, 3), l0l3, Verdict{Judged: true}},
		{"skipped layer is not a pass", mk("m", "c", 0, ls{n: 0, st: result.StatusSkipped}, ls{n: 3, st: result.StatusSkipped}), l0l3, Verdict{Partial: true}},
		{"absent layer", mk("m", "c", 0, layer(0, result.StatusPassed)), l0l3, Verdict{Judged: true, Passed: true, Partial: true}},
		{"L4 never fails", mk("m", "c", 0, layer(0, result.StatusPassed), layer(1, result.StatusPassed), layer(2, result.StatusPassed),
			layer(3, result.StatusPassed), layer(4, result.StatusFailed)), full, Verdict{Judged: true, Passed: true}},
		{"error result", mk("m", "c", 0, ls{n: 0, st: result.StatusError}), full, Verdict{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Rejudge(&tc.res, tc.cfg))
		})
	}
}

func TestCollectorOrderIndependent(t *testing.T) {
	in := collectorInput()
	// The duplicate must stay after its original for the same key to win.
	base := collect(t, in)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		rs := append([]result.EvalResult(nil), in[:len(in)-1]...)
		rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
		rs = append(rs, in[len(in)-1])
		require.Equal(t, base, collect(t, rs))
	}
}

func TestCollectorRejectsBadRecords(t *testing.T) {
	c := NewCollector(testLookup())
	r := pass("", "gpio-basic-001", 0)
	require.Error(t, c.Add(&r))
	r = pass("m", "gpio-basic-001", 0)
	r.Status = "weird"
	require.Error(t, c.Add(&r))
	require.Equal(t, 0, c.Finish().Counts.Results)
}
