package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/llm"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/prompt"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/runner"
	"github.com/embedeval/embedeval-go/internal/sandbox"
)

var runIDUnsafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// newModel creates the model for a spec. This is the one place where models
// are made: it becomes llm.Open(spec, opts) (with noCache among the options)
// when the providers land.
func (f *modelFlags) newModel(cmd *cobra.Command, spec string) (llm.Model, error) {
	opts := llm.Options{
		BaseURL: f.baseURL, ClaudePath: f.claudePath, MaxRetries: f.maxRetries,
		Concurrency: f.concurrency, Timeout: f.callTimeout, Logger: loggerFrom(cmd.Context()),
		MaxReplyBytes: f.maxReplyBytes,
	}
	if f.maxReplyBytes < 0 {
		return nil, usageError(errors.New("--max-reply-bytes must not be negative"))
	}
	if !f.noCache {
		opts.CacheDir = f.cacheDir
	}
	m, err := llm.Open(spec, opts)
	if err != nil {
		return nil, usageError(err)
	}
	return m, nil
}

// modelFlags are the generation options shared by run, agent and sensitivity.
type modelFlags struct {
	corpus      corpusFlags
	tc          toolchainFlags
	layers      string
	jobs        int
	temperature float64
	maxTokens   int
	contextPack string
	noCache     bool
	cacheDir    string
	baseURL     string
	claudePath  string
	maxRetries  int
	concurrency int
	callTimeout time.Duration
	limits      checks.Limits
	python      pythonFlags

	// maxReplyBytes caps what is read of one model reply (0: the default).
	maxReplyBytes int64
}

func (f *modelFlags) register(cmd *cobra.Command) {
	f.corpus.register(cmd)
	f.tc.register(cmd)
	f.python.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.layers, "layers", "all", "layers to run: all, or a list such as L0,L3,L4")
	fl.IntVarP(&f.jobs, "jobs", "j", 0, "evaluations in parallel (0: one per CPU)")
	fl.Float64Var(&f.temperature, "temperature", 0, "sampling temperature passed to the model (0: the provider's default)")
	fl.IntVar(&f.maxTokens, "max-tokens", 0, "largest reply in tokens (0: the provider's default)")
	fl.StringVar(&f.contextPack, "context-pack", "", "a file whose text is prepended to every prompt")
	fl.BoolVar(&f.noCache, "no-cache", false, "do not answer from the response cache (always call the model)")
	fl.StringVar(&f.cacheDir, "cache-dir", filepath.Join(".cache", "embedeval", "responses"), "response cache of networked models (keyed by provider, model, prompt, sample, temperature, max tokens)")
	fl.StringVar(&f.baseURL, "base-url", "", "API base URL for openai: and anthropic: models (default: OPENAI_BASE_URL / ANTHROPIC_BASE_URL, else the provider's)")
	fl.StringVar(&f.claudePath, "claude-path", "", "the claude CLI for claude-code:// models (default: claude on PATH)")
	fl.IntVar(&f.maxRetries, "max-retries", 0, "retries of a failed model call on 429, 5xx and network errors (0: 3; negative: none)")
	fl.IntVar(&f.concurrency, "model-concurrency", 0, "calls in flight per model (0: 4)")
	fl.DurationVar(&f.callTimeout, "call-timeout", 0, "time limit of one model call, reading the reply included (0: 10m)")
	fl.Int64Var(&f.maxReplyBytes, "max-reply-bytes", 0, "largest model reply read, in bytes (HTTP body or CLI output); a larger one is an error (0: 4 MiB)")
	fl.Uint64Var(&f.limits.MaxSteps, "check-steps", checks.DefaultMaxSteps, "Starlark step limit of one check call")
	fl.DurationVar(&f.limits.Timeout, "check-timeout", checks.DefaultTimeout, "wall-clock limit of one check call")
}

// prepared is what every running command needs once its flags are read.
type prepared struct {
	models    []llm.Model
	layers    eval.LayerSet
	selected  []*cases.Case
	opts      runner.Options
	packText  string
	platforms *platform.Registry
	// jail confines the builds and runs of the answers.
	jail *sandbox.Jail
}

