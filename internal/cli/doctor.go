package cli

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/pycheck"
	"github.com/embedeval/embedeval-go/internal/sandbox"
)

func newDoctorCommand() *cobra.Command {
	var tc ToolchainConfig
	var asJSON bool
	var python PythonOptions
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Say which platforms this machine can build (L1) and run (L2), and why not",
		Long: `doctor checks, for every target of the platform registry, whether the tools its
backend needs are on this machine, and prints what L1 and L2 can do here.
Its first line names the jail that confines every build and run of
untrusted code (bubblewrap, a dedicated uid, or none: see --jail and
--allow-unjailed).
Layers that cannot run are skipped by validate and run (never passed);
--require-layers turns that into an error. The last line says whether the
bridge to Python check modules (--allow-python-checks) would work: whether
its worker is jailed, the interpreter, and where the Python implementation's
embedeval package imports from (PYTHONPATH).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := tc.dispatcher(cmd.Context())
			if err != nil {
				return err
			}
			rows := d.Doctor()
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "jail: %s\n", d.Jail().Describe())
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
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), pythonBridgeLine(cmd, python.Python, d.Jail()))
			return nil
		},
	}
	tc.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "write JSON")
	cmd.Flags().StringVar(&python.Python, "python", pycheck.DefaultPython, "Python interpreter of the bridge to Python check modules, to probe")
	return cmd
}

// pythonBridgeLine probes the Python check bridge, in jail as run and
// validate would start it, for doctor's last line.
func pythonBridgeLine(cmd *cobra.Command, python string, jail *sandbox.Jail) string {
	b := pycheck.New(pycheck.Options{Python: python, Jail: jail})
	defer b.Close()
	p, err := b.Probe(cmd.Context())
	jailed := "worker NOT jailed (runs as this user and sees its files; jail " + string(jail.Mode()) + ")"
	if b.Jailed() {
		jailed = "worker jailed (bubblewrap)"
	}
	switch {
	case err != nil:
		return fmt.Sprintf("python checks (--allow-python-checks): unavailable: %v", err)
	case p.EmbedevalErr != "":
		return fmt.Sprintf("python checks (--allow-python-checks): %s; %s %s; the embedeval package does not import (%s): set PYTHONPATH to the Python implementation's src/ or pick its interpreter with --python", jailed, p.Executable, p.Python, p.EmbedevalErr)
	default:
		return fmt.Sprintf("python checks (--allow-python-checks): %s; %s %s; embedeval package from %s", jailed, p.Executable, p.Python, p.Embedeval)
	}
}
