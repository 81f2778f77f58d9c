package zephyr

import (
	"context"
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
	"github.com/embedeval/embedeval-go/internal/toolchain"
)

const casesRoot = "../../../cases/zephyr/"

// zephyrEnv sets the SDK variables the image would, and returns them.
func zephyrEnv(t testing.TB) map[string]string {
	base := t.TempDir()
	write(t, filepath.Join(base, "VERSION"), "VERSION_MAJOR = 4\nVERSION_MINOR = 1\n")
	env := map[string]string{BaseEnv: base, "ZEPHYR_SDK_INSTALL_DIR": "/opt/toolchains/zephyr-sdk-0.17.0", "ZEPHYR_TOOLCHAIN_VARIANT": "zephyr"}
	for k, v := range env {
		t.Setenv(k, v)
	}
	return env
}

// request targets the zephyr backend whatever the registry routes the case
// to (devicetree overlays go to the dtc backend there).
func request(t testing.TB, c *cases.Case, code, board string) toolchain.Request {
	t.Helper()
	reg, err := platform.Default()
	require.NoError(t, err)
	var tgt platform.Target
	for _, x := range reg.Targets {
		if x.Name == "zephyr" {
			tgt = x
		}
	}
	require.Equal(t, "zephyr", tgt.Backend)
	if board == "" {
		board = tgt.Board(c)
	}
	return toolchain.Request{Case: c, Code: code, Target: tgt, Board: board, BuildTimeout: time.Minute, RunTimeout: 300 * time.Millisecond, CanRun: true, Jail: sandbox.Unconfined()}
}

func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// TestBundledCasesAgainstStandInWest builds every bundled Zephyr reference
// and accepted variant with the stand-in west, checks where the answer was
// staged, the exact west command line, cwd and environment, then runs the
// native_sim program (the stand-in firmware printing the expected lines).
func TestBundledCasesAgainstStandInWest(t *testing.T) {
	sdk := zephyrEnv(t)
	t.Setenv("GITHUB_TOKEN", "ghs_must_not_leak")
	t.Setenv("OPENAI_API_KEY", "sk-must-not-leak")
	for _, tc := range []struct {
		dir, codePath string
		workspace     string
	}{
		{"gpio-basic-001", "src/main.c", "./CMakeLists.txt\n./boards/native_sim.overlay\n./prj.conf\n./src/main.c\n"},
		{"kconfig-001", "prj.conf", "./CMakeLists.txt\n./prj.conf\n./src/main.c\n"},
		{"device-tree-001", "app.overlay", "./CMakeLists.txt\n./app.overlay\n./prj.conf\n./src/main.c\n"},
	} {
		c := loadCase(t, casesRoot+tc.dir)
		for _, p := range append([]string{c.ReferencePath}, c.AcceptPaths...) {
			t.Run(tc.dir+"/"+filepath.Base(p), func(t *testing.T) {
				bin := standIn(t, "west", "firmware")
				path := bin + ":/usr/bin:/bin"
				expected, err := toolchain.ExpectedOutput(c)
				require.NoError(t, err)
				write(t, filepath.Join(bin, "firmware.log"), "*** Booting Zephyr OS build v4.1.0 ***\n"+strings.Join(expected, "\n")+"\n")
				write(t, filepath.Join(bin, "firmware.hang"), "")
				code := read(t, p)
				lr, art := New(WithPath(path)).Build(context.Background(), request(t, c, code, ""))
				require.Equal(t, result.StatusPassed, lr.Status, "%v", lr.Error)
				defer func() { require.NoError(t, art.Close()) }()

				got := calls(t, bin)
				require.Len(t, got, 1)
				ws := got[0].cwd
				require.True(t, strings.HasPrefix(filepath.Base(ws), "embedeval-zephyr-"), ws)
				require.Equal(t, []string{"west", "build", "-b", "native_sim", "-d", "build", "-p", "always", ws}, got[0].argv)
				require.Equal(t, sandboxEnv(ws, merge(sdk, map[string]string{"PATH": path})), got[0].env, "west gets the SDK variables and no secret")
				require.Equal(t, tc.workspace, read(t, filepath.Join(got[0].dir, "workspace")))
				require.Equal(t, code, read(t, filepath.Join(ws, tc.codePath)), "the answer replaces the case's file")

				run := art.Run(context.Background())
				require.Equal(t, result.StatusPassed, run.Status, "%s", run.Reason)
				got = calls(t, bin)
				require.Len(t, got, 2)
				require.Equal(t, []string{"firmware"}, got[1].argv, "zephyr.exe runs without arguments")
				require.Equal(t, ws, got[1].cwd)
				require.Equal(t, sandboxEnv(ws, map[string]string{"PATH": path}), got[1].env, "the program gets neither secrets nor SDK variables")
				requireGone(t, filepath.Join(bin, "firmware.pid"))
			})
		}
	}
}

