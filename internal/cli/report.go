package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/publish"
)

// ReportOptions are the options of report.
type ReportOptions struct {
	Corpus    CorpusOptions
	Results   string
	RunID     string
	Generated string
}

func newReportCommand(f *Factory) *cobra.Command {
	var o ReportOptions
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Score a stored run and regenerate its reports (nothing is re-run)",
		Long: `report reads <results>/runs/<run-id>/results.jsonl, scores it (pass@k, Wilson
CI, breakdowns, per-check statistics; errors kept out of every denominator) and
writes runs/<run-id>/summary.json, runs/<run-id>/per_check_metrics.json,
LEADERBOARD.md and LEADERBOARD_PER_CHECK.md. The same input gives byte-identical
files. The case metadata (categories, tiers) comes from --cases; the run's
settings (its temperature) from its run.json. Without --run-id it reports the
run that started last (by its run.json) and says which.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runReport(cmd.Context(), f, o) },
	}
	o.Corpus.register(cmd)
	cmd.Flags().StringVar(&o.Results, "results", "results", "the results directory (holds runs/<run-id>/)")
	cmd.Flags().StringVar(&o.RunID, "run-id", "", "the run to report on (default: the run that started last)")
	addGeneratedFlag(cmd.Flags(), &o.Generated)
	return cmd
}

// runReport regenerates a stored run's reports (publish.Regenerate, which
// keeps the run's recorded settings).
func runReport(_ context.Context, f *Factory, o ReportOptions) error {
	if o.RunID == "" {
		id, started, ok, err := publish.LatestRun(o.Results)
		if err != nil {
			return err
		}
		if !ok {
			return usageError(fmt.Errorf("no run to report under %s (none has run.json and results.jsonl or verdicts.jsonl); pass --run-id", filepath.Join(o.Results, "runs")))
		}
		o.RunID = id
		fmt.Fprintf(f.IO.ErrOut, "no --run-id: reporting the latest run, %s (started %s)\n", id, started.UTC().Format(time.RFC3339))
	}
	sel, _, err := loadSelected(f.IO.ErrOut, &o.Corpus)
	if err != nil {
		return err
	}
	when, err := parseGenerated(o.Generated)
	if err != nil {
		return err
	}
	warnings, err := publish.Regenerate(o.Results, o.RunID, sel, when)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintln(f.IO.ErrOut, "warning:", w)
	}
	fmt.Fprintf(f.IO.Out, "wrote %s and %s\n", filepath.Join(o.Results, "runs", o.RunID, "summary.json"), filepath.Join(o.Results, "LEADERBOARD.md"))
	return nil
}
