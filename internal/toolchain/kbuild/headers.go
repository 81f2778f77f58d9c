package kbuild

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
)

// Version is a kernel series: major.minor, the granularity at which kernel
// APIs change (class_create lost its owner argument in 6.4).
type Version struct{ Major, Minor int }

// String is "6.1".
func (v Version) String() string { return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor) }

// IsZero reports an unknown version.
func (v Version) IsZero() bool { return v == Version{} }

// Compare orders versions: negative when v is older than o.
func (v Version) Compare(o Version) int {
	if v.Major != o.Major {
		return v.Major - o.Major
	}
	return v.Minor - o.Minor
}

// leadingVersion matches the major.minor a version string starts with
// ("6.1", "v6.12.3", "6.1.0-57-amd64", "6.12.117+deb12-amd64").
var leadingVersion = regexp.MustCompile(`^v?(\d+)\.(\d+)(?:$|[^0-9])`)

// ParseVersion reads the major.minor at the start of s; ok is false when s
// does not start with one.
func ParseVersion(s string) (v Version, ok bool) {
	m := leadingVersion.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Version{}, false
	}
	major, err1 := strconv.Atoi(m[1])
	minor, err2 := strconv.Atoi(m[2])
	if err1 != nil || err2 != nil || major == 0 {
		return Version{}, false
	}
	return Version{Major: major, Minor: minor}, true
}

// Series is a kernel series Debian 12 (bookworm) ships headers for, and the
// package that installs them (%s is the flavour: amd64, arm64).
type Series struct {
	Version Version
	Package string
}

// DebianSeries lists the header series of Debian 12, oldest first: 6.1 is
// the release kernel (linux-headers-amd64), 6.12 the newer kernel Debian 12
// carries in bookworm-security and bookworm-backports
// (linux-headers-6.12-amd64). docs/TOOLCHAINS.md has the same table.
func DebianSeries() []Series {
	return []Series{
		{Version: Version{6, 1}, Package: "linux-headers-%s"},
		{Version: Version{6, 12}, Package: "linux-headers-6.12-%s"},
	}
}

// PackageFor names the Debian 12 package that installs the nearest header
// series not older than want for the flavour arch, or "" when Debian 12 has
// none that new.
func PackageFor(want Version, arch string) string {
	for _, s := range DebianSeries() {
		if s.Version.Compare(want) >= 0 {
			return fmt.Sprintf(s.Package, arch)
		}
	}
	return ""
}

// Break is an incompatible change of the in-kernel API that modules use:
// code written for a series older than Since can fail to build against
// headers of Since or newer, so such headers do not stand in for the
// case's own series.
type Break struct {
	Since Version
	What  string
}

// APIBreaks lists the known breaks, oldest first. It is not exhaustive:
// it holds the changes that the cases this project runs hit (docs/TOOLCHAINS.md).
func APIBreaks() []Break {
	return []Break{
		{Since: Version{6, 4}, What: "class_create() lost its owner argument"},
		{Since: Version{6, 11}, What: "platform_driver.remove returns void"},
	}
}

// breakBetween returns the first break newer than want and not newer than
// have, if any.
func breakBetween(want, have Version) (Break, bool) {
	for _, b := range APIBreaks() {
		if b.Since.Compare(want) > 0 && b.Since.Compare(have) <= 0 {
			return b, true
		}
	}
	return Break{}, false
}

// Headers is one kernel build directory found on this machine.
type Headers struct {
	// Dir is the directory make -C is given.
	Dir string
	// Version is its series; zero when it could not be read.
	Version Version
	// How says where it was found.
	How string
	// running is true for the running kernel's build directory.
	running bool
}

// String is "6.1 (/usr/src/linux-headers-6.1.0-57-amd64)".
func (h Headers) String() string {
	v := "version unknown"
	if !h.Version.IsZero() {
		v = h.Version.String()
	}
	return v + " (" + h.Dir + ")"
}

// MissingError says that no installed headers are as new as a case needs,
// or that the nearest newer ones are past an API break (Break set).
type MissingError struct {
	// Want is the case's kernel series.
	Want Version
	// Found lists what is installed (possibly nothing).
	Found []Headers
	// Package is the Debian 12 package that would provide them, or "".
	Package string
	// Break, when set, is the API change between Want and the nearest newer
	// installed series: headers from Want up to the series before it fit.
	Break *Break
}

