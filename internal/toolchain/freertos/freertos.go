// Package freertos is the L1 and L2 backend of FreeRTOS cases (registry
// backend "freertos", target freertos-qemu): L1 runs the case's Makefile,
// which compiles src/main.c with the case's startup code, FreeRTOSConfig.h
// and linker script against the FreeRTOS-Kernel checkout named by
// FREERTOS_KERNEL (tasks.c, queue.c, list.c, timers.c, event_groups.c,
// stream_buffer.c, portable/GCC/ARM_CM3/port.c, portable/MemMang/heap_4.c)
// into app.elf; L2 boots app.elf on QEMU's
// mps2-an385 machine with UART0 on stdout until the run timeout, which is
// normal for firmware.
//
// The kernel objects depend only on the case's build files, the kernel and
// the compiler, not on the answer. When the case's Makefile follows the
// prebuilt-kernel convention (it mentions KERNEL_PREBUILT: `make kernel`
// compiles the kernel to kernel/*.o, `make KERNEL_PREBUILT=1` links the
// objects found there) and the backend has a build cache, the kernel is
// compiled once per configuration by `make kernel` in a jailed workspace
// without the answer, kept in the cache, and copied (read-only) into each
// answer's workspace, which is then built with KERNEL_PREBUILT=1.
package freertos

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
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
	"github.com/embedeval/embedeval-go/internal/toolchain/buildcache"
)

// KernelEnv names the variable holding the FreeRTOS-Kernel checkout.
const KernelEnv = "FREERTOS_KERNEL"

// CodePath is where the answer is staged (the case Makefile's SRC).
const CodePath = "src/main.c"

// Firmware is what the case's Makefile builds, relative to the workspace.
const Firmware = "app.elf"

// kernelFiles are the kernel files the case Makefiles compile; Available
// checks that FREERTOS_KERNEL holds them.
func kernelFiles() []string {
	return []string{"tasks.c", "queue.c", "list.c", "timers.c", "event_groups.c", "stream_buffer.c", "include/FreeRTOS.h", "portable/GCC/ARM_CM3/port.c", "portable/MemMang/heap_4.c"}
}

// PrebuiltVar is the make variable of the prebuilt-kernel convention.
const PrebuiltVar = "KERNEL_PREBUILT"

// KernelDir is where the convention's `make kernel` leaves the objects.
const KernelDir = "kernel"

// Backend builds FreeRTOS cases with make and runs them on QEMU.
type Backend struct {
	path  string
	cache *buildcache.Cache
	log   *slog.Logger
}

// Option configures a Backend.
type Option func(*Backend)

// WithCache keeps the kernel objects of each configuration in c (nil: no
// cache, every build compiles the kernel).
func WithCache(c *buildcache.Cache) Option { return func(b *Backend) { b.cache = c } }

// New returns the backend.
func New(opts ...Option) *Backend {
	b := &Backend{log: slog.Default()}
	for _, o := range opts {
		o(b)
	}
	return b
}

var _ toolchain.Backend = (*Backend)(nil)

// Name implements toolchain.Backend.
func (b *Backend) Name() string { return "freertos" }

func (b *Backend) env(ws string, passThrough ...string) []string {
	return toolchain.ToolPath(b.path).Env(ws, passThrough)
}

// has reports whether a command is on the backend's PATH.
func (b *Backend) has(name string) bool {
	_, err := toolchain.ToolPath(b.path).Look(name)
	return err == nil
}

