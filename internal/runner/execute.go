package runner

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/report"
	"github.com/embedeval/embedeval-go/internal/result"
)

// ExecuteOptions configure Execute: one recorded, resumable run under
// OutputDir/runs/RunID/.
type ExecuteOptions struct {
	// Run are the runner's options; Execute sets their Archive, OnPlan,
	// OnResult and OnNote (OnReply is the caller's) and, with RetestOnly,
	// narrows their Cases.
	Run Options
	// Record is what run.json records (and a resumption must match).
	Record RunOptions
	// RunID names the run; OutputDir holds runs/ and test_tracker.json.
	RunID, OutputDir string
	// Version is the binary's version; Jail describes the jail.
	Version, Jail string
	// RetestOnly runs only the cases changed since their last recorded run.
	RetestOnly bool
	// Out and Err receive progress, summary and notes; Terminal says Out
	// is a terminal.
	Out, Err io.Writer
	Terminal bool
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Outcome is what Execute did.
type Outcome struct {
	// Selected are the cases that ran (after --retest-only).
	Selected []*cases.Case
	Results  []result.EvalResult
	// ResultsPath is the run's results.jsonl.
	ResultsPath string
	// Errors is the number of results that could not be evaluated.
	Errors int
	// Nothing is true when --retest-only found no case to run.
	Nothing bool
}

// Execute runs the benchmark the way the run command does: it opens (or
// resumes) the run's archive, runs every task with a progress display,
// finishes the archive, updates the retest tracker, prints the per-model
// summary and writes each result's code under details/. Reports are the
// caller's (publish.WriteReports). A resumption with different options
// returns an error wrapping ErrOptionsDiffer.
func Execute(ctx context.Context, o ExecuteOptions) (*Outcome, error) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	out, errOut := o.Out, o.Err
	sel := o.Run.Cases
	if o.RetestOnly {
		tr, err := LoadTracker(o.OutputDir)
		if err != nil {
			return nil, err
		}
		sel = tr.Changed(sel)
		fmt.Fprintf(out, "retest-only: %d of %d selected cases changed since their last run or were never run\n", len(sel), len(o.Run.Cases))
		if len(sel) == 0 {
			return &Outcome{Nothing: true}, nil
		}
	}
	manifest := NewManifest(o.RunID, o.Version, o.Record, sel, now())
	manifest.Jail = o.Jail
	archive, err := OpenArchive(o.OutputDir, manifest, func(msg string) { fmt.Fprintln(errOut, "warning: "+msg) })
	if err != nil {
		return nil, err
	}
	defer archive.Close()

	opts := o.Run
	opts.Cases, opts.Archive = sel, archive
	multi := len(o.Record.Models) > 1
	progress := NewProgress(out, o.Terminal, func(r result.EvalResult) string { return ResultLine(r, multi) }, nil)
	opts.OnPlan = func(todo, done int) {
		if done > 0 {
			fmt.Fprintf(out, "resuming run %s: %d results already done, %d to do\n", o.RunID, done, todo)
		}
		progress.Start(todo)
	}
	opts.OnResult = progress.Add
	opts.OnNote = func(n string) { fmt.Fprintln(errOut, "note: "+n) }
	results, err := Run(ctx, opts)
	progress.Finish()
	if err != nil {
		return nil, fmt.Errorf("%w (finished results are in %s; run again with --run-id %s to resume)", err, archive.ResultsPath(), o.RunID)
	}
	if err := archive.Finish(results); err != nil {
		return nil, err
	}
	tr, err := LoadTracker(o.OutputDir)
	if err != nil {
		return nil, err
	}
	tr.Record(o.RunID, sel, results)
	if err := tr.Save(o.OutputDir); err != nil {
		return nil, err
	}
	res := &Outcome{Selected: sel, Results: results, ResultsPath: archive.ResultsPath()}
	res.Errors = PrintSummary(out, o.Record.Models, results)
	fmt.Fprintf(out, "results: %s\n", res.ResultsPath)
	if err := WriteDetails(o.OutputDir, o.RunID, sel, results); err != nil {
		return nil, fmt.Errorf("details: %w", err)
	}
	return res, nil
}

// WriteDetails writes each result's generated code under
// runs/<runID>/details/<model>/ (ignored by git), named by case, scenario and
// attempt, with the extension of the case's answer kind.
func WriteDetails(resultsDir, runID string, corpus []*cases.Case, results []result.EvalResult) error {
	kinds := map[string]string{}
	for _, c := range corpus {
		kinds[c.Meta.ID] = platform.OutputKind(c)
	}
	w, err := report.NewDetailsWriter(resultsDir, report.Options{RunID: runID}, func(id string) string { return kinds[id] })
	if err != nil {
		return err
	}
	for i := range results {
		if err := w.Add(&results[i]); err != nil {
			return err
		}
	}
	return nil
}

// PrintSummary writes per-model verdict counts and layer pass rates and
// returns the number of error results.
func PrintSummary(out io.Writer, models []string, results []result.EvalResult) int {
	byModel := map[string][]result.EvalResult{}
	for _, r := range results {
		byModel[r.Model] = append(byModel[r.Model], r)
	}
	errorsTotal := 0
	for _, name := range models {
		s := Summarize(byModel[name])
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

// ResultLine is a result's line in the progress display; withModel adds the
// model's name (runs of several models).
func ResultLine(r result.EvalResult, withModel bool) string {
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