// Error reads "kernel headers >= 6.4 not installed (installed: 6.1 (...);
// Debian package linux-headers-6.12-amd64)".
func (e *MissingError) Error() string {
	var found []string
	for _, h := range e.Found {
		found = append(found, h.String())
	}
	inst := "none installed"
	if len(found) > 0 {
		inst = "installed: " + strings.Join(found, ", ")
	}
	if e.Break != nil {
		span := e.Want.String() + " (or newer, before " + e.Break.Since.String() + ")"
		if last := (Version{e.Break.Since.Major, e.Break.Since.Minor - 1}); e.Break.Since.Minor > 0 && last.Compare(e.Want) > 0 {
			span = e.Want.String() + " to " + last.String()
		} else if e.Break.Since.Minor > 0 {
			span = e.Want.String()
		}
		return fmt.Sprintf("kernel headers %s not installed (newer headers do not build code for %s: %s in %s; %s; Debian 12 packages none of these)",
			span, e.Want, e.Break.What, e.Break.Since, inst)
	}
	pkg := "Debian 12 packages no headers that new"
	if e.Package != "" {
		pkg = "Debian package " + e.Package
	}
	return fmt.Sprintf("kernel headers >= %s not installed (%s; %s)", e.Want, inst, pkg)
}

// caseVersion is the kernel series a case is written for: the major.minor
// of its sdk_version ("6.1"). ok is false when sdk_version is not a kernel
// version; the headers are then chosen without a constraint.
func caseVersion(c *cases.Case) (Version, bool) {
	if c == nil {
		return Version{}, false
	}
	return ParseVersion(c.Meta.SDKVersion)
}

// searchRoots fills in the defaults of the header search.
func (b *Backend) searchRoots() headerSearch {
	s := b.search
	if s.modulesRoot == "" {
		s.modulesRoot = "/lib/modules"
	}
	if s.srcRoot == "" {
		s.srcRoot = "/usr/src"
	}
	if s.release == "" {
		if raw, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
			s.release = strings.TrimSpace(string(raw))
		}
	}
	if s.arch == "" {
		s.arch = debianArch(runtime.GOARCH)
	}
	return s
}

func hasMakefile(d string) bool {
	st, err := os.Stat(filepath.Join(d, "Makefile"))
	return err == nil && st.Mode().IsRegular()
}

// InstalledHeaders lists the kernel build directories this backend may use.
// A configured directory (tests' WithKDIR) or $KDIR is the only one when set.
// Otherwise: the running kernel's /lib/modules/$(uname -r)/build, every
// /usr/src/linux-headers-*-<arch> (Debian's per-flavour packages, not the
// *-common ones) and every other /lib/modules/*/build, each with a Makefile,
// the same directory (through symbolic links) listed once.
func (b *Backend) InstalledHeaders() ([]Headers, error) {
	if b.kdir != "" {
		if !hasMakefile(b.kdir) {
			return nil, fmt.Errorf("kernel build directory %s (configured) has no Makefile", b.kdir)
		}
		return []Headers{{Dir: b.kdir, Version: readVersion(b.kdir), How: "configured"}}, nil
	}
	if env := os.Getenv("KDIR"); env != "" {
		if !hasMakefile(env) {
			return nil, fmt.Errorf("KDIR=%s has no Makefile", env)
		}
		return []Headers{{Dir: env, Version: readVersion(env), How: "KDIR from the environment"}}, nil
	}
	s := b.searchRoots()
	var out []Headers
	seen := map[string]bool{}
	add := func(dir, how string, running bool) {
		if !hasMakefile(dir) {
			return
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			real = dir
		}
		if seen[real] {
			return
		}
		seen[real] = true
		out = append(out, Headers{Dir: dir, Version: readVersion(dir), How: how, running: running})
	}
	running := filepath.Join(s.modulesRoot, s.release, "build")
	if s.release != "" {
		add(running, "headers of the running kernel "+s.release, true)
	}
	srcs, _ := filepath.Glob(filepath.Join(s.srcRoot, "linux-headers-*-"+s.arch))
	slices.SortFunc(srcs, versionCompare)
	for _, m := range srcs {
		if !strings.HasSuffix(m, "-common") {
			add(m, fmt.Sprintf("%s/linux-headers-*-%s", s.srcRoot, s.arch), false)
		}
	}
	mods, _ := filepath.Glob(filepath.Join(s.modulesRoot, "*", "build"))
	slices.SortFunc(mods, versionCompare)
	for _, m := range mods {
		add(m, s.modulesRoot+"/*/build", false)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no kernel headers: KDIR is not set, %s has no Makefile and no %s/linux-headers-*-%s has one (Debian package linux-headers-%s)",
			running, s.srcRoot, s.arch, s.arch)
	}
	return out, nil
}

