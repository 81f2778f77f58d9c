// Package kbuild is the L1 backend of the linux-kernel-module target: it
// builds an out-of-tree Linux kernel module against installed kernel
// headers with the kernel's own build system (kbuild).
//
// Conventions: the code under test is staged at src/main.c next to the
// case's build files; the case's Kbuild names the object list (for example
// `obj-m := hitcount.o` and `hitcount-y := src/main.o`). A case without a
// Kbuild or Makefile gets `obj-m := src/main.o`. The build is
//
//	make -C <KDIR> M=<workspace> -j<N> modules
//
// with KDIR resolved in this order: the WithKDIR option; KDIR from this
// process's environment (passed to the build explicitly, as KDIR=); the
// running kernel's /lib/modules/$(uname -r)/build; the newest
// /usr/src/linux-headers-*-<arch> that holds a Makefile (Debian's
// per-flavour header packages, not the *-common ones). Compiler warnings are
// not failures; compiler, modpost and make errors are.
//
// There is no L2: modules are compiled, never loaded. The package owns
// nothing outside its workspaces, never writes to the case directory and
// only reads the kernel headers.
package kbuild

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/toolchain"
)

// Name is the backend's registry name.
const Name = "kbuild"

// CodePath is where the code under test is staged in the workspace.
const CodePath = "src/main.c"

// defaultKbuild is written when a case ships neither Kbuild nor Makefile.
const defaultKbuild = "obj-m := src/main.o\n"

// maxJobs bounds make's -j: a module is a handful of objects.
const maxJobs = 8

// Option configures a Backend.
type Option func(*Backend)

// WithPath sets the PATH in which make and gcc are looked up and which the
// build gets; empty means the PATH of this process.
func WithPath(path string) Option { return func(b *Backend) { b.path = path } }

// WithKDIR fixes the kernel build directory, before any other source.
func WithKDIR(dir string) Option { return func(b *Backend) { b.kdir = dir } }

// WithJobs sets make's -j (default: the number of CPUs, at most 8).
func WithJobs(n int) Option { return func(b *Backend) { b.jobs = n } }

// WithHeaderSearch replaces where headers are searched for when neither
// WithKDIR nor $KDIR is set: modulesRoot stands for /lib/modules, srcRoot
// for /usr/src, release for `uname -r` and arch for the Debian flavour
// suffix (amd64, arm64). Empty values keep the defaults. For tests.
func WithHeaderSearch(modulesRoot, srcRoot, release, arch string) Option {
	return func(b *Backend) {
		b.search = headerSearch{modulesRoot: modulesRoot, srcRoot: srcRoot, release: release, arch: arch}
	}
}

// Backend builds kernel modules. It holds only configuration and is safe for
// concurrent use.
type Backend struct {
	path   string
	kdir   string
	jobs   int
	search headerSearch
}

// headerSearch says where kernel headers are looked for.
type headerSearch struct {
	modulesRoot, srcRoot, release, arch string
}

// New returns the backend.
func New(opts ...Option) *Backend {
	b := &Backend{jobs: min(max(runtime.NumCPU(), 1), maxJobs)}
	for _, o := range opts {
		o(b)
	}
	if b.jobs < 1 {
		b.jobs = 1
	}
	return b
}

var _ toolchain.Backend = (*Backend)(nil)

// Name implements toolchain.Backend.
func (b *Backend) Name() string { return Name }

// Available implements toolchain.Backend: the build needs make, gcc and a
// kernel build directory; Why also says which headers were chosen and how.
// Run is always false: modules are never loaded.
func (b *Backend) Available(platform.Target) toolchain.Availability {
	var why []string
	build := true
	for _, tool := range [][2]string{{"make", "make"}, {"gcc", "gcc"}} {
		if _, err := b.lookPath(tool[0]); err != nil {
			build = false
			why = append(why, fmt.Sprintf("%s is not installed (Debian package %s)", tool[0], tool[1]))
		}
	}
	dir, how, err := b.KernelDir()
	if err != nil {
		build = false
		why = append(why, err.Error())
	} else {
		why = append(why, "kernel headers "+dir+" ("+how+")")
	}
	why = append(why, "no L2: kernel modules are built, never loaded")
	return toolchain.Availability{Build: build, Why: strings.Join(why, "; ")}
}

