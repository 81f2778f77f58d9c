package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newAgentCommand(f *Factory) *cobra.Command {
	var o RunOptions
	cmd := &cobra.Command{
		Use:   "agent <model>",
		Short: "Run a model in multi-turn agent mode: evaluation feedback goes back to it each turn",
		Long: `agent runs the selected cases as conversations of up to --max-turns model
turns. After each turn the code is evaluated; when a layer fails (any layer,
not only L0/L1), its details go back to the model as the next user message,
and the model answers with a new complete file. The result records the final
evaluation and the number of turns used.

Results are archived and resumable exactly as with run (same --run-id, same
options). Exit codes as for run.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.MaxTurns < 1 {
				return usageError(fmt.Errorf("--max-turns must be at least 1, got %d", o.MaxTurns))
			}
			o.Models = args
			return runRun(cmd.Context(), f, o)
		},
	}
	o.register(cmd)
	cmd.Flags().IntVar(&o.MaxTurns, "max-turns", 5, "largest number of model turns per case")
	return cmd
}
