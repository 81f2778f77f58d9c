package freertos

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/testenv"
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/buildcache"
	tt "github.com/embedeval/embedeval-go/internal/toolchain/toolchaintest"
)

const caseDir = "../../../cases/freertos/threading-001"

func request(t testing.TB, c *cases.Case, code string) toolchain.Request {
	t.Helper()
	reg, err := platform.Default()
	require.NoError(t, err)
	tgt, ok := reg.Resolve(c)
	require.True(t, ok)
	require.Equal(t, "freertos", tgt.Backend)
	return toolchain.Request{Case: c, Code: code, Target: tgt, Board: tgt.Board(c), BuildTimeout: time.Minute, RunTimeout: time.Second, CanRun: true, Jail: sandbox.Unconfined()}
}

// fakeKernel is a directory laid out like a FreeRTOS-Kernel checkout.
func fakeKernel(t testing.TB) string {
	k := t.TempDir()
	for _, f := range kernelFiles() {
		p := filepath.Join(k, filepath.FromSlash(f))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		write(t, p, "/* stand-in */\n")
	}
	t.Setenv(KernelEnv, k)
	return k
}

func TestStandInMakeCommandLineCwdAndEnvironment(t *testing.T) {
	kernel := fakeKernel(t)
	t.Setenv("GITHUB_TOKEN", "ghs_must_not_leak")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-must-not-leak")
	bin := standIn(t, "make")
	path := bin + ":/usr/bin:/bin"
	c := loadCase(t, caseDir)
	ref := read(t, c.ReferencePath)
	lr, art := New(WithPath(path)).Build(context.Background(), request(t, c, ref))
	require.Equal(t, result.StatusPassed, lr.Status, "%v", lr.Error)
	require.NotNil(t, art)

	got := calls(t, bin)
	require.Len(t, got, 1)
	ws := got[0].cwd
	require.True(t, strings.HasPrefix(filepath.Base(ws), "embedeval-freertos-"), ws)
	require.Equal(t, []string{"make", "FREERTOS_KERNEL=" + kernel}, got[0].argv)
	require.Equal(t, sandboxEnv(ws, map[string]string{"PATH": path, KernelEnv: kernel}), got[0].env, "only the allowlist reaches make")
	require.Equal(t, "./FreeRTOSConfig.h\n./Makefile\n./mps2_an385.ld\n./src/main.c\n./startup.c\n", read(t, filepath.Join(got[0].dir, "workspace")),
		"the case's build files and the answer, nothing of checks/, reference/ or the prompt")
	require.Equal(t, ref, read(t, filepath.Join(ws, "src/main.c")))

	// No app.elf came out of the stand-in: L2 says so as our error.
	run := art.Run(context.Background())
	require.Equal(t, result.StatusError, run.Status)
	require.Equal(t, "freertos: make succeeded but left no app.elf", *run.Error)
	require.NoError(t, art.Close())
	_, err := os.Stat(ws)
	require.True(t, os.IsNotExist(err), "Close removed the workspace")
}

func TestMakeFailureKeepsCompilerErrors(t *testing.T) {
	fakeKernel(t)
	bin := standIn(t, "make")
	write(t, filepath.Join(bin, "make.log"), read(t, "testdata/logs/make-gcc-error.log"))
	write(t, filepath.Join(bin, "make.exit"), "2")
	c := loadCase(t, caseDir)
	lr, art := New(WithPath(bin+":/usr/bin:/bin")).Build(context.Background(), request(t, c, "broken"))
	require.Nil(t, art)
	require.Equal(t, result.StatusFailed, lr.Status)
	for _, l := range []string{
		"make failed (exit 2):",
		`src/main.c:38:54: error: macro "xQueueSendFromISR" requires 3 arguments, but only 2 given`,
		"src/main.c:38:21: error: 'xQueueSendFromISR' undeclared (first use in this function)",
		"make: *** [Makefile:31: app.elf] Error 1",
	} {
		require.Contains(t, lr.Reason, l)
	}
	ws := calls(t, bin)[0].cwd
	_, err := os.Stat(ws)
	require.True(t, os.IsNotExist(err), "a failed build removes its workspace")
}

