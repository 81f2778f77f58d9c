package kbuild

import (
	"context"
	"os"
	"path/filepath"
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
			wantHow: "newest ROOT/usr/src/linux-headers-*-amd64; ROOT/lib/modules/6.1.0-9-amd64/build does not exist",
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

	requireKbuild(t)
	a = New().Available(platform.Target{})
	require.True(t, a.Build, a.Why)
	require.False(t, a.Run)
	dir, how, err := New().KernelDir()
	require.NoError(t, err)
	require.Contains(t, a.Why, "kernel headers "+dir+" ("+how+")")
}

func TestBuilds(t *testing.T) {
	requireKbuild(t)
	c := loadCase(t, driverCase)
	before, err := cases.ContentHash(c.Dir)
	require.NoError(t, err)
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
	after, err := cases.ContentHash(c.Dir)
	require.NoError(t, err)
	require.Equal(t, before, after, "the case directory was written to")
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
