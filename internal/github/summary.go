package github

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/embedeval/embedeval-go/internal/report"
	"github.com/embedeval/embedeval-go/internal/score"
)

// ReadSummary reads a run's summary.json (report.BenchmarkReport) back into
// the scores the PR body compares. Fields unknown to this version are
// allowed (the shape is additive-only); a different version is an error.
func ReadSummary(path string) (*score.Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read summary: %w", err)
	}
	var b report.BenchmarkReport
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("read summary %s: %w", path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("read summary %s: data after the document", path)
	}
	if b.Version != report.BenchmarkReportVersion {
		return nil, fmt.Errorf("read summary %s: version %q, want %q", path, b.Version, report.BenchmarkReportVersion)
	}
	return &score.Report{
		Models: b.Models, Categories: b.Categories, TierScores: b.TierScores,
		ReasoningScores: b.ReasoningScores, DifficultyScores: b.DifficultyScores,
		Overall: b.Overall, NSamplesPerCase: b.NSamplesPerCase, Scenarios: b.Scenarios,
		Counts: b.Counts, Warnings: b.Warnings,
	}, nil
}

// Baseline assembles the "before" side of a run's PR body from a results
// directory: for every model of after, its scores in the latest earlier run
// that history.json records for it (ordered by date, then run id), read from
// runs/<that run>/summary.json. A model without an earlier run has no
// baseline. It returns nil when no model has one, and warnings for earlier
// runs whose summary is missing.
func Baseline(resultsDir, runID string, after *score.Report) (*score.Report, []string, error) {
	history, err := report.ReadHistory(filepath.Join(resultsDir, report.HistoryFile))
	if err != nil {
		return nil, nil, err
	}
	// history is sorted by date, run id, model: the last match is the latest.
	prevRun := map[string]string{}
	for _, e := range history {
		if e.RunID != runID {
			prevRun[e.Model] = e.RunID
		}
	}
	summaries := map[string]*score.Report{}
	var warnings []string
	before := &score.Report{}
	for _, m := range after.Models {
		run, ok := prevRun[m.Model]
		if !ok {
			continue
		}
		sum, seen := summaries[run]
		if !seen {
			path := filepath.Join(resultsDir, "runs", run, report.SummaryFile)
			sum, err = ReadSummary(path)
			if errors.Is(err, fs.ErrNotExist) {
				warnings = append(warnings, fmt.Sprintf("no baseline for %s: %s is missing", m.Model, path))
				sum, err = nil, nil
			}
			if err != nil {
				return nil, nil, err
			}
			summaries[run] = sum
		}
		if sum == nil {
			continue
		}
		for _, pm := range sum.Models {
			if pm.Model == m.Model {
				before.Models = append(before.Models, pm)
			}
		}
	}
	if len(before.Models) == 0 {
		return nil, warnings, nil
	}
	return before, warnings, nil
}
