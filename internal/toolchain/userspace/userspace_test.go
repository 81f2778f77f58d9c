package userspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/testenv"
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/toolchaintest"
)

// fixture returns a case built from a directory under testdata/cases: its
// build files, reference and expected output, as cases.Load would fill them.
func fixture(t testing.TB, name string) *cases.Case {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "cases", name))
	require.NoError(t, err)
	c := &cases.Case{Entry: cases.Entry{Dir: dir, Name: name}, ReferencePath: filepath.Join(dir, "reference", "main.c")}
	if p := filepath.Join(dir, "checks", "expected_output.txt"); fileExists(p) {
		c.ExpectedOutputPath = p
	}
	return c
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

func requireTools(t testing.TB, pkgs ...string) {
	t.Helper()
	testenv.Tool(t, "gcc", "gcc", "userspace programs are compiled on the host")
	toolchaintest.Jail(t)
	testenv.Tool(t, "make", "make", "cases with a Makefile build through make")
	pc := testenv.Tool(t, "pkg-config", "pkg-config", "cases name their libraries as pkg-config packages")
	for _, p := range pkgs {
		if err := runCheck(pc, "--exists", p); err != nil {
			msg := "pkg-config package " + p + " is not installed (Debian package " + p + "-dev); the fixture links it"
			if os.Getenv(testenv.RequireEnv) == "1" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
}

// runCheck runs a command for the test's own checks (not untrusted code).
func runCheck(name string, args ...string) error {
	p, err := os.StartProcess(name, append([]string{name}, args...), &os.ProcAttr{Files: []*os.File{nil, nil, nil}})
	if err != nil {
		return err
	}
	st, err := p.Wait()
	if err != nil {
		return err
	}
	if !st.Success() {
		return errors.New(st.String())
	}
	return nil
}

func request(c *cases.Case, code string, runTimeout time.Duration) toolchain.Request {
	return toolchain.Request{Case: c, Code: code, Board: "x86_64", BuildTimeout: time.Minute, RunTimeout: runTimeout, CanRun: true, Jail: sandbox.Detect(context.Background(), sandbox.JailConfig{})}
}

func TestAvailable(t *testing.T) {
	a := New(WithPath(t.TempDir())).Available(platform.Target{})
	require.False(t, a.Build)
	require.False(t, a.Run)
	require.Equal(t, "gcc is not installed (Debian package gcc); make is not installed (Debian package make); pkg-config is not installed (Debian package pkg-config)", a.Why)
	requireTools(t)
	a = New().Available(platform.Target{})
	require.True(t, a.Build && a.Run, a.Why)
}

func TestPackages(t *testing.T) {
	pkgs, err := Packages(fixture(t, "gpio-event-loop").Dir)
	require.NoError(t, err)
	require.Equal(t, []string{"libgpiod", "libsystemd"}, pkgs)
	pkgs, err = Packages(t.TempDir())
	require.NoError(t, err)
	require.Empty(t, pkgs)
}

func TestFixtureCases(t *testing.T) {
	requireTools(t, "libgpiod", "libsystemd")
	for _, name := range []string{"gpio-event-loop", "make-app"} {
		t.Run(name, func(t *testing.T) {
			c := fixture(t, name)
			lr, art := New().Build(context.Background(), request(c, readFile(t, c.ReferencePath), 10*time.Second))
			require.Equal(t, result.StatusPassed, lr.Status, "%s %v", lr.Reason, lr.Error)
			dir := art.(*artifact).ws.Dir
			run := art.Run(context.Background())
			require.Equal(t, result.StatusPassed, run.Status, run.Reason)
			require.Len(t, run.Details, 2)
			require.Equal(t, "all present", *run.Details[1].Actual)
			require.NoError(t, art.Close())
			require.NoDirExists(t, dir)
			require.NoFileExists(t, filepath.Join(c.Dir, Program), "the case directory was written to")
		})
	}
}

func TestBuildFailures(t *testing.T) {
	requireTools(t, "libgpiod", "libsystemd")
	c := fixture(t, "gpio-event-loop")
	ref := readFile(t, c.ReferencePath)
	tests := []struct {
		name, code string
		contains   []string
	}{
		{
			name: "missing semicolon", code: strings.Replace(ref, "return 1;\n\t}\n\tret = sd_event_now", "return 1\n\t}\n\tret = sd_event_now", 1),
			contains: []string{"gcc failed (exit 1):\n", "src/main.c:28:25: error: expected "},
		},
		{
			name: "undefined function", code: strings.Replace(ref, "sd_event_loop(event)", "sd_event_spin_forever(event)", 1),
			contains: []string{"gcc failed (exit 1):\n", "undefined reference to `sd_event_spin_forever'"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NotEqual(t, ref, tt.code)
			lr, art := New().Build(context.Background(), request(c, tt.code, time.Second))
			require.Nil(t, art)
			require.Equal(t, result.StatusFailed, lr.Status)
			for _, s := range tt.contains {
				require.Contains(t, lr.Reason, s)
			}
		})
	}
}

func TestRunVerdicts(t *testing.T) {
	requireTools(t)
	c := fixture(t, "gpio-event-loop")
	plain := &cases.Case{Entry: cases.Entry{Dir: t.TempDir()}, ExpectedOutputPath: c.ExpectedOutputPath}
	tests := []struct {
		file, reason string
	}{
		{"segfault.c", "killed by signal segmentation fault"},
		{"exit2.c", "exited with status 2"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			lr, art := New().Build(context.Background(), request(plain, readFile(t, filepath.Join("testdata", "programs", tt.file)), 10*time.Second))
			require.Equal(t, result.StatusPassed, lr.Status, lr.Reason)
			defer func() { require.NoError(t, art.Close()) }()
			run := art.Run(context.Background())
			require.Equal(t, result.StatusFailed, run.Status)
			require.Equal(t, tt.reason, run.Reason)
		})
	}
}

func TestHangingProgramIsStoppedWithItsChildren(t *testing.T) {
	requireTools(t)
	c := &cases.Case{Entry: cases.Entry{Dir: t.TempDir()}, ExpectedOutputPath: fixture(t, "gpio-event-loop").ExpectedOutputPath}
	lr, art := New().Build(context.Background(), request(c, readFile(t, "testdata/programs/hang.c"), 500*time.Millisecond))
	require.Equal(t, result.StatusPassed, lr.Status, lr.Reason)
	defer func() { require.NoError(t, art.Close()) }()
	// The guard is far past the run timeout: a run stopped by it would be an
	// error, not the failure asserted below.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run := art.Run(ctx)
	require.Equal(t, result.StatusFailed, run.Status)
	require.Equal(t, "hung: still running at the 500ms run timeout without the expected output; expected output missing: libgpiod | timer fired | event loop done", run.Reason)
	require.False(t, run.Details[0].Passed, "a run still going at the timeout without its output is a hang, never \"no crash\"")

	// The forked child must be gone with the run: alive.log, which it
	// grows every 20 ms, stops growing.
	alive := filepath.Join(art.(*artifact).ws.Dir, "alive.log")
	first, err := os.Stat(alive)
	require.NoError(t, err, "the child ran")
	time.Sleep(300 * time.Millisecond)
	second, err := os.Stat(alive)
	require.NoError(t, err)
	require.Equal(t, first.Size(), second.Size(), "the child outlived the run")
}

func TestSecretsAreNotVisible(t *testing.T) {
	requireTools(t)
	t.Setenv("GITHUB_TOKEN", "ghp_userspace_secret")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-userspace-secret")
	t.Setenv("EMBEDEVAL_UNLISTED", "not-allowlisted")
	c := &cases.Case{Entry: cases.Entry{Dir: t.TempDir()}}
	lr, art := New().Build(context.Background(), request(c, readFile(t, "testdata/programs/printenv.c"), 10*time.Second))
	require.Equal(t, result.StatusPassed, lr.Status, lr.Reason)
	a := art.(*artifact)
	defer func() { require.NoError(t, art.Close()) }()
	run := art.Run(context.Background())
	require.Equal(t, result.StatusPassed, run.Status, run.Reason)
	res := readFile(t, filepath.Join(a.ws.Dir, "env.txt"))
	require.Contains(t, res, "HOME="+a.ws.Dir+"\n", "the program's environment was printed")
	require.Contains(t, res, "PATH=")
	require.NotContains(t, res, "secret")
	require.NotContains(t, res, "GITHUB_TOKEN")
	require.NotContains(t, res, "EMBEDEVAL_UNLISTED")
}

func TestInfrastructureErrors(t *testing.T) {
	c := fixture(t, "gpio-event-loop")
	lr, art := New(WithPath(t.TempDir())).Build(context.Background(), request(c, "int main(void){return 0;}", time.Second))
	require.Nil(t, art)
	require.Equal(t, result.StatusError, lr.Status)
	require.Contains(t, *lr.Error, "pkg-config: sandbox: pkg-config: command not found")

	requireTools(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	lr, art = New().Build(ctx, request(&cases.Case{Entry: cases.Entry{Dir: t.TempDir()}}, "int main(void){return 0;}", time.Second))
	require.Nil(t, art)
	require.Equal(t, result.StatusError, lr.Status)
	require.Equal(t, "gcc: cancelled", *lr.Error)
}

// TestMissingPackageIsUnavailable: on a machine without the case's
// libraries (pkg-config searching an empty directory, as on a fresh Debian
// install without libgpiod-dev and libsystemd-dev), L1 is skipped as a
// missing toolchain naming the Debian packages, never an error and never a
// failure; under --require-layers it is an error. A package the table does
// not know is described too.
func TestMissingPackageIsUnavailable(t *testing.T) {
	requireTools(t)
	t.Setenv("PKG_CONFIG_LIBDIR", t.TempDir())
	t.Setenv("PKG_CONFIG_PATH", "")
	c := fixture(t, "gpio-event-loop")
	want := "toolchain unavailable: pkg-config package libgpiod is not installed (Debian package libgpiod-dev); " +
		"pkg-config package libsystemd is not installed (Debian package libsystemd-dev)"

	lr, art := New().Build(context.Background(), request(c, readFile(t, c.ReferencePath), time.Second))
	require.Nil(t, art)
	require.Equal(t, result.StatusSkipped, lr.Status, "%v", lr.Error)
	require.Equal(t, want, lr.Reason)

	reg, err := platform.Default()
	require.NoError(t, err)
	c.Meta = cases.Metadata{ID: "linux-userspace-900", Category: "linux-userspace", SDK: "embedded-linux", Platform: "docker_only"}
	jail := sandbox.Detect(context.Background(), sandbox.JailConfig{})
	lr, art = toolchain.New(reg, toolchain.Options{Jail: jail}, New()).Build(context.Background(), c, readFile(t, c.ReferencePath))
	require.Nil(t, art)
	require.Equal(t, result.StatusSkipped, lr.Status, "%v", lr.Error)
	require.Equal(t, want, lr.Reason)
	lr, _ = toolchain.New(reg, toolchain.Options{RequireBuild: true, Jail: jail}, New()).Build(context.Background(), c, readFile(t, c.ReferencePath))
	require.Equal(t, result.StatusError, lr.Status)
	require.Equal(t, "L1 is required (--require-layers) but "+want, *lr.Error)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, PackagesFile), []byte("embedeval-no-such-package\n"), 0o644))
	lr, art = New().Build(context.Background(), request(&cases.Case{Entry: cases.Entry{Dir: dir}}, "int main(void){return 0;}", time.Second))
	require.Nil(t, art)
	require.Equal(t, result.StatusSkipped, lr.Status, "%v", lr.Error)
	require.Equal(t, "toolchain unavailable: pkg-config package embedeval-no-such-package is not installed (Debian package: the one holding embedeval-no-such-package.pc, see apt-file search embedeval-no-such-package.pc)", lr.Reason)
}

