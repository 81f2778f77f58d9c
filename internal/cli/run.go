package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/llm"
	"github.com/embedeval/embedeval-go/internal/prompt"
	"github.com/embedeval/embedeval-go/internal/publish"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/runner"
	"github.com/embedeval/embedeval-go/internal/sandbox"
)

var runIDUnsafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// RunOptions are the options of run and agent.
type RunOptions struct {
	Eval           EvalOptions
	Models         []string
	Samples        int
	Scenario       string
	FeedbackRounds int
	// MaxTurns > 0 is agent mode.
	MaxTurns     int
	RetestOnly   bool
	RunID        string
	OutputDir    string
	ReplayRecord string
}

// register registers the flags run and agent share (not --model, agent's
// argument, nor --feedback-rounds, run's only).
func (o *RunOptions) register(cmd *cobra.Command) {
	o.Eval.register(cmd)
	fl := cmd.Flags()
	addSamplesFlag(fl, &o.Samples)
	addScenarioFlag(fl, &o.Scenario)
	fl.BoolVar(&o.RetestOnly, "retest-only", false, "run only cases changed since the last run recorded in <output-dir>/test_tracker.json, and cases never run")
	fl.StringVar(&o.RunID, "run-id", "", "run id; an existing run with this id is resumed (default <date>_<time>_<model>)")
	fl.StringVar(&o.OutputDir, "output-dir", "results", "where runs/<run-id>/ and test_tracker.json are written")
	fl.StringVar(&o.ReplayRecord, "replay-record", "", "append every model reply to this file in the replay JSONL format")
}

