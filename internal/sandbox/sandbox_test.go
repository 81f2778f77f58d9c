package sandbox

import (
	"context"
	"github.com/embedeval/embedeval-go/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func shell(t *testing.T, dir, script string, timeout time.Duration, maxOut int) Result {
	t.Helper()
	res, err := Unconfined().Run(context.Background(), Spec{Args: []string{"sh", "-c", script}, Dir: dir, Env: Env(dir, nil), Timeout: timeout, MaxOutput: maxOut})
	require.NoError(t, err)
	return res
}

func TestExitCodesAndOutput(t *testing.T) {
	dir := t.TempDir()
	res := shell(t, dir, "echo out; echo err >&2; exit 3", 5*time.Second, 0)
	require.Equal(t, 3, res.ExitCode)
	require.False(t, res.OK())
	require.Contains(t, string(res.Output), "out\n")
	require.Contains(t, string(res.Output), "err\n")

	res = shell(t, dir, "pwd", 5*time.Second, 0)
	require.True(t, res.OK())
	require.Equal(t, dir+"\n", string(res.Output), "the process runs in its workspace")
}

func TestMissingCommand(t *testing.T) {
	_, err := Unconfined().Run(context.Background(), Spec{Args: []string{"no-such-compiler-xyz"}, Env: Env(t.TempDir(), nil)})
	require.ErrorIs(t, err, ErrNotFound)
}

// TestTimeoutKillsTheWholeGroup starts a process that forks a grandchild
// which ignores SIGTERM; after the timeout neither may survive.
func TestTimeoutKillsTheWholeGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	start := time.Now()
	res := shell(t, dir, "sh -c 'trap \"\" TERM; echo $$ > "+pidFile+"; while :; do sleep 1; done' & wait", 300*time.Millisecond, 0)
	require.True(t, res.TimedOut)
	require.Less(t, time.Since(start), 5*time.Second)
	data, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		return syscall.Kill(pid, 0) == syscall.ESRCH
	}, 3*time.Second, 20*time.Millisecond, "the grandchild %d is gone", pid)
}

func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res, err := Unconfined().Run(ctx, Spec{Args: []string{"sleep", "30"}, Env: Env(t.TempDir(), nil)})
	require.NoError(t, err)
	require.True(t, res.Cancelled)
	require.False(t, res.OK())
}

func TestOutputIsCapped(t *testing.T) {
	dir := t.TempDir()
	// 8 MB of output into a 64 KiB cap: the head and the tail survive.
	res := shell(t, dir, "echo FIRST; head -c 8000000 /dev/zero | tr '\\0' x; echo; echo LAST", 20*time.Second, 64<<10)
	require.True(t, res.OK())
	require.True(t, res.Truncated)
	require.LessOrEqual(t, len(res.Output), 64<<10+64)
	require.True(t, strings.HasPrefix(string(res.Output), "FIRST\n"))
	require.True(t, strings.HasSuffix(string(res.Output), "LAST\n"))
}

