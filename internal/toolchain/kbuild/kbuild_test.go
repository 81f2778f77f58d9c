package kbuild

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/testenv"
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/toolchaintest"
)

const driverCase = "../../../cases/embedded-linux/linux-driver-001"

func loadCase(t testing.TB, dir string) *cases.Case {
	t.Helper()
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	c, problems := cases.Load(cases.Entry{Dir: abs, Name: filepath.Base(abs), Bucket: filepath.Base(filepath.Dir(abs)), Layout: cases.LayoutSDK})
	require.False(t, diag.HasErrors(problems), "%v", problems)
	return c
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

// requireKbuild skips (or fails under EMBEDEVAL_REQUIRE_TOOLCHAINS=1) when
// the machine cannot build modules.
func requireKbuild(t testing.TB) {
	t.Helper()
	testenv.Tool(t, "make", "make", "kbuild runs make")
	toolchaintest.Jail(t)
	testenv.Tool(t, "gcc", "gcc", "kbuild compiles with gcc")
	if _, _, err := New().KernelDir(); err != nil {
		if os.Getenv(testenv.RequireEnv) == "1" {
			t.Fatalf("%v (required: %s=1)", err, testenv.RequireEnv)
		}
		t.Skip(err.Error())
	}
}

func request(c *cases.Case, code string) toolchain.Request {
	return toolchain.Request{Case: c, Code: code, Board: "x86_64", BuildTimeout: 3 * time.Minute, RunTimeout: time.Second, Jail: sandbox.Detect(context.Background(), sandbox.JailConfig{})}
}

// mkHeaders makes a fake kernel build directory (with a Makefile when
// withMakefile) under root.
func mkHeaders(t *testing.T, root, rel string, withMakefile bool) string {
	t.Helper()
	dir := filepath.Join(root, rel)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	if withMakefile {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "Makefile"), []byte("# kernel\n"), 0o644))
	}
	return dir
}

func TestKernelDir(t *testing.T) {
	tests := []struct {
		name     string
		setup    func(t *testing.T, mods, src string) []Option
		env      string
		wantRel  string // relative to the temp root
		wantHow  string
		wantErr  string
		envIsDir bool
	}{
		{
			name: "running kernel first",
			setup: func(t *testing.T, mods, src string) []Option {
				mkHeaders(t, mods, "6.1.0-9-amd64/build", true)
				mkHeaders(t, src, "linux-headers-6.1.0-57-amd64", true)
				return nil
			},
			wantRel: "lib/modules/6.1.0-9-amd64/build",
			wantHow: "headers of the running kernel 6.1.0-9-amd64",
		},
		{
			name: "newest matching headers, not common, not without Makefile",
			setup: func(t *testing.T, mods, src string) []Option {
				mkHeaders(t, src, "linux-headers-6.1.0-9-amd64", true)
				mkHeaders(t, src, "linux-headers-6.1.0-10-amd64", true)
				mkHeaders(t, src, "linux-headers-6.1.0-11-amd64", false)
				mkHeaders(t, src, "linux-headers-6.1.0-12-common", true)
				mkHeaders(t, src, "linux-headers-6.1.0-13-arm64", true)
				return nil
			},
			wantRel: "usr/src/linux-headers-6.1.0-10-amd64",
			wantHow: "ROOT/usr/src/linux-headers-*-amd64",
		},
		{
			name: "KDIR from the environment wins",
			setup: func(t *testing.T, mods, src string) []Option {
				mkHeaders(t, mods, "6.1.0-9-amd64/build", true)
				return nil
			},
			env:     "custom/kernel",
			wantRel: "custom/kernel",
			wantHow: "KDIR from the environment",
		},
		{
			name: "configured beats the environment",
			setup: func(t *testing.T, mods, src string) []Option {
				return []Option{WithKDIR(mkHeaders(t, filepath.Dir(mods), "configured", true))}
			},
			env:     "custom/kernel",
			wantRel: "lib/configured",
			wantHow: "configured",
		},
		{
			name:    "KDIR without a Makefile",
			setup:   func(t *testing.T, mods, src string) []Option { return nil },
			env:     "custom/empty",
			wantErr: "KDIR=ROOT/custom/empty has no Makefile",
		},
		{
			name:    "nothing installed",
			setup:   func(t *testing.T, mods, src string) []Option { return nil },
			wantErr: "no kernel headers: KDIR is not set, ROOT/lib/modules/6.1.0-9-amd64/build has no Makefile and no ROOT/usr/src/linux-headers-*-amd64 has one (Debian package linux-headers-amd64)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			mods, src := filepath.Join(root, "lib", "modules"), filepath.Join(root, "usr", "src")
			require.NoError(t, os.MkdirAll(mods, 0o755))
			require.NoError(t, os.MkdirAll(src, 0o755))
			opts := append(tt.setup(t, mods, src), WithHeaderSearch(mods, src, "6.1.0-9-amd64", "amd64"))
			t.Setenv("KDIR", "")
			if tt.env != "" {
				mkHeaders(t, root, "custom/kernel", true)
				mkHeaders(t, root, "custom/empty", false)
				t.Setenv("KDIR", filepath.Join(root, tt.env))
			}
			dir, how, err := New(opts...).KernelDir()
			if tt.wantErr != "" {
				require.EqualError(t, err, strings.ReplaceAll(tt.wantErr, "ROOT", root))
				return
			}
			require.NoError(t, err)
			require.Equal(t, filepath.Join(root, tt.wantRel), dir)
			require.Equal(t, strings.ReplaceAll(tt.wantHow, "ROOT", root), how)
		})
	}
}

