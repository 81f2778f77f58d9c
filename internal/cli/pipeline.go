package cli

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/sethvargo/go-githubactions"
	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/github"
	"github.com/embedeval/embedeval-go/internal/pipeline"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/runner"
	"github.com/embedeval/embedeval-go/internal/score"
)

// getenvFunc reads the environment (os.Getenv, or a map in tests).
type getenvFunc func(string) string

// actionsFor returns the GitHub Actions helper writing workflow commands to
// the command's stdout and outputs/summaries to the files named by getenv.
func actionsFor(cmd *cobra.Command, getenv getenvFunc) *githubactions.Action {
	return githubactions.New(githubactions.WithWriter(cmd.OutOrStdout()), githubactions.WithGetenv(githubactions.GetenvFunc(getenv)))
}

// shardFlags are the flags of the shard step.
type shardFlags struct {
	corpus         corpusFlags
	platformsFile  string
	models         []string
	samples        int
	scenario       string
	feedbackRounds int
	temperature    float64
	maxTokens      int
	layers         string
	maxJobs        int
	planPath       string
	timingsPath    string
	changedSince   string
}

func (f *shardFlags) register(cmd *cobra.Command) {
	f.corpus.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.platformsFile, "platforms", "", "platform registry to use instead of the shipped data/platforms.yaml")
	fl.StringSliceVar(&f.models, "models", []string{"reference"}, "model specs (comma-separated or repeated), as for run --model")
	fl.IntVar(&f.samples, "samples", 1, "attempts per case (for pass@k)")
	fl.StringVar(&f.scenario, "scenario", "generation", "generation or bugfix")
	fl.IntVar(&f.feedbackRounds, "feedback-rounds", 0, "compiler-feedback rounds after an L0 or L1 failure")
	fl.Float64Var(&f.temperature, "temperature", 0, "sampling temperature (0: the provider's default)")
	fl.IntVar(&f.maxTokens, "max-tokens", 0, "largest reply in tokens (0: the provider's default)")
	fl.StringVar(&f.layers, "layers", "all", "layers to run: all, or a list such as L0,L3,L4")
	fl.IntVar(&f.maxJobs, "max-jobs", 64, "most matrix jobs (GitHub allows 256)")
	fl.StringVar(&f.planPath, "plan", "plan.json", "where the plan is written")
	fl.StringVar(&f.timingsPath, "timings", filepath.Join("results", pipeline.TimingsFile), "recorded durations (written by merge); missing means predict from the platform table")
	fl.StringVar(&f.changedSince, "changed-since", "", "only cases with files changed since the merge base of this git ref and HEAD (for pull requests)")
}

// filterStrings records the corpus filter in the plan's inputs.
func filterStrings(flt cases.Filter) []string {
	var out []string
	add := func(name string, vs ...string) {
		for _, v := range vs {
			if v != "" {
				out = append(out, name+"="+v)
			}
		}
	}
	add("category", flt.Categories...)
	add("difficulty", flt.Difficulties...)
	add("tier", flt.Tiers...)
	add("platform", flt.Platforms...)
	add("sdk", flt.SDKs...)
	add("visibility", flt.Visibility)
	add("after-date", flt.AfterDate)
	add("case", flt.IDs...)
	return out
}