// BenchmarkGpioEventLoop reports the time of one build (pkg-config + gcc)
// and one run of the libgpiod/libsystemd fixture.
func BenchmarkGpioEventLoop(b *testing.B) {
	requireTools(b, "libgpiod", "libsystemd")
	c := fixture(b, "gpio-event-loop")
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

// scenarioProgram reads its first argument's file, an environment variable
// and standard input, and hangs when the file says so: every input a
// scenario can give, and a hang.
const scenarioProgram = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
	char line[64] = "";
	FILE *f = fopen(argc > 1 ? argv[1] : "in.txt", "r");
	if (!f) { fprintf(stderr, "%s: cannot open\n", argc > 1 ? argv[1] : "in.txt"); return 1; }
	if (!fgets(line, sizeof line, f)) line[0] = 0;
	fclose(f);
	line[strcspn(line, "\n")] = 0;
	if (strcmp(line, "hang") == 0) for (;;) pause();
	char in[64] = "";
	if (!fgets(in, sizeof in, stdin)) strcpy(in, "none\n");
	const char *mode = getenv("SCALE");
	printf("value: %.1f\n", atof(line) * (mode ? atof(mode) : 1.0));
	printf("stdin: %s", in);
	return 0;
}
`

func writeScenario(t *testing.T, caseDir, name, text string) {
	t.Helper()
	dir := filepath.Join(caseDir, "checks", "scenarios")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(text), 0o644))
}

// TestScenarioRuns builds one program and runs it once per scenario: each
// run gets its own files, arguments, environment and standard input, is
// judged on its own, and a run that never exits is reported as hung.
func TestScenarioRuns(t *testing.T) {
	requireTools(t)
	dir := t.TempDir()
	writeScenario(t, dir, "args_env_stdin", `description: the argument names the file; SCALE multiplies; stdin is echoed