func TestVersionCompare(t *testing.T) {
	require.Negative(t, versionCompare("linux-headers-6.1.0-9-amd64", "linux-headers-6.1.0-10-amd64"))
	require.Positive(t, versionCompare("linux-headers-6.10.0-1-amd64", "linux-headers-6.9.0-30-amd64"))
	require.Zero(t, versionCompare("a-1", "a-1"))
	require.Negative(t, versionCompare("a-1", "a-1b"))
}

func TestAvailable(t *testing.T) {
	root := t.TempDir()
	t.Setenv("KDIR", "")
	a := New(WithPath(root), WithHeaderSearch(root, root, "6.1.0-9-amd64", "amd64")).Available(platform.Target{})
	require.False(t, a.Build)
	require.False(t, a.Run)
	require.Equal(t, "make is not installed (Debian package make); gcc is not installed (Debian package gcc); no kernel headers: KDIR is not set, "+
		root+"/6.1.0-9-amd64/build has no Makefile and no "+root+"/linux-headers-*-amd64 has one (Debian package linux-headers-amd64); no L2: kernel modules are built, never loaded", a.Why)

	// Every series found is listed (what doctor shows).
	src := t.TempDir()
	old := mkHeaders(t, src, "linux-headers-6.1.0-57-amd64", true)
	newer := mkHeaders(t, src, "linux-headers-6.12.117+deb12-amd64", true)
	a = New(WithPath("/usr/bin:/bin"), WithHeaderSearch(root, src, "6.18.0-1-amd64", "amd64")).Available(platform.Target{})
	require.Contains(t, a.Why, "kernel headers 6.1 ("+old+"), 6.12 ("+newer+"); no L2")

	requireKbuild(t)
	a = New().Available(platform.Target{})
	require.True(t, a.Build, a.Why)
	require.False(t, a.Run)
	hs, err := New().InstalledHeaders()
	require.NoError(t, err)
	for _, h := range hs {
		require.Contains(t, a.Why, h.String())
	}
}