// prepare turns the shared flags and the model specs into runner options.
func (f *modelFlags) prepare(cmd *cobra.Command, specs []string) (*prepared, error) {
	if len(specs) == 0 {
		return nil, usageError(errors.New("no model given"))
	}
	p := &prepared{}
	seen := map[string]bool{}
	for _, spec := range specs {
		if seen[spec] {
			return nil, usageError(fmt.Errorf("model %q is given twice", spec))
		}
		seen[spec] = true
		m, err := f.newModel(cmd, spec)
		if err != nil {
			return nil, usageError(err)
		}
		p.models = append(p.models, m)
	}
	set, err := eval.ParseLayers(f.layers)
	if err != nil {
		return nil, usageError(err)
	}
	p.layers = set
	if f.temperature < 0 || f.maxTokens < 0 {
		return nil, usageError(errors.New("--temperature and --max-tokens must not be negative"))
	}
	if f.contextPack != "" {
		raw, err := os.ReadFile(f.contextPack)
		if err != nil {
			return nil, usageError(fmt.Errorf("--context-pack: %w", err))
		}
		p.packText = string(raw)
	}
	d, err := f.tc.dispatcher(cmd.Context())
	if err != nil {
		return nil, err
	}
	p.jail = d.Jail()
	if p.platforms, err = f.tc.registry(); err != nil {
		return nil, err
	}
	sel, _, err := loadSelected(cmd, &f.corpus)
	if err != nil {
		return nil, err
	}
	if len(sel) == 0 {
		return nil, usageError(fmt.Errorf("no cases selected under %s", f.corpus.casesDir))
	}
	if err := f.python.refuse(sel); err != nil {
		return nil, err
	}
	p.selected = sel
	p.opts = runner.Options{
		Cases: sel, Models: p.models, Temperature: f.temperature, MaxTokens: f.maxTokens,
		Prompt: prompt.Options{ContextPack: p.packText}, Platforms: p.platforms,
		Layers: set, Jobs: f.jobs, Limits: f.limits, Toolchain: d, Python: f.python.options(f.limits.Timeout, d.Jail(), f.corpus.casesDir, f.corpus.privateDir),
	}
	return p, nil
}

// runFlags are the flags of run and agent.
type runFlags struct {
	modelFlags
	samples        int
	scenario       string
	feedbackRounds int
	retestOnly     bool
	runID          string
	outputDir      string
	replayRecord   string
	// planFile, shard and artifact run one shard of a pipeline plan
	// (run --plan FILE --shard N --artifact FILE).
	planFile string
	shard    int
	artifact string
}

func (f *runFlags) register(cmd *cobra.Command) {
	f.modelFlags.register(cmd)
	fl := cmd.Flags()
	fl.IntVar(&f.samples, "samples", 1, "attempts per case (for pass@k)")
	fl.StringVar(&f.scenario, "scenario", "generation", "generation (write the solution from the task) or bugfix (fix the reference with a seeded bug)")
	fl.BoolVar(&f.retestOnly, "retest-only", false, "run only cases changed since the last run recorded in <output-dir>/test_tracker.json, and cases never run")
	fl.StringVar(&f.runID, "run-id", "", "run id; an existing run with this id is resumed (default <date>_<time>_<model>)")
	fl.StringVar(&f.outputDir, "output-dir", "results", "where runs/<run-id>/ and test_tracker.json are written")
	fl.StringVar(&f.replayRecord, "replay-record", "", "append every model reply to this file in the replay JSONL format")
}

func newRunCommand() *cobra.Command {
	var f runFlags
	var models []string
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
			return executeRun(cmd, &f, models, 0)
		},
	}
	f.register(cmd)
	cmd.Flags().StringArrayVar(&models, "model", []string{"reference"}, "model spec (repeatable): reference, mock, replay:<file>, claude-code://<model>, openai:<model>, anthropic:<model> (see docs/RUNNING.md)")
	cmd.Flags().IntVar(&f.feedbackRounds, "feedback-rounds", 0, "compiler-feedback rounds after an L0 or L1 failure")
	cmd.Flags().StringVar(&f.planFile, "plan", "", "run one shard of this pipeline plan (written by shard): cases, model, samples and scenario come from the plan")
	cmd.Flags().IntVar(&f.shard, "shard", 0, "with --plan: the shard to run (1-based)")
	cmd.Flags().StringVar(&f.artifact, "artifact", "", "with --plan: the shard artifact to write (default shard-<N>.json)")
	return cmd
}

