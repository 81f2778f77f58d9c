package espidf

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

const caseDir = "../../../cases/esp-idf/storage-001"

func request(t testing.TB, c *cases.Case, code string) toolchain.Request {
	t.Helper()
	reg, err := platform.Default()
	require.NoError(t, err)
	tgt, ok := reg.Resolve(c)
	require.True(t, ok)
	require.Equal(t, "esp-idf", tgt.Backend)
	return toolchain.Request{Case: c, Code: code, Target: tgt, Board: tgt.Board(c), BuildTimeout: time.Minute, RunTimeout: time.Second, Jail: sandbox.Unconfined()}
}

// idfEnv sets what export.sh sets in the espressif/idf image.
func idfEnv(t testing.TB) map[string]string {
	idf := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(idf, "tools", "cmake"), 0o755))
	write(t, filepath.Join(idf, "tools", "cmake", "project.cmake"), "# stand-in\n")
	env := map[string]string{PathEnv: idf, "IDF_TOOLS_PATH": "/opt/esp", "IDF_PYTHON_ENV_PATH": "/opt/esp/python_env/idf5.3_py3.12_env"}
	for k, v := range env {
		t.Setenv(k, v)
	}
	return env
}

func TestChip(t *testing.T) {
	for _, tc := range []struct{ board, chip, err string }{
		{"esp32", "esp32", ""},
		{"ESP32-DevKitC", "esp32", ""},
		{"esp32s3", "esp32s3", ""},
		{"esp32s3-devkitc-1", "esp32s3", ""},
		{"esp32c3_devkitm", "esp32c3", ""},
		{"esp32-c3", "esp32", ""},
		{"esp8266", "", `esp-idf: board "esp8266" names no ESP-IDF target (esp32, esp32c2, esp32c3, esp32c5, esp32c6, esp32h2, esp32p4, esp32s2, esp32s3)`},
	} {
		chip, err := Chip(tc.board)
		if tc.err != "" {
			require.EqualError(t, err, tc.err)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tc.chip, chip, tc.board)
	}
}

func TestBundledCaseAgainstStandInIdfPy(t *testing.T) {
	idf := idfEnv(t)
	t.Setenv("GITHUB_TOKEN", "ghs_must_not_leak")
	t.Setenv("OPENAI_API_KEY", "sk-must-not-leak")
	c := loadCase(t, caseDir)
	paths := append([]string{c.ReferencePath}, c.AcceptPaths...)
	require.GreaterOrEqual(t, len(paths), 4, "the reference and its accepted variants (blind ones included)")
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			bin := standIn(t, "idf.py")
			path := bin + ":/usr/bin:/bin"
			code := read(t, p)
			lr, art := New(WithPath(path)).Build(context.Background(), request(t, c, code))
			require.Equal(t, result.StatusPassed, lr.Status, "%v", lr.Error)
			got := calls(t, bin)
			require.Len(t, got, 1)
			ws := got[0].cwd
			require.True(t, strings.HasPrefix(filepath.Base(ws), "embedeval-espidf-"), ws)
			require.Equal(t, []string{"idf.py", "-C", ws, "-B", ws + "/build", "build"}, got[0].argv)
			require.Equal(t, sandboxEnv(ws, merge(idf, map[string]string{"PATH": path, "IDF_TARGET": "esp32"})), got[0].env,
				"idf.py gets IDF_PATH, IDF_TOOLS_PATH, IDF_PYTHON_ENV_PATH, the target and no secret")
			require.Equal(t, "./CMakeLists.txt\n./main/CMakeLists.txt\n./main/main.c\n", read(t, filepath.Join(got[0].dir, "workspace")))
			require.Equal(t, code, read(t, filepath.Join(ws, CodePath)))
			run := art.Run(context.Background())
			require.Equal(t, result.StatusSkipped, run.Status, "never a pass without a run")
			require.NoError(t, art.Close())
			_, err := os.Stat(ws)
			require.True(t, os.IsNotExist(err), "Close removed the workspace")
		})
	}
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

