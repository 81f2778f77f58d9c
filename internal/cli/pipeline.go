package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/sethvargo/go-githubactions"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/eval"
	ghpub "github.com/embedeval/embedeval-go/internal/github"
	"github.com/embedeval/embedeval-go/internal/pipeline"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/runner"
)

// actions returns the GitHub Actions helper writing workflow commands to
// the factory's stdout and outputs/summaries to the files its environment
// names.
func (f *Factory) actions() *githubactions.Action {
	return githubactions.New(githubactions.WithWriter(f.IO.Out), githubactions.WithGetenv(githubactions.GetenvFunc(f.Getenv)))
}

// ShardOptions are the options of the shard step (planning).
type ShardOptions struct {
	Corpus         CorpusOptions
	PlatformsFile  string
	Models         []string
	Samples        int
	Scenario       string
	FeedbackRounds int
	Temperature    float64
	MaxTokens      int
	Layers         string
	// ContextPack is the context pack's path (its hash goes into the plan).
	ContextPack  string
	MaxJobs      int
	Plan         string
	Timings      string
	ChangedSince string
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

// makePlan selects the cases, plans the matrix and writes the plan.
func makePlan(ctx context.Context, f *Factory, o ShardOptions) (*pipeline.Plan, error) {
	if _, err := runner.ParseScenario(o.Scenario); err != nil {
		return nil, usageError(fmt.Errorf("--scenario: %w", err))
	}
	set, err := eval.ParseLayers(o.Layers)
	if err != nil {
		return nil, usageError(err)
	}
	if o.FeedbackRounds < 0 || o.Temperature < 0 || o.MaxTokens < 0 {
		return nil, usageError(errors.New("--feedback-rounds, --temperature and --max-tokens must not be negative"))
	}
	pack, err := readContextPack(o.ContextPack)
	if err != nil {
		return nil, err
	}
	reg, err := loadRegistry(o.PlatformsFile)
	if err != nil {
		return nil, err
	}
	sel, _, err := loadSelected(f.IO.ErrOut, &o.Corpus)
	if err != nil {
		return nil, err
	}
	if o.ChangedSince != "" {
		if sel, err = pipeline.ChangedCases(ctx, o.Corpus.CasesDir, o.ChangedSince, sel); err != nil {
			return nil, usageError(err)
		}
	}
	tm, tmHash, err := pipeline.LoadTimings(o.Timings)
	if err != nil {
		return nil, usageError(err)
	}
	flt, _ := o.Corpus.resolved()
	in := pipeline.Inputs{
		CasesDir: o.Corpus.CasesDir, PrivateDir: o.Corpus.PrivateDir, IncludePrivate: flt.IncludePrivate,
		Filters: filterStrings(o.Corpus.Filter), ChangedSince: o.ChangedSince, Models: o.Models, Samples: o.Samples,
		Scenario: o.Scenario, FeedbackRounds: o.FeedbackRounds, Temperature: o.Temperature, MaxTokens: o.MaxTokens,
		Layers: set.String(), ContextPack: packHash(pack), MaxJobs: o.MaxJobs, Timings: tmHash,
	}
	if pack != "" {
		in.ContextPackFile = o.ContextPack
	}
	p, err := pipeline.BuildPlan(pipeline.PlanOptions{
		Inputs: in, BinaryVersion: Version(), Cases: sel, Registry: reg,
		Predictor: pipeline.Predictor{Timings: tm, Build: set.Has(result.LayerCompile), Run: set.Has(result.LayerRuntime)},
	})
	if err != nil {
		return nil, usageError(err)
	}
	if err := pipeline.WritePlan(o.Plan, p); err != nil {
		return nil, err
	}
	return p, nil
}

// NewShardCommand builds the shard step: it plans the GitHub Actions matrix.
func NewShardCommand() *cobra.Command {
	return newShardCommand(DefaultFactory(os.Stdin, os.Stdout, os.Stderr))
}

func newShardCommand(f *Factory) *cobra.Command {
	var o ShardOptions
	var modelsCSV []string
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

The plan records every option that changes results (models, samples,
scenario, feedback rounds, temperature, max tokens, layers and the context
pack's sha256); run --plan takes them from it.

--changed-since REF plans only the cases whose files changed since the merge
base of REF and HEAD (pull requests). See docs/PIPELINE.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("models") {
				fmt.Fprintln(f.IO.ErrOut, "warning: --models is deprecated: use --model (repeatable)")
				if !cmd.Flags().Changed("model") {
					o.Models = nil
				}
				o.Models = append(o.Models, modelsCSV...)
			}
			return runPlan(cmd.Context(), f, o)
		},
	}
	o.Corpus.register(cmd)
	fl := cmd.Flags()
	addPlatformsFlag(fl, &o.PlatformsFile)
	addModelFlag(fl, &o.Models)
	fl.StringSliceVar(&modelsCSV, "models", nil, "model specs, comma-separated (deprecated: use --model, repeatable)")
	_ = fl.MarkHidden("models") // deprecated; the workflows still pass it
	addSamplesFlag(fl, &o.Samples)
	addScenarioFlag(fl, &o.Scenario)
	addFeedbackRoundsFlag(fl, &o.FeedbackRounds)
	addSamplingFlags(fl, &o.Temperature, &o.MaxTokens)
	addLayersFlag(fl, &o.Layers)
	addContextPackFlag(fl, &o.ContextPack)
	fl.IntVar(&o.MaxJobs, "max-jobs", 64, "most matrix jobs (GitHub allows 256)")
	fl.StringVar(&o.Plan, "plan", "plan.json", "where the plan is written")
	fl.StringVar(&o.Timings, "timings", filepath.Join("results", pipeline.TimingsFile), "recorded durations (written by merge); missing means predict from the platform table")
	fl.StringVar(&o.ChangedSince, "changed-since", "", "only cases with files changed since the merge base of this git ref and HEAD (for pull requests)")
	return cmd
}