func TestParseVersion(t *testing.T) {
	for in, want := range map[string]Version{
		"6.1": {6, 1}, "6.12": {6, 12}, "v6.4": {6, 4}, "6.1.0-57-amd64": {6, 1}, "6.12.117+deb12-amd64": {6, 12}, " 5.15.3 ": {5, 15},
	} {
		got, ok := ParseVersion(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "latest", "6", "6.x", "0.1", "61"} {
		_, ok := ParseVersion(in)
		require.False(t, ok, in)
	}
	require.Negative(t, Version{6, 1}.Compare(Version{6, 4}))
	require.Positive(t, Version{6, 12}.Compare(Version{6, 4}))
	require.Equal(t, "6.12", Version{6, 12}.String())
}

func TestPackageFor(t *testing.T) {
	require.Equal(t, "linux-headers-amd64", PackageFor(Version{5, 10}, "amd64"))
	require.Equal(t, "linux-headers-amd64", PackageFor(Version{6, 1}, "amd64"))
	require.Equal(t, "linux-headers-6.12-amd64", PackageFor(Version{6, 4}, "amd64"))
	require.Equal(t, "linux-headers-6.12-arm64", PackageFor(Version{6, 12}, "arm64"))
	require.Empty(t, PackageFor(Version{6, 13}, "amd64"))
}

// kernelCase is a case written for the kernel series sdkVersion, whose
// directory holds no build files (the default Kbuild builds src/main.c).
func kernelCase(t *testing.T, sdkVersion string) *cases.Case {
	t.Helper()
	return &cases.Case{Entry: cases.Entry{Dir: t.TempDir(), Name: "kernel-" + sdkVersion}, Meta: cases.Metadata{ID: "kernel-" + sdkVersion, SDK: "embedded-linux", Category: "linux-driver", Platform: "docker_only", SDKVersion: sdkVersion}}
}

// mkVersioned makes fake headers whose series is in the generated version.h
// (as in a real package), not in the directory name.
func mkVersioned(t *testing.T, root, rel string, major, minor int) string {
	t.Helper()
	dir := mkHeaders(t, root, rel, true)
	gen := filepath.Join(dir, "include", "generated", "uapi", "linux")
	require.NoError(t, os.MkdirAll(gen, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(gen, "version.h"),
		[]byte("#define LINUX_VERSION_CODE 0\n#define LINUX_VERSION_MAJOR "+strconv.Itoa(major)+"\n#define LINUX_VERSION_PATCHLEVEL "+strconv.Itoa(minor)+"\n#define LINUX_VERSION_SUBLEVEL 3\n"), 0o644))
	return dir
}

func TestHeadersFor(t *testing.T) {
	t.Setenv("KDIR", "")
	root := t.TempDir()
	mods, src := filepath.Join(root, "lib", "modules"), filepath.Join(root, "usr", "src")
	h61a := mkHeaders(t, src, "linux-headers-6.1.0-9-amd64", true)
	h61b := mkHeaders(t, src, "linux-headers-6.1.0-57-amd64", true)
	h612 := mkVersioned(t, src, "linux-headers-custom-amd64", 6, 12)
	mkHeaders(t, src, "linux-headers-6.12.117+deb12-common", true)
	both := New(WithHeaderSearch(mods, src, "6.18.0-1-amd64", "amd64"))

	pickFor := func(b *Backend, sdk string) (Headers, error) { return b.HeadersFor(kernelCase(t, sdk)) }
	h, err := pickFor(both, "6.1")
	require.NoError(t, err)
	require.Equal(t, h61b, h.Dir, "the nearest series not older, newest package of it")
	require.Equal(t, Version{6, 1}, h.Version)
	h, err = pickFor(both, "5.15")
	require.NoError(t, err)
	require.Equal(t, h61b, h.Dir)
	for _, sdk := range []string{"6.11", "6.12", "6.12.5"} {
		h, err = pickFor(both, sdk)
		require.NoError(t, err, sdk)
		require.Equal(t, h612, h.Dir, "%s: read from version.h", sdk)
	}
	// Newer headers stand in only up to the next API break: a 6.6 module's
	// int remove() does not build against 6.12, whatever the code is.
	_, err = pickFor(both, "6.6")
	require.EqualError(t, err, "kernel headers 6.6 to 6.10 not installed (newer headers do not build code for 6.6: platform_driver.remove returns void in 6.11; installed: 6.1 ("+h61a+"), 6.1 ("+h61b+"), 6.12 ("+h612+"); Debian 12 packages none of these)")
	require.True(t, errMissing(err))
	_, err = pickFor(both, "6.10")
	require.ErrorContains(t, err, "kernel headers 6.10 not installed (newer headers do not build code for 6.10: ")
	_, err = pickFor(both, "6.2")
	require.ErrorContains(t, err, "kernel headers 6.2 to 6.3 not installed (newer headers do not build code for 6.2: class_create() lost its owner argument in 6.4;")
	h, err = pickFor(both, "latest")
	require.NoError(t, err)
	require.Equal(t, h612, h.Dir, "no kernel series: the newest")

	_, err = pickFor(both, "6.13")
	require.EqualError(t, err, "kernel headers >= 6.13 not installed (installed: 6.1 ("+h61a+"), 6.1 ("+h61b+"), 6.12 ("+h612+"); Debian 12 packages no headers that new)")
	require.True(t, errMissing(err))

	// Only 6.1: a 6.4 case names the package to install.
	src61 := t.TempDir()
	only := mkHeaders(t, src61, "linux-headers-6.1.0-57-amd64", true)
	_, err = pickFor(New(WithHeaderSearch(mods, src61, "6.18.0-1-amd64", "amd64")), "6.4")
	require.EqualError(t, err, "kernel headers >= 6.4 not installed (installed: 6.1 ("+only+"); Debian package linux-headers-6.12-amd64)")

	// The running kernel's headers win among their series.
	running := mkHeaders(t, mods, "6.1.0-3-amd64/build", true)
	h, err = pickFor(New(WithHeaderSearch(mods, src, "6.1.0-3-amd64", "amd64")), "6.1")
	require.NoError(t, err)
	require.Equal(t, running, h.Dir)
	require.Equal(t, "headers of the running kernel 6.1.0-3-amd64", h.How)

	// A symbolic link to headers already listed is listed once.
	require.NoError(t, os.MkdirAll(filepath.Join(mods, "6.1.0-57-amd64"), 0o755))
	require.NoError(t, os.Symlink(h61b, filepath.Join(mods, "6.1.0-57-amd64", "build")))
	hs, err := both.InstalledHeaders()
	require.NoError(t, err)
	var dirs []string
	for _, h := range hs {
		dirs = append(dirs, h.Dir)
	}
	require.Equal(t, []string{h61a, h61b, h612, running}, dirs)

	// A configured directory replaces the search; if its series is known
	// and too old, the case is not built against it.
	h, err = pickFor(New(WithKDIR(h612)), "6.11")
	require.NoError(t, err)
	require.Equal(t, "configured", h.How)
	_, err = pickFor(New(WithKDIR(h612)), "6.4")
	require.ErrorContains(t, err, "kernel headers 6.4 to 6.10 not installed", "past an API break, a configured directory is refused too")
	_, err = pickFor(New(WithKDIR(h61b)), "6.4")
	require.EqualError(t, err, "kernel headers >= 6.4 not installed (installed: 6.1 ("+h61b+"); Debian package linux-headers-6.12-amd64)")
	unknown := mkHeaders(t, root, "custom/kernel", true)
	h, err = pickFor(New(WithKDIR(unknown)), "6.4")
	require.NoError(t, err, "a series that cannot be read is used as given")
	require.Equal(t, "version unknown ("+unknown+")", h.String())
}

// TestMissingSeriesSkips: a case for a series that is not installed is
// skipped with the reason, never built, and an error when L1 is required.
func TestMissingSeriesSkips(t *testing.T) {
	t.Setenv("KDIR", "")
	src := t.TempDir()
	old := mkHeaders(t, src, "linux-headers-6.1.0-57-amd64", true)
	b := New(WithPath(t.TempDir()), WithHeaderSearch(t.TempDir(), src, "6.18.0-1-amd64", "amd64"))
	c := kernelCase(t, "6.4")
	want := "kernel headers >= 6.4 not installed (installed: 6.1 (" + old + "); Debian package linux-headers-6.12-amd64)"

	lr, art := b.Build(context.Background(), unconfined(request(c, "/* module */")))
	require.Nil(t, art)
	require.Equal(t, result.StatusSkipped, lr.Status)
	require.Equal(t, "toolchain unavailable: "+want, lr.Reason)

	reg, err := platform.Default()
	require.NoError(t, err)
	lr, art = toolchain.New(reg, toolchain.Options{Jail: sandbox.Unconfined()}, b).Build(context.Background(), c, "/* module */")
	require.Nil(t, art)
	require.Equal(t, result.StatusSkipped, lr.Status)
	require.Contains(t, lr.Reason, want)
	lr, _ = toolchain.New(reg, toolchain.Options{RequireBuild: true, Jail: sandbox.Unconfined()}, b).Build(context.Background(), c, "/* module */")
	require.Equal(t, result.StatusError, lr.Status)
	require.Contains(t, *lr.Error, "L1 is required (--require-layers) but toolchain unavailable: ")
	require.Contains(t, *lr.Error, want)
}

// TestClassCreateAcrossSeries compiles for real the API change of 6.4
// (class_create lost its owner argument): each module builds against the
// headers its case's sdk_version selects and fails against the other
// series.
func TestClassCreateAcrossSeries(t *testing.T) {
	requireKbuild(t)
	for _, v := range []string{"6.1", "6.12"} {
		if _, err := New().HeadersFor(kernelCase(t, v)); err != nil || !hasSeries(t, v) {
			testenv.Missing(t, fmt.Sprintf("kernel headers %s are not installed (Debian package %s); this test builds against 6.1 and 6.12", v, PackageFor(mustVersion(t, v), debianArch(runtime.GOARCH))))
		}
	}
	newAPI := readFile(t, "testdata/modules/class_create_6_4.c")
	oldAPI := readFile(t, "testdata/modules/class_create_6_1.c")
	tests := []struct {
		name, sdk, code string
		status          result.Status
		reason          string
	}{
		{name: "6.4 API against 6.12", sdk: "6.11", code: newAPI, status: result.StatusPassed},
		{name: "6.1 API against 6.1", sdk: "6.1", code: oldAPI, status: result.StatusPassed},
		{name: "6.4 API against 6.1", sdk: "6.1", code: newAPI, status: result.StatusFailed, reason: `error: macro "class_create" requires 2 arguments, but only 1 given`},
		{name: "6.1 API against 6.12", sdk: "6.12", code: oldAPI, status: result.StatusFailed, reason: "error: too many arguments to function 'class_create'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := kernelCase(t, tt.sdk)
			h, err := New().HeadersFor(c)
			require.NoError(t, err)
			require.Equal(t, mustVersion(t, tt.sdk).Major, h.Version.Major)
			lr, art := New().Build(context.Background(), request(c, tt.code))
			require.Equal(t, tt.status, lr.Status, "%s %s", lr.Reason, errText(lr))
			if tt.status == result.StatusPassed {
				require.FileExists(t, filepath.Join(art.(*toolchain.BuildOnly).Workspace.Dir, "src", "main.ko"), "the default Kbuild's module")
				require.NoError(t, art.Close())
				return
			}
			require.Nil(t, art)
			require.Contains(t, lr.Reason, tt.reason)
		})
	}
}

