package publish

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/runner"
)

// sampleResults are results of two models on the first cases of the bundled
// corpus, with code and check texts the verdicts file must leave out.
func sampleResults(t *testing.T, corpus []*cases.Case) []result.EvalResult {
	t.Helper()
	require.GreaterOrEqual(t, len(corpus), 3)
	secret := "int leaked_generated_code(void);"
	var out []result.EvalResult
	for _, model := range []string{"weak", "strong"} {
		for i, c := range corpus[:3] {
			pass := model == "strong" || i == 0
			status := result.StatusPassed
			if !pass {
				status = result.StatusFailed
			}
			out = append(out, result.EvalResult{
				CaseID: c.Meta.ID, Model: model, Attempt: 1, GeneratedCode: secret,
				Passed: pass, Status: result.Status(status),
				Layers: []result.LayerResult{{
					Layer: 0, Name: result.LayerName(0), Passed: pass, Status: status,
					Details: []result.CheckDetail{{
						CheckName: "uses_api", Passed: pass, CheckType: "constraint",
						Expected: result.Ptr("the expected text"), Actual: result.Ptr(secret),
					}},
				}},
			})
		}
	}
	return out
}

// TestVerdictsScoreLikeResults: a run's committed verdicts.jsonl (what a
// fresh checkout of the repository has, results.jsonl being ignored) scores
// the pooled leaderboard exactly as its results.jsonl does, and holds no
// generated code or check text.
func TestVerdictsScoreLikeResults(t *testing.T) {
	corpus := cases.LoadCorpus("../../cases", "").Cases
	dir := t.TempDir()
	writeRun(t, dir, "r1", time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), "weak", "strong")
	results := sampleResults(t, corpus)
	var jsonl bytes.Buffer
	for i := range results {
		line, err := json.Marshal(&results[i])
		require.NoError(t, err)
		jsonl.Write(append(line, '\n'))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "runs", "r1", runner.ResultsFile), jsonl.Bytes(), 0o644))

	_, err := WriteReports(dir, "r1", corpus, time.Time{}, 0)
	require.NoError(t, err)
	verdicts, err := os.ReadFile(filepath.Join(dir, "runs", "r1", VerdictsFile))
	require.NoError(t, err)
	require.NotContains(t, string(verdicts), "leaked_generated_code")
	require.NotContains(t, string(verdicts), "the expected text")
	require.Contains(t, string(verdicts), `"check_name":"uses_api"`)

	fromResults, err := ScoreLeaderboard(dir, corpus, "")
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(dir, "runs", "r1", runner.ResultsFile)))
	fromVerdicts, err := ScoreLeaderboard(dir, corpus, "")
	require.NoError(t, err)
	require.Equal(t, fromResults, fromVerdicts)
	files, err := RunResultFiles(dir)
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Join(dir, "runs", "r1", VerdictsFile)}, files)
	require.Len(t, fromVerdicts.Models, 2)

	// Reporting the run again from its verdicts gives the same verdicts file.
	_, err = WriteReports(dir, "r1", corpus, time.Time{}, 0)
	require.NoError(t, err)
	again, err := os.ReadFile(filepath.Join(dir, "runs", "r1", VerdictsFile))
	require.NoError(t, err)
	require.Equal(t, string(verdicts), string(again))

	// A run with neither file is not a stored run (nothing to score).
	require.NoError(t, os.Remove(filepath.Join(dir, "runs", "r1", VerdictsFile)))
	none, err := ScoreLeaderboard(dir, corpus, "")
	require.NoError(t, err)
	require.Nil(t, none)
}