func TestSecretsNeverReachTheProcess(t *testing.T) {
	for k, v := range map[string]string{
		"GITHUB_TOKEN": "ghs_secret", "OPENAI_API_KEY": "sk-secret", "ANTHROPIC_API_KEY": "sk-ant",
		"MY_SERVICE_TOKEN": "tok", "AWS_SECRET_ACCESS_KEY": "aws", "ZEPHYR_BASE": "/opt/zephyr",
	} {
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	env := Env(dir, []string{"ZEPHYR_BASE", "GITHUB_TOKEN", "MY_SERVICE_TOKEN"}, "IDF_TARGET=esp32", "NPM_TOKEN=x")
	res, err := Unconfined().Run(context.Background(), Spec{Args: []string{"env"}, Env: env, Dir: dir})
	require.NoError(t, err)
	out := string(res.Output)
	for _, secret := range []string{"ghs_secret", "sk-secret", "sk-ant", "tok", "aws", "NPM_TOKEN"} {
		require.NotContains(t, out, secret)
	}
	require.Contains(t, out, "ZEPHYR_BASE=/opt/zephyr\n", "allowlisted SDK variables pass")
	require.Contains(t, out, "IDF_TARGET=esp32\n")
	require.Contains(t, out, "HOME="+dir+"\n")
}

func TestSecretNotVisibleToCompiledProgram(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc is not installed; it compiles the probe program")
	}
	t.Setenv("GITHUB_TOKEN", "ghs_do_not_leak")
	t.Setenv("OPENAI_API_KEY", "sk-do-not-leak")
	ws, err := NewWorkspace("test")
	require.NoError(t, err)
	defer ws.Close()
	require.NoError(t, ws.WriteFile("probe.c", []byte("#include <stdio.h>\nextern char **environ;\nint main(void){for(char**e=environ;*e;e++)puts(*e);return 0;}\n")))
	env := Env(ws.Dir, nil)
	res, err := Unconfined().Run(context.Background(), Spec{Args: []string{gcc, "-o", "probe", "probe.c"}, Dir: ws.Dir, Env: env, Timeout: time.Minute})
	require.NoError(t, err)
	require.True(t, res.OK(), "%s", res.Output)
	res, err = Unconfined().Run(context.Background(), Spec{Args: []string{"./probe"}, Dir: ws.Dir, Env: env, Timeout: 10 * time.Second})
	require.NoError(t, err)
	require.True(t, res.OK())
	require.NotContains(t, string(res.Output), "leak")
	require.Contains(t, string(res.Output), "HOME="+ws.Dir)
}

func TestWorkspace(t *testing.T) {
	ws, err := NewWorkspace("t")
	require.NoError(t, err)
	require.NoError(t, ws.WriteFile("src/main.c", []byte("int x;")))
	_, err = ws.Path("../escape")
	require.EqualError(t, err, `path "../escape" leaves the workspace`)
	_, err = ws.Path("/etc/passwd")
	require.Error(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(ws.Dir, "ro/sub"), 0o755))
	require.NoError(t, os.Chmod(filepath.Join(ws.Dir, "ro"), 0o555))
	require.NoError(t, ws.Close())
	_, err = os.Stat(ws.Dir)
	require.True(t, os.IsNotExist(err), "the workspace is gone, read-only directories included")
}

func TestEnvIsSortedAndMinimal(t *testing.T) {
	t.Setenv("SOME_RANDOM_VAR", "x")
	env := Env("/ws", nil)
	require.IsIncreasing(t, env)
	for _, kv := range env {
		require.NotContains(t, kv, "SOME_RANDOM_VAR", "only allowlisted variables pass")
	}
}

func TestDigest(t *testing.T) {
	log := strings.Join([]string{
		"[1/42] Building C object zephyr/CMakeFiles/zephyr.dir/lib/os/printk.c.obj",
		"[2/42] Building C object CMakeFiles/app.dir/src/main.c.obj",
		"FAILED: CMakeFiles/app.dir/src/main.c.obj",
		"/ws/src/main.c: In function 'main':",
		"/ws/src/main.c:12:9: warning: unused variable 'x' [-Wunused-variable]",
		"/ws/src/main.c:17:5: error: implicit declaration of function 'k_sleep_ms' [-Werror=implicit-function-declaration]",
		"   17 |     k_sleep_ms(100);",
		"      |     ^~~~~~~~~~",
		"cc1: some warnings being treated as errors",
		"ninja: build stopped: subcommand failed.",
		"FATAL ERROR: command exited with status 1: /usr/bin/cmake --build /ws/build",
	}, "\n")
	require.Equal(t, strings.Join([]string{
		"/ws/src/main.c:17:5: error: implicit declaration of function 'k_sleep_ms' [-Werror=implicit-function-declaration]",
		"   17 |     k_sleep_ms(100);",
		"ninja: build stopped: subcommand failed.",
		"FATAL ERROR: command exited with status 1: /usr/bin/cmake --build /ws/build",
		"/ws/src/main.c:12:9: warning: unused variable 'x' [-Wunused-variable]",
		"...",
		"      |     ^~~~~~~~~~",
		"cc1: some warnings being treated as errors",
	}, "\n"), Digest(log, 20, 4))
	require.Equal(t, "a\nb", Digest("x\ny\na\nb\n", 10, 2), "no errors: just the tail")
	require.Len(t, strings.Split(Digest(log, 3, 4), "\n"), 3)
}

