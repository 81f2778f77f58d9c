package toolchain

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/toolchain/toolchaintest"
)

type fakeBackend struct {
	name  string
	avail Availability
	reqs  []Request
}

func (f *fakeBackend) Name() string                           { return f.name }
func (f *fakeBackend) Available(platform.Target) Availability { return f.avail }
func (f *fakeBackend) Build(_ context.Context, req Request) (result.LayerResult, eval.Artifact) {
	f.reqs = append(f.reqs, req)
	return result.LayerResult{Status: result.StatusPassed}, fakeArtifact{}
}

type fakeArtifact struct{}

func (fakeArtifact) Run(context.Context) result.LayerResult {
	return result.LayerResult{Status: result.StatusPassed, Reason: "ran"}
}
func (fakeArtifact) Close() error { return nil }

func zephyrCase(board string) *cases.Case {
	return &cases.Case{Meta: cases.Metadata{ID: "gpio-basic-001", SDK: "zephyr", Platform: "native_sim", Category: "gpio-basic", BuildBoard: board}, ReferencePath: "reference/main.c"}
}

func TestDispatch(t *testing.T) {
	reg, err := platform.Default()
	require.NoError(t, err)
	z := &fakeBackend{name: "zephyr", avail: Availability{Build: true, Run: true}}
	d := New(reg, Options{Jail: sandbox.Unconfined()}, z)

	lr, art := d.Build(context.Background(), zephyrCase(""), "int main(void){}")
	require.Equal(t, result.StatusPassed, lr.Status)
	require.Equal(t, "built by zephyr for native_sim (target zephyr)", lr.Reason, "a passing layer says where it ran")
	require.Equal(t, "ran", art.Run(context.Background()).Reason)
	require.Equal(t, "native_sim", z.reqs[0].Board)
	require.Equal(t, DefaultRunTimeout, z.reqs[0].RunTimeout)
	require.True(t, z.reqs[0].CanRun)
	require.Equal(t, 1, z.reqs[0].Jobs, "one compiler process per build by default: the pool already uses every core")

	// A hardware board builds but does not run.
	lr, art = d.Build(context.Background(), zephyrCase("nrf52840dk/nrf52840"), "x")
	require.Equal(t, result.StatusPassed, lr.Status)
	run := art.Run(context.Background())
	require.Equal(t, result.StatusSkipped, run.Status)
	require.Equal(t, "platform cannot run: board nrf52840dk/nrf52840 is not runnable by target zephyr", run.Reason)

	// A backend whose tools are missing skips, or errors when required.
	z.avail = Availability{Why: "west is not installed"}
	lr, art = d.Build(context.Background(), zephyrCase(""), "x")
	require.Nil(t, art)
	require.Equal(t, result.StatusSkipped, lr.Status)
	require.Equal(t, "toolchain unavailable: west is not installed", lr.Reason)
	lr, _ = New(reg, Options{RequireBuild: true, Jail: sandbox.Unconfined()}, z).Build(context.Background(), zephyrCase(""), "x")
	require.Equal(t, result.StatusError, lr.Status)
	require.Equal(t, "L1 is required (--require-layers) but toolchain unavailable: west is not installed", *lr.Error)

	// Build available, run not: L2 skips, or errors when required.
	z.avail = Availability{Build: true, Why: "qemu-system-arm is not installed"}
	_, art = d.Build(context.Background(), zephyrCase(""), "x")
	require.Equal(t, "toolchain unavailable: qemu-system-arm is not installed", art.Run(context.Background()).Reason)
	_, art = New(reg, Options{RequireRun: true, Jail: sandbox.Unconfined()}, z).Build(context.Background(), zephyrCase(""), "x")
	require.Equal(t, result.StatusError, art.Run(context.Background()).Status)

	// A backend missing from the build.
	lr, _ = d.Build(context.Background(), &cases.Case{Meta: cases.Metadata{SDK: "esp-idf", Platform: "esp_idf"}, ReferencePath: "reference/main.c"}, "x")
	require.Equal(t, `toolchain unavailable: backend "esp-idf" is not part of this build`, lr.Reason)

	// A target without L1 by design is skipped even when L1 is required.
	udev := &cases.Case{Meta: cases.Metadata{SDK: "embedded-linux", Platform: "docker_only", Category: "linux-userspace"}, ReferencePath: "reference/99-x.rules"}
	lr, _ = New(reg, Options{RequireBuild: true, Jail: sandbox.Unconfined()}, z).Build(context.Background(), udev, "x")
	require.Equal(t, result.StatusSkipped, lr.Status)
	require.Equal(t, "platform cannot build: target linux-udev-rules has no L1 (udev answers are checked statically only)", lr.Reason)
}

