// Package runner runs a benchmark locally: for every selected case and
// sample it asks a model for code, evaluates it through the layers, and writes
// the result records of the run. It owns the worker pool and the run's output
// files; it does not score or render reports.
package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/llm"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/workpool"
)

// Options configure a run.
type Options struct {
	Cases     []*cases.Case
	Model     llm.Model
	Samples   int
	Layers    eval.LayerSet
	Jobs      int
	Toolchain eval.Toolchain
	Limits    checks.Limits
	// OnResult, when set, is called after each result (from one goroutine at a
	// time), for progress output.
	OnResult func(result.EvalResult)
}

// Run evaluates every case × sample. Cases whose check files do not load are
// recorded as error results (a case error is never a model failure).
func Run(ctx context.Context, opts Options) ([]result.EvalResult, error) {
	rt, err := checks.NewRuntime(opts.Limits, nil)
	if err != nil {
		return nil, err
	}
	if opts.Samples <= 0 {
		opts.Samples = 1
	}
	if opts.Layers == 0 {
		opts.Layers = eval.AllLayers
	}
	ev := eval.New(opts.Toolchain, opts.Layers)
	type task struct {
		cc      *eval.CaseChecks
		loadErr []diag.Problem
		attempt int
	}
	var tasks []task
	for _, c := range opts.Cases {
		cc, ps := eval.LoadCaseChecks(ctx, rt, c)
		for a := 1; a <= opts.Samples; a++ {
			tasks = append(tasks, task{cc: cc, loadErr: errorsOnly(ps), attempt: a})
		}
	}
	results := make([]result.EvalResult, len(tasks))
	var mu sync.Mutex
	err = workpool.Each(ctx, len(tasks), opts.Jobs, rt.NewSession, (*checks.Session).Close, func(s *checks.Session, i int) {
		t := tasks[i]
		r := runOne(ctx, ev, s, opts.Model, t.cc, t.loadErr, t.attempt)
		results[i] = r
		if opts.OnResult != nil {
			mu.Lock()
			opts.OnResult(r)
			mu.Unlock()
		}
	})
	if err != nil {
		return nil, fmt.Errorf("run interrupted: %w", err)
	}
	sort.SliceStable(results, func(i, j int) bool {
		if results[i].CaseID != results[j].CaseID {
			return results[i].CaseID < results[j].CaseID
		}
		return results[i].Attempt < results[j].Attempt
	})
	return results, nil
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

func runOne(ctx context.Context, ev *eval.Evaluator, s *checks.Session, m llm.Model, cc *eval.CaseChecks, loadErr []diag.Problem, attempt int) result.EvalResult {
	errResult := func(msg string) result.EvalResult {
		return result.EvalResult{CaseID: cc.Case.Meta.ID, Model: m.Name(), Attempt: attempt, Layers: []result.LayerResult{}, Status: result.StatusError, Notes: []string{msg}}
	}
	if len(loadErr) > 0 {
		return errResult("case error: " + loadErr[0].String())
	}
	prompt, err := os.ReadFile(cc.Case.PromptPath)
	if err != nil {
		return errResult(fmt.Sprintf("case error: read prompt: %v", err))
	}
	reply, err := m.Generate(ctx, llm.Request{Case: cc.Case, Prompt: string(prompt), Attempt: attempt})
	if err != nil {
		return errResult(fmt.Sprintf("infrastructure error: model %s: %v", m.Name(), err))
	}
	return ev.Evaluate(ctx, s, cc, llm.ExtractCode(reply.Text), eval.Subject{Model: m.Name(), Attempt: attempt})
}

// WriteResults writes one JSON record per line to path atomically (a
// temporary file in the same directory, then a rename).
func WriteResults(path string, results []result.EvalResult) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".results-*.jsonl")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	enc := json.NewEncoder(tmp)
	for _, r := range results {
		if err := enc.Encode(r); err != nil {
			tmp.Close()
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
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