// executeRun runs the benchmark for run (maxTurns 0) and agent (maxTurns > 0).
func executeRun(cmd *cobra.Command, f *runFlags, specs []string, maxTurns int) error {
	if f.planFile != "" || f.shard != 0 || f.artifact != "" {
		return executeShardRun(cmd, f)
	}
	scenario, err := runner.ParseScenario(f.scenario)
	if err != nil {
		return usageError(fmt.Errorf("--scenario: %w", err))
	}
	if f.samples < 1 {
		return usageError(fmt.Errorf("--samples must be at least 1, got %d", f.samples))
	}
	if f.feedbackRounds < 0 {
		return usageError(fmt.Errorf("--feedback-rounds must not be negative, got %d", f.feedbackRounds))
	}
	p, err := f.prepare(cmd, specs)
	if err != nil {
		return err
	}
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	sel := p.selected
	if f.retestOnly {
		tr, err := runner.LoadTracker(f.outputDir)
		if err != nil {
			return err
		}
		sel = tr.Changed(sel)
		fmt.Fprintf(out, "retest-only: %d of %d selected cases changed since their last run or were never run\n", len(sel), len(p.selected))
		if len(sel) == 0 {
			return nil
		}
	}
	names := make([]string, len(p.models))
	for i, m := range p.models {
		names[i] = m.Name()
	}
	if f.runID == "" {
		f.runID = time.Now().UTC().Format("2006-01-02_150405") + "_" + runIDUnsafe.ReplaceAllString(strings.Join(names, "+"), "-")
	} else if runIDUnsafe.MatchString(f.runID) || strings.HasPrefix(f.runID, ".") {
		return usageError(fmt.Errorf("--run-id %q: use letters, digits, '.', '_' and '-' only, not starting with '.'", f.runID))
	}
	ro := runner.RunOptions{
		Models: names, Samples: f.samples, Temperature: f.temperature, MaxTokens: f.maxTokens,
		Scenario: string(scenario), FeedbackRounds: f.feedbackRounds, MaxTurns: maxTurns, Layers: p.layers.String(),
		RetestOnly: f.retestOnly, NoCache: f.noCache,
	}
	if p.packText != "" {
		ro.ContextPack = runner.HashText(p.packText)
	}
	warn := func(msg string) { fmt.Fprintln(errOut, "warning: "+msg) }
	if p.layers.Has(result.LayerCompile) || p.layers.Has(result.LayerRuntime) {
		fmt.Fprintln(errOut, "jail: "+p.jail.Describe())
	}
	manifest := runner.NewManifest(f.runID, Version(), ro, sel, time.Now())
	manifest.Jail = p.jail.Describe()
	archive, err := runner.OpenArchive(f.outputDir, manifest, warn)
	if err != nil {
		if errors.Is(err, runner.ErrOptionsDiffer) {
			return usageError(err)
		}
		return err
	}
	defer archive.Close()

	opts := p.opts
	opts.Cases, opts.Samples, opts.Scenario, opts.FeedbackRounds, opts.MaxTurns, opts.Archive = sel, f.samples, scenario, f.feedbackRounds, maxTurns, archive
	multi := len(p.models) > 1
	progress := runner.NewProgress(out, isTerminal(out), func(r result.EvalResult) string { return resultLine(r, multi) }, nil)
	opts.OnPlan = func(todo, done int) {
		if done > 0 {
			fmt.Fprintf(out, "resuming run %s: %d results already done, %d to do\n", f.runID, done, todo)
		}
		progress.Start(todo)
	}
	opts.OnResult = progress.Add
	opts.OnNote = func(n string) { fmt.Fprintln(errOut, "note: "+n) }
	var replay *runner.ReplayLog
	if f.replayRecord != "" {
		if replay, err = runner.OpenReplayLog(f.replayRecord); err != nil {
			return usageError(err)
		}
		opts.OnReply = replay.Write
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	results, err := runner.Run(ctx, opts)
	progress.Finish()
	if replay != nil {
		if cerr := replay.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("%w (finished results are in %s; run again with --run-id %s to resume)", err, archive.ResultsPath(), f.runID)
	}
	if err := archive.Finish(results); err != nil {
		return err
	}
	tr, err := runner.LoadTracker(f.outputDir)
	if err != nil {
		return err
	}
	tr.Record(f.runID, sel, results)
	if err := tr.Save(f.outputDir); err != nil {
		return err
	}
	errorsTotal := printSummary(out, names, results)
	fmt.Fprintf(out, "results: %s\n", archive.ResultsPath())
	if err := writeDetails(f.outputDir, f.runID, sel, results); err != nil {
		return fmt.Errorf("details: %w", err)
	}
	warnings, err := writeReports(f.outputDir, f.runID, sel, time.Now(), f.temperature)
	if err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	for _, w := range warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
	}
	fmt.Fprintf(out, "reports: %s, %s\n", filepath.Join(f.outputDir, "runs", f.runID, "summary.json"), filepath.Join(f.outputDir, "LEADERBOARD.md"))
	if errorsTotal > 0 {
		return findings("%d results could not be evaluated", errorsTotal)
	}
	return nil
}