func TestOurErrorsAreNotModelFailures(t *testing.T) {
	c := loadCase(t, caseDir)
	req := request(t, c, "int main(void){}")

	t.Setenv(KernelEnv, "")
	lr, art := New().Build(context.Background(), req)
	require.Nil(t, art)
	require.Equal(t, result.StatusError, lr.Status)
	require.Equal(t, "freertos: FREERTOS_KERNEL is not set", *lr.Error)

	fakeKernel(t)
	lr, _ = New(WithPath(t.TempDir())).Build(context.Background(), req)
	require.Equal(t, result.StatusError, lr.Status)
	require.Contains(t, *lr.Error, "make: sandbox: make: command not found")

	bin := standIn(t, "make")
	write(t, filepath.Join(bin, "make.hang"), "")
	req.BuildTimeout = 300 * time.Millisecond
	lr, _ = New(WithPath(bin+":/usr/bin:/bin")).Build(context.Background(), req)
	require.Equal(t, result.StatusError, lr.Status)
	require.Equal(t, "make: timed out after 300ms", *lr.Error)
	requireGone(t, filepath.Join(bin, "make.pid"))
}

func TestStandInMakeWithTheKernelCache(t *testing.T) {
	kernel := fakeKernel(t)
	bin := standIn(t, "make")
	// The stand-in's `make kernel` leaves objects as the case Makefile does.
	write(t, filepath.Join(bin, "make.post"), read(t, "testdata/bin/make.post")+`case " $* " in *" kernel "*) mkdir -p kernel/portable/MemMang && echo tasks >kernel/tasks.o && echo heap >kernel/portable/MemMang/heap_4.o ;; esac`+"\n")
	path := bin + ":/usr/bin:/bin"
	cache, err := buildcache.Open(t.TempDir(), buildcache.Options{})
	require.NoError(t, err)
	be := New(WithPath(path), WithCache(cache))
	c := loadCase(t, caseDir)
	for i := 0; i < 2; i++ {
		lr, art := be.Build(context.Background(), request(t, c, read(t, c.ReferencePath)))
		require.Equal(t, result.StatusPassed, lr.Status, "%v", lr.Error)
		require.NoError(t, art.Close())
	}
	got := calls(t, bin)
	require.Len(t, got, 3, "the kernel is built once, then each answer")
	require.Equal(t, []string{"make", "FREERTOS_KERNEL=" + kernel, "kernel"}, got[0].argv)
	require.True(t, strings.HasPrefix(filepath.Base(got[0].cwd), "embedeval-freertos-kernel-"), got[0].cwd)
	require.Equal(t, "./FreeRTOSConfig.h\n./Makefile\n./mps2_an385.ld\n./src/main.c\n./startup.c\n", read(t, filepath.Join(got[0].dir, "workspace")))
	for _, cl := range got[1:] {
		require.Equal(t, []string{"make", "FREERTOS_KERNEL=" + kernel, "KERNEL_PREBUILT=1"}, cl.argv)
		require.Equal(t, "./FreeRTOSConfig.h\n./Makefile\n./kernel/portable/MemMang/heap_4.o\n./kernel/tasks.o\n./mps2_an385.ld\n./src/main.c\n./startup.c\n",
			read(t, filepath.Join(cl.dir, "workspace")), "the cached objects are copied in")
	}
	st, err := cache.Stats()
	require.NoError(t, err)
	require.Equal(t, buildcache.Stats{Entries: 1, Bytes: int64(len("tasks\nheap\n"))}, st)
}

