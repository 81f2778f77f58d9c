package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/pipeline"
)

// Files of a local dry run, under --output-dir.
const (
	localPlanFile     = "plan.json"
	localArtifacts    = "artifacts"
	localShardOptions = "shard-options"
	localResults      = "results"
	localPRBodyFile   = "pr_body.md"
)

// PipelineOptions are the options of `pipeline --local`: run's evaluation
// options plus the planning and merging ones.
type PipelineOptions struct {
	Eval           EvalOptions
	Local, Isolate bool
	Models         []string
	Samples        int
	Scenario       string
	FeedbackRounds int
	MaxJobs        int
	// MaxJobsSet says --max-jobs was given (else it is raised to the
	// minimum the selection needs).
	MaxJobsSet   bool
	OutputDir    string
	Timings      string
	RunID        string
	AllowPartial bool
}

func newPipelineCommand(f *Factory) *cobra.Command {
	var o PipelineOptions
	cmd := &cobra.Command{
		Use:   "pipeline",
		Short: "Dry-run the GitHub Actions pipeline on this machine (plan, every shard, merge, PR body)",
		Long: `pipeline --local walks the benchmark workflow in one place: it plans the
matrix (as shard does) into <output-dir>/plan.json, runs every shard (as
run --plan --shard does; in this process, or as separate processes of this
binary with --isolate, each given its options in
<output-dir>/shard-options/shard-<N>.json) writing
<output-dir>/artifacts/shard-<N>.json, merges them (as merge does) into
<output-dir>/results/, and writes the body of the results pull request it
would open to <output-dir>/pr_body.md. Nothing is sent anywhere. Exit code 1
when some results could not be evaluated.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.MaxJobsSet = cmd.Flags().Changed("max-jobs")
			return runPipeline(cmd.Context(), f, o)
		},
	}
	o.Eval.register(cmd)
	fl := cmd.Flags()
	fl.BoolVar(&o.Local, "local", false, "run locally (required: the pipeline proper runs in GitHub Actions)")
	fl.BoolVar(&o.Isolate, "isolate", false, "run each shard as a separate process of this binary")
	addModelFlag(fl, &o.Models)
	addSamplesFlag(fl, &o.Samples)
	addScenarioFlag(fl, &o.Scenario)
	addFeedbackRoundsFlag(fl, &o.FeedbackRounds)
	fl.IntVar(&o.MaxJobs, "max-jobs", 8, "most shards (raised by itself to one per image × model group when not given)")
	fl.StringVar(&o.OutputDir, "output-dir", filepath.Join(".cache", "embedeval", "pipeline"), "where plan.json, artifacts/, results/ and pr_body.md go")
	fl.StringVar(&o.Timings, "timings", "", "recorded durations for planning (default <output-dir>/results/timings.json)")
	fl.StringVar(&o.RunID, "run-id", "", "run id (default: plan-<plan hash>)")
	fl.BoolVar(&o.AllowPartial, "allow-partial", false, "merge even when a shard failed, marking the reports partial")
	return cmd
}

// runPipeline plans, runs every shard and merges, on this machine.
func runPipeline(ctx context.Context, f *Factory, o PipelineOptions) error {
	if !o.Local {
		return usageError(errors.New("only --local is available here: in GitHub Actions the workflow runs shard, run --plan and merge as steps"))
	}
	dir := o.OutputDir
	resultsDir := filepath.Join(dir, localResults)
	planPath := filepath.Join(dir, localPlanFile)
	so := ShardOptions{
		Corpus: o.Eval.Corpus, PlatformsFile: o.Eval.Toolchain.PlatformsFile, Models: o.Models, Samples: o.Samples,
		Scenario: o.Scenario, FeedbackRounds: o.FeedbackRounds, Temperature: o.Eval.Temperature, MaxTokens: o.Eval.MaxTokens,
		Layers: o.Eval.Layers, ContextPack: o.Eval.ContextPack, MaxJobs: o.MaxJobs, Plan: planPath, Timings: o.Timings,
		Limits: o.Eval.Limits, BuildTimeout: o.Eval.Toolchain.BuildTimeout, RunTimeout: o.Eval.Toolchain.RunTimeout,
		RequireLayers: o.Eval.Toolchain.RequireLayers,
	}
	if so.Timings == "" {
		so.Timings = filepath.Join(resultsDir, pipeline.TimingsFile)
	}
	p, err := makePlan(ctx, f, so)
	var few *pipeline.TooFewJobsError
	if errors.As(err, &few) {
		// Every image × model group needs a shard of its own: without an
		// explicit --max-jobs, take as many as that; a limit the user set
		// below it is theirs to raise.
		if o.MaxJobsSet {
			return usageError(fmt.Errorf("--max-jobs %d is below the minimum for this selection: %d image × model groups need at least %d shards", few.MaxJobs, few.Groups, few.Groups))
		}
		so.MaxJobs = few.Groups
		p, err = makePlan(ctx, f, so)
	}
	if err != nil {
		return err
	}
	fmt.Fprint(f.IO.Out, pipeline.PlanSummary(p))
	artifacts, optsDir := filepath.Join(dir, localArtifacts), filepath.Join(dir, localShardOptions)
	// A previous dry run's artifacts would be duplicates or foreign.
	for _, d := range []string{artifacts, optsDir} {
		if err := os.RemoveAll(d); err != nil {
			return fmt.Errorf("clear %s: %w", d, err)
		}
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errorsTotal := 0
	for _, j := range p.Jobs {
		sro := ShardRunOptions{Plan: planPath, Shard: j.Index, Artifact: filepath.Join(artifacts, pipeline.ArtifactName(j.Index)), Eval: o.Eval}
		var n int
		var err error
		if o.Isolate {
			err = runShardProcess(ctx, f, sro, filepath.Join(optsDir, pipeline.ArtifactName(j.Index)))
		} else {
			n, err = runShardRun(ctx, f, sro)
		}
		if err != nil {
			if !o.AllowPartial {
				return fmt.Errorf("shard %d: %w", j.Index, err)
			}
			fmt.Fprintf(f.IO.ErrOut, "warning: shard %d failed: %v\n", j.Index, err)
		}
		errorsTotal += n
	}
	// The dry run adds nothing to a GitHub Actions job summary.
	quiet := *f
	quiet.Getenv = func(string) string { return "" }
	m, err := runMerge(ctx, &quiet, MergeOptions{
		Plan: planPath, Artifacts: artifacts, Results: resultsDir, CasesDir: o.Eval.Corpus.CasesDir,
		PrivateDir: o.Eval.Corpus.PrivateDir, RunID: o.RunID, AllowPartial: o.AllowPartial,
		PRBody: filepath.Join(dir, localPRBodyFile),
	})
	if err != nil {
		return err
	}
	errorsTotal = max(errorsTotal, m.Record.Errors)
	fmt.Fprintf(f.IO.Out, "results: %s\n", resultsDir)
	if errorsTotal > 0 {
		return findings("%d results could not be evaluated", errorsTotal)
	}
	return nil
}

// runShardProcess runs one shard as `<this binary> run --shard-options
// FILE`, the file holding the shard's options whole (ShardRunOptions as
// JSON), so the child evaluates exactly as the in-process shard would.
// Exit code 1 (error results, which are in the artifact) is not a failure.
func runShardProcess(ctx context.Context, f *Factory, so ShardRunOptions, optionsPath string) error {
	if err := writeShardOptions(optionsPath, so); err != nil {
		return err
	}
	args := []string{"run", "--shard-options", optionsPath}
	var stderr bytes.Buffer
	code, err := f.RunSelf(ctx, args, f.IO.Out, &stderr)
	f.IO.ErrOut.Write(stderr.Bytes())
	switch {
	case err != nil:
		return err
	case code != ExitOK && code != ExitFindings:
		return fmt.Errorf("%s: exit code %d: %s", strings.Join(args, " "), code, strings.TrimSpace(lastLine(stderr.String())))
	}
	return nil
}

// lastLine is the last line of s.
func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
