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
// with KDIR chosen by the case's kernel series (the major.minor of its
// sdk_version in metadata.yaml), because kernel APIs change between series
// (class_create lost its owner argument in 6.4): the nearest installed
// series not older than the case's — a "6.1" case gets 6.1 headers, a "6.4"
// case 6.12 when 6.1 and 6.12 are installed — and among headers of that
// series the running kernel's, else the newest package. When none is new
// enough, L1 is skipped with "kernel headers >= X.Y not installed" and the
// Debian package that provides them (DebianSeries; docs/TOOLCHAINS.md has
// the table), never built against the wrong API. Headers are looked for in
// /lib/modules/$(uname -r)/build, /usr/src/linux-headers-*-<arch> (Debian's
// per-flavour packages, not the *-common ones) and /lib/modules/*/build;
// each one's series is read from its include/generated/uapi/linux/version.h.
// KDIR in this process's environment (passed to the build explicitly, as
// KDIR=) replaces the search: that directory is used, unless its series is
// known and older than the case's. A case whose
// sdk_version is no kernel version gets the running kernel's headers, else
// the newest. Compiler warnings are not failures; compiler, modpost and
// make errors are.
//
// There is no L2: modules are compiled, never loaded. The package owns
// nothing outside its workspaces, never writes to the case directory and
// only reads the kernel headers.
package kbuild

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
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

var (
	_ toolchain.Backend   = (*Backend)(nil)
	_ toolchain.CaseAware = (*Backend)(nil)
)

// Name implements toolchain.Backend.
func (b *Backend) Name() string { return Name }

// Available implements toolchain.Backend: the build needs make, gcc and a
// kernel build directory; Why lists every header series found (what
// `embedeval doctor` shows). Which one a case gets depends on its
// sdk_version: see AvailableFor. Run is always false: modules are never
// loaded.
func (b *Backend) Available(platform.Target) toolchain.Availability {
	build, why := b.tools()
	if hs, err := b.InstalledHeaders(); err != nil {
		build = false
		why = append(why, err.Error())
	} else {
		var found []string
		for _, h := range hs {
			found = append(found, h.String())
		}
		why = append(why, "kernel headers "+strings.Join(found, ", "))
	}
	why = append(why, "no L2: kernel modules are built, never loaded")
	return toolchain.Availability{Build: build, Why: strings.Join(why, "; ")}
}

// AvailableFor implements toolchain.CaseAware: as Available, but the
// headers must be of the case's kernel series or newer (HeadersFor), so a
// case for 6.4 on a machine with only 6.1 headers is skipped with "kernel
// headers >= 6.4 not installed (...; Debian package ...)", never built
// against the wrong API.
func (b *Backend) AvailableFor(_ platform.Target, c *cases.Case) toolchain.Availability {
	build, why := b.tools()
	if h, err := b.HeadersFor(c); err != nil {
		build = false
		why = append(why, err.Error())
	} else {
		why = append(why, "kernel headers "+h.String()+" ("+h.How+")")
	}
	why = append(why, "no L2: kernel modules are built, never loaded")
	return toolchain.Availability{Build: build, Why: strings.Join(why, "; ")}
}

// tools checks for make and gcc.
func (b *Backend) tools() (bool, []string) {
	var why []string
	build := true
	for _, tool := range [][2]string{{"make", "make"}, {"gcc", "gcc"}} {
		if _, err := b.lookPath(tool[0]); err != nil {
			build = false
			why = append(why, fmt.Sprintf("%s is not installed (Debian package %s)", tool[0], tool[1]))
		}
	}
	return build, why
}

// KernelDir resolves the kernel build directory a case without a kernel
// sdk_version would get (HeadersFor with no constraint) and says where it
// came from.
func (b *Backend) KernelDir() (dir, how string, err error) {
	h, err := b.HeadersFor(nil)
	if err != nil {
		return "", "", err
	}
	return h.Dir, h.How, nil
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
	hdr, err := b.HeadersFor(req.Case)
	if errMissing(err) {
		return result.LayerResult{Status: result.StatusSkipped, Reason: "toolchain unavailable: " + err.Error()}, nil
	}
	if err != nil {
		return toolchain.ErrorLayer(err.Error()), nil
	}
	kdir := hdr.Dir
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
		if !builtModule(ws.Dir) {
			lr = toolchain.ErrorLayer("make modules succeeded but built no .ko: the case's Kbuild names no module (obj-m)")
		}
	}
	if lr.Status != result.StatusPassed {
		_ = ws.Close()
		return lr, nil
	}
	return lr, &toolchain.BuildOnly{Workspace: ws, Why: "kernel modules are built, never loaded"}
}

// builtModule reports whether the build left a .ko anywhere in the
// workspace: obj-m := hitcount.o builds hitcount.ko at the top, the default
// Kbuild's obj-m := src/main.o builds src/main.ko.
func builtModule(dir string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".ko") {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
