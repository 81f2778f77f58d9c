package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/pycheck"
	"github.com/embedeval/embedeval-go/internal/result"
)

func newEvaluateCommand() *cobra.Command {
	var corpus CorpusOptions
	var tc ToolchainConfig
	var python PythonOptions
	var limits checks.Limits
	var layers string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "evaluate --case ID [FILE|-]",
		Short: "Evaluate one solution (a file, stdin, or the reference) against one case and show every check",
		Long: `evaluate runs one case's layers on a solution and prints every layer, every
check record (name, verdict, expected, actual) and every negative's outcome:
the quickest way to see what a check says about a given piece of code while
writing or reviewing a case. FILE is the solution ("-" reads stdin); without
it the case's reference is evaluated. --json prints the full result record.

Exit code 0 when the solution passes, 1 when it fails or cannot be judged,
2 on bad flags.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(corpus.Filter.IDs) != 1 {
				return usageError(errors.New("give exactly one case with --case"))
			}
			set, err := eval.ParseLayers(layers)
			if err != nil {
				return usageError(err)
			}
			sel, _, err := loadSelected(cmd.ErrOrStderr(), &corpus)
			if err != nil {
				return err
			}
			if len(sel) != 1 {
				return usageError(fmt.Errorf("case %s not found (or does not load) under %s", corpus.Filter.IDs[0], corpus.CasesDir))
			}
			c := sel[0]
			if err := python.refuse(sel); err != nil {
				return err
			}
			code, source, err := solution(cmd, c, args)
			if err != nil {
				return err
			}
			d, err := tc.dispatcher(cmd.Context())
			if err != nil {
				return err
			}
			rt, err := checks.NewRuntime(limits, nil)
			if err != nil {
				return fmt.Errorf("check runtime: %w", err)
			}
			if opts := python.options(limits.Timeout, d.Jail(), corpus.CasesDir, corpus.PrivateDir); opts != nil {
				bridge := pycheck.New(*opts)
				defer bridge.Close()
				rt.UseForeign(bridge)
			}
			cc, ps := eval.LoadCaseChecks(cmd.Context(), rt, c)
			if diag.HasErrors(ps) {
				for _, p := range ps {
					fmt.Fprintln(cmd.ErrOrStderr(), p)
				}
				return findings("%s: check files do not load", c.Meta.ID)
			}
			s := rt.NewSession()
			defer s.Close()
			res := eval.New(d, set).Evaluate(cmd.Context(), s, cc, code, eval.Subject{Model: source, Attempt: 1})
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(res); err != nil {
					return err
				}
			} else {
				writeEvaluation(out, source, res)
			}
			if !res.Passed {
				return findings("%s: %s", c.Meta.ID, res.Status)
			}
			return nil
		},
	}
	corpus.register(cmd)
	tc.register(cmd)
	python.register(cmd)
	fl := cmd.Flags()
	addLayersFlag(fl, &layers)
	fl.BoolVar(&asJSON, "json", false, "print the full result record as JSON")
	addCheckLimitFlags(fl, &limits)
	return cmd
}

// solution reads the code to evaluate and names where it came from.
func solution(cmd *cobra.Command, c *cases.Case, args []string) (string, string, error) {
	switch {
	case len(args) == 0:
		data, err := os.ReadFile(c.ReferencePath)
		if err != nil {
			return "", "", fmt.Errorf("read the reference: %w", err)
		}
		return string(data), "reference", nil
	case args[0] == "-":
		data, err := io.ReadAll(cmd.InOrStdin())
		if err != nil {
			return "", "", fmt.Errorf("read stdin: %w", err)
		}
		return string(data), "stdin", nil
	default:
		data, err := os.ReadFile(args[0])
		if err != nil {
			return "", "", usageError(fmt.Errorf("read %s: %w", args[0], err))
		}
		return string(data), args[0], nil
	}
}

// writeEvaluation prints a result layer by layer with every check record.
func writeEvaluation(w io.Writer, source string, r result.EvalResult) {
	fmt.Fprintf(w, "%s on %s: %s\n", r.CaseID, source, strings.ToUpper(string(r.Status)))
	for _, l := range r.Layers {
		line := fmt.Sprintf("L%d %s: %s", l.Layer, result.LayerShortName(l.Layer), l.Status)
		if l.Reason != "" {
			line += " (" + l.Reason + ")"
		}
		fmt.Fprintln(w, line)
		if l.Error != nil {
			fmt.Fprintf(w, "    error: %s\n", *l.Error)
		}
		if l.Layer == result.LayerMutation {
			for _, m := range l.Mutations {
				fmt.Fprintf(w, "    %-8s %s%s\n", m.Outcome, m.Name, verdictsText(m))
			}
			continue
		}
		for _, d := range l.Details {
			mark := "FAIL"
			switch {
			case d.Inconclusive:
				mark = "n/a" // inconclusive: cannot fail the solution
			case d.Passed:
				mark = "ok"
			}
			fmt.Fprintf(w, "    %-4s %s", mark, d.CheckName)
			if d.Expected != nil {
				fmt.Fprintf(w, "  expected: %s", *d.Expected)
			}
			if d.Actual != nil {
				fmt.Fprintf(w, "  actual: %s", *d.Actual)
			}
			fmt.Fprintln(w)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

func verdictsText(m result.MutationResult) string {
	var parts []string
	for _, v := range m.MustFail {
		word := "caught"
		switch {
		case v.Missing:
			word = "not reported"
		case v.Inconclusive:
			word = "MISSED (inconclusive on the mutant)"
		case !v.Caught:
			word = "MISSED"
		}
		parts = append(parts, v.CheckName+" "+word)
	}
	for _, v := range m.ShouldFail {
		word := "caught"
		if !v.Caught {
			word = "missed (should_fail)"
		}
		parts = append(parts, v.CheckName+" "+word)
	}
	if m.Error != "" {
		parts = append(parts, "error: "+m.Error)
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, ", ")
}
