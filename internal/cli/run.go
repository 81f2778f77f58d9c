package cli

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/llm"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/runner"
)

var runIDUnsafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func newRunCommand() *cobra.Command {
	var corpus corpusFlags
	var tc toolchainFlags
	var model, layers, outputDir, runID string
	var samples, jobs int
	var limits checks.Limits
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run a model over the selected cases and record every result",
		Long: `run asks a model for each selected case (× --samples), extracts the code from
its reply, evaluates it through the layers, prints a line per result and a
summary, and writes the records to <output-dir>/runs/<run-id>/results.jsonl.

Models in this build: "reference" (each case's reference solution: the
harness's sanity baseline, which must pass every layer that runs) and "mock"
(a fixed hello-world reply). Both are offline and need no account.

Exit code 0 when every result could be evaluated (whatever the verdicts), 1
when some results are errors (case or infrastructure), 2 on bad flags.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := llm.New(model)
			if err != nil {
				return usageError(err)
			}
			set, err := eval.ParseLayers(layers)
			if err != nil {
				return usageError(err)
			}
			d, err := tc.dispatcher()
			if err != nil {
				return err
			}
			sel, _, err := loadSelected(cmd, &corpus)
			if err != nil {
				return err
			}
			if len(sel) == 0 {
				return usageError(fmt.Errorf("no cases selected under %s", corpus.casesDir))
			}
			if runID == "" {
				runID = time.Now().UTC().Format("2006-01-02") + "_" + runIDUnsafe.ReplaceAllString(model, "-")
			}
			out := cmd.OutOrStdout()
			results, err := runner.Run(cmd.Context(), runner.Options{
				Cases: sel, Model: m, Samples: samples, Layers: set, Jobs: jobs, Limits: limits, Toolchain: d,
				OnResult: func(r result.EvalResult) { fmt.Fprintln(out, resultLine(r)) },
			})
			if err != nil {
				return err
			}
			path := filepath.Join(outputDir, "runs", runID, "results.jsonl")
			if err := runner.WriteResults(path, results); err != nil {
				return err
			}
			s := runner.Summarize(results)
			judged := s.Passed + s.Failed
			rate := 0.0
			if judged > 0 {
				rate = 100 * float64(s.Passed) / float64(judged)
			}
			fmt.Fprintf(out, "\n%s: %d results, %d passed, %d failed, %d errors; pass rate %.1f%% of %d judged\n", m.Name(), s.Results, s.Passed, s.Failed, s.Errors, rate, judged)
			var layerParts []string
			for n := 0; n <= result.LayerMutation; n++ {
				if s.LayerRan[n] == 0 {
					layerParts = append(layerParts, fmt.Sprintf("L%d not run", n))
				} else {
					layerParts = append(layerParts, fmt.Sprintf("L%d %d/%d", n, s.LayerPassed[n], s.LayerRan[n]))
				}
			}
			fmt.Fprintf(out, "layers (passed/ran): %s\nresults: %s\n", strings.Join(layerParts, ", "), path)
			if s.Errors > 0 {
				return findings("%d results could not be evaluated", s.Errors)
			}
			return nil
		},
	}
	corpus.register(cmd)
	tc.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&model, "model", "reference", "model spec: reference or mock")
	fl.IntVar(&samples, "samples", 1, "attempts per case (for pass@k)")
	fl.StringVar(&layers, "layers", "all", "layers to run: all, or a list such as L0,L3,L4")
	fl.IntVarP(&jobs, "jobs", "j", 0, "evaluations in parallel (0: one per CPU)")
	fl.StringVar(&outputDir, "output-dir", "results", "where runs/<run-id>/ is written")
	fl.StringVar(&runID, "run-id", "", "run id (default <date>_<model>)")
	fl.Uint64Var(&limits.MaxSteps, "check-steps", checks.DefaultMaxSteps, "Starlark step limit of one check call")
	fl.DurationVar(&limits.Timeout, "check-timeout", checks.DefaultTimeout, "wall-clock limit of one check call")
	return cmd
}

func resultLine(r result.EvalResult) string {
	var layers []string
	for _, l := range r.Layers {
		word := string(l.Status)
		if l.Status == result.StatusSkipped {
			word = "skip"
		}
		layers = append(layers, fmt.Sprintf("L%d:%s", l.Layer, word))
	}
	line := fmt.Sprintf("%-6s %-24s #%d  %s", strings.ToUpper(string(r.Status)), r.CaseID, r.Attempt, strings.Join(layers, " "))
	if len(r.Notes) > 0 {
		line += "  (" + strings.Join(r.Notes, "; ") + ")"
	}
	return line
}
