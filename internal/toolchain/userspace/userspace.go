// Package userspace is the L1/L2 backend of the linux-userspace target: it
// builds a Linux userspace C program on the host with gcc (and pkg-config
// for the libraries a case names), and runs it in the sandbox.
//
// Conventions: the code under test is staged at src/main.c next to the
// case's build files. Then, in order:
//
//   - a case with a Makefile is built with `make CC=gcc PKG_CONFIG=pkg-config`;
//     the Makefile must produce ./app;
//   - otherwise the case's pkg-config.txt (optional) lists pkg-config package
//     names, separated by white space or new lines, with # starting a
//     comment; the build is `pkg-config --cflags --libs <packages>` (only
//     when there are packages) followed by
//     `gcc -O2 -Wall -o app src/main.c <pkg-config output>`.
//
// A package the machine lacks is a missing toolchain, not a failure of the
// code: L1 is skipped as "toolchain unavailable", naming the package and the
// Debian package that installs it (an error under --require-layers). The
// build sees PKG_CONFIG_PATH, PKG_CONFIG_LIBDIR and PKG_CONFIG_SYSROOT_DIR
// of this process. L2 runs ./app in the workspace with the run timeout, no
// input and the allowlisted environment (no secrets); a program that exits
// 0 by itself or is stopped at the timeout is judged by its output
// (toolchain.RunPlan.Run), a non-zero exit or a fatal signal fails.
//
// The package owns nothing outside its workspaces and never writes to the
// case directory.
package userspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/scenario"
	"github.com/embedeval/embedeval-go/internal/toolchain"
)

// Name is the backend's registry name.
const Name = "userspace"

// Workspace and case file names of the convention.
const (
	// CodePath is where the code under test is staged.
	CodePath = "src/main.c"
	// Program is the executable the build must produce.
	Program = "app"
	// PackagesFile lists the pkg-config packages of a case without a Makefile.
	PackagesFile = "pkg-config.txt"
)

// Option configures a Backend.
type Option func(*Backend)

// Backend builds and runs Linux userspace programs. It holds only
// configuration and is safe for concurrent use.
type Backend struct {
	path string
}

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
func (b *Backend) Name() string { return Name }

// Available implements toolchain.Backend: gcc, make and pkg-config build;
// the program runs on this host, so Run follows Build.
func (b *Backend) Available(platform.Target) toolchain.Availability {
	var why []string
	for _, tool := range [][2]string{{"gcc", "gcc"}, {"make", "make"}, {"pkg-config", "pkg-config"}} {
		if _, err := b.lookPath(tool[0]); err != nil {
			why = append(why, fmt.Sprintf("%s is not installed (Debian package %s)", tool[0], tool[1]))
		}
	}
	ok := len(why) == 0
	return toolchain.Availability{Build: ok, Run: ok, Why: strings.Join(why, "; ")}
}

// lookPath resolves a command in the configured PATH.
func (b *Backend) lookPath(name string) (string, error) {
	return toolchain.ToolPath(b.path).Look(name)
}

// pkgConfigVariables are the variables that tell pkg-config where to look;
// the build gets them from this process, so that a machine's own setup (or a
// test) decides which packages exist.
func pkgConfigVariables() []string {
	return []string{"PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PKG_CONFIG_SYSROOT_DIR"}
}

// env is the allowlisted environment of the build and the program.
func (b *Backend) env(dir string) []string {
	return toolchain.ToolPath(b.path).Env(dir, pkgConfigVariables())
}

// DebianPackage names the Debian 12 package that installs the .pc file of a
// pkg-config package, and false for a package outside its table. Checked
// with `dpkg -S <name>.pc` on Debian 12 for libgpiod, libsystemd, zlib and
// openssl; the others are their libraries' usual -dev packages.
func DebianPackage(pc string) (string, bool) {
	switch pc {
	case "libgpiod":
		return "libgpiod-dev", true
	case "libsystemd":
		return "libsystemd-dev", true
	case "libudev":
		return "libudev-dev", true
	case "glib-2.0", "gio-2.0", "gobject-2.0":
		return "libglib2.0-dev", true
	case "libusb-1.0":
		return "libusb-1.0-0-dev", true
	case "openssl", "libssl", "libcrypto":
		return "libssl-dev", true
	case "zlib":
		return "zlib1g-dev", true
	}
	return "", false
}

// missingPackage describes a pkg-config package this machine lacks.
func missingPackage(pc string) string {
	if deb, ok := DebianPackage(pc); ok {
		return fmt.Sprintf("pkg-config package %s is not installed (Debian package %s)", pc, deb)
	}
	return fmt.Sprintf("pkg-config package %s is not installed (Debian package: the one holding %s.pc, see apt-file search %s.pc)", pc, pc, pc)
}

// Packages reads a case's pkg-config.txt: the package names in order, or
// none when the file does not exist.
func Packages(caseDir string) ([]string, error) {
	p := filepath.Join(caseDir, PackagesFile)
	data, err := cases.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		out = append(out, strings.Fields(line)...)
	}
	return out, nil
}

// Build implements toolchain.Backend.
func (b *Backend) Build(ctx context.Context, req toolchain.Request) (result.LayerResult, eval.Artifact) {
	ws, err := toolchain.Stage(req, "userspace", CodePath)
	if err != nil {
		return toolchain.ErrorLayer(fmt.Sprintf("stage workspace: %v", err)), nil
	}
	lr := b.build(ctx, ws, req)
	if lr.Status == result.StatusPassed {
		if st, err := os.Stat(filepath.Join(ws.Dir, Program)); err != nil || st.Mode()&0o111 == 0 {
			lr = toolchain.ErrorLayer(fmt.Sprintf("the build succeeded but produced no executable ./%s (the case's Makefile must build it)", Program))
		}
	}
	if lr.Status != result.StatusPassed {
		_ = ws.Close()
		return lr, nil
	}
	plan, err := toolchain.LoadRunPlan(req.Case, false)
	if err != nil {
		_ = ws.Close()
		return toolchain.ErrorLayer(err.Error()), nil
	}
	return lr, &artifact{b: b, ws: ws, jail: req.Jail, timeout: req.RunTimeout, plan: plan}
}