// realKernel requires the real FreeRTOS-Kernel tree (../shared/sdk, which
// scripts/test.sh names in FREERTOS_KERNEL) and the tools of a real build.
func realKernel(t testing.TB) string {
	t.Helper()
	testenv.Tool(t, "make", "make", "it runs the case Makefile")
	testenv.Tool(t, "arm-none-eabi-gcc", "gcc-arm-none-eabi", "it compiles the kernel and the answer")
	testenv.Tool(t, "qemu-system-arm", "qemu-system-arm", "L2 boots the firmware on QEMU mps2-an385")
	return testenv.SDK(t, KernelEnv, "include/FreeRTOS.h", "the real builds compile the FreeRTOS kernel")
}

func TestRealKernelBuildsAndRunsThroughTheCache(t *testing.T) {
	realKernel(t)
	cache, err := buildcache.Open(t.TempDir(), buildcache.Options{})
	require.NoError(t, err)
	be := New(WithCache(cache))
	c := loadCase(t, caseDir)
	var before []string
	for i := 0; i < 2; i++ {
		req := request(t, c, read(t, c.ReferencePath))
		req.Jail = tt.Jail(t)
		req.RunTimeout = 2 * time.Second
		lr, art := be.Build(context.Background(), req)
		require.Equal(t, result.StatusPassed, lr.Status, "%s %v", lr.Reason, lr.Error)
		st, err := os.Stat(filepath.Join(art.(*artifact).ws.Dir, "kernel", "tasks.o"))
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o444), st.Mode().Perm(), "the cached objects are copied in read-only")
		run := art.Run(context.Background())
		require.Equal(t, result.StatusPassed, run.Status, "%s %v", run.Reason, run.Error)
		require.NoError(t, art.Close())
		if i == 0 {
			before = tt.TreeDigest(t, cache.Dir())
		}
	}
	require.Equal(t, before, tt.TreeDigest(t, cache.Dir()), "a build and a run leave the cache as they found it")
	st, err := cache.Stats()
	require.NoError(t, err)
	require.Equal(t, 1, st.Entries)
}

func TestRealKernelLinkFailsOnWhatTheConfigurationLeavesOut(t *testing.T) {
	realKernel(t)
	cache, err := buildcache.Open(t.TempDir(), buildcache.Options{})
	require.NoError(t, err)
	c := loadCase(t, caseDir)
	// threading-001's FreeRTOSConfig.h does not enable counting semaphores.
	code := strings.Replace(read(t, c.ReferencePath), "int main(void)\n{", "int main(void)\n{\n\t(void)xQueueCreateCountingSemaphore(4, 0);", 1)
	require.Contains(t, code, "xQueueCreateCountingSemaphore")
	req := request(t, c, code)
	req.Jail = tt.Jail(t)
	lr, art := New(WithCache(cache)).Build(context.Background(), req)
	require.Nil(t, art)
	require.Equal(t, result.StatusFailed, lr.Status, "%v", lr.Error)
	require.Contains(t, lr.Reason, "undefined reference to `xQueueCreateCountingSemaphore'")
}

// buildFirmware compiles testdata/firmware/uart.c for the mps2-an385 with
// the case's linker script, for real.
func buildFirmware(t testing.TB, dir string, defines ...string) string {
	t.Helper()
	gcc := testenv.Tool(t, "arm-none-eabi-gcc", "gcc-arm-none-eabi", "it builds the test firmware that QEMU runs")
	out := filepath.Join(dir, "firmware.elf")
	args := append([]string{"-mcpu=cortex-m3", "-mthumb", "-O2", "-nostdlib", "-nostartfiles", "-T", filepath.Join(caseDir, "mps2_an385.ld"), "-o", out}, defines...)
	cmd := exec.Command(gcc, append(args, "testdata/firmware/uart.c")...)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", msg)
	return out
}

