package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/validate"
)

func newValidateCommand() *cobra.Command {
	var corpus CorpusOptions
	var tc ToolchainConfig
	var layers, checkNamesBase string
	var asJSON, verbose bool
	var jobs int
	var limits checks.Limits
	var python PythonOptions
	var minCoverage float64
	var requireRequirements, requireBlind bool
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check cases: metadata, check files, reference through every layer, negatives, coverage",
		Long: `validate checks every selected case the way a case pull request is reviewed:

  - metadata.yaml against the schema (unknown fields, enums, id = directory name)
  - prompt, reference and check files present, UTF-8, within size limits
  - check files load; the scope audit finds no raw substring tests on the code
  - the reference passes every selected layer that can run here
  - every must_fail negative changes the reference and makes each check it
    names fail (should_fail misses are warnings)
  - accepted variants under checks/accept/ pass like the reference (a
    variant repeating 90% or more of the reference's lines is a warning)
  - L4 coverage: which checks no must_fail negative defends
  - a requirement a check record cites has at least six words and is quoted
    from prompt.md or a context/ file (--require-requirements: every check
    must cite one)

Exit code 1 when anything is wrong, 2 on bad flags.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if minCoverage < 0 || minCoverage > 100 {
				return usageError(fmt.Errorf("--min-coverage must be a percentage from 0 to 100, got %g", minCoverage))
			}
			flt, err := corpus.resolved()
			if err != nil {
				return err
			}
			set, err := eval.ParseLayers(layers)
			if err != nil {
				return usageError(err)
			}
			d, err := tc.dispatcher(cmd.Context())
			if err != nil {
				return err
			}
			rep, err := validate.Run(cmd.Context(), validate.Options{
				CasesDir: corpus.CasesDir, PrivateCasesDir: corpus.PrivateDir, Filter: flt,
				Layers: set, Jobs: jobs, Limits: limits, Toolchain: d, CheckNamesBase: checkNamesBase,
				Python: python.options(limits.Timeout, d.Jail(), corpus.CasesDir, corpus.PrivateDir), MinCoverage: minCoverage,
				RequireRequirements: requireRequirements, RequireBlind: requireBlind,
			})
			if err != nil {
				return err
			}
			if asJSON {
				err = validate.WriteJSON(cmd.OutOrStdout(), rep)
			} else {
				err = validate.WriteText(cmd.OutOrStdout(), rep, verbose)
			}
			if err != nil {
				return err
			}
			if !rep.OK() {
				return findings("%d of %d cases failed validation", rep.Summary.Failed, rep.Summary.Cases)
			}
			return nil
		},
	}
	corpus.register(cmd)
	tc.register(cmd)
	fl := cmd.Flags()
	addLayersFlag(fl, &layers)
	fl.BoolVar(&asJSON, "json", false, "write the report as JSON")
	fl.StringVar(&checkNamesBase, "check-names-base", "", "git revision to hold check names against: a name reported there must still be reported or be renamed in checks/check_name_migrations.yaml")
	fl.BoolVarP(&verbose, "verbose", "v", false, "also say why layers were skipped and list checks no negative defends")
	fl.IntVarP(&jobs, "jobs", "j", 0, "cases validated in parallel (0: one per CPU)")
	addCheckLimitFlags(fl, &limits)
	python.register(cmd)
	fl.Float64Var(&minCoverage, "min-coverage", 0, "smallest L4 coverage (percent of a case's checks defended by must_fail negatives) a case may have; below it is an error (0: not enforced)")
	fl.BoolVar(&requireRequirements, "require-requirements", false, "make a check record that cites no requirement (a quote of prompt.md or context/) an error")
	fl.BoolVar(&requireBlind, "require-blind", false, "make a case with fewer than 2 blind accepts (checks/accept/blind-*) or 3 blind rejects (checks/reject/blind-*) an error")
	return cmd
}
