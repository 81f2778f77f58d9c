package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/analysis"
	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/chart"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/report"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/score"
)

// writeReports scores runs/<runID>/results.jsonl under resultsDir against the
// corpus metadata and writes every report of the run: summary.json,
// per_check_metrics.json, LEADERBOARD.md (with its charts),
// LEADERBOARD_PER_CHECK.md, report.md, SAFE_GUIDE.md, TEST_RESULTS.md,
// history.json, calibration and ablation. It returns the warnings. The
// generated code under details/ is written by the run itself (writeDetails):
// scoring reads results without their code.
func writeReports(resultsDir, runID string, corpus []*cases.Case, generated time.Time, temperature float64) ([]string, error) {
	metas := make([]cases.Metadata, len(corpus))
	for i, c := range corpus {
		metas[i] = c.Meta
	}
	lookup := score.LookupFrom(metas)
	opts := report.Options{RunID: runID, Temperature: temperature}
	if !generated.IsZero() {
		opts.Generated = generated.UTC().Format(time.RFC3339)
	}
	sc := score.New(lookup)
	col := analysis.NewCollector(lookup)
	path := filepath.Join(resultsDir, "runs", runID, "results.jsonl")
	warnings, err := score.ReadResults(path, func(r result.EvalResult) error {
		if err := sc.Add(&r); err != nil {
			return err
		}
		return col.Add(&r)
	})
	if err != nil {
		return nil, fmt.Errorf("score %s: %w", path, err)
	}
	sc.Warn(warnings...)
	rep := sc.Finish()
	an := col.Finish()
	if len(rep.Models) > 0 {
		charts, err := chart.WriteFiles(resultsDir, rep)
		if err != nil {
			return nil, fmt.Errorf("charts: %w", err)
		}
		opts.Charts = charts
	}
	if err := report.WriteRun(resultsDir, rep, opts); err != nil {
		return nil, err
	}
	ext, err := analysis.DefaultExternalBenchmarks()
	if err != nil {
		return nil, err
	}
	if err := report.WriteAnalysis(resultsDir, rep, an, analysis.EmbedGaps(rep.Models, ext, analysis.DefaultBenchmark), opts); err != nil {
		return nil, err
	}
	if err := report.WriteCalibration(resultsDir, an.Calibration, opts); err != nil {
		return nil, err
	}
	if err := report.WriteAblation(resultsDir, an.Ablation, opts); err != nil {
		return nil, err
	}
	return warnings, nil
}

// writeDetails writes each result's generated code under
// runs/<runID>/details/<model>/ (ignored by git), named by case, scenario and
// attempt, with the extension of the case's answer kind.
func writeDetails(resultsDir, runID string, corpus []*cases.Case, results []result.EvalResult) error {
	kinds := map[string]string{}
	for _, c := range corpus {
		kinds[c.Meta.ID] = platform.OutputKind(c)
	}
	w, err := report.NewDetailsWriter(resultsDir, report.Options{RunID: runID}, func(id string) string { return kinds[id] })
	if err != nil {
		return err
	}
	for i := range results {
		if err := w.Add(&results[i]); err != nil {
			return err
		}
	}
	return nil
}

func newReportCommand() *cobra.Command {
	var corpus corpusFlags
	var resultsDir, runID, generated string
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Score a stored run and regenerate its reports (nothing is re-run)",
		Long: `report reads <results>/runs/<run-id>/results.jsonl, scores it (pass@k, Wilson
CI, breakdowns, per-check statistics; errors kept out of every denominator) and
writes runs/<run-id>/summary.json, runs/<run-id>/per_check_metrics.json,
LEADERBOARD.md and LEADERBOARD_PER_CHECK.md. The same input gives byte-identical
files. The case metadata (categories, tiers) comes from --cases.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runID == "" {
				return usageError(fmt.Errorf("--run-id is required"))
			}
			sel, _, err := loadSelected(cmd, &corpus)
			if err != nil {
				return err
			}
			var when time.Time
			if generated != "" {
				if when, err = time.Parse(time.RFC3339, generated); err != nil {
					return usageError(fmt.Errorf("--generated: %w", err))
				}
			}
			warnings, err := writeReports(resultsDir, runID, sel, when, 0)
			if err != nil {
				return err
			}
			for _, w := range warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s and %s\n", filepath.Join(resultsDir, "runs", runID, "summary.json"), filepath.Join(resultsDir, "LEADERBOARD.md"))
			return nil
		},
	}
	corpus.register(cmd)
	cmd.Flags().StringVar(&resultsDir, "results", "results", "the results directory (holds runs/<run-id>/)")
	cmd.Flags().StringVar(&runID, "run-id", "", "the run to report on")
	cmd.Flags().StringVar(&generated, "generated", "", "timestamp to record as generated (RFC 3339); empty leaves it out, keeping outputs byte-identical")
	return cmd
}
