package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/catalog"
	"github.com/embedeval/embedeval-go/internal/report"
	"github.com/embedeval/embedeval-go/internal/toolchain"
)

func newCatalogCommand() *cobra.Command {
	var corpus CorpusOptions
	var tc ToolchainConfig
	var out, machine string
	cmd := &cobra.Command{
		Use:   "catalog",
		Short: "Write docs/CASES.md: every case with its layers, checks and negatives, and the category × difficulty table",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sel, problems, err := loadSelected(cmd.ErrOrStderr(), &corpus)
			if err != nil {
				return err
			}
			if len(problems) > 0 {
				return findings("fix the broken cases first (see above)")
			}
			d, err := tc.dispatcher(cmd.Context())
			if err != nil {
				return err
			}
			rows, err := catalog.Build(cmd.Context(), sel, func(c *cases.Case) toolchain.Plan { return d.PlanFor(c) })
			if err != nil {
				return err
			}
			if err := report.WriteFileAtomic(out, catalog.Markdown(rows, machine)); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s (%d cases)\n", out, len(rows))
			return nil
		},
	}
	corpus.register(cmd)
	tc.register(cmd)
	cmd.Flags().StringVar(&out, "out", "docs/CASES.md", "where the catalogue is written")
	cmd.Flags().StringVar(&machine, "machine", "a Debian 12 machine with the packages scripts/test.sh installs and the SDK trees of ../shared/sdk", "where the \"layers here\" were determined, as the catalogue states it")
	return cmd
}
