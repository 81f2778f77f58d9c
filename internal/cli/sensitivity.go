package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/prompt"
	"github.com/embedeval/embedeval-go/internal/runner"
)

func newSensitivityCommand(f *Factory) *cobra.Command {
	var o EvalOptions
	var sample, variants int
	var seed uint64
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "sensitivity <model>",
		Short: "Measure how a model's verdicts change under deterministic prompt variants",
		Long: `sensitivity samples --sample cases (deterministically: the selected cases
sorted by id, shuffled with --seed), runs each with its original prompt and
with each of the first --variants variant strategies, and reports per case the
robustness: the share of variants whose verdict (passed or failed) agrees with
the original's, from 1.0 (all agree) to 0.0 (none), and the mean over cases.
Results that are errors are left out of the comparison.

Variants, in order: reorder (requirement bullets reversed), rephrase
(imperative verbs swapped: Write→Implement, Create→Build, ...), remove
("Output only ..." instructions stripped).

Exit code 0 when every verdict could be compared, 1 when some could not.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			all := prompt.Variants()
			if variants < 1 || variants > len(all) {
				return usageError(fmt.Errorf("--variants must be between 1 and %d, got %d", len(all), variants))
			}
			if sample < 0 {
				return usageError(fmt.Errorf("--sample must not be negative, got %d", sample))
			}
			p, err := prepare(cmd.Context(), f, &o, args)
			if err != nil {
				return err
			}
			opts := p.opts
			opts.Cases = runner.SampleCases(p.selected, sample, seed)
			rep, err := runner.Sensitivity(cmd.Context(), opts, all[:variants], seed)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(rep); err != nil {
					return fmt.Errorf("write report: %w", err)
				}
			} else if err := writeSensitivity(out, rep); err != nil {
				return err
			}
			missing := 0
			for _, c := range rep.Cases {
				for _, v := range c.Variants {
					if v.Agrees == nil {
						missing++
					}
				}
			}
			if missing > 0 {
				return findings("%d variant verdicts could not be compared (errors)", missing)
			}
			return nil
		},
	}
	o.register(cmd)
	fl := cmd.Flags()
	fl.IntVar(&sample, "sample", 30, "number of cases to sample (0: all selected)")
	fl.IntVar(&variants, "variants", 3, "number of variant strategies (1-3: reorder, rephrase, remove)")
	fl.Uint64Var(&seed, "seed", 1, "seed of the case sampling")
	fl.BoolVar(&asJSON, "json", false, "write the report as JSON")
	return cmd
}

func writeSensitivity(w io.Writer, rep runner.SensitivityReport) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "case\toriginal\t%s\trobustness\n", strings.Join(rep.Variants, "\t"))
	for _, c := range rep.Cases {
		cols := []string{c.CaseID, string(c.Original)}
		for _, v := range c.Variants {
			cols = append(cols, string(v.Status))
		}
		cols = append(cols, ratio(c.Robustness))
		fmt.Fprintln(tw, strings.Join(cols, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	_, err := fmt.Fprintf(w, "\n%s: mean robustness %s over %d cases (seed %d)\n", rep.Model, ratio(rep.MeanRobustness), len(rep.Cases), rep.Seed)
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

func ratio(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", *v)
}
