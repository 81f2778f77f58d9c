// Package baremetal is the L1/L2 backend of the baremetal-cortex-m target:
// it builds a bare-metal Cortex-M application with arm-none-eabi-gcc and
// newlib (rdimon semihosting) through the case's own Makefile, and runs the
// ELF under qemu-system-arm with semihosting, so that the firmware's printf
// reaches the run log and its exit() ends QEMU with the firmware's status.
//
// Conventions: the code under test is staged at src/main.c next to the case's
// build files (Makefile, startup code, linker script); `make CROSS=<prefix>`
// must produce app.elf at the workspace root. L2 runs
//
//	qemu-system-arm -M <board> -nographic -icount shift=4,align=off,sleep=off -semihosting-config enable=on,target=native -kernel app.elf
//
// in the workspace, with the request's run timeout. Reaching the timeout is
// normal for firmware; an exit through semihosting with status 0 passes, a
// non-zero status fails, and so does a fault marker such as "HardFault" in
// the output (see toolchain.RunPlan.Run).
//
// Semihosting gives the firmware QEMU's host calls (open, read, write, and
// SYS_SYSTEM, which runs a shell command): QEMU therefore runs only inside
// the jail (package sandbox), where the host calls reach the workspace and
// the read-only system trees and nothing else; without a jail L2 is refused
// (toolchain.SemihostingRefusal).
//
// It owns nothing outside its workspaces and never writes to the case
// directory.
package baremetal

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/scenario"
	"github.com/embedeval/embedeval-go/internal/toolchain"
)

// Name is the backend's registry name.
const Name = "baremetal"

// CodePath is where the code under test is staged in the workspace.
const CodePath = "src/main.c"

// Image is the file the case's Makefile must produce.
const Image = "app.elf"

// DefaultBoard is the QEMU machine used when the request names none.
const DefaultBoard = "mps2-an385"

// DefaultCross is the toolchain prefix passed to make as CROSS.
const DefaultCross = "arm-none-eabi-"

// Option configures a Backend.
type Option func(*Backend)

// Backend builds and runs bare-metal Cortex-M firmware. It holds only
// configuration and is safe for concurrent use.
type Backend struct {
	path  string
	cross string
}

// New returns the backend with the Debian toolchain names.
func New(opts ...Option) *Backend {
	b := &Backend{cross: DefaultCross}
	for _, o := range opts {
		o(b)
	}
	return b
}

var _ toolchain.Backend = (*Backend)(nil)

// Name implements toolchain.Backend.
func (b *Backend) Name() string { return Name }

// Available implements toolchain.Backend: the build needs make and the cross
// compiler with newlib's rdimon specs; the run needs qemu-system-arm.
func (b *Backend) Available(platform.Target) Availability {
	var why []string
	build := true
	if _, err := b.lookPath("make"); err != nil {
		build = false
		why = append(why, "make is not installed (Debian package make)")
	}
	gcc, err := b.lookPath(b.cross + "gcc")
	if err != nil {
		build = false
		why = append(why, b.cross+"gcc is not installed (Debian package gcc-arm-none-eabi)")
	} else if !hasRdimon(gcc) {
		build = false
		why = append(why, "newlib's rdimon.specs is not installed next to "+gcc+" (Debian package libnewlib-arm-none-eabi)")
	}
	run := true
	if _, err := b.lookPath("qemu-system-arm"); err != nil {
		run = false
		why = append(why, "qemu-system-arm is not installed (Debian package qemu-system-arm)")
	}
	return Availability{Build: build, Run: build && run, Why: strings.Join(why, "; ")}
}

// Availability is toolchain.Availability, named here for brevity.
type Availability = toolchain.Availability

