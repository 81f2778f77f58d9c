package baremetal

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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

const timerCase = "../../../cases/baremetal/timer-001"

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

func requireTools(t testing.TB, run bool) {
	t.Helper()
	testenv.Tool(t, "make", "make", "the baremetal backend builds through the case's Makefile")
	toolchaintest.Jail(t)
	testenv.Tool(t, "arm-none-eabi-gcc", "gcc-arm-none-eabi libnewlib-arm-none-eabi", "the baremetal backend cross-compiles Cortex-M firmware")
	if run {
		testenv.Tool(t, "qemu-system-arm", "qemu-system-arm", "baremetal L2 runs the firmware on QEMU mps2-an385")
	}
}

func request(c *cases.Case, code string, runTimeout time.Duration) toolchain.Request {
	return toolchain.Request{Case: c, Code: code, Board: DefaultBoard, BuildTimeout: 2 * time.Minute, RunTimeout: runTimeout, CanRun: true, Jail: sandbox.Detect(context.Background(), sandbox.JailConfig{})}
}

// caseUnchanged snapshots a case directory so tests can prove it was only read.
func caseUnchanged(t *testing.T, dir string) func() {
	t.Helper()
	before := toolchaintest.TreeDigest(t, dir)
	return func() {
		require.Equal(t, before, toolchaintest.TreeDigest(t, dir), "the case directory was written to")
	}
}

func TestAvailable(t *testing.T) {
	empty := t.TempDir()
	a := New(WithPath(empty)).Available(platform.Target{})
	require.False(t, a.Build)
	require.False(t, a.Run)
	require.Equal(t, "make is not installed (Debian package make); arm-none-eabi-gcc is not installed (Debian package gcc-arm-none-eabi); qemu-system-arm is not installed (Debian package qemu-system-arm)", a.Why)

	requireTools(t, true)
	a = New().Available(platform.Target{})
	require.True(t, a.Build, a.Why)
	require.True(t, a.Run, a.Why)
	require.Empty(t, a.Why)
}

func TestBundledReferenceAndVariants(t *testing.T) {
	requireTools(t, true)
	c := loadCase(t, timerCase)
	defer caseUnchanged(t, c.Dir)()
	files := append([]string{c.ReferencePath}, c.AcceptPaths...)
	require.GreaterOrEqual(t, len(files), 2, "the reference and at least one accepted variant (blind ones included)")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			lr, art := New().Build(context.Background(), request(c, readFile(t, f), 10*time.Second))
			require.Equal(t, result.StatusPassed, lr.Status, lr.Reason)
			require.NotNil(t, art)
			defer func() { require.NoError(t, art.Close()) }()
			run := art.Run(context.Background())
			require.Equal(t, result.StatusPassed, run.Status, run.Reason)
			require.Equal(t, "all present", *run.Details[1].Actual)
			// Then one record per scenario of the case, every one passed.
			require.Greater(t, len(run.Details), 2, "timer-001 has scenario runs")
			for _, d := range run.Details[2:] {
				require.True(t, strings.HasPrefix(d.CheckName, "scenario_") && d.Passed, "%s: %s", d.CheckName, *d.Actual)
			}
		})
	}
}

func TestBrokenCodeFailsL1(t *testing.T) {
	requireTools(t, false)
	c := loadCase(t, timerCase)
	ref := readFile(t, c.ReferencePath)
	broken := strings.Replace(ref, "tick_count++;", "tick_count++", 1)
	require.NotEqual(t, ref, broken)
	lr, art := New().Build(context.Background(), request(c, broken, time.Second))
	require.Nil(t, art)
	require.Equal(t, result.StatusFailed, lr.Status)
	require.Contains(t, lr.Reason, "make failed (exit 2)")
	require.Contains(t, lr.Reason, "src/main.c:20:")
	require.Contains(t, lr.Reason, "error: expected ';' before '}' token")
}