// caseAwareBackend has the tools for some cases only, and finds out about
// others only while building.
type caseAwareBackend struct {
	fakeBackend
	skipInBuild bool
}

func (c *caseAwareBackend) AvailableFor(_ platform.Target, cs *cases.Case) Availability {
	if cs.Meta.SDKVersion == "6.4" {
		return Availability{Why: "kernel headers >= 6.4 not installed"}
	}
	return Availability{Build: true}
}

func (c *caseAwareBackend) Build(ctx context.Context, req Request) (result.LayerResult, eval.Artifact) {
	if c.skipInBuild {
		return result.LayerResult{Status: result.StatusSkipped, Reason: "toolchain unavailable: found out late"}, nil
	}
	return c.fakeBackend.Build(ctx, req)
}

func TestCaseAware(t *testing.T) {
	reg, err := platform.Default()
	require.NoError(t, err)
	k := &caseAwareBackend{fakeBackend: fakeBackend{name: "kbuild", avail: Availability{Build: true}}}
	kernel := func(v string) *cases.Case {
		return &cases.Case{Meta: cases.Metadata{SDK: "embedded-linux", Platform: "docker_only", Category: "linux-driver", SDKVersion: v}, ReferencePath: "reference/main.c"}
	}
	d := New(reg, Options{Jail: sandbox.Unconfined()}, k)
	lr, _ := d.Build(context.Background(), kernel("6.1"), "x")
	require.Equal(t, result.StatusPassed, lr.Status)
	lr, art := d.Build(context.Background(), kernel("6.4"), "x")
	require.Nil(t, art)
	require.Equal(t, result.StatusSkipped, lr.Status)
	require.Equal(t, "toolchain unavailable: kernel headers >= 6.4 not installed", lr.Reason)
	require.Len(t, k.reqs, 1, "a case the backend cannot build never reaches Build")
	lr, _ = New(reg, Options{RequireBuild: true, Jail: sandbox.Unconfined()}, k).Build(context.Background(), kernel("6.4"), "x")
	require.Equal(t, result.StatusError, lr.Status)
	require.Equal(t, "L1 is required (--require-layers) but toolchain unavailable: kernel headers >= 6.4 not installed", *lr.Error)

	// A skip found out in Build is an error when L1 is required, too.
	k.skipInBuild = true
	lr, _ = d.Build(context.Background(), kernel("6.1"), "x")
	require.Equal(t, result.StatusSkipped, lr.Status)
	lr, _ = New(reg, Options{RequireBuild: true, Jail: sandbox.Unconfined()}, k).Build(context.Background(), kernel("6.1"), "x")
	require.Equal(t, result.StatusError, lr.Status)
	require.Equal(t, "L1 is required (--require-layers) but toolchain unavailable: found out late", *lr.Error)
}

// JudgeRun is the L2 layer of a default run alone, as RunPlan.Run judges it
// without scenarios (judgeDefault, then layerOf): the seeds' L2 verdict. The
// run is stopped at its timeout (normal for firmware), each expected line
// must appear in the output, and a crash, a fault, a non-zero exit or a fatal
// signal fails the layer. Two check records are returned: runtime_no_crash
// and runtime_expected_output. A run still going at its timeout without the
// expected output is reported as hung, and runtime_no_crash then fails too:
// a hang is not a clean run.
func JudgeRun(out RunOutcome, expected []string) result.LayerResult {
	return layerOf(judgeDefault(out, expected))
}

func TestJudgeRun(t *testing.T) {
	exp := []string{"button counter ready", "presses:"}
	lr := JudgeRun(RunOutcome{Output: []byte("*** Booting Zephyr OS ***\nbutton counter ready\npresses: 1\n")}, exp)
	require.Equal(t, result.StatusPassed, lr.Status, lr.Reason)
	require.Len(t, lr.Details, 2)

	lr = JudgeRun(RunOutcome{Output: []byte("button counter ready\n"), Exited: true}, exp)
	require.Equal(t, result.StatusFailed, lr.Status)
	require.Equal(t, "expected output missing: presses:", lr.Reason)
	require.True(t, lr.Details[0].Passed, "a program that ended cleanly did not crash")

	// Still running at the timeout without the expected output: hung, and
	// never reported as "no crash".
	lr = JudgeRun(RunOutcome{Output: []byte("button counter ready\n"), Timeout: 10 * time.Second}, exp)
	require.Equal(t, result.StatusFailed, lr.Status)
	require.Equal(t, "hung: still running at the 10s run timeout without the expected output; expected output missing: presses:", lr.Reason)
	require.False(t, lr.Details[0].Passed)
	require.Equal(t, "hung: still running at the 10s run timeout without the expected output", *lr.Details[0].Actual)

	lr = JudgeRun(RunOutcome{Output: []byte("button counter ready\npresses: 1\n>>> ZEPHYR FATAL ERROR 0: CPU exception on CPU 0\n")}, exp)
	require.Equal(t, result.StatusFailed, lr.Status)
	require.Equal(t, `output contains ">>> ZEPHYR FATAL ERROR"`, lr.Reason)

	lr = JudgeRun(RunOutcome{Output: []byte("button counter ready\npresses: 1\n"), Exited: true, ExitCode: 3}, exp)
	require.Equal(t, "exited with status 3", lr.Reason)
	lr = JudgeRun(RunOutcome{Output: []byte("ok\n"), Signal: "segmentation fault"}, nil)
	require.Equal(t, "killed by signal segmentation fault", lr.Reason)
	lr = JudgeRun(RunOutcome{Output: []byte("anything"), Exited: true}, nil)
	require.Equal(t, result.StatusPassed, lr.Status, "no expected lines: only crashes fail")
	require.Len(t, lr.Details, 1)
}

