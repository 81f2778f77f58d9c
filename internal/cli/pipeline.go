package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// errPipelineNotBuilt is returned by the pipeline steps until they are built.
var errPipelineNotBuilt = errors.New("not available in this release: the GitHub Actions pipeline (shard planning, merge, results PRs) is not built yet")

// NewShardCommand builds the shard step: it plans the GitHub Actions matrix.
func NewShardCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "shard",
		Short: "Plan the benchmark's GitHub Actions matrix (not yet available)",
		Long: `shard splits the selected cases × models × samples into at most --max-jobs
matrix jobs, grouped by SDK container image and balanced by predicted duration,
and writes a plan file plus the 'matrix' output of the workflow step.

This release only describes the step; planning is not built yet.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(*cobra.Command, []string) error { return &ExitError{Code: ExitUsage, Err: errPipelineNotBuilt} },
	}
}

// NewMergeCommand builds the merge step: it scores shard artifacts.
func NewMergeCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "merge",
		Short: "Merge shard artifacts, score, regenerate reports (not yet available)",
		Long: `merge reads a directory of shard artifacts and the plan, refuses missing,
duplicated, corrupt or foreign shards, scores the run, regenerates
LEADERBOARD.md, per_check_metrics.json and summary.json, and prepares the
results pull request.

This release only describes the step; merging is not built yet.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(*cobra.Command, []string) error { return &ExitError{Code: ExitUsage, Err: errPipelineNotBuilt} },
	}
}
