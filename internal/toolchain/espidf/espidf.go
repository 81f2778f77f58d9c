// Package espidf is the L1 backend of ESP-IDF cases (registry backend
// "esp-idf"): it stages the project (the case's top-level CMakeLists.txt,
// main/CMakeLists.txt and any sdkconfig.defaults) with the answer at
// main/main.c and runs `idf.py -C <ws> -B <ws>/build build` with IDF_TARGET
// set to the chip of the case's board, against the ESP-IDF named by
// IDF_PATH. There is no L2 (no emulator runs here).
//
// One `idf.py build` with IDF_TARGET in the environment rather than
// `idf.py set-target` then `idf.py build`: the workspace is always fresh
// (no sdkconfig, no build directory), and for a fresh project the build
// system takes the target from IDF_TARGET exactly as set-target would
// record it, so the second command would only clear an empty build
// directory and configure CMake twice. A case that ships an sdkconfig for
// another chip fails loudly (idf.py reports the mismatch).
package espidf

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/toolchain"
)

// PathEnv names the variable holding the ESP-IDF checkout.
const PathEnv = "IDF_PATH"

// CodePath is where the answer is staged (the main component's source).
const CodePath = "main/main.c"

// PassThrough are the variables idf.py needs from the image's environment
// (set there by export.sh); nothing else of it reaches the build.
func PassThrough() []string {
	return []string{PathEnv, "IDF_TOOLS_PATH", "IDF_PYTHON_ENV_PATH"}
}

// Chips are the IDF_TARGET values of ESP-IDF 5.3.
func Chips() []string {
	return []string{"esp32", "esp32c2", "esp32c3", "esp32c5", "esp32c6", "esp32h2", "esp32p4", "esp32s2", "esp32s3"}
}

// Chip derives the IDF_TARGET from a board name: the board is a chip name
// ("esp32s3") or starts with one followed by '-' or '_'
// ("esp32s3-devkitc-1", "esp32c3_devkitm").
func Chip(board string) (string, error) {
	b := strings.ToLower(board)
	best := ""
	for _, c := range Chips() {
		if (b == c || strings.HasPrefix(b, c+"-") || strings.HasPrefix(b, c+"_")) && len(c) > len(best) {
			best = c
		}
	}
	if best == "" {
		return "", fmt.Errorf("esp-idf: board %q names no ESP-IDF target (%s)", board, strings.Join(Chips(), ", "))
	}
	return best, nil
}

// Backend builds ESP-IDF projects with idf.py.
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
func (b *Backend) Name() string { return "esp-idf" }

// Available implements toolchain.Backend: idf.py on PATH and IDF_PATH
// naming an ESP-IDF checkout. Run is never available.
func (b *Backend) Available(platform.Target) toolchain.Availability {
	var why []string
	if _, err := toolchain.ToolPath(b.path).Look("idf.py"); err != nil {
		why = append(why, "idf.py is not on PATH (source $IDF_PATH/export.sh; the espressif/idf image does)")
	}
	switch p := os.Getenv(PathEnv); {
	case p == "":
		why = append(why, PathEnv+" is not set (the ESP-IDF checkout)")
	default:
		if _, err := os.Stat(filepath.Join(p, "tools", "cmake", "project.cmake")); err != nil {
			why = append(why, fmt.Sprintf("%s=%s is not an ESP-IDF checkout (tools/cmake/project.cmake is missing)", PathEnv, p))
		}
	}
	if len(why) > 0 {
		return toolchain.Availability{Why: strings.Join(why, "; ")}
	}
	return toolchain.Availability{Build: true, Why: "esp-idf has no L2: no emulator runs ESP32 firmware here"}
}

// BuildArgs is the L1 command line (run in the workspace).
func BuildArgs(workspace string) []string {
	return []string{"idf.py", "-C", workspace, "-B", filepath.Join(workspace, "build"), "build"}
}

// Build implements toolchain.Backend.
func (b *Backend) Build(ctx context.Context, req toolchain.Request) (result.LayerResult, eval.Artifact) {
	chip, err := Chip(req.Board)
	if err != nil {
		return toolchain.ErrorLayer(err.Error()), nil
	}
	ws, err := toolchain.Stage(req, "espidf", CodePath)
	if err != nil {
		return toolchain.StartError("stage workspace", err), nil
	}
	set := []string{"IDF_TARGET=" + chip}
	if b.path != "" {
		set = append(set, "PATH="+b.path)
	}
	env := sandbox.Env(ws.Dir, PassThrough(), set...)
	res, err := req.Jail.Run(ctx, sandbox.Spec{Args: BuildArgs(ws.Dir), Dir: ws.Dir, Env: env, Timeout: req.BuildTimeout})
	if err != nil {
		ws.Close()
		return toolchain.StartError("idf.py build", err), nil
	}
	lr := toolchain.BuildOutcome("idf.py build", res, req.BuildTimeout)
	if lr.Status != result.StatusPassed {
		ws.Close()
		return lr, nil
	}
	return lr, &toolchain.BuildOnly{Workspace: ws, Why: "esp-idf builds are compiled only (no emulator)"}
}