// hasRdimon looks for newlib's rdimon.specs where Debian and the Arm GNU
// toolchain install it, relative to the compiler.
func hasRdimon(gcc string) bool {
	if real, err := filepath.EvalSymlinks(gcc); err == nil {
		gcc = real
	}
	prefix := filepath.Dir(filepath.Dir(gcc))
	for _, p := range []string{
		filepath.Join(prefix, "lib", "arm-none-eabi", "newlib", "rdimon.specs"),
		filepath.Join(prefix, "arm-none-eabi", "lib", "rdimon.specs"),
		filepath.Join(prefix, "lib", "arm-none-eabi", "lib", "rdimon.specs"),
	} {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// lookPath resolves a command in the configured PATH.
func (b *Backend) lookPath(name string) (string, error) {
	return toolchain.ToolPath(b.path).Look(name)
}

// env is the allowlisted environment of the build and the run.
func (b *Backend) env(dir string) []string { return toolchain.ToolPath(b.path).Env(dir, nil) }

// Build implements toolchain.Backend: it stages the case with the code at
// src/main.c and runs `make CROSS=<prefix>`.
func (b *Backend) Build(ctx context.Context, req toolchain.Request) (result.LayerResult, eval.Artifact) {
	if _, err := os.Stat(filepath.Join(req.Case.Dir, "Makefile")); err != nil {
		return toolchain.ErrorLayer(fmt.Sprintf("case %s has no Makefile: a baremetal case must ship the Makefile that builds %s", req.Case.Dir, Image)), nil
	}
	ws, err := toolchain.Stage(req, "baremetal", CodePath)
	if err != nil {
		return toolchain.ErrorLayer(fmt.Sprintf("stage workspace: %v", err)), nil
	}
	args := []string{"make", "CROSS=" + b.cross}
	res, err := req.Jail.Run(ctx, sandbox.Spec{Args: args, Dir: ws.Dir, Env: b.env(ws.Dir), Timeout: req.BuildTimeout})
	if err != nil {
		_ = ws.Close()
		return toolchain.StartError("make", err), nil
	}
	lr := toolchain.BuildOutcome("make", res, req.BuildTimeout)
	if lr.Status == result.StatusPassed {
		if _, err := os.Stat(filepath.Join(ws.Dir, Image)); err != nil {
			// The case's Makefile, not the code, broke the convention.
			lr = toolchain.ErrorLayer(fmt.Sprintf("make succeeded but did not produce %s (the case's Makefile must build it)", Image))
		}
	}
	if lr.Status != result.StatusPassed {
		_ = ws.Close()
		return lr, nil
	}
	board := req.Board
	if board == "" {
		board = DefaultBoard
	}
	plan, err := toolchain.LoadRunPlan(req.Case, true)
	if err != nil {
		_ = ws.Close()
		return toolchain.ErrorLayer(err.Error()), nil
	}
	return lr, &artifact{b: b, ws: ws, jail: req.Jail, machine: strings.ReplaceAll(board, "/", "-"), timeout: req.RunTimeout, plan: plan}
}

// artifact is a built app.elf waiting to run under QEMU.
type artifact struct {
	b       *Backend
	ws      *sandbox.Workspace
	jail    *sandbox.Jail
	machine string
	timeout time.Duration
	plan    toolchain.RunPlan
}

// RunArgs is the QEMU command line of a run. -icount makes the guest's clock
// count instructions (16 ns each) instead of following the host's clock, so a
// timer-driven program prints the same thing on a loaded CI runner as on an
// idle laptop; sleep=off lets WFI skip straight to the next timer event.
func RunArgs(machine string) []string {
	return []string{"qemu-system-arm", "-M", machine, "-nographic",
		"-icount", "shift=4,align=off,sleep=off",
		"-semihosting-config", "enable=on,target=native", "-kernel", Image}
}

// UARTArgs is RunArgs for a run that feeds bytes to the UART: the serial
// port alone on stdio, no monitor multiplexed in (which would take Ctrl-A
// as its escape).
func UARTArgs(machine string) []string {
	return append([]string{"qemu-system-arm", "-M", machine, "-nographic", "-monitor", "none", "-serial", "stdio"}, RunArgs(machine)[4:]...)
}

// Run executes the firmware under QEMU once for the default run and once
// per scenario that needs its own run, and judges the runs.
func (a *artifact) Run(ctx context.Context) result.LayerResult {
	if refused := toolchain.SemihostingRefusal(a.jail); refused != nil {
		return *refused
	}
	return a.plan.Run(ctx, a.runOnce)
}

// runOnce boots the firmware until it exits, its timeout stops it or a
// StopWhenMet scenario's expectations are met.
func (a *artifact) runOnce(ctx context.Context, sc *scenario.Scenario) (toolchain.RunOutcome, *result.LayerResult) {
	spec := sandbox.Spec{Args: RunArgs(a.machine), Dir: a.ws.Dir, Env: a.b.env(a.ws.Dir), Timeout: a.timeout}
	spec = toolchain.WithScenario(spec, sc)
	if spec.Stdin != nil {
		spec.Args = UARTArgs(a.machine)
	}
	return toolchain.RunQEMU(ctx, a.jail, spec)
}

// Close removes the workspace.
func (a *artifact) Close() error { return a.ws.Close() }