func TestBoardSelectsTheTarget(t *testing.T) {
	idfEnv(t)
	c := loadCase(t, caseDir)
	bin := standIn(t, "idf.py")
	req := request(t, c, "void app_main(void) {}\n")
	req.Board = "esp32s3-devkitc-1"
	lr, art := New(WithPath(bin+":/usr/bin:/bin")).Build(context.Background(), req)
	require.Equal(t, result.StatusPassed, lr.Status)
	require.NoError(t, art.Close())
	require.Equal(t, "esp32s3", calls(t, bin)[0].env["IDF_TARGET"])

	req.Board = "rp2040"
	lr, art = New(WithPath(bin)).Build(context.Background(), req)
	require.Nil(t, art)
	require.Equal(t, result.StatusError, lr.Status, "a board without a chip is the case's problem, not the model's")
	require.Len(t, calls(t, bin), 1, "nothing ran")
}

func TestBuildLogDigestKeepsCompilerErrors(t *testing.T) {
	idfEnv(t)
	bin := standIn(t, "idf.py")
	write(t, filepath.Join(bin, "idf.py.log"), read(t, "testdata/logs/idf-build-error.log"))
	write(t, filepath.Join(bin, "idf.py.exit"), "2")
	c := loadCase(t, caseDir)
	lr, art := New(WithPath(bin+":/usr/bin:/bin")).Build(context.Background(), request(t, c, "broken"))
	require.Nil(t, art)
	require.Equal(t, result.StatusFailed, lr.Status)
	for _, l := range []string{
		"idf.py build failed (exit 2):",
		"/tmp/embedeval-espidf-4242/main/main.c:27:15: error: implicit declaration of function 'nvs_get_u32_or_default' [-Wimplicit-function-declaration]",
		"/tmp/embedeval-espidf-4242/main/main.c:41:9: error: too few arguments to function 'nvs_commit'",
		"ninja: build stopped: subcommand failed.",
		"ninja failed with exit code 1",
	} {
		require.Contains(t, lr.Reason, l)
	}
	_, err := os.Stat(calls(t, bin)[0].cwd)
	require.True(t, os.IsNotExist(err), "a failed build removes its workspace")
}

func TestOurErrorsAreNotModelFailures(t *testing.T) {
	idfEnv(t)
	c := loadCase(t, caseDir)
	lr, _ := New(WithPath(t.TempDir())).Build(context.Background(), request(t, c, "x"))
	require.Equal(t, result.StatusError, lr.Status)
	require.Contains(t, *lr.Error, "idf.py build: sandbox: idf.py: command not found")

	bin := standIn(t, "idf.py")
	write(t, filepath.Join(bin, "idf.py.hang"), "")
	req := request(t, c, "x")
	req.BuildTimeout = 300 * time.Millisecond
	lr, _ = New(WithPath(bin+":/usr/bin:/bin")).Build(context.Background(), req)
	require.Equal(t, result.StatusError, lr.Status)
	require.Equal(t, "idf.py build: timed out after 300ms", *lr.Error)
	requireGone(t, filepath.Join(bin, "idf.py.pid"))
}

func TestAvailable(t *testing.T) {
	var tgt platform.Target
	bin := standIn(t, "idf.py")
	idfEnv(t)
	require.Equal(t, toolchain.Availability{Build: true, Why: "esp-idf has no L2: no emulator runs ESP32 firmware here"}, New(WithPath(bin)).Available(tgt))
	empty := t.TempDir()
	t.Setenv(PathEnv, empty)
	require.Equal(t, toolchain.Availability{Why: "idf.py is not on PATH (source $IDF_PATH/export.sh; the espressif/idf image does); IDF_PATH=" + empty + " is not an ESP-IDF checkout (tools/cmake/project.cmake is missing)"},
		New(WithPath(t.TempDir())).Available(tgt))
	t.Setenv(PathEnv, "")
	require.Equal(t, toolchain.Availability{Why: "IDF_PATH is not set (the ESP-IDF checkout)"}, New(WithPath(bin)).Available(tgt))
}

// BenchmarkBuild measures the backend's own work around idf.py (staging,
// process start, the stand-in); real builds only happen in the ESP-IDF image.
func BenchmarkBuild(b *testing.B) {
	idfEnv(b)
	c := loadCase(b, caseDir)
	bin := standIn(b, "idf.py")
	req := request(b, c, read(b, c.ReferencePath))
	be := New(WithPath(bin + ":/usr/bin:/bin"))
	for b.Loop() {
		lr, art := be.Build(context.Background(), req)
		if lr.Status != result.StatusPassed {
			b.Fatal(lr.Reason)
		}
		_ = art.Close()
	}
}