func TestStdinAndSeparateStderr(t *testing.T) {
	dir := t.TempDir()
	res, err := Unconfined().Run(context.Background(), Spec{Args: []string{"sh", "-c", "read a; echo got $a; echo oops >&2; cat"}, Dir: dir,
		Env: Env(dir, nil), Timeout: 5 * time.Second, Stdin: []byte("21.5\nrest\n"), SeparateStderr: true})
	require.NoError(t, err)
	require.True(t, res.OK())
	require.Equal(t, "got 21.5\nrest\n", string(res.Output), "stdin reaches the process; stdout alone in Output")
	require.Equal(t, "oops\n", string(res.Stderr))

	res = shell(t, dir, "cat; echo end", 5*time.Second, 0)
	require.Equal(t, "end\n", string(res.Output), "without Stdin the process reads end of file at once")
	require.Empty(t, res.Stderr, "without SeparateStderr both streams go to Output")
}

func TestUntilStopsTheRunOnceSatisfied(t *testing.T) {
	dir := t.TempDir()
	start := time.Now()
	res, err := Unconfined().Run(context.Background(), Spec{Args: []string{"sh", "-c", "echo boot; sleep 0.2; echo ready; while :; do sleep 1; done"}, Dir: dir,
		Env: Env(dir, nil), Timeout: 20 * time.Second, Until: func(out []byte) bool { return strings.Contains(string(out), "ready\n") }})
	require.NoError(t, err)
	require.True(t, res.Stopped)
	require.False(t, res.TimedOut)
	require.Equal(t, "boot\nready\n", string(res.Output))
	require.Less(t, time.Since(start), 15*time.Second, "stopped long before the timeout")

	res, err = Unconfined().Run(context.Background(), Spec{Args: []string{"sh", "-c", "echo boot"}, Dir: dir,
		Env: Env(dir, nil), Timeout: 5 * time.Second, Until: func(out []byte) bool { return strings.Contains(string(out), "ready") }})
	require.NoError(t, err)
	require.False(t, res.Stopped, "a predicate never satisfied does not stop the run")
	require.True(t, res.OK())
}

func TestStdinWhenHoldsInputBackUntilTheOutputSaysSo(t *testing.T) {
	bash := testenv.Tool(t, "bash", "bash", "the probe script reads with a timeout")
	dir := t.TempDir()
	script := "if read -r -t 0.3 a; then echo early $a; fi; echo ready; read -r b; echo got $b"
	run := func(when func([]byte) bool) string {
		res, err := Unconfined().Run(context.Background(), Spec{Args: []string{bash, "-c", script}, Dir: dir, Env: Env(dir, nil),
			Timeout: 10 * time.Second, Stdin: []byte("x\n"), StdinWhen: when})
		require.NoError(t, err)
		require.True(t, res.OK(), "%s", res.Output)
		return string(res.Output)
	}
	require.Equal(t, "early x\nready\ngot\n", run(nil), "without StdinWhen the input is there from the start")
	require.Equal(t, "ready\ngot x\n", run(func(out []byte) bool { return strings.Contains(string(out), "ready\n") }))

	// Never ready: the process sees no input and no end of file, and the
	// run ends at its timeout as usual.
	res, err := Unconfined().Run(context.Background(), Spec{Args: []string{"sh", "-c", "read a; echo got $a"}, Dir: dir, Env: Env(dir, nil),
		Timeout: 300 * time.Millisecond, Stdin: []byte("x\n"), StdinWhen: func([]byte) bool { return false }})
	require.NoError(t, err)
	require.True(t, res.TimedOut)
	require.Empty(t, res.Output)
}
