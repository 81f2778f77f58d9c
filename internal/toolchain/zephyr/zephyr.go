// Package zephyr is the L1 and L2 backend of Zephyr cases (registry backend
// "zephyr", targets zephyr and zephyr-kconfig-fragment). L1 stages the
// application (the case's CMakeLists.txt, prj.conf, boards/ overlays and
// sources) with the answer where Zephyr's build system looks for it — C at
// src/main.c, a Kconfig fragment as prj.conf (replacing the case's), a
// devicetree overlay as app.overlay — and runs a pristine
// `west build -b <board> -d build -p always <workspace>` against the Zephyr
// tree and SDK named by ZEPHYR_BASE and ZEPHYR_SDK_INSTALL_DIR. L2 runs
// build/zephyr/zephyr.exe directly for native_sim boards and
// `west build -d build -t run` (QEMU) for the others, until the program ends
// or the run timeout stops it, which is normal for firmware.
package zephyr

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/scenario"
	"github.com/embedeval/embedeval-go/internal/toolchain"
)

// BaseEnv names the variable holding the Zephyr tree (west's workspace is
// found from it when the application lies outside the workspace).
const BaseEnv = "ZEPHYR_BASE"

// BuildDir is the build directory, relative to the workspace.
const BuildDir = "build"

// NativeExe is the native_sim program, relative to the workspace.
const NativeExe = BuildDir + "/zephyr/zephyr.exe"

// PassThrough are the variables west, CMake and the SDK need from the
// image's environment; nothing else of it reaches the build.
func PassThrough() []string {
	return []string{BaseEnv, "ZEPHYR_SDK_INSTALL_DIR", "ZEPHYR_TOOLCHAIN_VARIANT"}
}

// CodePath is where an answer of the given output kind (platform.OutputKind)
// goes in the application directory.
func CodePath(kind string) (string, error) {
	switch kind {
	case "c":
		return "src/main.c", nil
	case "kconfig":
		return "prj.conf", nil
	case "devicetree":
		return "app.overlay", nil
	}
	return "", fmt.Errorf("zephyr: no place in a Zephyr application for a %s answer", kind)
}

// Backend builds and runs Zephyr applications with west.
type Backend struct {
	path string
}

// Option configures a Backend.
type Option func(*Backend)

// New returns the backend.
func New(opts ...Option) *Backend {
	b := &Backend{}
	for _, o := range opts {
		o(b)
	}
	return b
}

var _ toolchain.Backend = (*Backend)(nil)

// Name implements toolchain.Backend.
func (b *Backend) Name() string { return "zephyr" }

func (b *Backend) env(ws string, passThrough []string) []string {
	return toolchain.ToolPath(b.path).Env(ws, passThrough)
}

// Available implements toolchain.Backend: west on PATH and ZEPHYR_BASE
// naming a Zephyr tree. Running needs nothing more (native_sim programs run
// on the host; the SDK holds QEMU for the others).
func (b *Backend) Available(platform.Target) toolchain.Availability {
	var why []string
	if _, err := toolchain.ToolPath(b.path).Look("west"); err != nil {
		why = append(why, "west is not installed (pip package west; the Zephyr CI image has it)")
	}
	switch base := os.Getenv(BaseEnv); {
	case base == "":
		why = append(why, BaseEnv+" is not set (the Zephyr tree of a west workspace)")
	default:
		if _, err := os.Stat(filepath.Join(base, "VERSION")); err != nil {
			why = append(why, fmt.Sprintf("%s=%s is not a Zephyr tree (no VERSION file)", BaseEnv, base))
		}
	}
	ok := len(why) == 0
	return toolchain.Availability{Build: ok, Run: ok, Why: strings.Join(why, "; ")}
}

// BuildArgs is the L1 command line, run in the workspace; cmakeArgs follow
// "--" when there are any.
func BuildArgs(board, workspace string, cmakeArgs ...string) []string {
	args := []string{"west", "build", "-b", board, "-d", BuildDir, "-p", "always", workspace}
	if len(cmakeArgs) > 0 {
		args = append(append(args, "--"), cmakeArgs...)
	}
	return args
}

// RunArgs is the L2 command line for board, run in the workspace.
func RunArgs(board string) []string {
	if IsNative(board) {
		return []string{"./" + NativeExe}
	}
	return []string{"west", "build", "-d", BuildDir, "-t", "run"}
}

// IsNative reports whether the board builds a host program (native_sim and
// its variants) rather than an image for QEMU.
func IsNative(board string) bool {
	return board == "native_sim" || strings.HasPrefix(board, "native_sim/")
}