// errText is a layer's error message, or "".
func errText(lr result.LayerResult) string {
	if lr.Error == nil {
		return ""
	}
	return *lr.Error
}

// hasSeries reports whether headers of exactly series v are installed.
func hasSeries(t *testing.T, v string) bool {
	t.Helper()
	hs, err := New().InstalledHeaders()
	if err != nil {
		return false
	}
	for _, h := range hs {
		if h.Version == mustVersion(t, v) {
			return true
		}
	}
	return false
}

func mustVersion(t *testing.T, s string) Version {
	t.Helper()
	v, ok := ParseVersion(s)
	require.True(t, ok, s)
	return v
}

func TestBuilds(t *testing.T) {
	requireKbuild(t)
	c := loadCase(t, driverCase)
	before := toolchaintest.TreeDigest(t, c.Dir)
	ref := readFile(t, c.ReferencePath)
	require.NotEmpty(t, c.AcceptPaths)
	type buildCase struct {
		name   string
		code   string
		status result.Status
		reason []string
	}
	tests := []buildCase{{name: "reference", code: ref, status: result.StatusPassed}}
	for _, p := range c.AcceptPaths {
		tests = append(tests, buildCase{name: "accepted variant " + filepath.Base(p), code: readFile(t, p), status: result.StatusPassed})
	}
	tests = append(tests, []buildCase{
		{name: "warning only", code: readFile(t, "testdata/modules/warning.c"), status: result.StatusPassed},
		{
			name: "missing semicolon", code: strings.Replace(ref, "hc->count++;", "hc->count++", 1),
			status: result.StatusFailed,
			reason: []string{"kbuild (make modules) failed (exit 2):\nsrc/main.c:26:20: error: expected "},
		},
		{
			name: "undefined symbol", code: readFile(t, "testdata/modules/undefined_symbol.c"), status: result.StatusFailed,
			reason: []string{`ERROR: modpost: "embedeval_no_such_export" [`, "undefined!"},
		},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NotEqual(t, "", tt.code)
			if tt.name == "missing semicolon" {
				require.NotEqual(t, ref, tt.code, "the mutation must change the reference")
			}
			lr, art := New().Build(context.Background(), request(c, tt.code))
			require.Equal(t, tt.status, lr.Status, "%s %v", lr.Reason, lr.Error)
			for _, r := range tt.reason {
				require.Contains(t, lr.Reason, r)
			}
			if tt.status != result.StatusPassed {
				require.Nil(t, art)
				return
			}
			dir := art.(*toolchain.BuildOnly).Workspace.Dir
			require.FileExists(t, filepath.Join(dir, "hitcount.ko"))
			run := art.Run(context.Background())
			require.Equal(t, result.StatusSkipped, run.Status)
			require.NoError(t, art.Close())
			require.NoDirExists(t, dir)
		})
	}
	require.Equal(t, before, toolchaintest.TreeDigest(t, c.Dir), "the case directory was written to")
}