// runPlan is the shard step: plan, set the Actions outputs and summary.
func runPlan(ctx context.Context, f *Factory, o ShardOptions) error {
	p, err := makePlan(ctx, f, o)
	if err != nil {
		return err
	}
	a := f.actions()
	if err := pipeline.WriteOutputs(a, p); err != nil {
		return err
	}
	summary := pipeline.PlanSummary(p)
	if err := pipeline.AddSummary(a, summary); err != nil {
		return err
	}
	fmt.Fprint(f.IO.Out, summary)
	fmt.Fprintf(f.IO.Out, "\nplan: %s\n", o.Plan)
	return nil
}

// ShardRunOptions are the options of `run --plan FILE --shard N --artifact
// FILE`: what the plan does not set. pipeline --local hands them whole to
// each shard (to its process, as a JSON file, with --isolate).
type ShardRunOptions struct {
	Plan     string `json:"plan"`
	Shard    int    `json:"shard"`
	Artifact string `json:"artifact"`
	// Eval's corpus filter, layers, temperature and max tokens come from
	// the plan; an empty cases dir, private dir or context pack means the
	// plan's.
	Eval EvalOptions `json:"eval"`
}

// planOwnedFlags are run's flags whose values come from the plan with --plan.
func planOwnedFlags() []string {
	return []string{"model", "samples", "scenario", "feedback-rounds", "temperature", "max-tokens", "layers",
		"retest-only", "run-id", "output-dir", "category", "difficulty", "tier", "platform", "sdk", "visibility",
		"after-date", "case", "include-private"}
}

// shardRunOptionsFromFlags checks run's --plan flags and takes the rest
// of its options for the shard.
func shardRunOptionsFromFlags(cmd *cobra.Command, o *RunOptions, so ShardRunOptions) (ShardRunOptions, error) {
	if so.Plan == "" || so.Shard < 1 {
		return so, usageError(errors.New("--plan FILE and --shard N (N >= 1) go together"))
	}
	for _, name := range planOwnedFlags() {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
			return so, usageError(fmt.Errorf("--%s cannot be given with --plan: the plan sets it", name))
		}
	}
	if so.Artifact == "" {
		so.Artifact = pipeline.ArtifactName(so.Shard)
	}
	so.Eval = o.Eval
	if !cmd.Flags().Changed("cases") {
		so.Eval.Corpus.CasesDir = ""
	}
	if !cmd.Flags().Changed("private-cases") {
		so.Eval.Corpus.PrivateDir = ""
	}
	return so, nil
}

