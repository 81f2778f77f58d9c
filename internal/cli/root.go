// Package cli holds the command-line interface: one cobra command per
// subcommand, each a thin layer that turns flags into options and calls the
// package that does the work. Exit codes: 0 ok, 1 findings (a validation
// problem, a failing case), 2 usage or internal error.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/spf13/cobra"
)

// Exit codes of every binary.
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitUsage    = 2
)

// ExitError carries an exit code out of a command.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// findings is the error a command returns when it ran fine but found problems.
func findings(format string, args ...any) error {
	return &ExitError{Code: ExitFindings, Err: fmt.Errorf(format, args...)}
}

// usageError wraps an error in bad flags or arguments.
func usageError(err error) error { return &ExitError{Code: ExitUsage, Err: err} }

// Version is the binary version, set at link time with -X.
var version = "dev"

// Version returns the binary's version string.
func Version() string { return version }

// NewRootCommand builds the embedeval command tree with the real factory.
func NewRootCommand(stdout, stderr io.Writer) *cobra.Command {
	return NewRootCommandWith(DefaultFactory(os.Stdin, stdout, stderr))
}

// NewRootCommandWith builds the embedeval command tree on a factory.
func NewRootCommandWith(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "embedeval",
		Short: "Benchmark LLMs on embedded firmware: validate cases, run models, score and report",
		Long: `embedeval evaluates code for embedded firmware cases (Zephyr, ESP-IDF, STM32 HAL,
FreeRTOS, embedded Linux, Yocto, bare-metal Cortex-M) through five layers:
L0 static checks, L1 compile, L2 runtime, L3 behavioural heuristics and L4
mutation testing of the checks themselves.

Exit codes: 0 ok, 1 findings (problems found, cases failing), 2 usage or
internal error.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
	}
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError(err) })
	root.PersistentFlags().String("log-level", "warn", "log level: debug, info, warn, error")
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		lvl, _ := cmd.Flags().GetString("log-level")
		var level slog.Level
		if err := level.UnmarshalText([]byte(lvl)); err != nil {
			return usageError(fmt.Errorf("--log-level: %w", err))
		}
		logger := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level}))
		cmd.SetContext(context.WithValue(cmd.Context(), loggerKey{}, logger))
		return nil
	}
	root.AddCommand(
		newValidateCommand(), newValidateCommentCommand(),
		newEvaluateCommand(),
		newRunCommand(f),
		newAgentCommand(f), newSensitivityCommand(f),
		newDoctorCommand(),
		newReportCommand(f),
		newGuideCommand(),
		newCalibrateCommand(),
		newAblationCommand(),
		newPublishCommand(f),
		newCatalogCommand(),
		newListCommand(),
		newCategoriesCommand(),
		newShardCommand(f),
		newMergeCommand(f),
		newPipelineCommand(f),
	)
	return root
}

type loggerKey struct{}

// loggerFrom returns the logger set up by the root command.
func loggerFrom(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// Main runs a command tree with the process arguments and returns the exit
// code, printing the error (if any) to stderr.
func Main(cmd *cobra.Command, args []string) int {
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	if err == nil {
		return ExitOK
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "%s: %v\n", cmd.Name(), err)
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	// cobra reports unknown commands and bad arguments as plain errors.
	return ExitUsage
}

// Run is the embedeval main.
func Run() int { return Main(NewRootCommand(os.Stdout, os.Stderr), os.Args[1:]) }