func TestCommandLineAndEnvironment(t *testing.T) {
	bin := t.TempDir()
	script, err := os.ReadFile(filepath.Join("testdata", "standin", "make"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(bin, "make"), script, 0o755))
	kdir := mkHeaders(t, t.TempDir(), "linux-headers-6.1.0-57-amd64", true)
	t.Setenv("GITHUB_TOKEN", "ghp_kbuild_secret")
	t.Setenv("OPENAI_API_KEY", "sk-kbuild-secret")

	c := loadCase(t, driverCase)
	path := bin + string(os.PathListSeparator) + "/usr/bin:/bin"
	lr, art := New(WithPath(path), WithKDIR(kdir), WithJobs(3)).Build(context.Background(), unconfined(request(c, "/* module */")))
	require.Equal(t, result.StatusPassed, lr.Status, "%s %v", lr.Reason, lr.Error)
	ws := art.(*toolchain.BuildOnly).Workspace.Dir
	require.NoError(t, art.Close())

	rec := readFile(t, filepath.Join(bin, "record.txt"))
	require.Contains(t, rec, "argv:-C "+kdir+" M="+ws+" -j3 modules\n")
	require.Contains(t, rec, "cwd:"+ws+"\n")
	require.Contains(t, rec, "env:KDIR="+kdir+"\n")
	require.Contains(t, rec, "env:HOME="+ws+"\n")
	require.Contains(t, rec, "env:PATH="+path+"\n")
	require.NotContains(t, rec, "secret")
	require.NotContains(t, rec, "GITHUB_")
}