func TestDevicetreeAnswerNextToBoardOverlay(t *testing.T) {
	zephyrEnv(t)
	c := loadCase(t, casesRoot+"gpio-basic-001") // ships boards/native_sim.overlay
	cc := *c
	cc.ReferencePath = filepath.Join(c.Dir, "reference", "app.overlay")
	for _, tc := range []struct{ board, want string }{
		{"native_sim", "-DEXTRA_DTC_OVERLAY_FILE="},
		{"native_sim/native/64", "-DEXTRA_DTC_OVERLAY_FILE="},
		{"qemu_cortex_m3", ""},
	} {
		bin := standIn(t, "west")
		lr, art := New(WithPath(bin+":/usr/bin:/bin")).Build(context.Background(), request(t, &cc, "/ { };\n", tc.board))
		require.Equal(t, result.StatusPassed, lr.Status)
		cl := calls(t, bin)[0]
		want := []string{"west", "build", "-b", tc.board, "-d", "build", "-p", "always", cl.cwd}
		if tc.want != "" {
			want = append(want, "--", tc.want+cl.cwd+"/app.overlay")
		}
		require.Equal(t, want, cl.argv, tc.board)
		require.NoError(t, art.Close())
	}
}

func TestQEMUBoardRunsThroughWest(t *testing.T) {
	sdk := zephyrEnv(t)
	t.Setenv("GITHUB_TOKEN", "ghs_must_not_leak")
	c := loadCase(t, casesRoot+"gpio-basic-001")
	bin := standIn(t, "west", "firmware")
	path := bin + ":/usr/bin:/bin"
	write(t, filepath.Join(bin, "firmware.log"), "*** Booting Zephyr OS build v4.1.0 ***\nbutton counter ready\n")
	write(t, filepath.Join(bin, "firmware.hang"), "")
	lr, art := New(WithPath(path)).Build(context.Background(), request(t, c, read(t, c.ReferencePath), "qemu_cortex_m3"))
	require.Equal(t, result.StatusPassed, lr.Status)
	defer art.Close()
	run := art.Run(context.Background())
	require.Equal(t, result.StatusPassed, run.Status, "%s", run.Reason)
	got := calls(t, bin)
	require.Len(t, got, 3)
	ws := got[0].cwd
	require.Equal(t, []string{"west", "build", "-b", "qemu_cortex_m3", "-d", "build", "-p", "always", ws}, got[0].argv)
	require.Equal(t, []string{"west", "build", "-d", "build", "-t", "run"}, got[1].argv)
	require.Equal(t, ws, got[1].cwd)
	require.Equal(t, sandboxEnv(ws, merge(sdk, map[string]string{"PATH": path})), got[1].env)
	requireGone(t, filepath.Join(bin, "firmware.pid"))
}

func TestRunVerdicts(t *testing.T) {
	zephyrEnv(t)
	c := loadCase(t, casesRoot+"gpio-basic-001")
	for _, tc := range []struct {
		name, log, exit string
		hang            bool
		status          result.Status
		reason          string
	}{
		{"stopped at the timeout", "button counter ready\n", "", true, result.StatusPassed, ""},
		{"expected line missing", "*** Booting Zephyr OS build v4.1.0 ***\n", "", true, result.StatusFailed, "hung: still running at the 300ms run timeout without the expected output; expected output missing: button counter ready"},
		{"fatal error", "button counter ready\n[00:00:00.010,000] <err> os: >>> ZEPHYR FATAL ERROR 0: CPU exception on CPU 0\n", "", true, result.StatusFailed, `output contains ">>> ZEPHYR FATAL ERROR"`},
		{"exits non-zero", "button counter ready\n", "3", false, result.StatusFailed, "exited with status 3"},
		{"exits cleanly", "button counter ready\n", "0", false, result.StatusPassed, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := standIn(t, "west", "firmware")
			write(t, filepath.Join(bin, "firmware.log"), tc.log)
			if tc.hang {
				write(t, filepath.Join(bin, "firmware.hang"), "")
			}
			if tc.exit != "" {
				write(t, filepath.Join(bin, "firmware.exit"), tc.exit)
			}
			lr, art := New(WithPath(bin+":/usr/bin:/bin")).Build(context.Background(), request(t, c, "int main(void){return 0;}", ""))
			require.Equal(t, result.StatusPassed, lr.Status)
			defer art.Close()
			start := time.Now()
			run := art.Run(context.Background())
			require.Less(t, time.Since(start), 4*time.Second)
			require.Equal(t, tc.status, run.Status)
			require.Equal(t, tc.reason, run.Reason)
			if tc.hang {
				requireGone(t, filepath.Join(bin, "firmware.pid"))
			}
		})
	}
}

