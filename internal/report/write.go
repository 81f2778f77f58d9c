package report

import (
	"fmt"
	"github.com/embedeval/embedeval-go/internal/atomicfile"
	"path/filepath"
	"strings"

	"github.com/embedeval/embedeval-go/internal/score"
)

// Options carries what the files say about the run besides the scores. Every
// field is optional except RunID for WriteRun; nothing is read from the clock.
type Options struct {
	// RunID names results/runs/<run-id>/; it is also the run_id of
	// per_check_metrics.json (null when empty).
	RunID string
	// Generated is the timestamp written as "generated" and "date" (e.g.
	// "2026-04-19T12:34:56Z"); empty leaves it out of the Markdown and writes
	// null / "" in JSON.
	Generated string
	// RunTimestamp is summary.json's run_timestamp: the UTC date of the run
	// (YYYY-MM-DD); empty writes "".
	RunTimestamp string
	// Temperature and NRuns are recorded in summary.json; NRuns < 1 means 1.
	Temperature float64
	NRuns       int
	// Charts are chart files next to LEADERBOARD.md (chart.WriteFiles) that
	// the leaderboard links; the SVGs are shown, the PNGs linked.
	Charts []string
}

// File names inside the results directory.
const (
	SummaryFile             = "summary.json"
	PerCheckMetricsFile     = "per_check_metrics.json"
	LeaderboardFile         = "LEADERBOARD.md"
	LeaderboardPerCheckFile = "LEADERBOARD_PER_CHECK.md"
)

// WriteRun writes every report of rep under resultsDir:
// runs/<run-id>/summary.json, runs/<run-id>/per_check_metrics.json,
// LEADERBOARD.md and LEADERBOARD_PER_CHECK.md. Each file is replaced
// atomically; a failure leaves the files not yet written as they were.
func WriteRun(resultsDir string, rep *score.Report, opts Options) error {
	if err := checkRunID(opts.RunID); err != nil {
		return err
	}
	runDir := filepath.Join(resultsDir, "runs", opts.RunID)
	summary, err := SummaryJSON(rep, opts)
	if err != nil {
		return err
	}
	metrics, err := PerCheckMetricsJSON(rep, opts)
	if err != nil {
		return err
	}
	files := []struct {
		path string
		data []byte
	}{
		{filepath.Join(runDir, SummaryFile), summary},
		{filepath.Join(runDir, PerCheckMetricsFile), metrics},
		{filepath.Join(resultsDir, LeaderboardFile), LeaderboardMarkdown(rep, opts)},
		{filepath.Join(resultsDir, LeaderboardPerCheckFile), LeaderboardPerCheckMarkdown(rep, opts)},
	}
	for _, f := range files {
		if err := WriteFileAtomic(f.path, f.data); err != nil {
			return err
		}
	}
	return nil
}

func checkRunID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("write reports: a run id is required (it names results/runs/<run-id>/)")
	case id == "." || id == ".." || strings.ContainsAny(id, `/\`) || strings.ContainsFunc(id, func(r rune) bool { return r < 0x20 }):
		return fmt.Errorf("write reports: run id %q must be a single path component", id)
	}
	return nil
}

// WriteFileAtomic writes data to path atomically, creating the directory
// when needed (atomicfile.WriteFile).
func WriteFileAtomic(path string, data []byte) error { return atomicfile.WriteFile(path, data) }