func (b *Backend) build(ctx context.Context, ws *sandbox.Workspace, req toolchain.Request) result.LayerResult {
	env := b.env(ws.Dir)
	run := func(step string, args []string) (sandbox.Result, *result.LayerResult) {
		res, err := req.Jail.Run(ctx, sandbox.Spec{Args: args, Dir: ws.Dir, Env: env, Timeout: req.BuildTimeout})
		if err != nil {
			lr := toolchain.StartError(step, err)
			return res, &lr
		}
		return res, nil
	}
	if _, err := os.Stat(filepath.Join(req.Case.Dir, "Makefile")); err == nil {
		res, fail := run("make", []string{"make", "CC=gcc", "PKG_CONFIG=pkg-config"})
		if fail != nil {
			return *fail
		}
		return toolchain.BuildOutcome("make", res, req.BuildTimeout)
	}
	pkgs, err := Packages(req.Case.Dir)
	if err != nil {
		return toolchain.ErrorLayer(err.Error())
	}
	var flags []string
	if len(pkgs) > 0 {
		res, fail := run("pkg-config", append([]string{"pkg-config", "--cflags", "--libs", "--"}, pkgs...))
		if fail != nil {
			return *fail
		}
		if lr := toolchain.BuildOutcome("pkg-config", res, req.BuildTimeout); lr.Status != result.StatusPassed {
			if lr.Status != result.StatusFailed {
				return lr
			}
			// The packages come from the case, not from the code: a
			// missing one is a toolchain this machine lacks.
			missing, fail := missingPackages(run, pkgs)
			if fail != nil {
				return *fail
			}
			if len(missing) > 0 {
				return result.LayerResult{Status: result.StatusSkipped, Reason: "toolchain unavailable: " + strings.Join(missing, "; ")}
			}
			return toolchain.ErrorLayer(fmt.Sprintf("pkg-config cannot resolve the case's packages (%s): %s", strings.Join(pkgs, " "), strings.TrimSpace(string(res.Output))))
		}
		flags = strings.Fields(string(res.Output))
	}
	args := append([]string{"gcc", "-O2", "-Wall", "-o", Program, CodePath}, flags...)
	res, fail := run("gcc", args)
	if fail != nil {
		return *fail
	}
	return toolchain.BuildOutcome("gcc", res, req.BuildTimeout)
}

// missingPackages asks pkg-config about each package on its own, in the
// build's jail and environment, and describes the ones it does not find.
func missingPackages(run func(string, []string) (sandbox.Result, *result.LayerResult), pkgs []string) ([]string, *result.LayerResult) {
	var missing []string
	for _, p := range pkgs {
		res, fail := run("pkg-config", []string{"pkg-config", "--exists", "--", p})
		if fail != nil {
			return nil, fail
		}
		switch {
		case res.Cancelled:
			lr := toolchain.ErrorLayer("pkg-config: cancelled")
			return nil, &lr
		case res.TimedOut:
			lr := toolchain.ErrorLayer("pkg-config --exists " + p + ": timed out")
			return nil, &lr
		case res.ExitCode != 0:
			missing = append(missing, missingPackage(p))
		}
	}
	return missing, nil
}

// artifact is a built program waiting to run.
type artifact struct {
	b       *Backend
	ws      *sandbox.Workspace
	jail    *sandbox.Jail
	timeout time.Duration
	plan    toolchain.RunPlan
}

// Run executes ./app once for the default run and once per scenario, and
// judges the runs (toolchain.RunPlan).
func (a *artifact) Run(ctx context.Context) result.LayerResult {
	return a.plan.Run(ctx, a.runOnce)
}

// runOnce runs ./app until it exits or its timeout stops it (its whole
// process group). A scenario's run happens in a fresh directory holding its
// input files, with its arguments, environment and standard input.
func (a *artifact) runOnce(ctx context.Context, sc *scenario.Scenario) (toolchain.RunOutcome, *result.LayerResult) {
	spec := sandbox.Spec{Args: []string{"./" + Program}, Dir: a.ws.Dir, Workspace: a.ws.Dir, Env: a.b.env(a.ws.Dir), Timeout: a.timeout}
	if sc != nil {
		dir, err := toolchain.StageScenario(a.ws.Dir, sc)
		if err != nil {
			lr := toolchain.ErrorLayer(err.Error())
			return toolchain.RunOutcome{}, &lr
		}
		spec.Dir = dir
		spec.Args = append([]string{"../" + Program}, sc.Args...)
		spec.Env = append(spec.Env, sc.SortedEnv()...)
		spec.SeparateStderr = sc.NeedsSeparateStreams()
		spec = toolchain.WithScenario(spec, sc)
	}
	res, err := a.jail.Run(ctx, spec)
	if err != nil {
		lr := toolchain.StartError("./"+Program, err)
		return toolchain.RunOutcome{}, &lr
	}
	if res.Cancelled {
		lr := toolchain.ErrorLayer("./" + Program + ": cancelled")
		return toolchain.RunOutcome{}, &lr
	}
	return toolchain.OutcomeOf(res, spec.Timeout, spec.SeparateStderr), nil
}

// Close removes the workspace.
func (a *artifact) Close() error { return a.ws.Close() }
