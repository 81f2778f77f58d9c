package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/publish"
	"github.com/embedeval/embedeval-go/internal/report"
	"github.com/embedeval/embedeval-go/internal/result"
)

// writeReports writes every report of a stored run (publish.WriteReports).
func writeReports(resultsDir, runID string, corpus []*cases.Case, generated time.Time, temperature float64) ([]string, error) {
	return publish.WriteReports(resultsDir, runID, corpus, generated, temperature)
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
files. The case metadata (categories, tiers) comes from --cases. Without
--run-id it reports the run that started last (by its run.json) and says which.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runID == "" {
				id, started, ok, err := publish.LatestRun(resultsDir)
				if err != nil {
					return err
				}
				if !ok {
					return usageError(fmt.Errorf("no run to report under %s (none has run.json and results.jsonl); pass --run-id", filepath.Join(resultsDir, "runs")))
				}
				runID = id
				fmt.Fprintf(cmd.ErrOrStderr(), "no --run-id: reporting the latest run, %s (started %s)\n", id, started.UTC().Format(time.RFC3339))
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
			// The run's own settings, not this command's: a run at
			// temperature 0.5 stays at 0.5 in its regenerated summary.
			recorded, _, err := publish.RecordedOptions(resultsDir, runID)
			if err != nil {
				return err
			}
			warnings, err := writeReports(resultsDir, runID, sel, when, recorded.Temperature)
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
	cmd.Flags().StringVar(&runID, "run-id", "", "the run to report on (default: the run that started last)")
	cmd.Flags().StringVar(&generated, "generated", "", "timestamp to record as generated (RFC 3339); empty leaves it out, keeping outputs byte-identical")
	return cmd
}
