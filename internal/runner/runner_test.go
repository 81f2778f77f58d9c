package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/llm"
	"github.com/embedeval/embedeval-go/internal/result"
)

const corpus = "../validate/testdata/bad/cases"

func selectCases(t *testing.T, ids ...string) []*cases.Case {
	t.Helper()
	c := cases.LoadCorpus(corpus, "")
	sel := c.Select(cases.Filter{IDs: ids})
	require.Len(t, sel, len(ids))
	return sel
}

func TestReferenceMockAndCaseErrors(t *testing.T) {
	sel := selectCases(t, "timer-001", "timer-007", "timer-019")
	ref, err := llm.New("reference")
	require.NoError(t, err)
	var seen int
	rs, err := Run(context.Background(), Options{Cases: sel, Model: ref, Samples: 2, Jobs: 2,
		Limits: checks.Limits{MaxSteps: 100_000}, OnResult: func(result.EvalResult) { seen++ }})
	require.NoError(t, err)
	require.Equal(t, 6, seen)
	var got []string
	for _, r := range rs {
		got = append(got, r.CaseID+" "+string(r.Status))
	}
	require.Equal(t, []string{
		"timer-001 passed", "timer-001 passed",
		"timer-007 error", "timer-007 error", // its static.star does not load: a case error
		"timer-019 failed", "timer-019 failed", // its reference really fails L3
	}, got)
	require.Contains(t, rs[2].Notes[0], "case error: ../validate/testdata/bad/cases/zephyr/timer-007/checks/static.star:2:1: syntax error")
	s := Summarize(rs)
	require.Equal(t, Summary{Results: 6, Passed: 2, Failed: 2, Errors: 2,
		LayerRan: [5]int{4, 0, 0, 4, 2}, LayerPassed: [5]int{4, 0, 0, 2, 2}}, s)

	mock, err := llm.New("mock")
	require.NoError(t, err)
	rs, err = Run(context.Background(), Options{Cases: sel[:1], Model: mock})
	require.NoError(t, err)
	require.Equal(t, result.StatusFailed, rs[0].Status)
	require.Equal(t, 0, *rs[0].FailedAtLayer)
}

func TestWriteResultsAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "runs", "r1", "results.jsonl")
	rs := []result.EvalResult{{CaseID: "a", Model: "m", Attempt: 1, Status: result.StatusPassed, Passed: true}, {CaseID: "b", Model: "m", Attempt: 1, Status: result.StatusFailed}}
	require.NoError(t, WriteResults(path, rs))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var back []result.EvalResult
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r result.EvalResult
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		back = append(back, r)
	}
	require.Equal(t, rs, back)
	left, err := filepath.Glob(filepath.Join(dir, "runs", "r1", ".results-*"))
	require.NoError(t, err)
	require.Empty(t, left, "no temporary file is left behind")

	// A directory where the file should go makes the write fail without touching it.
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "blocked", "results.jsonl"), 0o755))
	require.Error(t, WriteResults(filepath.Join(dir, "blocked", "results.jsonl"), rs))
}
