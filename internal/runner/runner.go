// Package runner runs a benchmark locally: for every selected case, model
// and sample (and, in the bugfix scenario, every seeded bug) it builds the
// prompt, asks the model for code, evaluates it through the layers, runs the
// compiler-feedback rounds or agent turns, and hands each finished result to
// the run's archive as it completes (so that an interrupted run resumes
// without losing or redoing anything). It also keeps the incremental-retest
// tracker, the progress display and the prompt-sensitivity analysis. It owns
// the worker pool and the run's output files; it does not score or render
// reports, and it never talks to a provider other than through llm.Model.
package runner

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/embedeval/embedeval-go/internal/atomicfile"
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/llm"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/prompt"
	"github.com/embedeval/embedeval-go/internal/pycheck"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/workpool"
)

// Scenario is what the model is asked to do.
type Scenario string

const (
	// Generation asks for the solution from the task prompt (the default).
	Generation Scenario = "generation"
	// Bugfix gives the reference with one must_fail negative applied and asks
	// for the fixed file; one prompt per negative that changes the reference.
	Bugfix Scenario = "bugfix"
)

// ParseScenario returns the scenario named s ("" is generation).
func ParseScenario(s string) (Scenario, error) {
	switch Scenario(s) {
	case "", Generation:
		return Generation, nil
	case Bugfix:
		return Bugfix, nil
	}
	return "", fmt.Errorf("unknown scenario %q (want generation or bugfix)", s)
}

// Options configure a run.
type Options struct {
	Cases []*cases.Case
	// Models are the models to run; Model, when set, is added to them (the
	// single-model shorthand).
	Models []llm.Model
	Model  llm.Model
	// Samples is the number of attempts per case (and per seeded bug).
	Samples int
	// Temperature and MaxTokens are passed to every request (zero: the
	// provider's default).
	Temperature float64
	MaxTokens   int
	// Scenario is generation (default) or bugfix.
	Scenario Scenario
	// FeedbackRounds is how many times an L0 or L1 failure is sent back to
	// the model with the failure's details.
	FeedbackRounds int
	// MaxTurns > 0 is agent mode: a conversation of up to MaxTurns model turns
	// where any failing layer's feedback goes back to the model.
	MaxTurns int
	// Prompt shapes the prompts (context pack, sensitivity variant).
	Prompt prompt.Options
	// Platforms resolves each case's board for the prompt; nil means the
	// shipped registry.
	Platforms *platform.Registry
	Layers    eval.LayerSet
	Jobs      int
	Toolchain eval.Toolchain
	Limits    checks.Limits
	// Python, when set, runs check files that are Python modules through one
	// pycheck worker for the whole run; nil refuses them (case errors).
	Python *pycheck.Options
	// Archive, when set, receives every result as it finishes (appended and
	// fsynced by one writer goroutine), and the results it already holds are
	// neither redone nor duplicated.
	Archive *Archive
	// OnPlan, when set, is called once the work is planned, with the number
	// of results still to do and the number the archive already holds.
	OnPlan func(todo, done int)
	// OnNote, when set, receives remarks about selected cases that yield no
	// work (a bugfix case whose negatives leave the reference unchanged).
	OnNote func(string)
	// OnResult, when set, is called after each new result (from one goroutine
	// at a time, after the result is in the archive), for progress output.
	OnResult func(result.EvalResult)
	// OnReply, when set, is called after each model reply (from one
	// goroutine at a time), for replay recording.
	OnReply func(ReplayRecord)
}

// Key identifies one unit of work of a run: a result is done once per key.
type Key struct {
	Model    string
	CaseID   string
	Attempt  int
	Mutation string
}

// KeyOf returns the key of a result.
func KeyOf(r result.EvalResult) Key {
	return Key{Model: r.Model, CaseID: r.CaseID, Attempt: r.Attempt, Mutation: r.Mutation}
}

// String formats a key for messages.
func (k Key) String() string {
	s := k.Model + " " + k.CaseID + " #" + strconv.Itoa(k.Attempt)
	if k.Mutation != "" {
		s += " [" + k.Mutation + "]"
	}
	return s
}

// task is one unit of work.
type task struct {
	key     Key
	model   llm.Model
	cc      *eval.CaseChecks
	loadErr []diag.Problem
	// buggy is the mutated reference of a bugfix task.
	buggy string
}

// workPlan is what a run will do: every unit of work, and notes about cases
// that yield none (no negative changes the reference, for bugfix).
type workPlan struct {
	tasks []task
	notes []string
}