// onlyFlag refuses any flag but name (and the root's).
func onlyFlag(cmd *cobra.Command, name string) error {
	var other string
	inherited := cmd.InheritedFlags()
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		if fl.Name != name && inherited.Lookup(fl.Name) == nil && other == "" {
			other = fl.Name
		}
	})
	if other != "" {
		return usageError(fmt.Errorf("--%s cannot be given with --%s: the file holds every option", other, name))
	}
	return nil
}

// writeShardOptions writes a shard's options for its process.
func writeShardOptions(path string, so ShardRunOptions) error {
	raw, err := json.MarshalIndent(so, "", "  ")
	if err != nil {
		return fmt.Errorf("encode shard options: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, append(raw, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// readShardOptions reads the file writeShardOptions wrote; unknown fields
// are refused (a file of another version).
func readShardOptions(path string) (ShardRunOptions, error) {
	var so ShardRunOptions
	raw, err := os.ReadFile(path)
	if err != nil {
		return so, fmt.Errorf("--shard-options: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&so); err != nil {
		return so, fmt.Errorf("--shard-options %s: %w", path, err)
	}
	return so, nil
}

// runShardCommand runs one shard; error results make exit code 1.
func runShardCommand(ctx context.Context, f *Factory, so ShardRunOptions) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errorsTotal, err := runShardRun(ctx, f, so)
	if err != nil {
		return err
	}
	if errorsTotal > 0 {
		return findings("%d results could not be evaluated (they are in the artifact)", errorsTotal)
	}
	return nil
}

// runShardRun runs one shard of a plan with the plan's options and writes
// the shard artifact. It returns the number of error results.
func runShardRun(ctx context.Context, f *Factory, so ShardRunOptions) (int, error) {
	p, err := pipeline.ReadPlan(so.Plan)
	if err != nil {
		return 0, usageError(err)
	}
	job, err := pipeline.CheckShard(p, so.Shard, Version(), so.Plan)
	if err != nil {
		return 0, usageError(err)
	}
	eo := so.Eval
	ids := make([]string, len(job.Cases))
	for i, c := range job.Cases {
		ids[i] = c.ID
	}
	eo.Corpus.Filter, eo.Corpus.IncludePrivate = cases.Filter{IDs: ids}, p.Inputs.IncludePrivate
	if eo.Corpus.CasesDir == "" {
		eo.Corpus.CasesDir = p.Inputs.CasesDir
	}
	if eo.Corpus.PrivateDir == "" {
		eo.Corpus.PrivateDir = p.Inputs.PrivateDir
	}
	if eo.ContextPack == "" {
		eo.ContextPack = p.Inputs.ContextPackFile
	}
	eo.Layers, eo.Temperature, eo.MaxTokens = p.Inputs.Layers, p.Inputs.Temperature, p.Inputs.MaxTokens
	prep, err := prepare(ctx, f, &eo, []string{job.Model})
	if err != nil {
		return 0, err
	}
	if h := packHash(prep.packText); h != p.Inputs.ContextPack {
		return 0, usageError(fmt.Errorf("--context-pack: %s has context pack %s, this shard's is %s (%s): plan again", so.Plan, orNone(p.Inputs.ContextPack), orNone(h), orNone(eo.ContextPack)))
	}
	o, err := pipeline.RunShard(ctx, pipeline.ShardRunOptions{
		Plan: p, Shard: so.Shard, Artifact: so.Artifact, Run: prep.opts, Version: Version(), Jail: prep.jail.Describe(),
		CasesDir: eo.Corpus.CasesDir, Out: f.IO.Out, Err: f.IO.ErrOut, Terminal: f.IO.OutIsTerminal, Now: f.Now,
	})
	var ie *pipeline.InputError
	if errors.As(err, &ie) {
		return 0, usageError(err)
	}
	if err != nil {
		return 0, err
	}
	return o.Errors, nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

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
