package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/backends"
)

// toolchainFlags choose how L1 and L2 run; validate, run and doctor share them.
type toolchainFlags struct {
	platformsFile string
	require       string
	buildTimeout  time.Duration
	runTimeout    time.Duration
	buildJobs     int
	jailMode      string
	allowUnjailed bool
}

func (f *toolchainFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.platformsFile, "platforms", "", "platform registry to use instead of the shipped data/platforms.yaml")
	fl.StringVar(&f.require, "require-layers", "", "layers whose toolchain must be present (L1, L2 or L1,L2): absence is an error, not a skip")
	fl.DurationVar(&f.buildTimeout, "build-timeout", toolchain.DefaultBuildTimeout, "time limit of one L1 build")
	fl.DurationVar(&f.runTimeout, "run-timeout", toolchain.DefaultRunTimeout, "time after which an L2 run is stopped (normal for firmware)")
	fl.IntVar(&f.buildJobs, "build-jobs", 1, "compiler processes per build (make/ninja -j); the worker pool already runs one build per core")
	fl.StringVar(&f.jailMode, "jail", "auto", "how builds and runs of untrusted code are confined: auto, bubblewrap, uid or none (docs/TOOLCHAINS.md)")
	fl.BoolVar(&f.allowUnjailed, "allow-unjailed", false, "run untrusted code (compilers on model answers, programs, QEMU) even when no jail works here: UNSAFE outside a throwaway machine")
}

// jail detects the jail the flags ask for.
func (f *toolchainFlags) jail(ctx context.Context) (*sandbox.Jail, error) {
	switch strings.ToLower(f.jailMode) {
	case "", "auto", "bubblewrap", "uid", "none":
	default:
		return nil, usageError(fmt.Errorf("--jail: %q is not auto, bubblewrap, uid or none", f.jailMode))
	}
	return sandbox.Detect(ctx, sandbox.JailConfig{Mode: f.jailMode, AllowUnjailed: f.allowUnjailed}), nil
}

// dispatcher builds the L1/L2 toolchain from the flags.
func (f *toolchainFlags) dispatcher(ctx context.Context) (*toolchain.Dispatcher, error) {
	reg, err := f.registry()
	if err != nil {
		return nil, err
	}
	jail, err := f.jail(ctx)
	if err != nil {
		return nil, err
	}
	opts := toolchain.Options{BuildTimeout: f.buildTimeout, RunTimeout: f.runTimeout, BuildJobs: f.buildJobs, Jail: jail}
	for _, part := range strings.Split(f.require, ",") {
		switch strings.ToUpper(strings.TrimSpace(part)) {
		case "":
		case "L1":
			opts.RequireBuild = true
		case "L2":
			opts.RequireRun = true
		default:
			return nil, usageError(fmt.Errorf("--require-layers: %q is not L1 or L2", part))
		}
	}
	return toolchain.New(reg, opts, backends.All()...), nil
}

func (f *toolchainFlags) registry() (*platform.Registry, error) {
	if f.platformsFile == "" {
		reg, err := platform.Default()
		if err != nil {
			return nil, fmt.Errorf("shipped platform registry: %w", err)
		}
		return reg, nil
	}
	raw, err := os.ReadFile(f.platformsFile)
	if err != nil {
		return nil, usageError(fmt.Errorf("--platforms: %w", err))
	}
	reg, err := platform.Load(raw, f.platformsFile)
	if err != nil {
		return nil, usageError(err)
	}
	return reg, nil
}