func (o *Options) models() []llm.Model {
	ms := slices.Clone(o.Models)
	if o.Model != nil {
		ms = append(ms, o.Model)
	}
	return ms
}

func (o *Options) normalize() error {
	if o.Samples <= 0 {
		o.Samples = 1
	}
	if o.Layers == 0 {
		o.Layers = eval.AllLayers
	}
	if o.Scenario == "" {
		o.Scenario = Generation
	}
	if _, err := ParseScenario(string(o.Scenario)); err != nil {
		return err
	}
	if o.FeedbackRounds < 0 || o.MaxTurns < 0 {
		return errors.New("feedback rounds and max turns must not be negative")
	}
	ms := o.models()
	if len(ms) == 0 {
		return errors.New("no model to run")
	}
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[m.Name()] {
			return fmt.Errorf("model %q is given twice", m.Name())
		}
		seen[m.Name()] = true
	}
	if o.Platforms == nil {
		reg, err := platform.Default()
		if err != nil {
			return fmt.Errorf("platform registry: %w", err)
		}
		o.Platforms = reg
	}
	return nil
}

// plan enumerates the units of work. In the bugfix scenario each must_fail
// negative whose mutation changes the reference gives one unit per sample.
func plan(ctx context.Context, rt *checks.Runtime, opts *Options) (*workPlan, error) {
	p := &workPlan{}
	s := rt.NewSession()
	defer s.Close()
	for _, c := range opts.Cases {
		cc, ps := eval.LoadCaseChecks(ctx, rt, c)
		loadErr := errorsOnly(ps)
		units := []bugUnit{{}}
		if opts.Scenario == Bugfix && len(loadErr) == 0 {
			var err error
			units, err = bugfixUnits(ctx, s, cc)
			if err != nil {
				return nil, err
			}
			if len(units) == 0 {
				p.notes = append(p.notes, fmt.Sprintf("%s: no must_fail negative changes the reference; no bugfix prompt", c.Meta.ID))
			}
		}
		for _, m := range opts.models() {
			for _, u := range units {
				for a := 1; a <= opts.Samples; a++ {
					p.tasks = append(p.tasks, task{
						key:   Key{Model: m.Name(), CaseID: c.Meta.ID, Attempt: a, Mutation: u.mutation},
						model: m, cc: cc, loadErr: loadErr, buggy: u.buggy,
					})
				}
			}
		}
	}
	return p, nil
}

// bugUnit is one seeded bug of a case: the negative's name and the mutated
// reference. The generation scenario has one empty unit per case.
type bugUnit struct{ mutation, buggy string }

// bugfixUnits applies every must_fail negative to the reference and keeps
// those that change it, in the order of NEGATIVES.
func bugfixUnits(ctx context.Context, s *checks.Session, cc *eval.CaseChecks) ([]bugUnit, error) {
	var out []bugUnit
	if cc.Negatives == nil {
		return nil, nil
	}
	data, err := os.ReadFile(cc.Case.ReferencePath)
	if err != nil {
		return nil, fmt.Errorf("reference of %s: %w", cc.Case.Meta.ID, err)
	}
	ref := string(data)
	for _, neg := range cc.Negatives.Negatives {
		if len(neg.MustFail) == 0 {
			continue
		}
		mutant, err := neg.Apply(ctx, s, ref)
		if err != nil || mutant == ref {
			continue
		}
		out = append(out, bugUnit{mutation: neg.Name, buggy: mutant})
	}
	return out, nil
}