// makePlan selects the cases and plans the matrix.
func makePlan(cmd *cobra.Command, f *shardFlags) (*pipeline.Plan, error) {
	if _, err := runner.ParseScenario(f.scenario); err != nil {
		return nil, usageError(fmt.Errorf("--scenario: %w", err))
	}
	set, err := eval.ParseLayers(f.layers)
	if err != nil {
		return nil, usageError(err)
	}
	if f.feedbackRounds < 0 || f.temperature < 0 || f.maxTokens < 0 {
		return nil, usageError(errors.New("--feedback-rounds, --temperature and --max-tokens must not be negative"))
	}
	tc := toolchainFlags{platformsFile: f.platformsFile}
	reg, err := tc.registry()
	if err != nil {
		return nil, err
	}
	sel, _, err := loadSelected(cmd, &f.corpus)
	if err != nil {
		return nil, err
	}
	if f.changedSince != "" {
		if sel, err = pipeline.ChangedCases(cmd.Context(), f.corpus.casesDir, f.changedSince, sel); err != nil {
			return nil, usageError(err)
		}
	}
	tm, tmHash, err := pipeline.LoadTimings(f.timingsPath)
	if err != nil {
		return nil, usageError(err)
	}
	flt, _ := f.corpus.resolved()
	in := pipeline.Inputs{
		CasesDir: f.corpus.casesDir, PrivateDir: f.corpus.privateDir, IncludePrivate: flt.IncludePrivate,
		Filters: filterStrings(f.corpus.filter), ChangedSince: f.changedSince, Models: f.models, Samples: f.samples,
		Scenario: f.scenario, FeedbackRounds: f.feedbackRounds, Temperature: f.temperature, MaxTokens: f.maxTokens,
		Layers: set.String(), MaxJobs: f.maxJobs, Timings: tmHash,
	}
	p, err := pipeline.BuildPlan(pipeline.PlanOptions{
		Inputs: in, BinaryVersion: Version(), Cases: sel, Registry: reg,
		Predictor: pipeline.Predictor{Timings: tm, Build: set.Has(result.LayerCompile), Run: set.Has(result.LayerRuntime)},
	})
	if err != nil {
		return nil, usageError(err)
	}
	if err := pipeline.WritePlan(f.planPath, p); err != nil {
		return nil, err
	}
	return p, nil
}

// NewShardCommand builds the shard step: it plans the GitHub Actions matrix.
func NewShardCommand() *cobra.Command { return newShardCommand(os.Getenv) }