// Available implements toolchain.Backend: make, arm-none-eabi-gcc and a
// FreeRTOS-Kernel checkout for L1, qemu-system-arm for L2.
func (b *Backend) Available(platform.Target) toolchain.Availability {
	var why []string
	for _, tool := range [][2]string{{"make", "make"}, {"arm-none-eabi-gcc", "gcc-arm-none-eabi"}} {
		if !b.has(tool[0]) {
			why = append(why, fmt.Sprintf("%s is not installed (Debian package %s)", tool[0], tool[1]))
		}
	}
	if k := os.Getenv(KernelEnv); k == "" {
		why = append(why, KernelEnv+" is not set (the FreeRTOS-Kernel checkout; the freertos image sets it)")
	} else {
		for _, f := range kernelFiles() {
			if _, err := os.Stat(filepath.Join(k, filepath.FromSlash(f))); err != nil {
				why = append(why, fmt.Sprintf("%s=%s is not a FreeRTOS-Kernel checkout (%s is missing)", KernelEnv, k, f))
				break
			}
		}
	}
	a := toolchain.Availability{Build: len(why) == 0}
	if !b.has("qemu-system-arm") {
		why = append(why, "qemu-system-arm is not installed (Debian package qemu-system-arm)")
	} else {
		a.Run = a.Build
	}
	a.Why = strings.Join(why, "; ")
	return a
}

// BuildArgs is the L1 command line, run in the workspace.
func BuildArgs(kernel string) []string {
	return []string{"make", KernelEnv + "=" + kernel}
}

// RunArgs is the L2 command line, run in the workspace: the machine of the
// board, UART0 on stdout, no monitor on stdin, semihosting so that a
// firmware may end the run itself, and an instruction-counted clock
// (-icount, 16 ns an instruction, as the bare-metal backend) so that tick
// counts and elapsed times a firmware prints do not depend on host load.
func RunArgs(board string) []string {
	return []string{"qemu-system-arm", "-M", board, "-nographic", "-monitor", "none", "-serial", "stdio",
		"-icount", "shift=4,align=off,sleep=off",
		"-semihosting-config", "enable=on,target=native", "-kernel", Firmware}
}

// Build implements toolchain.Backend.
func (b *Backend) Build(ctx context.Context, req toolchain.Request) (result.LayerResult, eval.Artifact) {
	kernel := os.Getenv(KernelEnv)
	if kernel == "" {
		return toolchain.ErrorLayer("freertos: " + KernelEnv + " is not set"), nil
	}
	ws, err := toolchain.Stage(req, "freertos", CodePath)
	if err != nil {
		return toolchain.StartError("stage workspace", err), nil
	}
	args := BuildArgs(kernel)
	if b.prebuiltKernel(ctx, req, kernel, ws.Dir) {
		args = append(args, PrebuiltVar+"=1")
	}
	res, err := req.Jail.Run(ctx, sandbox.Spec{Args: args, Dir: ws.Dir, Env: b.env(ws.Dir, KernelEnv), Timeout: req.BuildTimeout})
	if err != nil {
		ws.Close()
		return toolchain.StartError("make", err), nil
	}
	lr := toolchain.BuildOutcome("make", res, req.BuildTimeout)
	if lr.Status != result.StatusPassed {
		ws.Close()
		return lr, nil
	}
	return lr, &artifact{ws: ws, args: RunArgs(req.Board), env: b.env(ws.Dir), timeout: req.RunTimeout, req: req}
}

// prebuiltKernel copies the cached kernel objects of the request's
// configuration into the workspace at ws, filling the cache first when they
// are not there, and reports whether it did. Without a cache, with a
// Makefile that does not follow the convention, or when the cache cannot
// give the objects (its fill failed: the answer's own build then shows the
// same error), the build compiles the kernel itself.
func (b *Backend) prebuiltKernel(ctx context.Context, req toolchain.Request, kernel, ws string) bool {
	if b.cache == nil {
		return false
	}
	mk, err := os.ReadFile(filepath.Join(req.Case.Dir, "Makefile"))
	if err != nil || !bytes.Contains(mk, []byte(PrebuiltVar)) {
		return false
	}
	key, err := b.kernelKey(req, kernel)
	if err != nil {
		b.log.Warn("freertos: build cache key; compiling the kernel with the answer", "case", req.Case.Dir, "err", err)
		return false
	}
	entry, err := b.cache.Get(ctx, key, func(ctx context.Context, dir string) error {
		return b.fillKernel(ctx, req, kernel, dir)
	})
	if err == nil {
		err = b.cache.CopyInto(entry, filepath.Join(ws, KernelDir))
	}
	if err != nil {
		b.log.Warn("freertos: no cached kernel; compiling it with the answer", "case", req.Case.Dir, "err", err)
		_ = os.RemoveAll(filepath.Join(ws, KernelDir))
		return false
	}
	return true
}