func TestRunVerdicts(t *testing.T) {
	requireTools(t, true)
	c := loadCase(t, timerCase)
	tests := []struct {
		file, reason string
	}{
		{"hang.c", "hung: still running at the 2s run timeout without the expected output; expected output missing: tick ok | elapsed"},
		{"hardfault.c", `output contains "HardFault"; expected output missing: elapsed`},
		{"exit3.c", "exited with status 3"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			lr, art := New().Build(context.Background(), request(c, readFile(t, filepath.Join("testdata", "firmware", tt.file)), 2*time.Second))
			require.Equal(t, result.StatusPassed, lr.Status, lr.Reason)
			defer func() { require.NoError(t, art.Close()) }()
			// A guard well past the run timeout: a run stopped by it would be
			// an error, not the failure asserted below.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			run := art.Run(ctx)
			require.Equal(t, result.StatusFailed, run.Status)
			// The default run's records come first; the case's scenario
			// runs (which fail on these too) follow.
			require.True(t, strings.HasPrefix(run.Reason, tt.reason+"; scenario_"), run.Reason)
		})
	}
}

func TestArtifactCloseRemovesWorkspace(t *testing.T) {
	requireTools(t, false)
	c := loadCase(t, timerCase)
	lr, art := New().Build(context.Background(), request(c, readFile(t, c.ReferencePath), time.Second))
	require.Equal(t, result.StatusPassed, lr.Status, lr.Reason)
	dir := art.(*artifact).ws.Dir
	require.FileExists(t, filepath.Join(dir, Image))
	require.FileExists(t, filepath.Join(dir, CodePath))
	require.NoError(t, art.Close())
	require.NoDirExists(t, dir)
}

func TestInfrastructureErrors(t *testing.T) {
	c := loadCase(t, timerCase)
	// No make on the PATH: our problem, not the model's.
	lr, art := New(WithPath(t.TempDir())).Build(context.Background(), request(c, "int main(void){return 0;}", time.Second))
	require.Nil(t, art)
	require.Equal(t, result.StatusError, lr.Status)
	require.Contains(t, *lr.Error, "make: sandbox: make: command not found")

	// A cancelled build is an error.
	requireTools(t, true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	lr, art = New().Build(ctx, request(c, readFile(t, c.ReferencePath), time.Second))
	require.Nil(t, art)
	require.Equal(t, result.StatusError, lr.Status)
	require.Equal(t, "make: cancelled", *lr.Error)

	// A board QEMU does not know is an error of the run, not a firmware crash.
	req := request(c, readFile(t, c.ReferencePath), 5*time.Second)
	req.Board = "no-such-board"
	lr, art = New().Build(context.Background(), req)
	require.Equal(t, result.StatusPassed, lr.Status, lr.Reason)
	defer func() { require.NoError(t, art.Close()) }()
	run := art.Run(context.Background())
	require.Equal(t, result.StatusError, run.Status)
	require.Contains(t, *run.Error, "qemu-system-arm did not start the firmware (exit 1): qemu-system-arm: unsupported machine type")
}

func TestBuildCommandAndEnvironment(t *testing.T) {
	bin := t.TempDir()
	script, err := os.ReadFile(filepath.Join("testdata", "standin", "make"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(bin, "make"), script, 0o755))
	t.Setenv("GITHUB_TOKEN", "ghp_baremetal_secret")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-baremetal-secret")

	c := loadCase(t, timerCase)
	path := bin + string(os.PathListSeparator) + "/usr/bin:/bin"
	lr, art := New(WithPath(path)).Build(context.Background(), unconfined(request(c, "int main(void){return 0;}", time.Second)))
	require.Nil(t, art)
	require.Equal(t, result.StatusFailed, lr.Status)
	require.Contains(t, lr.Reason, "src/main.c:3:1: error: expected ';' before '}' token")

	rec := readFile(t, filepath.Join(bin, "record.txt"))
	require.Contains(t, rec, "argv:CROSS=arm-none-eabi-\n")
	require.Regexp(t, `cwd:.*/embedeval-baremetal-[^/\n]+\n`, rec)
	require.Contains(t, rec, "env:PATH="+path+"\n")
	require.NotContains(t, rec, "secret")
	require.NotContains(t, rec, "GITHUB_")
	var names []string
	for _, l := range strings.Split(rec, "\n") {
		if kv, ok := strings.CutPrefix(l, "env:"); ok {
			k, _, _ := strings.Cut(kv, "=")
			names = append(names, k)
		}
	}
	// sh adds PWD (and may add SHLVL, _); the rest is what the backend passed.
	allowed := map[string]bool{"HOME": true, "LANG": true, "LC_ALL": true, "PATH": true, "TERM": true, "TMPDIR": true, "TZ": true,
		"SOURCE_DATE_EPOCH": true, "PWD": true, "SHLVL": true, "_": true, "OLDPWD": true}
	for _, n := range names {
		require.True(t, allowed[n], "unexpected variable %s reached the build", n)
	}
}

// BenchmarkTimer001 reports the time of one build of the bundled reference
// (stage, make, remove) and of one QEMU run of it.
func BenchmarkTimer001(b *testing.B) {
	requireTools(b, true)
	c := loadCase(b, timerCase)
	req := request(c, readFile(b, c.ReferencePath), 10*time.Second)
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			lr, art := New().Build(context.Background(), req)
			if lr.Status != result.StatusPassed {
				b.Fatal(lr.Reason)
			}
			_ = art.Close()
		}
	})
	b.Run("run", func(b *testing.B) {
		lr, art := New().Build(context.Background(), req)
		if lr.Status != result.StatusPassed {
			b.Fatal(lr.Reason)
		}
		defer func() { _ = art.Close() }()
		for b.Loop() {
			if run := art.Run(context.Background()); run.Status != result.StatusPassed {
				b.Fatal(run.Reason)
			}
		}
	})
}