func newShardCommand(getenv getenvFunc) *cobra.Command {
	var f shardFlags
	cmd := &cobra.Command{
		Use:   "shard",
		Short: "Plan the benchmark's GitHub Actions matrix",
		Long: `shard splits the selected cases × models × samples into at most --max-jobs
matrix jobs, grouped by SDK container image and model and balanced by
predicted duration (recorded in --timings by merge; predicted from the
platform and the reference size where a case has no history), and writes the
plan file. In GitHub Actions it sets the step outputs matrix
({"include": [{shard, name, image, model}]}), jobs and plan-hash, and adds the
plan's table to the job summary. The same inputs give the same plan.

--changed-since REF plans only the cases whose files changed since the merge
base of REF and HEAD (pull requests). See docs/PIPELINE.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := makePlan(cmd, &f)
			if err != nil {
				return err
			}
			a := actionsFor(cmd, getenv)
			if err := pipeline.WriteOutputs(a, p); err != nil {
				return err
			}
			summary := pipeline.PlanSummary(p)
			if err := pipeline.AddSummary(a, summary); err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), summary)
			fmt.Fprintf(cmd.OutOrStdout(), "\nplan: %s\n", f.planPath)
			return nil
		},
	}
	f.register(cmd)
	return cmd
}

// runShard is `run --plan FILE --shard N --artifact FILE`: it runs one
// shard of a plan with the plan's options and writes the shard artifact
// atomically. It returns the number of error results.
func runShard(cmd *cobra.Command, f *runFlags, planPath string, n int, artifactPath string) (int, error) {
	p, err := pipeline.ReadPlan(planPath)
	if err != nil {
		return 0, usageError(err)
	}
	job, err := p.Job(n)
	if err != nil {
		return 0, usageError(fmt.Errorf("--shard: %w", err))
	}
	if p.BinaryVersion != Version() {
		return 0, usageError(fmt.Errorf("%s was planned by embedeval %s; this is %s (merge would refuse the artifact)", planPath, p.BinaryVersion, Version()))
	}
	scenario, err := runner.ParseScenario(p.Inputs.Scenario)
	if err != nil {
		return 0, usageError(fmt.Errorf("%s: %w", planPath, err))
	}
	ids := make([]string, len(job.Cases))
	for i, c := range job.Cases {
		ids[i] = c.ID
	}
	g := *f
	g.corpus.filter = cases.Filter{IDs: ids}
	g.corpus.includePrivate = p.Inputs.IncludePrivate
	if !cmd.Flags().Changed("cases") {
		g.corpus.casesDir = p.Inputs.CasesDir
	}
	if !cmd.Flags().Changed("private-cases") {
		g.corpus.privateDir = p.Inputs.PrivateDir
	}
	g.layers, g.temperature, g.maxTokens = p.Inputs.Layers, p.Inputs.Temperature, p.Inputs.MaxTokens
	prep, err := g.prepare(cmd, []string{job.Model})
	if err != nil {
		return 0, err
	}
	found := map[string]*cases.Case{}
	for _, c := range prep.selected {
		found[c.Meta.ID] = c
	}
	evaluated := make([]pipeline.CaseRef, 0, len(job.Cases))
	for _, jc := range job.Cases {
		c := found[jc.ID]
		switch {
		case c == nil:
			return 0, usageError(fmt.Errorf("shard %d: case %s of the plan is not in %s (or does not load)", n, jc.ID, g.corpus.casesDir))
		case c.Hash != jc.Hash:
			return 0, usageError(fmt.Errorf("shard %d: case %s changed since planning (now %s, the plan has %s); plan again", n, jc.ID, c.Hash, jc.Hash))
		}
		evaluated = append(evaluated, pipeline.CaseRef{ID: c.Meta.ID, Hash: c.Hash})
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "shard %d of %d: %s (%d cases × %d samples)\n", n, len(p.Jobs), job.Name, len(job.Cases), job.Samples)
	opts := prep.opts
	opts.Samples, opts.Scenario, opts.FeedbackRounds = job.Samples, scenario, p.Inputs.FeedbackRounds
	progress := runner.NewProgress(out, isTerminal(out), func(r result.EvalResult) string { return resultLine(r, false) }, nil)
	opts.OnPlan = func(todo, _ int) { progress.Start(todo) }
	opts.OnResult = progress.Add
	opts.OnNote = func(s string) { fmt.Fprintln(cmd.ErrOrStderr(), "note: "+s) }
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	started := time.Now()
	results, err := runner.Run(ctx, opts)
	progress.Finish()
	if err != nil {
		return 0, fmt.Errorf("shard %d: %w (no artifact written)", n, err)
	}
	art := pipeline.NewArtifact(p, n, Version(), evaluated, started, time.Since(started), results)
	art.Jail = prep.jail.Describe()
	if err := pipeline.WriteArtifact(artifactPath, art); err != nil {
		return 0, err
	}
	errorsTotal := printSummary(out, []string{job.Model}, results)
	fmt.Fprintf(out, "artifact: %s (%d results, %d infrastructure errors)\n", artifactPath, len(results), len(art.InfraErrors))
	return errorsTotal, nil
}

// mergeFlags are the flags of the merge step.
type mergeFlags struct {
	planPath, artifactsDir, resultsDir, casesDir, privateDir string
	runID, generated, prBody                                 string
	allowPartial                                             bool
	maxArtifactBytes                                         int64
}

func (f *mergeFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.planPath, "plan", "plan.json", "the plan the artifacts were made for")
	fl.StringVar(&f.artifactsDir, "artifacts", "artifacts", "directory holding the shard artifacts (searched recursively)")
	fl.StringVar(&f.resultsDir, "results", "results", "the results tree to merge into (runs/<run-id>/, LEADERBOARD.md, timings.json)")
	fl.StringVar(&f.casesDir, "cases", "", "corpus root for the case metadata (default: the plan's)")
	fl.StringVar(&f.privateDir, "private-cases", "", "private corpus root (default: the plan's)")
	fl.StringVar(&f.runID, "run-id", "", "run id (default: plan-<first 12 hex digits of the plan hash>)")
	fl.StringVar(&f.generated, "generated", "", "timestamp to record in the reports (RFC 3339); empty leaves it out, keeping outputs byte-identical")
	fl.StringVar(&f.prBody, "pr-body", "", "also write the results pull request's body to this file")
	fl.BoolVar(&f.allowPartial, "allow-partial", false, "merge the usable shards when some are missing or broken, marking the reports partial (duplicated shards still refuse)")
	fl.Int64Var(&f.maxArtifactBytes, "max-artifact-bytes", 0, "largest artifact file read, in bytes; a larger one (or a symbolic link) is refused like a corrupt one (0: 64 MiB)")
}

// mergeOutcome merges and writes the job summary and, when asked, the PR body.
func runMerge(cmd *cobra.Command, f *mergeFlags, getenv getenvFunc) (*pipeline.MergeOutcome, error) {
	p, err := pipeline.ReadPlan(f.planPath)
	if err != nil {
		return nil, usageError(err)
	}
	if f.maxArtifactBytes < 0 {
		return nil, usageError(errors.New("--max-artifact-bytes must not be negative"))
	}
	var when time.Time
	if f.generated != "" {
		if when, err = time.Parse(time.RFC3339, f.generated); err != nil {
			return nil, usageError(fmt.Errorf("--generated: %w", err))
		}
	}
	corpus := corpusFlags{casesDir: f.casesDir, privateDir: f.privateDir, includePrivate: p.Inputs.IncludePrivate}
	if corpus.casesDir == "" {
		corpus.casesDir = p.Inputs.CasesDir
	}
	if corpus.privateDir == "" {
		corpus.privateDir = p.Inputs.PrivateDir
	}
	all, _, err := loadSelected(cmd, &corpus)
	if err != nil {
		return nil, err
	}
	runID := f.runID
	if runID == "" {
		runID = pipeline.DefaultRunID(p)
	}
	o, err := pipeline.Merge(cmd.Context(), pipeline.MergeOptions{
		Plan: p, ArtifactsDir: f.artifactsDir, ResultsDir: f.resultsDir, RunID: runID,
		AllowPartial: f.allowPartial, Corpus: all, Generated: when, MaxArtifactBytes: f.maxArtifactBytes,
	})
	var refusal *pipeline.RefusalError
	if errors.As(err, &refusal) {
		return nil, &ExitError{Code: ExitFindings, Err: err}
	}
	if err != nil {
		return nil, err
	}
	for _, w := range o.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
	}
	if o.PartialNote != "" {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning: partial results: "+o.PartialNote)
	}
	summary := pipeline.MergeSummary(o)
	if err := pipeline.AddSummary(actionsFor(cmd, getenv), summary); err != nil {
		return nil, err
	}
	fmt.Fprint(cmd.OutOrStdout(), summary)
	if f.prBody != "" {
		if err := writePRBody(f.prBody, o); err != nil {
			return nil, err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "pull request body: %s\n", f.prBody)
	}
	return o, nil
}

// writePRBody renders the results pull request's body (github.RenderPRBody:
// the leaderboard before → after this run), with the partial warning under
// the marker line when shards are missing.
func writePRBody(path string, o *pipeline.MergeOutcome) error {
	body := github.RenderPRBody(o.Before, nonNil(o.After), github.BodyOptions{RunID: o.Record.RunID})
	if o.PartialNote != "" {
		head, rest, _ := strings.Cut(body, "\n")
		body = head + "\n> **Warning: partial results.** " + o.PartialNote + "\n" + rest
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func nonNil(r *score.Report) *score.Report {
	if r == nil {
		return &score.Report{}
	}
	return r
}

// NewMergeCommand builds the merge step: it scores shard artifacts.
func NewMergeCommand() *cobra.Command { return newMergeCommand(os.Getenv) }

func newMergeCommand(getenv getenvFunc) *cobra.Command {
	var f mergeFlags
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
			_, err := runMerge(cmd, &f, getenv)
			return err
		},
	}
	f.register(cmd)
	return cmd
}

// planOwnedFlags are run's flags whose values come from the plan with --plan.
func planOwnedFlags() []string {
	return []string{"model", "samples", "scenario", "feedback-rounds", "temperature", "max-tokens", "layers",
		"retest-only", "run-id", "output-dir", "category", "difficulty", "tier", "platform", "sdk", "visibility",
		"after-date", "case", "include-private"}
}

// executeShardRun checks the --plan flags and runs the shard.
func executeShardRun(cmd *cobra.Command, f *runFlags) error {
	if f.planFile == "" || f.shard < 1 {
		return usageError(errors.New("--plan FILE and --shard N (N >= 1) go together"))
	}
	for _, name := range planOwnedFlags() {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
			return usageError(fmt.Errorf("--%s cannot be given with --plan: the plan sets it", name))
		}
	}
	if f.artifact == "" {
		f.artifact = pipeline.ArtifactName(f.shard)
	}
	errorsTotal, err := runShard(cmd, f, f.planFile, f.shard, f.artifact)
	if err != nil {
		return err
	}
	if errorsTotal > 0 {
		return findings("%d results could not be evaluated (they are in the artifact)", errorsTotal)
	}
	return nil
}
