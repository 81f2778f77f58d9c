package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/score"
)

// checkResult builds a judged result whose L0 and L3 report the given
// records; a layer fails when one of its records is a failure on evidence.
func checkResult(model, caseID string, attempt int, l0, l3 []result.CheckDetail) result.EvalResult {
	r := result.EvalResult{CaseID: caseID, Model: model, Attempt: attempt, Scenario: "generation"}
	halted := false
	for n := 0; n <= result.LayerMutation; n++ {
		l := result.LayerResult{Layer: n, Name: result.LayerName(n), Status: result.StatusPassed, Details: []result.CheckDetail{}}
		switch {
		case halted:
			l.Status = result.StatusSkipped
		case n == 1 || n == 2:
			l.Status, l.Reason = result.StatusSkipped, "toolchain unavailable"
		case n == 0 || n == 3:
			l.Details = map[int][]result.CheckDetail{0: l0, 3: l3}[n]
			for _, d := range l.Details {
				if d.Failed() {
					l.Status = result.StatusFailed
				}
			}
		case n == result.LayerMutation:
			// Mutation records stay out of per-check numbers, inconclusive or not.
			l.Status = result.StatusFailed
			l.Details = []result.CheckDetail{{CheckName: "via_pointer/sleep_called", Actual: result.Ptr("inconclusive on the mutant"), CheckType: result.CheckTypeMutation, Weight: 1}}
		}
		l.Passed = l.Status == result.StatusPassed
		if l.Status == result.StatusFailed && n < result.LayerMutation && !halted {
			halted = true
			f := n
			r.FailedAtLayer = &f
		}
		r.Layers = append(r.Layers, l)
	}
	r.Status, r.Passed = result.StatusPassed, true
	if r.FailedAtLayer != nil {
		r.Status, r.Passed = result.StatusFailed, false
	}
	return r
}

// inconclusiveInput is a small run in which some checks could not decide:
// sleep_called never decides on timer-001, period_in_range sometimes.
func inconclusiveInput(t *testing.T) []byte {
	t.Helper()
	pass := func(name string) result.CheckDetail {
		return result.CheckDetail{CheckName: name, Passed: true, CheckType: "constraint", Weight: 1}
	}
	fail := func(name string) result.CheckDetail {
		return result.CheckDetail{CheckName: name, CheckType: "constraint", Weight: 1}
	}
	undecided := func(name string) result.CheckDetail {
		return result.CheckDetail{CheckName: name, Passed: true, CheckType: "constraint", Weight: 1, Inconclusive: true}
	}
	l0 := []result.CheckDetail{pass("kernel_header")}
	results := []result.EvalResult{
		checkResult("model-a", "timer-001", 0, l0, []result.CheckDetail{undecided("sleep_called"), pass("period_in_range")}),
		checkResult("model-a", "timer-001", 1, l0, []result.CheckDetail{undecided("sleep_called"), undecided("period_in_range")}),
		checkResult("model-a", "timer-001", 2, l0, []result.CheckDetail{undecided("sleep_called"), fail("period_in_range")}),
		checkResult("model-b", "timer-001", 0, l0, []result.CheckDetail{undecided("sleep_called"), pass("period_in_range")}),
		checkResult("model-b", "gpio-basic-001", 0, []result.CheckDetail{undecided("pin_configured")}, []result.CheckDetail{pass("led_toggled")}),
		checkResult("model-b", "gpio-basic-001", 1, []result.CheckDetail{fail("pin_configured")}, nil),
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, r := range results {
		require.NoError(t, enc.Encode(r))
	}
	return buf.Bytes()
}

// TestGoldenFilesInconclusive pins the additive inconclusive fields: the
// per-check counts, the run-level count and the per-check leaderboard's
// column. The files without them are pinned by TestGoldenFiles.
func TestGoldenFilesInconclusive(t *testing.T) {
	rep := goldenReport(t, inconclusiveInput(t))
	require.Equal(t, 6, rep.InconclusiveChecks)
	dir := t.TempDir()
	require.NoError(t, WriteRun(dir, rep, goldenOpts))
	for golden, path := range map[string]string{
		"summary.json":             filepath.Join(dir, "runs", goldenOpts.RunID, SummaryFile),
		"per_check_metrics.json":   filepath.Join(dir, "runs", goldenOpts.RunID, PerCheckMetricsFile),
		"LEADERBOARD_PER_CHECK.md": filepath.Join(dir, LeaderboardPerCheckFile),
	} {
		t.Run(golden, func(t *testing.T) {
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			gp := filepath.Join("testdata", "golden_inconclusive", golden)
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(gp), 0o755))
				require.NoError(t, os.WriteFile(gp, got, 0o644))
			}
			want, err := os.ReadFile(gp)
			require.NoError(t, err, "run go test ./internal/report -update to create the golden files")
			require.Equal(t, string(want), string(got))
		})
	}
}

func TestInconclusiveFieldsAreAdditive(t *testing.T) {
	// Without inconclusive outcomes the new keys are absent, so files of
	// runs without them are byte-identical to before.
	rep := goldenReport(t, goldenInput(t))
	require.Zero(t, rep.InconclusiveChecks)
	sum, err := SummaryJSON(rep, goldenOpts)
	require.NoError(t, err)
	require.NotContains(t, string(sum), "inconclusive")
	pcm, err := PerCheckMetricsJSON(rep, goldenOpts)
	require.NoError(t, err)
	require.NotContains(t, string(pcm), "inconclusive")
	require.NotContains(t, string(LeaderboardPerCheckMarkdown(rep, goldenOpts)), "Inconclusive")

	// With them, the keys sit beside the contract's, which keep their names.
	rep = goldenReport(t, inconclusiveInput(t))
	data, err := PerCheckMetricsJSON(rep, goldenOpts)
	require.NoError(t, err)
	var doc struct{ Rows []map[string]any }
	require.NoError(t, json.Unmarshal(data, &doc))
	require.ElementsMatch(t, []string{"case_id", "category", "check_name", "model", "samples", "passed", "pass_rate", "inconclusive"}, keys(doc.Rows[0]))
	sum, err = SummaryJSON(rep, goldenOpts)
	require.NoError(t, err)
	var s struct {
		InconclusiveChecks int `json:"inconclusive_checks"`
		Models             []struct {
			PerCheckStats []score.PerCheckStat `json:"per_check_stats"`
		} `json:"models"`
	}
	require.NoError(t, json.Unmarshal(sum, &s))
	require.Equal(t, 6, s.InconclusiveChecks)
	require.Contains(t, s.Models[0].PerCheckStats, score.PerCheckStat{CheckName: "period_in_range", Category: "timer", TotalRuns: 3,
		FailCount: 1, Inconclusive: 1, PassRate: 0.5, FailingTCIDs: []string{"timer-001"}})
}