// KernelDir resolves the kernel build directory and says where it came from.
func (b *Backend) KernelDir() (dir, how string, err error) {
	hasMakefile := func(d string) bool {
		st, err := os.Stat(filepath.Join(d, "Makefile"))
		return err == nil && st.Mode().IsRegular()
	}
	if b.kdir != "" {
		if !hasMakefile(b.kdir) {
			return "", "", fmt.Errorf("kernel build directory %s (configured) has no Makefile", b.kdir)
		}
		return b.kdir, "configured", nil
	}
	if env := os.Getenv("KDIR"); env != "" {
		if !hasMakefile(env) {
			return "", "", fmt.Errorf("KDIR=%s has no Makefile", env)
		}
		return env, "KDIR from the environment", nil
	}
	s := b.search
	if s.modulesRoot == "" {
		s.modulesRoot = "/lib/modules"
	}
	if s.srcRoot == "" {
		s.srcRoot = "/usr/src"
	}
	if s.release == "" {
		raw, err := os.ReadFile("/proc/sys/kernel/osrelease")
		if err == nil {
			s.release = strings.TrimSpace(string(raw))
		}
	}
	if s.arch == "" {
		s.arch = debianArch(runtime.GOARCH)
	}
	running := filepath.Join(s.modulesRoot, s.release, "build")
	if s.release != "" && hasMakefile(running) {
		return running, "headers of the running kernel " + s.release, nil
	}
	matches, _ := filepath.Glob(filepath.Join(s.srcRoot, "linux-headers-*-"+s.arch))
	var found []string
	for _, m := range matches {
		if !strings.HasSuffix(m, "-common") && hasMakefile(m) {
			found = append(found, m)
		}
	}
	if len(found) == 0 {
		return "", "", fmt.Errorf("no kernel headers: KDIR is not set, %s has no Makefile and no %s/linux-headers-*-%s has one (Debian package linux-headers-%s)",
			running, s.srcRoot, s.arch, s.arch)
	}
	slices.SortFunc(found, versionCompare)
	newest := found[len(found)-1]
	return newest, fmt.Sprintf("newest %s/linux-headers-*-%s; %s does not exist", s.srcRoot, s.arch, running), nil
}

// debianArch maps GOARCH to the flavour suffix of Debian's header packages.
func debianArch(goarch string) string {
	switch goarch {
	case "386":
		return "686"
	case "arm":
		return "armmp"
	}
	return goarch
}

// versionCompare orders strings with their digit runs compared as numbers,
// so that linux-headers-6.1.0-10-amd64 sorts after linux-headers-6.1.0-9-amd64.
func versionCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitPrefix(a), digitPrefix(b)
		if da != "" && db != "" {
			na, _ := strconv.ParseUint(da, 10, 64)
			nb, _ := strconv.ParseUint(db, 10, 64)
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			if a[0] < b[0] {
				return -1
			}
			return 1
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func digitPrefix(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// lookPath resolves a command in the configured PATH.
func (b *Backend) lookPath(name string) (string, error) {
	return toolchain.ToolPath(b.path).Look(name)
}

// Build implements toolchain.Backend: it stages the case with the code at
// src/main.c and runs kbuild's modules target against the kernel headers.
func (b *Backend) Build(ctx context.Context, req toolchain.Request) (result.LayerResult, eval.Artifact) {
	kdir, _, err := b.KernelDir()
	if err != nil {
		return toolchain.ErrorLayer(err.Error()), nil
	}
	ws, err := toolchain.Stage(req, "kbuild", CodePath)
	if err != nil {
		return toolchain.ErrorLayer(fmt.Sprintf("stage workspace: %v", err)), nil
	}
	if !exists(filepath.Join(ws.Dir, "Kbuild")) && !exists(filepath.Join(ws.Dir, "Makefile")) {
		if err := ws.WriteFile("Kbuild", []byte(defaultKbuild)); err != nil {
			_ = ws.Close()
			return toolchain.ErrorLayer(err.Error()), nil
		}
	}
	set := []string{"KDIR=" + kdir}
	if b.path != "" {
		set = append(set, "PATH="+b.path)
	}
	jobs := b.jobs
	if req.Jobs > 0 {
		jobs = req.Jobs
	}
	args := []string{"make", "-C", kdir, "M=" + ws.Dir, "-j" + strconv.Itoa(jobs), "modules"}
	res, err := req.Jail.Run(ctx, sandbox.Spec{Args: args, Dir: ws.Dir, Env: sandbox.Env(ws.Dir, nil, set...), Timeout: req.BuildTimeout})
	if err != nil {
		_ = ws.Close()
		return toolchain.StartError("make", err), nil
	}
	lr := toolchain.BuildOutcome("kbuild (make modules)", res, req.BuildTimeout)
	// kbuild names files by absolute path; the workspace's name is noise in
	// a reason (and differs between runs).
	lr.Reason = strings.ReplaceAll(strings.ReplaceAll(lr.Reason, ws.Dir+"/", ""), ws.Dir, ".")
	if lr.Status == result.StatusPassed {
		if kos, _ := filepath.Glob(filepath.Join(ws.Dir, "*.ko")); len(kos) == 0 {
			lr = toolchain.ErrorLayer("make modules succeeded but built no .ko: the case's Kbuild names no module (obj-m)")
		}
	}
	if lr.Status != result.StatusPassed {
		_ = ws.Close()
		return lr, nil
	}
	return lr, &toolchain.BuildOnly{Workspace: ws, Why: "kernel modules are built, never loaded"}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
