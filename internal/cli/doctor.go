package cli

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"
)

func newDoctorCommand() *cobra.Command {
	var tc toolchainFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Say which platforms this machine can build (L1) and run (L2), and why not",
		Long: `doctor checks, for every target of the platform registry, whether the tools its
backend needs are on this machine, and prints what L1 and L2 can do here.
Layers that cannot run are skipped by validate and run (never passed);
--require-layers turns that into an error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := tc.dispatcher()
			if err != nil {
				return err
			}
			rows := d.Doctor()
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "TARGET\tBACKEND\tL1\tL2\tIMAGE\tWHY NOT")
			yes := func(b bool) string {
				if b {
					return "yes"
				}
				return "no"
			}
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Target, r.Backend, yes(r.CanBuild), yes(r.CanRun), r.Image, r.Why)
			}
			return tw.Flush()
		},
	}
	tc.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "write JSON")
	return cmd
}
