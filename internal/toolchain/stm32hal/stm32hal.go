// Package stm32hal is the L1 backend of STM32 HAL cases (registry backend
// "stm32-hal"): it compiles the answer (src/main.c) and the case's other C
// files with arm-none-eabi-gcc against an STM32Cube HAL checkout
// (STM32_HAL_PATH), with the CPU, floating-point ABI and device define of the
// case's board. It compiles without linking: no HAL sources or startup code
// are built, so L1 verifies that the code compiles against the HAL headers of
// the board's device. There is no L2 (no emulator runs STM32 boards here).
package stm32hal

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/toolchain"
)

// HALPathEnv names the variable holding the STM32Cube package checkout
// (e.g. /opt/STM32CubeF4, the root holding Drivers/).
const HALPathEnv = "STM32_HAL_PATH"

// CodePath is where the answer is staged in the workspace.
const CodePath = "src/main.c"

// Compiler is the cross compiler's name.
const Compiler = "arm-none-eabi-gcc"

// Board is what the compiler needs to know about a board.
type Board struct {
	// Device is the CMSIS device define, e.g. STM32F401xE.
	Device string
	// CPU, FPU and FloatABI are the -mcpu, -mfpu and -mfloat-abi values.
	CPU, FPU, FloatABI string
	// Family is the STM32Cube family, e.g. F4 (Drivers/STM32F4xx_HAL_Driver).
	Family string
}

// Flags are the target flags of the board.
func (b Board) Flags() []string {
	f := []string{"-mcpu=" + b.CPU, "-mthumb"}
	if b.FPU != "" {
		f = append(f, "-mfpu="+b.FPU)
	}
	return append(f, "-mfloat-abi="+b.FloatABI, "-D"+b.Device, "-DUSE_HAL_DRIVER")
}

// IncludeDirs are the HAL's include directories under the Cube root.
func (b Board) IncludeDirs(cube string) []string {
	fam := "STM32" + b.Family + "xx"
	return []string{
		filepath.Join(cube, "Drivers", fam+"_HAL_Driver", "Inc"),
		filepath.Join(cube, "Drivers", "CMSIS", "Device", "ST", fam, "Include"),
		filepath.Join(cube, "Drivers", "CMSIS", "Include"),
	}
}

// Boards is the board table: the boards whose family's Cube package the
// stm32-hal image holds (STM32CubeF4).
func Boards() map[string]Board {
	m4 := func(device string) Board {
		return Board{Device: device, CPU: "cortex-m4", FPU: "fpv4-sp-d16", FloatABI: "hard", Family: "F4"}
	}
	return map[string]Board{
		"nucleo-f401re":     m4("STM32F401xE"),
		"nucleo-f411re":     m4("STM32F411xE"),
		"nucleo-f446re":     m4("STM32F446xx"),
		"stm32f4-discovery": m4("STM32F407xx"),
		"black-pill-f411ce": m4("STM32F411xE"),
	}
}

// commonFlags are the language and warning flags, as in the bundled case's
// Makefile, plus implicit declarations as errors: without a link step, a call
// to a HAL function that does not exist is caught only there.
func commonFlags() []string {
	return []string{"-std=c11", "-Os", "-Wall", "-Wextra", "-Werror=implicit-function-declaration",
		"-ffunction-sections", "-fdata-sections"}
}

// Backend compiles STM32 HAL cases.
type Backend struct {
	path string
}

// Option configures a Backend.
type Option func(*Backend)

// WithPath sets the PATH in which the compiler is looked up and which the
// compiler gets (tests put stand-ins first); by default this process's PATH.
func WithPath(path string) Option { return func(b *Backend) { b.path = path } }

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
func (b *Backend) Name() string { return "stm32-hal" }

func (b *Backend) searchPath() string { return toolchain.ToolPath(b.path).Value() }

func (b *Backend) env(ws string) []string {
	var set []string
	if b.path != "" {
		set = append(set, "PATH="+b.path)
	}
	return sandbox.Env(ws, nil, set...)
}

