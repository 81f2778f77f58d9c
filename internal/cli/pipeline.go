package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sethvargo/go-githubactions"
	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/eval"
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
	// Verdict settings every shard shares (recorded in the plan).
	Limits                   checks.Limits
	BuildTimeout, RunTimeout time.Duration
	RequireLayers            string
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
		CheckSteps: o.Limits.MaxSteps, CheckTimeout: o.Limits.Timeout, BuildTimeout: o.BuildTimeout, RunTimeout: o.RunTimeout,
		RequireLayers: o.RequireLayers,
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
	addCheckLimitFlags(fl, &o.Limits)
	addVerdictToolchainFlags(fl, &o.RequireLayers, &o.BuildTimeout, &o.RunTimeout)
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