// HeadersFor picks the headers a case is built against: the nearest
// installed series not older than the case's sdk_version (6.1 for "6.1",
// 6.12 for "6.11" when 6.1 and 6.12 are installed), the running kernel's
// among equals, else the newest package of that series — unless a known
// API break (APIBreaks) lies between the case's series and that one (a
// "6.6" case is not built against 6.12: platform_driver.remove returns
// void since 6.11). A case whose sdk_version is no kernel version gets the
// running kernel's headers, else the newest. When nothing installed fits
// the error is a *MissingError naming the Debian package to install, or
// the break. A configured
// directory or $KDIR whose version cannot be read is used as given.
func (b *Backend) HeadersFor(c *cases.Case) (Headers, error) {
	all, err := b.InstalledHeaders()
	if err != nil {
		return Headers{}, err
	}
	want, constrained := caseVersion(c)
	if !constrained {
		return pick(all), nil
	}
	var fit []Headers
	for _, h := range all {
		if h.Version.Compare(want) >= 0 || (h.Version.IsZero() && (b.kdir != "" || os.Getenv("KDIR") != "")) {
			fit = append(fit, h)
		}
	}
	if len(fit) == 0 {
		return Headers{}, &MissingError{Want: want, Found: all, Package: PackageFor(want, b.searchRoots().arch)}
	}
	nearest := fit[0].Version
	for _, h := range fit {
		if h.Version.Compare(nearest) < 0 {
			nearest = h.Version
		}
	}
	if br, ok := breakBetween(want, nearest); ok {
		return Headers{}, &MissingError{Want: want, Found: all, Break: &br}
	}
	var same []Headers
	for _, h := range fit {
		if h.Version == nearest {
			same = append(same, h)
		}
	}
	return pick(same), nil
}

// pick prefers the running kernel's headers, else the newest by name.
func pick(hs []Headers) Headers {
	for _, h := range hs {
		if h.running {
			return h
		}
	}
	return slices.MaxFunc(hs, func(a, b Headers) int {
		if c := a.Version.Compare(b.Version); c != 0 {
			return c
		}
		return versionCompare(a.Dir, b.Dir)
	})
}

// versionHeader matches the series macros of include/generated/uapi/linux/version.h.
var versionHeader = regexp.MustCompile(`(?m)^#define LINUX_VERSION_(MAJOR|PATCHLEVEL)\s+(\d+)`)

// readVersion reads a build directory's series from the generated
// version.h that every header package and built tree has, else from the
// directory's name (linux-headers-6.1.0-57-amd64, /lib/modules/6.12.1/build).
func readVersion(dir string) Version {
	if raw, err := os.ReadFile(filepath.Join(dir, "include", "generated", "uapi", "linux", "version.h")); err == nil {
		var v Version
		for _, m := range versionHeader.FindAllStringSubmatch(string(raw), -1) {
			n, _ := strconv.Atoi(m[2])
			if m[1] == "MAJOR" {
				v.Major = n
			} else {
				v.Minor = n
			}
		}
		if v.Major > 0 {
			return v
		}
	}
	name := filepath.Base(dir)
	if name == "build" {
		name = filepath.Base(filepath.Dir(dir))
	}
	v, _ := ParseVersion(strings.TrimPrefix(name, "linux-headers-"))
	return v
}

// errMissing reports whether err says the case's headers are not installed.
func errMissing(err error) bool {
	var m *MissingError
	return errors.As(err, &m)
}