func TestBuildLogDigests(t *testing.T) {
	zephyrEnv(t)
	for _, tc := range []struct {
		log, caseDir string
		want         []string
	}{
		{"west-ninja-gcc.log", "gpio-basic-001", []string{
			"west build failed (exit 1):",
			"/tmp/embedeval-zephyr-1234/src/main.c:21:9: error: too few arguments to function 'gpio_pin_toggle_dt'",
			"   21 |         gpio_pin_toggle_dt();",
			"ninja: build stopped: subcommand failed.",
			"FATAL ERROR: command exited with status 1: /usr/bin/cmake --build /tmp/embedeval-zephyr-1234/build",
			"/tmp/embedeval-zephyr-1234/src/main.c:35:13: warning: unused variable 'ret' [-Wunused-variable]",
		}},
		{"west-kconfig.log", "kconfig-001", []string{
			"CMake Error at /workdir/zephyr/cmake/modules/kconfig.cmake:396 (message):",
			"/tmp/embedeval-zephyr-5678/prj.conf:9: warning: attempt to assign the value 'y' to the undefined symbol I2C_DUMP_MESSAGE",
			"FATAL ERROR: command exited with status 1:",
		}},
	} {
		t.Run(tc.log, func(t *testing.T) {
			bin := standIn(t, "west")
			write(t, filepath.Join(bin, "west.log"), read(t, "testdata/logs/"+tc.log))
			write(t, filepath.Join(bin, "west.exit"), "1")
			c := loadCase(t, casesRoot+tc.caseDir)
			lr, art := New(WithPath(bin+":/usr/bin:/bin")).Build(context.Background(), request(t, c, "x", ""))
			require.Nil(t, art)
			require.Equal(t, result.StatusFailed, lr.Status)
			for _, l := range tc.want {
				require.Contains(t, lr.Reason, l)
			}
			_, err := os.Stat(calls(t, bin)[0].cwd)
			require.True(t, os.IsNotExist(err), "a failed build removes its workspace")
		})
	}
}

func TestOurErrorsAreNotModelFailures(t *testing.T) {
	zephyrEnv(t)
	c := loadCase(t, casesRoot+"gpio-basic-001")

	lr, art := New(WithPath(t.TempDir())).Build(context.Background(), request(t, c, "x", ""))
	require.Nil(t, art)
	require.Equal(t, result.StatusError, lr.Status)
	require.Contains(t, *lr.Error, "west build: sandbox: west: command not found")

	bin := standIn(t, "west")
	write(t, filepath.Join(bin, "west.hang"), "")
	req := request(t, c, "x", "")
	req.BuildTimeout = 300 * time.Millisecond
	lr, _ = New(WithPath(bin+":/usr/bin:/bin")).Build(context.Background(), req)
	require.Equal(t, result.StatusError, lr.Status)
	require.Equal(t, "west build: timed out after 300ms", *lr.Error)
	requireGone(t, filepath.Join(bin, "west.pid"))

	// A build that reports success but leaves no program.
	bin = standIn(t, "west")
	write(t, filepath.Join(bin, "west.post"), "")
	lr, art = New(WithPath(bin+":/usr/bin:/bin")).Build(context.Background(), request(t, c, "x", ""))
	require.Equal(t, result.StatusPassed, lr.Status)
	run := art.Run(context.Background())
	require.Equal(t, result.StatusError, run.Status)
	require.Equal(t, "zephyr: west build succeeded but left no build/zephyr/zephyr.exe", *run.Error)
	require.NoError(t, art.Close())

	udev := *c
	udev.ReferencePath = "reference/99-x.rules"
	lr, _ = New().Build(context.Background(), request(t, &udev, "x", ""))
	require.Equal(t, result.StatusError, lr.Status)
	require.Equal(t, "zephyr: no place in a Zephyr application for a udev answer", *lr.Error)
}

func TestAvailable(t *testing.T) {
	var tgt platform.Target
	bin := standIn(t, "west")
	zephyrEnv(t)
	require.Equal(t, toolchain.Availability{Build: true, Run: true}, New(WithPath(bin)).Available(tgt))
	require.Equal(t, toolchain.Availability{Why: "west is not installed (pip package west; the Zephyr CI image has it)"}, New(WithPath(t.TempDir())).Available(tgt))
	empty := t.TempDir()
	t.Setenv(BaseEnv, empty)
	require.Equal(t, toolchain.Availability{Why: "ZEPHYR_BASE=" + empty + " is not a Zephyr tree (no VERSION file)"}, New(WithPath(bin)).Available(tgt))
	t.Setenv(BaseEnv, "")
	require.Equal(t, toolchain.Availability{Why: "ZEPHYR_BASE is not set (the Zephyr tree of a west workspace)"}, New(WithPath(bin)).Available(tgt))
}

// BenchmarkBuildAndRun measures the backend's own work around west (staging,
// process start, the stand-in's build and a 200 ms native_sim run); real
// west builds only happen in the Zephyr image.
func BenchmarkBuildAndRun(b *testing.B) {
	zephyrEnv(b)
	c := loadCase(b, casesRoot+"gpio-basic-001")
	bin := standIn(b, "west", "firmware")
	write(b, filepath.Join(bin, "firmware.log"), "button counter ready\n")
	write(b, filepath.Join(bin, "firmware.hang"), "")
	req := request(b, c, read(b, c.ReferencePath), "")
	req.RunTimeout = 200 * time.Millisecond
	be := New(WithPath(bin + ":/usr/bin:/bin"))
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
	b.ReportMetric(float64(build.Microseconds())/1000/float64(b.N), "build-ms/op")
	b.ReportMetric(float64(run.Microseconds())/1000/float64(b.N), "run-ms/op")
}