args: ["data/v.txt"]
env: {SCALE: "2"}
stdin: "hello\n"
files: {data/v.txt: "21.25\n", in.txt: "0\n"}
expect:
  exit_code: 0
  stdout:
    lines: ["value: 42.5", "stdin: hello"]
    patterns: [{match: 'value: (\S+)', values: {"1": {near: 42.5, tolerance: 0.05}}}]
  stderr: {empty: true}
`)
	writeScenario(t, dir, "default_file", `description: without arguments it reads in.txt of its own directory
files: {in.txt: "7\n"}
expect: {exit_code: 0, output: {lines: ["value: 7.0", "stdin: none"]}}
`)
	writeScenario(t, dir, "missing_file", `description: a missing file is an error naming it
expect: {exit_code: 1, stdout: {empty: true}, stderr: {contains: ["in.txt: cannot open"]}}
`)
	writeScenario(t, dir, "wrong_value", `description: a value the program does not print fails with the line it did print
files: {in.txt: "3\n"}
expect: {output: {patterns: [{match: 'value: (\S+)', values: {"1": {near: 4, tolerance: 0.5}}}]}}
`)
	writeScenario(t, dir, "hangs", `description: a program that never exits is hung
files: {in.txt: "hang\n"}
timeout: 500ms
expect: {exit_code: 0}
`)
	c := &cases.Case{Entry: cases.Entry{Dir: dir}}
	lr, art := New().Build(context.Background(), request(c, scenarioProgram, 5*time.Second))
	require.Equal(t, result.StatusPassed, lr.Status, lr.Reason)
	defer func() { require.NoError(t, art.Close()) }()
	run := art.Run(context.Background())
	require.Equal(t, result.StatusFailed, run.Status)
	got := map[string]string{}
	for _, d := range run.Details {
		got[d.CheckName] = fmt.Sprintf("%v %s", d.Passed, *d.Actual)
	}
	require.Equal(t, map[string]string{
		"scenario_args_env_stdin": "true as expected",
		"scenario_default_file":   "true as expected",
		"scenario_missing_file":   "true as expected",
		"scenario_wrong_value":    `false output: /value: (\S+)/: line "value: 3.0": group 1 is 3.0, want 4 ± 0.5`,
		"scenario_hangs":          "false hung: still running at the 500ms run timeout (the program must exit by itself)",
	}, got, "no default run without expected_output.txt: only the scenarios")
	require.Equal(t, `scenario_hangs: hung: still running at the 500ms run timeout (the program must exit by itself); scenario_wrong_value: output: /value: (\S+)/: line "value: 3.0": group 1 is 3.0, want 4 ± 0.5`, run.Reason)
}