func TestStageCopiesBuildFilesOnly(t *testing.T) {
	dir := t.TempDir()
	for rel, content := range map[string]string{
		"metadata.yaml": "id: x\n", "prompt.md": "p", "reference/main.c": "ref", "checks/static.star": "s",
		"context/notes.md": "c", "CMakeLists.txt": "cmake", "prj.conf": "CONFIG_GPIO=y\n", "boards/native_sim.overlay": "/ {};",
	} {
		p := filepath.Join(dir, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	before := toolchaintest.TreeDigest(t, dir)
	ws, err := Stage(Request{Case: &cases.Case{Entry: cases.Entry{Dir: dir}}, Code: "generated"}, "test", "src/main.c")
	require.NoError(t, err)
	var got []string
	require.NoError(t, filepath.Walk(ws.Dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(ws.Dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	}))
	require.ElementsMatch(t, []string{"CMakeLists.txt", "prj.conf", "boards/native_sim.overlay", "src/main.c"}, got)
	code, err := os.ReadFile(filepath.Join(ws.Dir, "src", "main.c"))
	require.NoError(t, err)
	require.Equal(t, "generated", string(code))
	require.NoError(t, ws.Close())
	require.Equal(t, before, toolchaintest.TreeDigest(t, dir), "the case directory is never written to")
}

func TestBuildOutcome(t *testing.T) {
	to := 2 * time.Minute
	require.Equal(t, result.StatusPassed, BuildOutcome("make", sandbox.Result{}, to).Status)
	lr := BuildOutcome("make", sandbox.Result{ExitCode: 2, Output: []byte("main.c:3:1: error: expected ';' before '}' token\nmake: *** [Makefile:4: all] Error 1\n")}, to)
	require.Equal(t, result.StatusFailed, lr.Status)
	require.Equal(t, "make failed (exit 2):\nmain.c:3:1: error: expected ';' before '}' token\nmake: *** [Makefile:4: all] Error 1", lr.Reason)
	lr = BuildOutcome("make", sandbox.Result{TimedOut: true, ExitCode: -1}, to)
	require.Equal(t, result.StatusError, lr.Status, "our own timeout is not the model's failure")
	require.Equal(t, "make: timed out after 2m0s", *lr.Error)
}

func TestDoctor(t *testing.T) {
	reg, err := platform.Default()
	require.NoError(t, err)
	z := &fakeBackend{name: "zephyr", avail: Availability{Build: true, Why: "qemu-system-x86_64 is not installed"}}
	rows := New(reg, Options{Jail: sandbox.Unconfined()}, z).Doctor()
	require.Len(t, rows, len(reg.Targets))
	byName := map[string]TargetStatus{}
	for _, r := range rows {
		byName[r.Target] = r
	}
	require.Equal(t, TargetStatus{Target: "zephyr", Backend: "zephyr", Image: "ghcr.io/zephyrproject-rtos/ci:v0.28.4", CanBuild: true, Why: "qemu-system-x86_64 is not installed"}, byName["zephyr"])
	require.Equal(t, `backend "esp-idf" is not part of this build`, byName["esp-idf"].Why)
	require.Equal(t, "no L1 for this target (checked statically only)", byName["linux-udev-rules"].Why)
}

func TestToolPath(t *testing.T) {
	dir := t.TempDir()
	tool := filepath.Join(dir, "west")
	require.NoError(t, os.WriteFile(tool, []byte("#!/bin/sh\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "not-exec"), []byte(""), 0o644))
	p := ToolPath("/nonexistent:" + dir)
	got, err := p.Look("west")
	require.NoError(t, err)
	require.Equal(t, tool, got)
	_, err = p.Look("not-exec")
	require.ErrorContains(t, err, "not-exec: executable file not found")
	t.Setenv("PATH", dir)
	require.Equal(t, dir, ToolPath("").Value(), "empty means this process's PATH")
}