func lookIn(path, name string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// Available implements toolchain.Backend: the compiler on PATH and the HAL
// headers of the target's default board's family under STM32_HAL_PATH. Run
// is never available.
func (b *Backend) Available(t platform.Target) toolchain.Availability {
	var why []string
	if _, err := lookIn(b.searchPath(), Compiler); err != nil {
		why = append(why, Compiler+" is not installed (Debian package gcc-arm-none-eabi)")
	}
	if why2 := halMissing(t.DefaultBoard); why2 != "" {
		why = append(why, why2)
	}
	a := toolchain.Availability{Build: len(why) == 0}
	if a.Build {
		a.Why = "stm32-hal has no L2: no emulator runs STM32 boards"
	} else {
		a.Why = strings.Join(why, "; ")
	}
	return a
}

func halMissing(board string) string {
	cube := os.Getenv(HALPathEnv)
	if cube == "" {
		return HALPathEnv + " is not set (the STM32Cube package checkout; the stm32-hal image sets it)"
	}
	bd, ok := Boards()[board]
	if !ok {
		return fmt.Sprintf("board %q is not in the stm32-hal board table", board)
	}
	hdr := filepath.Join(bd.IncludeDirs(cube)[0], "stm32"+strings.ToLower(bd.Family)+"xx_hal.h")
	if _, err := os.Stat(hdr); err != nil {
		return fmt.Sprintf("%s=%s holds no STM32Cube%s HAL (%s is missing)", HALPathEnv, cube, bd.Family, hdr)
	}
	return ""
}

// Build implements toolchain.Backend: one `arm-none-eabi-gcc -c` per C file
// of the workspace (the answer first), objects under build/.
func (b *Backend) Build(ctx context.Context, req toolchain.Request) (result.LayerResult, eval.Artifact) {
	bd, ok := Boards()[req.Board]
	if !ok {
		return toolchain.ErrorLayer(fmt.Sprintf("stm32-hal: board %q is not in the board table (known: %s)", req.Board, strings.Join(boardNames(), ", "))), nil
	}
	cube := os.Getenv(HALPathEnv)
	if cube == "" {
		return toolchain.ErrorLayer("stm32-hal: " + HALPathEnv + " is not set"), nil
	}
	ws, err := toolchain.Stage(req, "stm32hal", CodePath)
	if err != nil {
		return toolchain.StartError("stage workspace", err), nil
	}
	lr := b.compile(ctx, req, ws, bd, cube)
	if lr.Status != result.StatusPassed {
		ws.Close()
		return lr, nil
	}
	return lr, &toolchain.BuildOnly{Workspace: ws, Why: "stm32-hal builds are compiled only (no emulator)"}
}

func (b *Backend) compile(ctx context.Context, req toolchain.Request, ws *sandbox.Workspace, bd Board, cube string) result.LayerResult {
	sources, incDirs, err := scan(ws.Dir)
	if err != nil {
		return toolchain.StartError("scan workspace", err)
	}
	if err := os.MkdirAll(filepath.Join(ws.Dir, "build"), 0o755); err != nil {
		return toolchain.StartError("create build directory", err)
	}
	env := b.env(ws.Dir)
	deadline := time.Now().Add(req.BuildTimeout)
	for _, src := range sources {
		args := CompileArgs(bd, cube, incDirs, src)
		left := time.Until(deadline)
		if left <= 0 {
			return toolchain.ErrorLayer(fmt.Sprintf("%s %s: timed out after %s", Compiler, src, req.BuildTimeout))
		}
		res, err := req.Jail.Run(ctx, sandbox.Spec{Args: args, Dir: ws.Dir, Env: env, Timeout: left})
		if err != nil {
			return toolchain.StartError(Compiler, err)
		}
		if lr := toolchain.BuildOutcome(Compiler+" "+src, res, req.BuildTimeout); lr.Status != result.StatusPassed {
			return lr
		}
	}
	return result.LayerResult{Status: result.StatusPassed}
}

// CompileArgs is the command line compiling one workspace-relative source
// file to build/<path with slashes as underscores>.o. incDirs are the
// workspace directories holding headers (slash paths, "." first).
func CompileArgs(bd Board, cube string, incDirs []string, src string) []string {
	args := append([]string{Compiler}, bd.Flags()...)
	for _, d := range incDirs {
		args = append(args, "-I"+d)
	}
	for _, d := range bd.IncludeDirs(cube) {
		args = append(args, "-I"+d)
	}
	args = append(args, commonFlags()...)
	obj := "build/" + strings.TrimSuffix(strings.ReplaceAll(src, "/", "_"), ".c") + ".o"
	return append(args, "-c", src, "-o", obj)
}

// scan lists the workspace's C files (the answer first, then the rest
// sorted) and the directories holding headers ("." always, first).
func scan(root string) (sources, incDirs []string, err error) {
	var other []string
	inc := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "build" {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(rel) {
		case ".c":
			if rel != CodePath {
				other = append(other, rel)
			}
		case ".h":
			if dir := filepath.ToSlash(filepath.Dir(rel)); dir != "." {
				inc[dir] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("scan %s: %w", root, err)
	}
	sort.Strings(other)
	incDirs = []string{"."}
	for d := range inc {
		incDirs = append(incDirs, d)
	}
	sort.Strings(incDirs[1:])
	return append([]string{CodePath}, other...), incDirs, nil
}

func boardNames() []string {
	var n []string
	for k := range Boards() {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}