func TestDefaultKbuild(t *testing.T) {
	bin := t.TempDir()
	script, err := os.ReadFile(filepath.Join("testdata", "standin", "make"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(bin, "make"), script, 0o755))
	kdir := mkHeaders(t, t.TempDir(), "headers", true)
	c := &cases.Case{Entry: cases.Entry{Dir: t.TempDir()}}
	lr, art := New(WithPath(bin+":/usr/bin:/bin"), WithKDIR(kdir)).Build(context.Background(), unconfined(request(c, "/* module */")))
	require.Equal(t, result.StatusPassed, lr.Status)
	defer func() { require.NoError(t, art.Close()) }()
	require.Equal(t, defaultKbuild, readFile(t, filepath.Join(art.(*toolchain.BuildOnly).Workspace.Dir, "Kbuild")))
}

func TestInfrastructureErrors(t *testing.T) {
	c := loadCase(t, driverCase)
	kdir := mkHeaders(t, t.TempDir(), "headers", true)
	lr, art := New(WithPath(t.TempDir()), WithKDIR(kdir)).Build(context.Background(), request(c, "x"))
	require.Nil(t, art)
	require.Equal(t, result.StatusError, lr.Status)
	require.Contains(t, *lr.Error, "make: sandbox: make: command not found")

	lr, _ = New(WithKDIR(t.TempDir())).Build(context.Background(), request(c, "x"))
	require.Equal(t, result.StatusError, lr.Status)
	require.Contains(t, *lr.Error, "(configured) has no Makefile")

	requireKbuild(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	lr, art = New().Build(ctx, request(c, readFile(t, c.ReferencePath)))
	require.Nil(t, art)
	require.Equal(t, result.StatusError, lr.Status)
	require.Equal(t, "kbuild (make modules): cancelled", *lr.Error)
}

// BenchmarkLinuxDriver001 reports the time of one module build of the
// bundled reference (stage, make modules, remove).
func BenchmarkLinuxDriver001(b *testing.B) {
	requireKbuild(b)
	c := loadCase(b, driverCase)
	req := request(c, readFile(b, c.ReferencePath))
	for _, jobs := range []int{1, New().jobs} {
		b.Run("build/j"+strconv.Itoa(jobs), func(b *testing.B) {
			for b.Loop() {
				lr, art := New(WithJobs(jobs)).Build(context.Background(), req)
				if lr.Status != result.StatusPassed {
					b.Fatal(lr.Reason)
				}
				_ = art.Close()
			}
		})
	}
}

// unconfined is r for scripted stand-in tools, which record their calls
// outside the workspace and run nothing untrusted.
func unconfined(r toolchain.Request) toolchain.Request {
	r.Jail = sandbox.Unconfined()
	return r
}
