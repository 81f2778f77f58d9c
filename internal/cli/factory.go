package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	gh "github.com/google/go-github/v83/github"

	"github.com/embedeval/embedeval-go/internal/eval"
	ghpub "github.com/embedeval/embedeval-go/internal/github"
	"github.com/embedeval/embedeval-go/internal/llm"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/backends"
)

// IOStreams are the streams a command reads and writes.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// OutIsTerminal says whether Out is a terminal (the progress line
	// updates in place there).
	OutIsTerminal bool
}

// Toolchain is the L1/L2 toolchain a running command evaluates with, and the
// jail that confines its builds and runs.
type Toolchain interface {
	eval.Toolchain
	Jail() *sandbox.Jail
}

// Factory holds what commands get from the outside world, so that tests can
// run a command's run function with fakes (cli/cli's cmdutil.Factory).
// NewRootCommand builds the real one (DefaultFactory).
type Factory struct {
	IO IOStreams
	// Getenv reads the environment.
	Getenv func(string) string
	// Now is the clock.
	Now func() time.Time
	// OpenToolchain makes the L1/L2 toolchain for a platform registry and
	// the toolchain flags.
	OpenToolchain func(ctx context.Context, reg *platform.Registry, cfg ToolchainConfig) (Toolchain, error)
	// OpenModel makes a model from its spec (llm.Open).
	OpenModel func(spec string, opts llm.Options) (llm.Model, error)
	// NewGitHubClient makes the REST client publish uses (ghpub.NewClient).
	NewGitHubClient func(token string, opts ghpub.ClientOptions) (*gh.Client, error)
	// RunSelf runs this binary with args (pipeline --isolate's shards) and
	// returns its exit code; err is set only when it could not be run.
	RunSelf func(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error)
}

// DefaultFactory is the factory of the real binary: the process's
// environment and clock, the toolchain backends of this build, llm.Open and
// the GitHub REST client.
func DefaultFactory(in io.Reader, stdout, stderr io.Writer) *Factory {
	return &Factory{
		IO:              IOStreams{In: in, Out: stdout, ErrOut: stderr, OutIsTerminal: isTerminal(stdout)},
		Getenv:          os.Getenv,
		Now:             time.Now,
		OpenToolchain:   openToolchain,
		OpenModel:       llm.Open,
		NewGitHubClient: ghpub.NewClient,
		RunSelf:         runSelf,
	}
}

// openToolchain is the real toolchain: every backend of this build in the
// jail the flags ask for.
func openToolchain(ctx context.Context, reg *platform.Registry, cfg ToolchainConfig) (Toolchain, error) {
	return newDispatcher(ctx, reg, cfg)
}

// newDispatcher builds the toolchain dispatcher (doctor, validate and
// catalog need its concrete type).
func newDispatcher(ctx context.Context, reg *platform.Registry, cfg ToolchainConfig) (*toolchain.Dispatcher, error) {
	jail, err := cfg.jail(ctx)
	if err != nil {
		return nil, err
	}
	opts := toolchain.Options{BuildTimeout: cfg.BuildTimeout, RunTimeout: cfg.RunTimeout, BuildJobs: cfg.BuildJobs, Jail: jail}
	if opts.RequireBuild, opts.RequireRun, err = cfg.required(); err != nil {
		return nil, err
	}
	return toolchain.New(reg, opts, backends.All()...), nil
}

// runSelf runs this executable with args.
func runSelf(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, fmt.Errorf("find this binary: %w", err)
	}
	c := exec.CommandContext(ctx, exe, args...)
	c.Stdout, c.Stderr = stdout, stderr
	err = c.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() >= 0 {
		return ee.ExitCode(), nil
	}
	if err != nil {
		return 0, fmt.Errorf("%s %v: %w", exe, args, err)
	}
	return 0, nil
}