// kernelKey is the cache key of a configuration: the case's build files,
// every file of the kernel checkout, the compiler and the command line.
func (b *Backend) kernelKey(req toolchain.Request, kernel string) (string, error) {
	k := b.cache.NewKey("freertos-kernel/1")
	k.Add("make", strings.Join(append(BuildArgs(kernel), KernelDir), " "))
	gcc, err := toolchain.ToolPath(b.path).Look("arm-none-eabi-gcc")
	if err != nil {
		return "", err
	}
	k.Tool(gcc)
	files, err := toolchain.BuildFiles(req.Case)
	if err != nil {
		return "", err
	}
	for _, f := range files {
		k.File("case/"+f[0], f[1])
	}
	k.Tree("kernel", kernel, nil)
	return k.Sum()
}

// fillKernel runs `make kernel` in a jailed workspace holding the case's
// build files and no answer, and collects the objects into dir.
func (b *Backend) fillKernel(ctx context.Context, req toolchain.Request, kernel, dir string) error {
	blank := req
	blank.Code = ""
	ws, err := toolchain.Stage(blank, "freertos-kernel", CodePath)
	if err != nil {
		return fmt.Errorf("stage the kernel build of %s: %w", req.Case.Dir, err)
	}
	defer ws.Close()
	res, err := req.Jail.Run(ctx, sandbox.Spec{Args: append(BuildArgs(kernel), KernelDir), Dir: ws.Dir, Env: b.env(ws.Dir, KernelEnv), Timeout: req.BuildTimeout})
	if err != nil {
		return fmt.Errorf("make kernel for %s: %w", req.Case.Dir, err)
	}
	if lr := toolchain.BuildOutcome("make kernel", res, req.BuildTimeout); lr.Status != result.StatusPassed {
		why := lr.Reason
		if lr.Error != nil {
			why = *lr.Error
		}
		return fmt.Errorf("make kernel for %s: %s", req.Case.Dir, why)
	}
	n := 0
	err = buildcache.Collect(filepath.Join(ws.Dir, KernelDir), dir, func(rel string) bool {
		if strings.HasSuffix(rel, ".o") {
			n++
			return true
		}
		return false
	})
	if err != nil {
		return fmt.Errorf("collect the kernel objects of %s: %w", req.Case.Dir, err)
	}
	if n == 0 {
		return fmt.Errorf("make kernel for %s left no objects under %s/", req.Case.Dir, KernelDir)
	}
	return nil
}

// artifact is a built app.elf in its workspace.
type artifact struct {
	ws      *sandbox.Workspace
	args    []string
	env     []string
	timeout time.Duration
	req     toolchain.Request
}

// Run boots the firmware on QEMU once for the default run and once per
// scenario that needs its own run, and judges the runs.
func (a *artifact) Run(ctx context.Context) result.LayerResult {
	plan, err := toolchain.LoadRunPlan(a.req.Case, true)
	if err != nil {
		return toolchain.ErrorLayer(err.Error())
	}
	if _, err := os.Stat(filepath.Join(a.ws.Dir, Firmware)); err != nil {
		return toolchain.ErrorLayer("freertos: make succeeded but left no " + Firmware)
	}
	if refused := toolchain.SemihostingRefusal(a.req.Jail); refused != nil {
		return *refused
	}
	return plan.Run(ctx, a.runOnce)
}

// runOnce boots the firmware until it exits, its timeout stops it or a
// StopWhenMet scenario's expectations are met; a scenario's stdin goes to
// UART0.
func (a *artifact) runOnce(ctx context.Context, sc *scenario.Scenario) (toolchain.RunOutcome, *result.LayerResult) {
	spec := sandbox.Spec{Args: a.args, Dir: a.ws.Dir, Env: a.env, Timeout: a.timeout}
	spec = toolchain.WithScenario(spec, sc)
	return toolchain.RunQEMU(ctx, a.req.Jail, spec)
}

// Close removes the workspace.
func (a *artifact) Close() error { return a.ws.Close() }