func newRunCommand(f *Factory) *cobra.Command {
	var o RunOptions
	var shard ShardRunOptions
	var shardOptions string
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run models over the selected cases and record every result",
		Long: `run asks each model (--model, repeatable) for each selected case (× --samples),
extracts the code from its reply, evaluates it through the layers, and appends
each result as it finishes to <output-dir>/runs/<run-id>/results.jsonl. Started
again with the same --run-id, an interrupted run resumes: nothing finished is
redone, nothing is lost or duplicated (the options must be the same).

Scenarios: generation (the default) and bugfix (--scenario bugfix: the
reference with one seeded must_fail bug, to be found and fixed).
--feedback-rounds N sends L0/L1 failures back to the model up to N times.

Models in this build: "reference" (each case's reference solution: the
harness's sanity baseline, which must pass every layer that runs) and "mock"
(a fixed hello-world reply). Both are offline and need no account.

Exit code 0 when every result could be evaluated (whatever the verdicts), 1
when some results are errors (case or infrastructure), 2 on bad flags.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if shardOptions != "" {
				if err := onlyFlag(cmd, "shard-options"); err != nil {
					return err
				}
				so, err := readShardOptions(shardOptions)
				if err != nil {
					return usageError(err)
				}
				return runShardCommand(cmd.Context(), f, so)
			}
			if shard.Plan != "" || shard.Shard != 0 || shard.Artifact != "" {
				so, err := shardRunOptionsFromFlags(cmd, &o, shard)
				if err != nil {
					return err
				}
				return runShardCommand(cmd.Context(), f, so)
			}
			return runRun(cmd.Context(), f, o)
		},
	}
	o.register(cmd)
	fl := cmd.Flags()
	addModelFlag(fl, &o.Models)
	addFeedbackRoundsFlag(fl, &o.FeedbackRounds)
	fl.StringVar(&shard.Plan, "plan", "", "run one shard of this pipeline plan (written by shard): cases, model, samples and scenario come from the plan")
	fl.IntVar(&shard.Shard, "shard", 0, "with --plan: the shard to run (1-based)")
	fl.StringVar(&shard.Artifact, "artifact", "", "with --plan: the shard artifact to write (default shard-<N>.json)")
	fl.StringVar(&shardOptions, "shard-options", "", "run the shard described by this JSON file (written by pipeline --local --isolate), with no other flag")
	_ = fl.MarkHidden("shard-options")
	return cmd
}

// runRun runs the benchmark for run (MaxTurns 0) and agent (MaxTurns > 0).
func runRun(ctx context.Context, f *Factory, o RunOptions) error {
	scenario, err := runner.ParseScenario(o.Scenario)
	if err != nil {
		return usageError(fmt.Errorf("--scenario: %w", err))
	}
	if o.Samples < 1 {
		return usageError(fmt.Errorf("--samples must be at least 1, got %d", o.Samples))
	}
	if o.FeedbackRounds < 0 {
		return usageError(fmt.Errorf("--feedback-rounds must not be negative, got %d", o.FeedbackRounds))
	}
	p, err := prepare(ctx, f, &o.Eval, o.Models)
	if err != nil {
		return err
	}
	names := make([]string, len(p.models))
	for i, m := range p.models {
		names[i] = m.Name()
	}
	if o.RunID == "" {
		o.RunID = f.Now().UTC().Format("2006-01-02_150405") + "_" + runIDUnsafe.ReplaceAllString(strings.Join(names, "+"), "-")
	} else if runIDUnsafe.MatchString(o.RunID) || strings.HasPrefix(o.RunID, ".") {
		return usageError(fmt.Errorf("--run-id %q: use letters, digits, '.', '_' and '-' only, not starting with '.'", o.RunID))
	}
	if p.layers.Has(result.LayerCompile) || p.layers.Has(result.LayerRuntime) {
		fmt.Fprintln(f.IO.ErrOut, "jail: "+p.jail.Describe())
	}
	opts := p.opts
	opts.Samples, opts.Scenario, opts.FeedbackRounds, opts.MaxTurns = o.Samples, scenario, o.FeedbackRounds, o.MaxTurns
	var replay *runner.ReplayLog
	if o.ReplayRecord != "" {
		if replay, err = runner.OpenReplayLog(o.ReplayRecord); err != nil {
			return usageError(err)
		}
		opts.OnReply = replay.Write
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	out, err := runner.Execute(ctx, runner.ExecuteOptions{
		Run: opts, RunID: o.RunID, OutputDir: o.OutputDir, Version: Version(), Jail: p.jail.Describe(), RetestOnly: o.RetestOnly,
		Record: runner.RunOptions{
			Models: names, Samples: o.Samples, Temperature: o.Eval.Temperature, MaxTokens: o.Eval.MaxTokens,
			Scenario: string(scenario), FeedbackRounds: o.FeedbackRounds, MaxTurns: o.MaxTurns, Layers: p.layers.String(),
			ContextPack: packHash(p.packText), RetestOnly: o.RetestOnly, NoCache: o.Eval.Model.NoCache,
		},
		Out: f.IO.Out, Err: f.IO.ErrOut, Terminal: f.IO.OutIsTerminal, Now: f.Now,
	})
	if replay != nil {
		if cerr := replay.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	switch {
	case errors.Is(err, runner.ErrOptionsDiffer):
		return usageError(err)
	case err != nil:
		return err
	case out.Nothing:
		return nil
	}
	warnings, err := publish.WriteReports(o.OutputDir, o.RunID, out.Selected, f.Now(), o.Eval.Temperature)
	if err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	for _, w := range warnings {
		fmt.Fprintln(f.IO.ErrOut, "warning:", w)
	}
	fmt.Fprintf(f.IO.Out, "reports: %s, %s\n", filepath.Join(o.OutputDir, "runs", o.RunID, "summary.json"), filepath.Join(o.OutputDir, "LEADERBOARD.md"))
	if out.Errors > 0 {
		return findings("%d results could not be evaluated", out.Errors)
	}
	return nil
}

// packHash is the recorded identity of a context pack's text: its sha256,
// or empty without one.
func packHash(text string) string {
	if text == "" {
		return ""
	}
	return runner.HashText(text)
}

// prepared is what every running command needs once its options are read.
type prepared struct {
	models   []llm.Model
	layers   eval.LayerSet
	selected []*cases.Case
	opts     runner.Options
	packText string
	// jail confines the builds and runs of the answers.
	jail *sandbox.Jail
}

// prepare opens the models, the toolchain and the corpus the options name
// (through the factory) and turns them into runner options.
func prepare(ctx context.Context, f *Factory, o *EvalOptions, specs []string) (*prepared, error) {
	if len(specs) == 0 {
		return nil, usageError(errors.New("no model given"))
	}
	if o.Model.MaxReplyBytes < 0 {
		return nil, usageError(errors.New("--max-reply-bytes must not be negative"))
	}
	mo := llm.Options{
		BaseURL: o.Model.BaseURL, ClaudePath: o.Model.ClaudePath, MaxRetries: o.Model.MaxRetries,
		Concurrency: o.Model.Concurrency, Timeout: o.Model.CallTimeout, Logger: loggerFrom(ctx),
		MaxReplyBytes: o.Model.MaxReplyBytes, Getenv: f.Getenv,
	}
	if !o.Model.NoCache {
		mo.CacheDir = o.Model.CacheDir
	}
	p := &prepared{}
	seen := map[string]bool{}
	for _, spec := range specs {
		if seen[spec] {
			return nil, usageError(fmt.Errorf("model %q is given twice", spec))
		}
		seen[spec] = true
		m, err := f.OpenModel(spec, mo)
		if err != nil {
			return nil, usageError(err)
		}
		p.models = append(p.models, m)
	}
	set, err := eval.ParseLayers(o.Layers)
	if err != nil {
		return nil, usageError(err)
	}
	p.layers = set
	if o.Temperature < 0 || o.MaxTokens < 0 {
		return nil, usageError(errors.New("--temperature and --max-tokens must not be negative"))
	}
	if p.packText, err = readContextPack(o.ContextPack); err != nil {
		return nil, err
	}
	reg, err := loadRegistry(o.Toolchain.PlatformsFile)
	if err != nil {
		return nil, err
	}
	tc, err := f.OpenToolchain(ctx, reg, o.Toolchain)
	if err != nil {
		return nil, err
	}
	p.jail = tc.Jail()
	sel, _, err := loadSelected(f.IO.ErrOut, &o.Corpus)
	if err != nil {
		return nil, err
	}
	if len(sel) == 0 {
		return nil, usageError(fmt.Errorf("no cases selected under %s", o.Corpus.CasesDir))
	}
	if err := o.Python.refuse(sel); err != nil {
		return nil, err
	}
	p.selected = sel
	p.opts = runner.Options{
		Cases: sel, Models: p.models, Temperature: o.Temperature, MaxTokens: o.MaxTokens,
		Prompt: prompt.Options{ContextPack: p.packText}, Platforms: reg,
		Layers: set, Jobs: o.Jobs, Limits: o.Limits, Toolchain: tc,
		Python: o.Python.options(o.Limits.Timeout, p.jail, o.Corpus.CasesDir, o.Corpus.PrivateDir),
	}
	return p, nil
}

// readContextPack reads --context-pack ("" is none).
func readContextPack(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", usageError(fmt.Errorf("--context-pack: %w", err))
	}
	return string(raw), nil
}

// isTerminal reports whether w is a terminal (for the updating progress line).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
