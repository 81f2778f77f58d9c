package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/embedeval/embedeval-go/internal/score"
)

// BenchmarkReportVersion is BenchmarkReport.version: the version of the
// summary.json shape (additive-only while it stays "1").
const BenchmarkReportVersion = "1"

// PerCheckMetricsSchemaVersion is the schema_version of per_check_metrics.json.
const PerCheckMetricsSchemaVersion = 1

// BenchmarkReport is the shape of summary.json: every field of the seed's
// BenchmarkReport (version, date, models with per_check_stats, categories,
// tier_scores, reasoning_scores, overall, scenario, temperature,
// n_samples_per_case, n_runs) and of the run archive the seed writes around
// it (run_timestamp, model, total_results, passed, failed, run_id), with the
// seed's names and meanings, plus additive fields (docs/REPORTS.md has the
// table side by side).
type BenchmarkReport struct {
	Version          string                  `json:"version"`
	Date             string                  `json:"date"`
	RunID            *string                 `json:"run_id"`
	Models           []score.ModelScore      `json:"models"`
	Categories       []score.CategoryScore   `json:"categories"`
	TierScores       []score.TierScore       `json:"tier_scores"`
	ReasoningScores  []score.ReasoningScore  `json:"reasoning_scores"`
	DifficultyScores []score.DifficultyScore `json:"difficulty_scores"`
	Overall          score.OverallScore      `json:"overall"`
	Scenario         string                  `json:"scenario"`
	Scenarios        []string                `json:"scenarios"`
	Temperature      float64                 `json:"temperature"`
	NSamplesPerCase  int                     `json:"n_samples_per_case"`
	NRuns            int                     `json:"n_runs"`
	// RunTimestamp is the UTC date (YYYY-MM-DD) of the run, as the seed's
	// run archive writes it (Options.RunTimestamp).
	RunTimestamp string `json:"run_timestamp"`
	// Model is the run's model; a run of several models names them all,
	// sorted and separated by commas (the seed writes one archive per model).
	Model string `json:"model"`
	// TotalResults counts the run's results (known cases, the first of each
	// repeated key, every tier); Passed those that passed and Failed the
	// rest, errors included as in the seed (TotalResults = Passed + Failed;
	// counts.errors says how many were errors).
	TotalResults int             `json:"total_results"`
	Passed       int             `json:"passed"`
	Failed       int             `json:"failed"`
	Counts       score.RunCounts `json:"counts"`
	Warnings     []string        `json:"warnings"`
	// InconclusiveChecks counts the run's inconclusive check outcomes
	// (additive; omitted when there are none).
	InconclusiveChecks int `json:"inconclusive_checks,omitempty"`
}

// NewBenchmarkReport assembles the summary.json document.
func NewBenchmarkReport(rep *score.Report, opts Options) BenchmarkReport {
	b := BenchmarkReport{
		Version: BenchmarkReportVersion, Date: opts.Generated, RunID: optString(opts.RunID),
		Models: rep.Models, Categories: rep.Categories, TierScores: rep.TierScores,
		ReasoningScores: rep.ReasoningScores, DifficultyScores: rep.DifficultyScores,
		Overall: rep.Overall, Scenario: score.DefaultScenario, Scenarios: rep.Scenarios,
		Temperature: opts.Temperature, NSamplesPerCase: max(rep.NSamplesPerCase, 1),
		NRuns: max(opts.NRuns, 1), Counts: rep.Counts, Warnings: rep.Warnings,
		InconclusiveChecks: rep.InconclusiveChecks,
		RunTimestamp:       opts.RunTimestamp,
		TotalResults:       rep.Counts.Judged + rep.Counts.Errors.Results,
		Passed:             rep.PassedResults,
	}
	b.Failed = b.TotalResults - b.Passed
	names := make([]string, len(rep.Models))
	for i, m := range rep.Models {
		names[i] = m.Model
	}
	b.Model = strings.Join(names, ",")
	if len(rep.Scenarios) == 1 {
		b.Scenario = rep.Scenarios[0]
	} else if len(rep.Scenarios) > 1 {
		b.Scenario = "mixed"
	}
	return b
}

// SummaryJSON renders summary.json.
func SummaryJSON(rep *score.Report, opts Options) ([]byte, error) {
	data, err := marshal(NewBenchmarkReport(rep, opts))
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", SummaryFile, err)
	}
	return data, nil
}

// PerCheckMetrics is the shape of per_check_metrics.json (interop contract
// §2.4a).
type PerCheckMetrics struct {
	SchemaVersion int                 `json:"schema_version"`
	RunID         *string             `json:"run_id"`
	Generated     *string             `json:"generated"`
	Rows          []score.PerCheckRow `json:"rows"`
}

// PerCheckMetricsJSON renders per_check_metrics.json: one row per (case,
// check, model), mutation checks excluded, sorted by pass_rate ascending then
// case_id, check_name, model.
func PerCheckMetricsJSON(rep *score.Report, opts Options) ([]byte, error) {
	rows := rep.PerCheckRows
	if rows == nil {
		rows = []score.PerCheckRow{}
	}
	data, err := marshal(PerCheckMetrics{SchemaVersion: PerCheckMetricsSchemaVersion,
		RunID: optString(opts.RunID), Generated: optString(opts.Generated), Rows: rows})
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", PerCheckMetricsFile, err)
	}
	return data, nil
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// marshal encodes v with two-space indentation, no HTML escaping and a final
// newline. encoding/json sorts map keys and formats floats canonically.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