// boardOverlays are the file names Zephyr takes instead of app.overlay when
// present (boards/<board>.overlay, <board>.overlay), with the board's
// qualifiers written with underscores as Zephyr does.
func boardOverlays(board string) []string {
	names := []string{strings.ReplaceAll(board, "/", "_")}
	if base, _, ok := strings.Cut(board, "/"); ok {
		names = append(names, base)
	}
	var out []string
	for _, n := range names {
		out = append(out, "boards/"+n+".overlay", n+".overlay")
	}
	return out
}

// cmakeArgs are the extra CMake arguments a staged workspace needs: an
// app.overlay answer next to a board overlay would be ignored by Zephyr's
// overlay search, so it is named explicitly as an extra overlay.
func cmakeArgs(ws, kind, board string) []string {
	if kind != "devicetree" {
		return nil
	}
	for _, f := range boardOverlays(board) {
		if _, err := os.Stat(filepath.Join(ws, filepath.FromSlash(f))); err == nil {
			return []string{"-DEXTRA_DTC_OVERLAY_FILE=" + filepath.Join(ws, "app.overlay")}
		}
	}
	return nil
}

// Build implements toolchain.Backend.
func (b *Backend) Build(ctx context.Context, req toolchain.Request) (result.LayerResult, eval.Artifact) {
	kind := platform.OutputKind(req.Case)
	codePath, err := CodePath(kind)
	if err != nil {
		return toolchain.ErrorLayer(err.Error()), nil
	}
	ws, err := toolchain.Stage(req, "zephyr", codePath)
	if err != nil {
		return toolchain.StartError("stage workspace", err), nil
	}
	env := b.env(ws.Dir, PassThrough())
	args := BuildArgs(req.Board, ws.Dir, cmakeArgs(ws.Dir, kind, req.Board)...)
	if req.Jobs > 0 {
		// west build -o passes options to the build tool (ninja).
		args = append(args[:2], append([]string{"-o=-j" + strconv.Itoa(req.Jobs)}, args[2:]...)...)
	}
	res, err := req.Jail.Run(ctx, sandbox.Spec{Args: args, Dir: ws.Dir, Env: env, Timeout: req.BuildTimeout})
	if err != nil {
		ws.Close()
		return toolchain.StartError("west build", err), nil
	}
	lr := toolchain.BuildOutcome("west build", res, req.BuildTimeout)
	if lr.Status != result.StatusPassed {
		ws.Close()
		return lr, nil
	}
	a := &artifact{ws: ws, board: req.Board, timeout: req.RunTimeout, req: req, env: env}
	if IsNative(req.Board) {
		// The program under test gets no SDK variables, only the base.
		a.env = b.env(ws.Dir, nil)
	}
	return lr, a
}

// artifact is a finished build directory in its workspace.
type artifact struct {
	ws      *sandbox.Workspace
	board   string
	env     []string
	timeout time.Duration
	req     toolchain.Request
}

// Run executes the build once for the default run and once per scenario
// that needs its own run (stdin reaches the console UART of native_sim's
// and QEMU's stdio), and judges the runs.
func (a *artifact) Run(ctx context.Context) result.LayerResult {
	plan, err := toolchain.LoadRunPlan(a.req.Case, true)
	if err != nil {
		return toolchain.ErrorLayer(err.Error())
	}
	if IsNative(a.board) {
		if _, err := os.Stat(filepath.Join(a.ws.Dir, filepath.FromSlash(NativeExe))); err != nil {
			return toolchain.ErrorLayer("zephyr: west build succeeded but left no " + NativeExe)
		}
	}
	return plan.Run(ctx, a.runOnce)
}

// runOnce runs the build until it ends, its timeout stops it or a
// StopWhenMet scenario's expectations are met.
func (a *artifact) runOnce(ctx context.Context, sc *scenario.Scenario) (toolchain.RunOutcome, *result.LayerResult) {
	step := "west build -t run"
	if IsNative(a.board) {
		step = NativeExe
	}
	spec := sandbox.Spec{Args: RunArgs(a.board), Dir: a.ws.Dir, Env: a.env, Timeout: a.timeout}
	spec = toolchain.WithScenario(spec, sc)
	res, err := a.req.Jail.Run(ctx, spec)
	if err != nil {
		lr := toolchain.StartError(step, err)
		return toolchain.RunOutcome{}, &lr
	}
	if res.Cancelled {
		lr := toolchain.ErrorLayer(step + ": cancelled")
		return toolchain.RunOutcome{}, &lr
	}
	return toolchain.OutcomeOf(res, spec.Timeout, false), nil
}

// Close removes the workspace.
func (a *artifact) Close() error { return a.ws.Close() }