// unconfined is r for scripted stand-in tools, which record their calls
// outside the workspace and run nothing untrusted.
func unconfined(r toolchain.Request) toolchain.Request {
	r.Jail = sandbox.Unconfined()
	return r
}

// TestScenarioFeedsTheUART boots the firmware once per scenario that needs
// a run of its own: the bytes a scenario gives reach the CMSDK UART's
// receiver, and a firmware that never prints what a scenario wants is
// reported as hung. (Which runs are shared is TestRunPlanSharesRuns.)
func TestScenarioFeedsTheUART(t *testing.T) {
	requireTools(t, true)
	src := loadCase(t, "../../../cases/baremetal/uart-002")
	dir := t.TempDir()
	for _, f := range []string{"Makefile", "startup.c", "mps2_an385.ld"} {
		data, err := os.ReadFile(filepath.Join(src.Dir, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), data, 0o644))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "checks", "scenarios"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "checks", "expected_output.txt"), []byte("ready\n"), 0o644))
	for name, text := range map[string]string{
		"echo": "description: a line sent to the UART comes back upper-cased\nstdin: \"abc\\nxy\\n\"\nstop_when_met: true\n" +
			"expect: {output: {lines: [ready, \"got: ABC\", \"got: XY\"]}}\n",
		"same_as_default": "description: judged on the default run\nexpect: {output: {lines: [ready], absent: [got]}}\n",
		"never_printed":   "description: wants a line the firmware never prints\nstdin: \"q\\n\"\ntimeout: 2s\nexpect: {output: {lines: [\"got: Z\"]}}\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "checks", "scenarios", name+".yaml"), []byte(text), 0o644))
	}
	c := &cases.Case{Entry: cases.Entry{Dir: dir}, ExpectedOutputPath: filepath.Join(dir, "checks", "expected_output.txt")}
	lr, art := New().Build(context.Background(), request(c, readFile(t, filepath.Join("testdata", "firmware", "uart_echo.c")), 3*time.Second))
	require.Equal(t, result.StatusPassed, lr.Status, lr.Reason)
	defer func() { require.NoError(t, art.Close()) }()
	run := art.Run(context.Background())
	got := map[string]string{}
	for _, d := range run.Details {
		got[d.CheckName] = fmt.Sprintf("%v %s", d.Passed, *d.Actual)
	}
	require.Equal(t, map[string]string{
		"runtime_no_crash":         "true no crash",
		"runtime_expected_output":  "true all present",
		"scenario_echo":            "true as expected",
		"scenario_same_as_default": "true as expected",
		"scenario_never_printed":   `false hung: still running at the 2s run timeout without the expected output; output: no line "got: Z" (in order)`,
	}, got)
	require.Equal(t, result.StatusFailed, run.Status)
}