// Run evaluates every unit of work (case × model × sample, × seeded bug in
// the bugfix scenario) that the archive (if any) does not already hold, and
// returns every result of the run, earlier ones included, sorted by model,
// case, mutation and attempt. Cases whose check files do not load are
// recorded as error results (a case error is never a model failure); so are
// model calls that fail (InfraError set).
func Run(ctx context.Context, opts Options) ([]result.EvalResult, error) {
	if err := opts.normalize(); err != nil {
		return nil, err
	}
	rt, err := checks.NewRuntime(opts.Limits, nil)
	if err != nil {
		return nil, fmt.Errorf("check runtime: %w", err)
	}
	if opts.Python != nil {
		bridge := pycheck.New(*opts.Python)
		defer bridge.Close()
		rt.UseForeign(bridge)
	}
	p, err := plan(ctx, rt, &opts)
	if err != nil {
		return nil, err
	}
	var previous []result.EvalResult
	done := map[Key]bool{}
	if opts.Archive != nil {
		previous = opts.Archive.Previous()
		for _, r := range previous {
			done[KeyOf(r)] = true
		}
	}
	var todo []task
	for _, t := range p.tasks {
		if !done[t.key] {
			todo = append(todo, t)
		}
	}
	if opts.OnNote != nil {
		for _, n := range p.notes {
			opts.OnNote(n)
		}
	}
	if opts.OnPlan != nil {
		opts.OnPlan(len(todo), len(p.tasks)-len(todo))
	}
	ev := eval.New(opts.Toolchain, opts.Layers)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	// One goroutine owns the archive file and the callbacks.
	type event struct {
		res   *result.EvalResult
		reply *ReplayRecord
	}
	events := make(chan event)
	var fresh []result.EvalResult
	writerDone := make(chan error, 1)
	go func() {
		var werr error
		for ev := range events {
			if werr != nil {
				continue // drain
			}
			if ev.reply != nil {
				if opts.OnReply != nil {
					opts.OnReply(*ev.reply)
				}
				continue
			}
			if opts.Archive != nil {
				if err := opts.Archive.append(*ev.res); err != nil {
					werr = err
					cancel(err)
					continue
				}
			}
			fresh = append(fresh, *ev.res)
			if opts.OnResult != nil {
				opts.OnResult(*ev.res)
			}
		}
		writerDone <- werr
	}()
	exec := &executor{ev: ev, opts: &opts, replies: func(r ReplayRecord) {
		if opts.OnReply != nil {
			events <- event{reply: &r}
		}
	}}
	err = workpool.Each(ctx, len(todo), opts.Jobs, rt.NewSession, (*checks.Session).Close, func(s *checks.Session, i int) {
		r := exec.run(ctx, s, todo[i])
		if ctx.Err() != nil {
			// An interrupted unit is not finished: it is neither recorded nor
			// counted, so that a resumed run does it again.
			return
		}
		events <- event{res: &r}
	})
	close(events)
	werr := <-writerDone
	if werr != nil {
		return nil, werr
	}
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, err) {
			err = cause
		}
		return nil, fmt.Errorf("run interrupted after %d of %d results: %w", len(previous)+len(fresh), len(p.tasks), err)
	}
	all := append(slices.Clone(previous), fresh...)
	SortResults(all)
	return all, nil
}

// SortResults orders results by model, case, mutation and attempt.
func SortResults(rs []result.EvalResult) {
	slices.SortStableFunc(rs, func(a, b result.EvalResult) int {
		return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.CaseID, b.CaseID),
			cmp.Compare(a.Mutation, b.Mutation), cmp.Compare(a.Attempt, b.Attempt))
	})
}

func errorsOnly(ps []diag.Problem) []diag.Problem {
	var out []diag.Problem
	for _, p := range ps {
		if p.Severity == diag.Error {
			out = append(out, p)
		}
	}
	return out
}

// executor runs one unit of work: prompt, model calls, evaluation, feedback
// rounds or agent turns.
type executor struct {
	ev      *eval.Evaluator
	opts    *Options
	replies func(ReplayRecord)
}