// printSummary writes per-model verdict counts and layer pass rates and
// returns the number of error results.
func printSummary(out io.Writer, models []string, results []result.EvalResult) int {
	byModel := map[string][]result.EvalResult{}
	for _, r := range results {
		byModel[r.Model] = append(byModel[r.Model], r)
	}
	errorsTotal := 0
	for _, name := range models {
		s := runner.Summarize(byModel[name])
		errorsTotal += s.Errors
		rate, judged := s.PassRate()
		fmt.Fprintf(out, "\n%s: %d results, %d passed, %d failed, %d errors; pass rate %.1f%% of %d judged\n", name, s.Results, s.Passed, s.Failed, s.Errors, 100*rate, judged)
		var layerParts []string
		for n := 0; n <= result.LayerMutation; n++ {
			if s.LayerRan[n] == 0 {
				layerParts = append(layerParts, fmt.Sprintf("L%d not run", n))
			} else {
				layerParts = append(layerParts, fmt.Sprintf("L%d %d/%d", n, s.LayerPassed[n], s.LayerRan[n]))
			}
		}
		fmt.Fprintf(out, "layers (passed/ran): %s\n", strings.Join(layerParts, ", "))
		var tokens result.TokenUsage
		var cost float64
		for _, r := range byModel[name] {
			if r.TokenUsage != nil {
				tokens.InputTokens += r.TokenUsage.InputTokens
				tokens.OutputTokens += r.TokenUsage.OutputTokens
			}
			cost += r.CostUSD
		}
		if tokens.InputTokens+tokens.OutputTokens > 0 || cost > 0 {
			fmt.Fprintf(out, "tokens: %d in, %d out; cost $%.4f\n", tokens.InputTokens, tokens.OutputTokens, cost)
		}
	}
	return errorsTotal
}

// isTerminal reports whether w is a terminal (for the updating progress line).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func resultLine(r result.EvalResult, withModel bool) string {
	var layers []string
	for _, l := range r.Layers {
		word := string(l.Status)
		if l.Status == result.StatusSkipped {
			word = "skip"
		}
		layers = append(layers, fmt.Sprintf("L%d:%s", l.Layer, word))
	}
	id := r.CaseID
	if r.Mutation != "" {
		id += " [" + r.Mutation + "]"
	}
	line := fmt.Sprintf("%-6s %-24s #%d  %s", strings.ToUpper(string(r.Status)), id, r.Attempt, strings.Join(layers, " "))
	if withModel {
		line = fmt.Sprintf("%-6s %-20s %-24s #%d  %s", strings.ToUpper(string(r.Status)), r.Model, id, r.Attempt, strings.Join(layers, " "))
	}
	if r.FeedbackRounds > 0 {
		line += fmt.Sprintf("  feedback rounds %d", r.FeedbackRounds)
	}
	if r.Turns > 0 {
		line += fmt.Sprintf("  turns %d", r.Turns)
	}
	if len(r.Notes) > 0 {
		line += "  (" + strings.Join(r.Notes, "; ") + ")"
	}
	return line
}