// withExpected returns the case with an expected_output.txt of lines.
func withExpected(t testing.TB, c *cases.Case, lines string) *cases.Case {
	cc := *c
	cc.ExpectedOutputPath = filepath.Join(t.TempDir(), "expected_output.txt")
	write(t, cc.ExpectedOutputPath, lines)
	return &cc
}

func TestRealQEMURunsTheFirmware(t *testing.T) {
	testenv.Tool(t, "qemu-system-arm", "qemu-system-arm", "L2 boots the firmware on QEMU mps2-an385")
	fakeKernel(t)
	c := loadCase(t, caseDir)
	for _, tc := range []struct {
		name     string
		defines  []string
		expected string
		status   result.Status
		reason   string
	}{
		{"prints and idles until the timeout", nil, "uart echo ready\n", result.StatusPassed, ""},
		{"expected line missing", nil, "uart echo ready\nqueue created\n", result.StatusFailed, "hung: still running at the 1.5s run timeout without the expected output; expected output missing: queue created"},
		{"hard fault", []string{"-DFAULT"}, "uart echo ready\n", result.StatusFailed, `output contains "HardFault"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := standIn(t, "make")
			path := bin + ":" + os.Getenv("PATH")
			buildFirmware(t, bin, tc.defines...)
			req := request(t, withExpected(t, c, tc.expected), read(t, c.ReferencePath))
			req.RunTimeout = 1500 * time.Millisecond
			lr, art := New(WithPath(path)).Build(context.Background(), req)
			require.Equal(t, result.StatusPassed, lr.Status)
			defer art.Close()
			start := time.Now()
			run := art.Run(context.Background())
			require.Less(t, time.Since(start), 5*time.Second, "QEMU is stopped at the run timeout")
			require.Equal(t, tc.status, run.Status, "%s %v", run.Reason, run.Error)
			require.Equal(t, tc.reason, run.Reason)
		})
	}
}

func TestStandInQEMU(t *testing.T) {
	fakeKernel(t)
	t.Setenv("GITHUB_TOKEN", "ghs_must_not_leak")
	c := loadCase(t, caseDir)
	run := func(t *testing.T, setup func(bin string)) (result.LayerResult, call) {
		bin := standIn(t, "make", "qemu-system-arm")
		write(t, filepath.Join(bin, "firmware.elf"), "ELF")
		setup(bin)
		req := request(t, withExpected(t, c, "uart echo ready\n"), "int main(void){}")
		req.RunTimeout = 400 * time.Millisecond
		lr, art := New(WithPath(bin+":/usr/bin:/bin")).Build(context.Background(), req)
		require.Equal(t, result.StatusPassed, lr.Status)
		defer func() { require.NoError(t, art.Close()) }()
		out := art.Run(context.Background())
		got := calls(t, bin)
		require.Len(t, got, 2)
		return out, got[1]
	}

	t.Run("command line and environment", func(t *testing.T) {
		lr, cl := run(t, func(bin string) { write(t, filepath.Join(bin, "qemu-system-arm.log"), "uart echo ready\r\n") })
		require.Equal(t, result.StatusPassed, lr.Status, "%s", lr.Reason)
		require.Equal(t, []string{"qemu-system-arm", "-M", "mps2-an385", "-nographic", "-monitor", "none", "-serial", "stdio",
			"-icount", "shift=4,align=off,sleep=off", "-semihosting-config", "enable=on,target=native", "-kernel", "app.elf"}, cl.argv)
		require.Equal(t, sandboxEnv(cl.cwd, map[string]string{"PATH": cl.env["PATH"]}), cl.env, "QEMU gets neither secrets nor SDK variables")
		require.NotContains(t, strings.Join(cl.argv, " "), "ghs_")
	})
	t.Run("hang is killed with its process group", func(t *testing.T) {
		var bin string
		lr, _ := run(t, func(b string) {
			bin = b
			write(t, filepath.Join(b, "qemu-system-arm.log"), "uart echo ready\r\n")
			write(t, filepath.Join(b, "qemu-system-arm.hang"), "")
		})
		require.Equal(t, result.StatusPassed, lr.Status, "stopping at the run timeout is normal")
		requireGone(t, filepath.Join(bin, "qemu-system-arm.pid"))
	})
	t.Run("QEMU refuses to start", func(t *testing.T) {
		lr, _ := run(t, func(b string) {
			write(t, filepath.Join(b, "qemu-system-arm.log"), "qemu-system-arm: -M mps2-an385: unsupported machine type\n")
			write(t, filepath.Join(b, "qemu-system-arm.exit"), "1")
		})
		require.Equal(t, result.StatusError, lr.Status)
		require.Contains(t, *lr.Error, "qemu-system-arm did not start the firmware (exit 1): qemu-system-arm: -M mps2-an385: unsupported machine type")
	})
	t.Run("firmware exits with a failure", func(t *testing.T) {
		lr, _ := run(t, func(b string) {
			write(t, filepath.Join(b, "qemu-system-arm.log"), "uart echo ready\r\nassert failed\n")
			write(t, filepath.Join(b, "qemu-system-arm.exit"), "1")
		})
		require.Equal(t, result.StatusFailed, lr.Status)
		require.Equal(t, "exited with status 1", lr.Reason)
	})
}

func TestAvailable(t *testing.T) {
	var tgt platform.Target
	full := standIn(t, "make", "arm-none-eabi-gcc", "qemu-system-arm")
	fakeKernel(t)
	a := New(WithPath(full)).Available(tgt)
	require.Equal(t, toolchain.Availability{Build: true, Run: true}, a)

	noQemu := standIn(t, "make", "arm-none-eabi-gcc")
	a = New(WithPath(noQemu)).Available(tgt)
	require.Equal(t, toolchain.Availability{Build: true, Why: "qemu-system-arm is not installed (Debian package qemu-system-arm)"}, a)

	empty := t.TempDir()
	t.Setenv(KernelEnv, empty)
	a = New(WithPath(t.TempDir())).Available(tgt)
	require.Equal(t, toolchain.Availability{Why: "make is not installed (Debian package make); arm-none-eabi-gcc is not installed (Debian package gcc-arm-none-eabi); FREERTOS_KERNEL=" + empty + " is not a FreeRTOS-Kernel checkout (tasks.c is missing); qemu-system-arm is not installed (Debian package qemu-system-arm)"}, a)
}

// BenchmarkBuildAndRun stages the bundled reference, "builds" it with the
// stand-in make (which drops in the test firmware) and boots that on the
// real QEMU for a 1 s run: the numbers are the backend's own overhead and
// QEMU's start, not a FreeRTOS compile (the kernel is only in the image).
func BenchmarkBuildAndRun(b *testing.B) {
	testenv.Tool(b, "qemu-system-arm", "qemu-system-arm", "L2 boots the firmware on QEMU mps2-an385")
	fakeKernel(b)
	bin := standIn(b, "make")
	buildFirmware(b, bin)
	c := loadCase(b, caseDir)
	req := request(b, withExpected(b, c, "uart echo ready\n"), read(b, c.ReferencePath))
	be := New(WithPath(bin + ":" + os.Getenv("PATH")))
	var build, run time.Duration
	for b.Loop() {
		start := time.Now()
		lr, art := be.Build(context.Background(), req)
		build += time.Since(start)
		if lr.Status != result.StatusPassed {
			b.Fatal(lr.Reason)
		}
		start = time.Now()
		if r := art.Run(context.Background()); r.Status != result.StatusPassed {
			b.Fatal(r.Reason)
		}
		run += time.Since(start)
		_ = art.Close()
	}
	b.ReportMetric(float64(build.Milliseconds())/float64(b.N), "build-ms/op")
	b.ReportMetric(float64(run.Milliseconds())/float64(b.N), "run-ms/op")
}

var _ eval.Artifact = (*artifact)(nil)