func (x *executor) run(ctx context.Context, s *checks.Session, t task) result.EvalResult {
	opts := x.opts
	c := t.cc.Case
	base := result.EvalResult{CaseID: c.Meta.ID, Model: t.key.Model, Attempt: t.key.Attempt, Layers: []result.LayerResult{},
		Scenario: string(opts.Scenario), Mutation: t.key.Mutation}
	errResult := func(msg string) result.EvalResult {
		r := base
		r.Status, r.Notes = result.StatusError, []string{msg}
		return r
	}
	if len(t.loadErr) > 0 {
		return errResult("case error: " + t.loadErr[0].String())
	}
	target := prompt.Target{Board: c.Meta.Board()}
	if tg, ok := opts.Platforms.Resolve(c); ok {
		target.Board = tg.Board(c)
	}
	var text string
	var err error
	if opts.Scenario == Bugfix {
		text, err = prompt.Bugfix(c, target, t.buggy, opts.Prompt)
	} else {
		text, err = prompt.Generation(c, target, opts.Prompt)
	}
	if err != nil {
		return errResult("case error: " + err.Error())
	}
	kind := platform.OutputKind(c)
	conv := []llm.Message{{Role: "user", Content: text}}
	var usage result.TokenUsage
	var cost, genSeconds float64
	calls := 0
	limit := 1 + opts.FeedbackRounds
	agent := opts.MaxTurns > 0
	if agent {
		limit = opts.MaxTurns
	}
	var res result.EvalResult
	for turn := 0; turn < limit; turn++ {
		req := llm.Request{Case: c, Attempt: t.key.Attempt, Turn: turn, Temperature: opts.Temperature, MaxTokens: opts.MaxTokens}
		if turn == 0 {
			req.Prompt = text
		} else {
			req.Messages = slices.Clone(conv)
		}
		start := time.Now()
		reply, err := t.model.Generate(ctx, req)
		elapsed := time.Since(start)
		calls++
		if reply.Duration > 0 {
			elapsed = reply.Duration
		}
		genSeconds += elapsed.Seconds()
		usage.InputTokens += reply.Usage.InputTokens
		usage.OutputTokens += reply.Usage.OutputTokens
		cost += reply.CostUSD
		if err != nil {
			res = errResult(fmt.Sprintf("infrastructure error: model %s: %v", t.model.Name(), err))
			res.InfraError = fmt.Sprintf("model %s (turn %d): %v", t.model.Name(), turn, err)
			res.FeedbackRounds, res.Turns = feedbackCount(agent, turn), turnCount(agent, turn)
			break
		}
		x.replies(ReplayRecord{CaseID: c.Meta.ID, Attempt: t.key.Attempt, Turn: turn, Model: t.model.Name(),
			Reply: reply.Text, InputTokens: reply.Usage.InputTokens, OutputTokens: reply.Usage.OutputTokens, CostUSD: reply.CostUSD})
		res = x.ev.Evaluate(ctx, s, t.cc, llm.ExtractFor(reply.Text, kind), eval.Subject{Model: t.key.Model, Attempt: t.key.Attempt})
		res.Scenario, res.Mutation = base.Scenario, base.Mutation
		res.FeedbackRounds, res.Turns = feedbackCount(agent, turn), turnCount(agent, turn+1)
		if res.Status != result.StatusFailed || res.FailedAtLayer == nil {
			break
		}
		if !agent && *res.FailedAtLayer > result.LayerCompile {
			break // feedback rounds answer L0 and L1 failures only
		}
		fb := prompt.Feedback(res)
		if fb == "" {
			break
		}
		conv = append(conv, llm.Message{Role: "assistant", Content: reply.Text}, llm.Message{Role: "user", Content: fb})
	}
	if calls > 0 {
		res.TokenUsage = &usage
	}
	res.CostUSD = cost
	res.GenerationSeconds = genSeconds
	return res
}

// feedbackCount is the number of feedback rounds used when the model answered
// on turn (0-based); agent turns are counted as turns instead.
func feedbackCount(agent bool, turn int) int {
	if agent {
		return 0
	}
	return turn
}

func turnCount(agent bool, turns int) int {
	if !agent {
		return 0
	}
	return turns
}

// WriteResults writes one JSON record per line to path atomically (a
// temporary file in the same directory, then a rename).
func WriteResults(path string, results []result.EvalResult) error {
	return writeAtomic(path, func(f io.Writer) error {
		enc := json.NewEncoder(f)
		for _, r := range results {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeAtomic writes path atomically (atomicfile.Write).
func writeAtomic(path string, write func(io.Writer) error) error {
	return atomicfile.Write(path, write)
}

// Summary counts a run's verdicts; errors are kept out of the pass rate.
type Summary struct {
	Results int
	Passed  int
	Failed  int
	Errors  int
	// LayerRan and LayerPassed count, per layer, the results where the layer
	// ran and where it passed.
	LayerRan, LayerPassed [5]int
}

// PassRate is the share of judged results (passed or failed) that passed, and
// the number judged; errors are not judged.
func (s Summary) PassRate() (float64, int) {
	judged := s.Passed + s.Failed
	if judged == 0 {
		return 0, 0
	}
	return float64(s.Passed) / float64(judged), judged
}

// Summarize counts verdicts.
func Summarize(rs []result.EvalResult) Summary {
	var s Summary
	for _, r := range rs {
		s.Results++
		switch r.Status {
		case result.StatusPassed:
			s.Passed++
		case result.StatusFailed:
			s.Failed++
		default:
			s.Errors++
		}
		for _, l := range r.Layers {
			if l.Status == result.StatusPassed || l.Status == result.StatusFailed {
				s.LayerRan[l.Layer]++
				if l.Status == result.StatusPassed {
					s.LayerPassed[l.Layer]++
				}
			}
		}
	}
	return s
}
