package publish

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/report"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/score"
)

// TestCommittedBaseline holds the repository's results/ to what it promises
// (results/README.md): the reference model's sanity baseline, run
// baseline-reference, covering exactly the bundled public corpus with every
// result passed, scoreable from its committed verdicts.jsonl alone (a fresh
// checkout has no results.jsonl), and a LEADERBOARD.md that keeps the parse
// contract. After adding, renaming or removing a case, regenerate it with
// scripts/baseline.sh.
func TestCommittedBaseline(t *testing.T) {
	const resultsDir, runID = "../../results", "baseline-reference"
	corpus := cases.LoadCorpus("../../cases", "").Cases
	var want []string
	for _, c := range corpus {
		if (cases.Filter{}).Match(c) {
			want = append(want, c.Meta.ID)
		}
	}
	slices.Sort(want)

	var got []string
	_, err := score.ReadResults(filepath.Join(resultsDir, "runs", runID, VerdictsFile), func(r result.EvalResult) error {
		require.Equal(t, "reference", r.Model)
		require.Equal(t, result.StatusPassed, r.Status, "baseline result %s #%d is %s", r.CaseID, r.Attempt, r.Status)
		got = append(got, r.CaseID)
		return nil
	})
	require.NoError(t, err)
	slices.Sort(got)
	require.Equal(t, want, got, "results/ does not cover the corpus as it is: run scripts/baseline.sh")

	latest, err := LatestRuns(resultsDir, "")
	require.NoError(t, err)
	require.Equal(t, map[string]string{"reference": runID}, latest)
	rep, err := ScoreLeaderboard(resultsDir, corpus, "")
	require.NoError(t, err)
	require.Len(t, rep.Models, 1)
	require.InDelta(t, 1.0, rep.Models[0].PassAt1, 1e-9)

	board, err := report.ReadLeaderboard(filepath.Join(resultsDir, "LEADERBOARD.md"))
	require.NoError(t, err)
	require.Equal(t, 1, board.SchemaVersion)
	require.Len(t, board.Models, 1)
	require.Equal(t, "reference", board.Models[0].Model)
	for _, row := range board.Models[0].Rows {
		require.InDelta(t, 100.0, row.PassRatePercent, 1e-9, "category %s", row.Category)
	}
}
