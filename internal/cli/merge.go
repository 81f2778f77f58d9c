package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	ghpub "github.com/embedeval/embedeval-go/internal/github"
	"github.com/embedeval/embedeval-go/internal/pipeline"
)

// MergeOptions are the options of the merge step.
type MergeOptions struct {
	Plan, Artifacts, Results, CasesDir, PrivateDir string
	RunID, Generated, PRBody                       string
	AllowPartial                                   bool
	MaxArtifactBytes                               int64
}

// NewMergeCommand builds the merge step: it scores shard artifacts.
func NewMergeCommand() *cobra.Command {
	return newMergeCommand(DefaultFactory(os.Stdin, os.Stdout, os.Stderr))
}

func newMergeCommand(f *Factory) *cobra.Command {
	var o MergeOptions
	cmd := &cobra.Command{
		Use:   "merge",
		Short: "Merge shard artifacts into results/, score, regenerate reports",
		Long: `merge reads every shard artifact under --artifacts and the plan, and refuses —
naming the shards — when one is missing, duplicated, corrupt (file:line:col),
made for another plan, made by another binary version, or does not match its
job. --allow-partial merges the usable shards instead and marks the
leaderboard, the job summary and the PR body partial.

It writes the run under <results>/runs/<run-id>/ (results.jsonl sorted,
run.json, merge.json), regenerates the run's reports and the leaderboard from
the latest run of every model (other models stay), updates timings.json, and
adds a job summary in GitHub Actions. Merging the same input twice changes
nothing. Exit code 1 when it refuses. See docs/PIPELINE.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := runMerge(cmd.Context(), f, o)
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.Plan, "plan", "plan.json", "the plan the artifacts were made for")
	fl.StringVar(&o.Artifacts, "artifacts", "artifacts", "directory holding the shard artifacts (searched recursively)")
	fl.StringVar(&o.Results, "results", "results", "the results tree to merge into (runs/<run-id>/, LEADERBOARD.md, timings.json)")
	fl.StringVar(&o.CasesDir, "cases", "", "corpus root for the case metadata (default: the plan's)")
	fl.StringVar(&o.PrivateDir, "private-cases", "", "private corpus root (default: the plan's)")
	fl.StringVar(&o.RunID, "run-id", "", "run id (default: plan-<first 12 hex digits of the plan hash>)")
	addGeneratedFlag(fl, &o.Generated)
	fl.StringVar(&o.PRBody, "pr-body", "", "also write the results pull request's body to this file")
	fl.BoolVar(&o.AllowPartial, "allow-partial", false, "merge the usable shards when some are missing or broken, marking the reports partial (duplicated shards still refuse)")
	fl.Int64Var(&o.MaxArtifactBytes, "max-artifact-bytes", 0, "largest artifact file read, in bytes; a larger one (or a symbolic link) is refused like a corrupt one (0: 64 MiB)")
	return cmd
}

// runMerge merges, writes the job summary and, when asked, the PR body.
func runMerge(ctx context.Context, f *Factory, o MergeOptions) (*pipeline.MergeOutcome, error) {
	p, err := pipeline.ReadPlan(o.Plan)
	if err != nil {
		return nil, usageError(err)
	}
	if o.MaxArtifactBytes < 0 {
		return nil, usageError(errors.New("--max-artifact-bytes must not be negative"))
	}
	when, err := parseGenerated(o.Generated)
	if err != nil {
		return nil, err
	}
	corpus := CorpusOptions{CasesDir: o.CasesDir, PrivateDir: o.PrivateDir, IncludePrivate: p.Inputs.IncludePrivate}
	if corpus.CasesDir == "" {
		corpus.CasesDir = p.Inputs.CasesDir
	}
	if corpus.PrivateDir == "" {
		corpus.PrivateDir = p.Inputs.PrivateDir
	}
	all, _, err := loadSelected(f.IO.ErrOut, &corpus)
	if err != nil {
		return nil, err
	}
	if o.RunID == "" {
		o.RunID = pipeline.DefaultRunID(p)
	}
	m, err := pipeline.Merge(ctx, pipeline.MergeOptions{
		Plan: p, ArtifactsDir: o.Artifacts, ResultsDir: o.Results, RunID: o.RunID,
		AllowPartial: o.AllowPartial, Corpus: all, Generated: when, MaxArtifactBytes: o.MaxArtifactBytes,
	})
	var refusal *pipeline.RefusalError
	if errors.As(err, &refusal) {
		return nil, &ExitError{Code: ExitFindings, Err: err}
	}
	if err != nil {
		return nil, err
	}
	for _, w := range m.Warnings {
		fmt.Fprintln(f.IO.ErrOut, "warning:", w)
	}
	if m.PartialNote != "" {
		fmt.Fprintln(f.IO.ErrOut, "warning: partial results: "+m.PartialNote)
	}
	summary := pipeline.MergeSummary(m)
	if err := pipeline.AddSummary(f.actions(), summary); err != nil {
		return nil, err
	}
	fmt.Fprint(f.IO.Out, summary)
	if o.PRBody != "" {
		if err := ghpub.WritePRBodyFile(o.PRBody, m.Before, m.After, m.Record.RunID, m.PartialNote); err != nil {
			return nil, err
		}
		fmt.Fprintf(f.IO.Out, "pull request body: %s\n", o.PRBody)
	}
	return m, nil
}
