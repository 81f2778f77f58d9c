package cli

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/spf13/pflag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/pipeline"
)

// Files of a local dry run, under --output-dir.
const (
	localPlanFile   = "plan.json"
	localArtifacts  = "artifacts"
	localResults    = "results"
	localPRBodyFile = "pr_body.md"
)

// localFlags are the flags of `pipeline --local`: run's model flags (layers,
// jobs, toolchain, cache...) plus the planning and merging options.
type localFlags struct {
	runFlags
	local        bool
	isolate      bool
	models       []string
	maxJobs      int
	timingsPath  string
	allowPartial bool
}

func newPipelineCommand() *cobra.Command {
	var f localFlags
	cmd := &cobra.Command{
		Use:   "pipeline",
		Short: "Dry-run the GitHub Actions pipeline on this machine (plan, every shard, merge, PR body)",
		Long: `pipeline --local walks the benchmark workflow in one place: it plans the
matrix (as shard does) into <output-dir>/plan.json, runs every shard (as
run --plan --shard does; in this process, or as separate processes of this
binary with --isolate) writing <output-dir>/artifacts/shard-<N>.json, merges
them (as merge does) into <output-dir>/results/, and writes the body of the
results pull request it would open to <output-dir>/pr_body.md. Nothing is
sent anywhere. Exit code 1 when some results could not be evaluated.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runLocalPipeline(cmd, &f) },
	}
	f.modelFlags.register(cmd)
	fl := cmd.Flags()
	fl.BoolVar(&f.local, "local", false, "run locally (required: the pipeline proper runs in GitHub Actions)")
	fl.BoolVar(&f.isolate, "isolate", false, "run each shard as a separate process of this binary")
	fl.StringArrayVar(&f.models, "model", []string{"reference"}, "model spec (repeatable)")
	fl.IntVar(&f.samples, "samples", 1, "attempts per case")
	fl.StringVar(&f.scenario, "scenario", "generation", "generation or bugfix")
	fl.IntVar(&f.feedbackRounds, "feedback-rounds", 0, "compiler-feedback rounds after an L0 or L1 failure")
	fl.IntVar(&f.maxJobs, "max-jobs", 8, "most shards (raised by itself to one per image × model group when not given)")
	fl.StringVar(&f.outputDir, "output-dir", filepath.Join(".cache", "embedeval", "pipeline"), "where plan.json, artifacts/, results/ and pr_body.md go")
	fl.StringVar(&f.timingsPath, "timings", "", "recorded durations for planning (default <output-dir>/results/timings.json)")
	fl.StringVar(&f.runID, "run-id", "", "run id (default: plan-<plan hash>)")
	fl.BoolVar(&f.allowPartial, "allow-partial", false, "merge even when a shard failed, marking the reports partial")
	return cmd
}

func runLocalPipeline(cmd *cobra.Command, f *localFlags) error {
	if !f.local {
		return usageError(errors.New("only --local is available here: in GitHub Actions the workflow runs shard, run --plan and merge as steps"))
	}
	out := cmd.OutOrStdout()
	dir := f.outputDir
	resultsDir := filepath.Join(dir, localResults)
	planPath := filepath.Join(dir, localPlanFile)
	timings := f.timingsPath
	if timings == "" {
		timings = filepath.Join(resultsDir, pipeline.TimingsFile)
	}
	sf := shardFlags{
		corpus: f.corpus, platformsFile: f.tc.platformsFile, models: f.models, samples: f.samples, scenario: f.scenario,
		feedbackRounds: f.feedbackRounds, temperature: f.temperature, maxTokens: f.maxTokens, layers: f.layers,
		maxJobs: f.maxJobs, planPath: planPath, timingsPath: timings,
	}
	p, err := makePlan(cmd, &sf)
	var few *pipeline.TooFewJobsError
	if errors.As(err, &few) {
		// Every image × model group needs a shard of its own: without an
		// explicit --max-jobs, take as many as that; a limit the user set
		// below it is theirs to raise.
		if cmd.Flags().Changed("max-jobs") {
			return usageError(fmt.Errorf("--max-jobs %d is below the minimum for this selection: %d image × model groups need at least %d shards", few.MaxJobs, few.Groups, few.Groups))
		}
		sf.maxJobs = few.Groups
		p, err = makePlan(cmd, &sf)
	}
	if err != nil {
		return err
	}
	fmt.Fprint(out, pipeline.PlanSummary(p))
	artifacts := filepath.Join(dir, localArtifacts)
	// A previous dry run's artifacts would be duplicates or foreign.
	if err := os.RemoveAll(artifacts); err != nil {
		return fmt.Errorf("clear %s: %w", artifacts, err)
	}
	errorsTotal := 0
	var failed []int
	for _, j := range p.Jobs {
		path := filepath.Join(artifacts, pipeline.ArtifactName(j.Index))
		var n int
		var err error
		if f.isolate {
			err = runShardProcess(cmd, planPath, j.Index, path)
		} else {
			n, err = runShard(cmd, &f.runFlags, planPath, j.Index, path)
		}
		if err != nil {
			if !f.allowPartial {
				return fmt.Errorf("shard %d: %w", j.Index, err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "warning: shard %d failed: %v\n", j.Index, err)
			failed = append(failed, j.Index)
		}
		errorsTotal += n
	}
	mf := mergeFlags{
		planPath: planPath, artifactsDir: artifacts, resultsDir: resultsDir, casesDir: f.corpus.casesDir,
		privateDir: f.corpus.privateDir, runID: f.runID, allowPartial: f.allowPartial,
		prBody: filepath.Join(dir, localPRBodyFile),
	}
	o, err := runMerge(cmd, &mf, func(string) string { return "" })
	if err != nil {
		return err
	}
	errorsTotal = max(errorsTotal, o.Record.Errors)
	fmt.Fprintf(out, "results: %s\n", resultsDir)
	if errorsTotal > 0 {
		return findings("%d results could not be evaluated", errorsTotal)
	}
	return nil
}

// runShardProcess runs one shard as `<this binary> run --plan ...` with
// the argv of shardArgs.
func runShardProcess(cmd *cobra.Command, planPath string, n int, artifact string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this binary: %w", err)
	}
	args, err := shardArgs(cmd, planPath, n, artifact)
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	c := exec.CommandContext(cmd.Context(), exe, args...)
	c.Stdout = cmd.OutOrStdout()
	c.Stderr = &stderr
	err = c.Run()
	cmd.ErrOrStderr().Write(stderr.Bytes())
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == ExitFindings {
		return nil // error results are in the artifact
	}
	if err != nil {
		return fmt.Errorf("%s %v: %w", exe, args, err)
	}
	return nil
}

// shardArgs is the argv of one isolated shard: `run --plan --shard
// --artifact` plus every flag given to this pipeline command that `run`
// also has, except those the plan owns (planOwnedFlags), so the child
// evaluates exactly as the in-process shard would (--require-layers, the
// timeouts, the check limits, --base-url, --context-pack and any flag added
// later). Values are passed as --name=value, a list flag once per element.
func shardArgs(cmd *cobra.Command, planPath string, n int, artifact string) ([]string, error) {
	args := []string{"run", "--plan", planPath, "--shard", strconv.Itoa(n), "--artifact", artifact}
	run := newRunCommand()
	owned := map[string]bool{"plan": true, "shard": true, "artifact": true}
	for _, name := range planOwnedFlags() {
		owned[name] = true
	}
	var problem error
	cmd.Flags().VisitAll(func(fl *pflag.Flag) {
		target := run.Flags().Lookup(fl.Name)
		if owned[fl.Name] || target == nil || (!fl.Changed && fl.Value.String() == target.DefValue) {
			return
		}
		if target.Value.Type() != fl.Value.Type() && problem == nil {
			problem = fmt.Errorf("--%s is a %s here and a %s in run: cannot pass it to an isolated shard", fl.Name, fl.Value.Type(), target.Value.Type())
			return
		}
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				args = append(args, "--"+fl.Name+"="+v)
			}
			return
		}
		args = append(args, "--"+fl.Name+"="+fl.Value.String())
	})
	return args, problem
}
