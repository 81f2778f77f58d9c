package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/testenv"
)

// testSecret is put in the evaluator's environment by the hostile tests; no
// output of a jailed process may contain it.
const testSecret = "sk-embedeval-jail-test-7f3a9c"

// jails returns the confined jails this machine can give, each under its
// mode's name: bubblewrap always (its absence fails under
// EMBEDEVAL_REQUIRE_TOOLCHAINS), and the dedicated-uid fallback when the
// tests run as root.
func jails(t *testing.T, limits Limits) map[Mode]*Jail {
	t.Helper()
	testenv.Tool(t, "bwrap", "bubblewrap", "the jail runs untrusted processes under bubblewrap")
	testenv.Tool(t, "prlimit", "util-linux", "the jail sets resource limits with prlimit")
	out := map[Mode]*Jail{}
	j := Detect(context.Background(), JailConfig{Mode: "bubblewrap", Limits: limits})
	if j.Mode() != ModeBubblewrap {
		testenv.Missing(t, "bubblewrap cannot start a sandbox here: "+j.Describe())
	}
	out[ModeBubblewrap] = j
	if os.Geteuid() == 0 {
		u := Detect(context.Background(), JailConfig{Mode: "uid", Limits: limits})
		require.Equal(t, ModeUID, u.Mode(), u.Describe())
		out[ModeUID] = u
	}
	return out
}

// buildHostile compiles a C program inside the jail (proving the compiler
// works there) and returns its workspace.
func buildHostile(t *testing.T, j *Jail, src string) *Workspace {
	t.Helper()
	testenv.Tool(t, "gcc", "gcc", "the hostile programs are C")
	ws, err := NewWorkspace("hostile")
	require.NoError(t, err)
	t.Cleanup(func() { _ = ws.Close() })
	require.NoError(t, ws.WriteFile("main.c", []byte(src)))
	res, err := j.Run(context.Background(), Spec{Args: []string{"gcc", "-O1", "-o", "prog", "main.c"}, Dir: ws.Dir, Env: Env(ws.Dir, nil), Timeout: 2 * time.Minute})
	require.NoError(t, err)
	require.True(t, res.OK(), "gcc in the jail: %s", res.Output)
	return ws
}

func runProg(t *testing.T, j *Jail, ws *Workspace, timeout time.Duration, args ...string) Result {
	t.Helper()
	res, err := j.Run(context.Background(), Spec{Args: append([]string{"./prog"}, args...), Dir: ws.Dir, Env: Env(ws.Dir, nil), Timeout: timeout})
	require.NoError(t, err)
	require.NotContains(t, string(res.Output), testSecret, "a key of the evaluator's environment reached the jailed process")
	return res
}

// readerSrc tries to read each path listed in paths.txt and prints
// what it got. (The paths come from a file in the workspace, not the
// command line: a jail binds absolute paths named in the arguments, which a
// backend, not the answer, chooses.)
const readerSrc = `#include <stdio.h>
#include <string.h>
int main(void) {
	FILE *list = fopen("paths.txt", "r");
	char path[4096];
	while (list && fgets(path, sizeof path, list)) {
		path[strcspn(path, "\n")] = 0;
		FILE *f = fopen(path, "rb");
		if (!f) { printf("DENIED %s\n", path); continue; }
		char buf[4096]; size_t n = fread(buf, 1, sizeof buf - 1, f); fclose(f);
		for (size_t k = 0; k < n; k++) if (buf[k] == 0) buf[k] = '\n';
		buf[n] = 0;
		printf("READ %s\n%s\n", path, buf);
	}
	return 0;
}`

func TestJailHidesKeysAndHostFiles(t *testing.T) {
	// /proc/<pid>/environ shows the environment a process was started
	// with: a decoy started with the key stands for the evaluator of a
	// workflow step, which gets its keys that way.
	decoy := exec.Command("sleep", "60")
	decoy.Env = []string{"EMBEDEVAL_JAILTEST_API_KEY=" + testSecret}
	require.NoError(t, decoy.Start())
	t.Cleanup(func() { _ = decoy.Process.Kill(); _ = decoy.Wait() })
	decoyEnviron := "/proc/" + strconv.Itoa(decoy.Process.Pid) + "/environ"
	// A host file only the evaluator should see, in a directory others may
	// traverse (as a repository or a home directory often is).
	hostDir := filepath.Join(os.TempDir(), "embedeval-jailtest-host")
	require.NoError(t, os.MkdirAll(hostDir, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(hostDir) })
	private := filepath.Join(hostDir, "private.txt")
	require.NoError(t, os.WriteFile(private, []byte(testSecret), 0o600))
	home, _ := os.UserHomeDir()
	wd, err := os.Getwd()
	require.NoError(t, err)
	repoFile := filepath.Join(wd, "jail.go")

	for mode, j := range jails(t, Limits{}) {
		t.Run(string(mode), func(t *testing.T) {
			ws := buildHostile(t, j, readerSrc)
			paths := []string{
				decoyEnviron, "/proc/self/environ", "/proc/1/environ",
				"/proc/" + strconv.Itoa(os.Getpid()) + "/environ", "/proc/" + strconv.Itoa(os.Getppid()) + "/environ",
				private, filepath.Join(home, ".bash_history"), repoFile,
			}
			require.NoError(t, ws.WriteFile("paths.txt", []byte(strings.Join(paths, "\n")+"\n")))
			res := runProg(t, j, ws, 20*time.Second)
			require.True(t, res.OK(), "%s", res.Output)
			out := string(res.Output)
			require.NotContains(t, out, "EMBEDEVAL_JAILTEST")
			require.Contains(t, out, "DENIED "+decoyEnviron, "the decoy's environment is readable")
			require.Contains(t, out, "DENIED "+private, "a private host file is readable")
			if mode == ModeBubblewrap {
				// Nothing of the host but the system trees is visible.
				require.Contains(t, out, "DENIED "+repoFile, "the repository is visible in the jail")
				require.NotContains(t, out, "READ /proc/"+strconv.Itoa(os.Getpid()))
			}
		})
	}
}

// TestHostileReaderWorksUnconfined is the control of the test above: the
// same program, run without a jail, does read the decoy's key, so the
// jailed runs' denials are the jail's doing.
func TestHostileReaderWorksUnconfined(t *testing.T) {
	testenv.Tool(t, "gcc", "gcc", "the hostile programs are C")
	decoy := exec.Command("sleep", "60")
	decoy.Env = []string{"EMBEDEVAL_JAILTEST_API_KEY=" + testSecret}
	require.NoError(t, decoy.Start())
	t.Cleanup(func() { _ = decoy.Process.Kill(); _ = decoy.Wait() })
	ws := buildHostile(t, Unconfined(), readerSrc)
	require.NoError(t, ws.WriteFile("paths.txt", []byte("/proc/"+strconv.Itoa(decoy.Process.Pid)+"/environ\n")))
	res, err := Unconfined().Run(context.Background(), Spec{Args: []string{"./prog"}, Dir: ws.Dir, Env: Env(ws.Dir, nil), Timeout: 20 * time.Second})
	require.NoError(t, err)
	require.Contains(t, string(res.Output), "EMBEDEVAL_JAILTEST_API_KEY="+testSecret)
}

func TestJailWritesOnlyTheWorkspace(t *testing.T) {
	const writerSrc = `#include <stdio.h>
int main(int argc, char **argv) {
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "w");
		printf("%s %s\n", f ? "WROTE" : "DENIED", argv[i]);
		if (f) fclose(f);
	}
	return 0;
}`
	outside := filepath.Join(t.TempDir(), "pwned")
	wd, err := os.Getwd()
	require.NoError(t, err)
	inRepo := filepath.Join(wd, "pwned-by-jail-test")
	for mode, j := range jails(t, Limits{}) {
		t.Run(string(mode), func(t *testing.T) {
			ws := buildHostile(t, j, writerSrc)
			res := runProg(t, j, ws, 20*time.Second, outside, inRepo, "/usr/pwned", "inside.txt")
			require.True(t, res.OK(), "%s", res.Output)
			require.Contains(t, string(res.Output), "WROTE inside.txt")
			require.NoFileExists(t, outside)
			require.NoFileExists(t, inRepo)
			require.NoFileExists(t, "/usr/pwned")
			require.FileExists(t, filepath.Join(ws.Dir, "inside.txt"))
		})
	}
}

// TestJailKillsEscapedDescendants: a program that leaves its process group
// and session (setsid) through a double fork and keeps writing must stop
// when the run ends.
func TestJailKillsEscapedDescendants(t *testing.T) {
	const escapeSrc = `#include <stdio.h>
#include <unistd.h>
#include <fcntl.h>
int main(void) {
	if (fork() == 0) {
		setsid();
		if (fork() == 0) {
			for (;;) {
				int fd = open("marker", O_WRONLY | O_CREAT | O_APPEND, 0644);
				if (fd >= 0) { write(fd, "x", 1); close(fd); }
				usleep(20000);
			}
		}
		_exit(0);
	}
	usleep(200000);
	puts("parent done");
	return 0;
}`
	for mode, j := range jails(t, Limits{}) {
		t.Run(string(mode), func(t *testing.T) {
			ws := buildHostile(t, j, escapeSrc)
			res := runProg(t, j, ws, 20*time.Second)
			require.True(t, res.OK(), "%s", res.Output)
			marker := filepath.Join(ws.Dir, "marker")
			first, err := os.Stat(marker)
			require.NoError(t, err, "the escapee ran")
			time.Sleep(500 * time.Millisecond)
			second, err := os.Stat(marker)
			require.NoError(t, err)
			require.Equal(t, first.Size(), second.Size(), "a descendant outlived the run")
		})
	}
}

func TestJailContainsForkAndMemoryBombs(t *testing.T) {
	const forkBomb = `#include <unistd.h>
#include <stdio.h>
int main(void) {
	int made = 0, failed = 0;
	for (int i = 0; i < 100000 && !failed; i++) {
		pid_t pid = fork();
		if (pid == 0) { for (;;) pause(); }
		if (pid < 0) failed = 1; else made++;
	}
	printf("fork failures %d after %d\n", failed, made);
	fflush(stdout);
	for (;;) pause();
}`
	const memBomb = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
	size_t total = 0;
	for (int i = 0; i < 512; i++) {
		char *p = malloc(64u << 20);
		if (!p) { printf("malloc failed after %zu MiB\n", total >> 20); return 3; }
		memset(p, 1, 64u << 20);
		total += 64u << 20;
	}
	printf("allocated %zu MiB\n", total >> 20);
	return 0;
}`
	limits := Limits{Memory: 1 << 30, Processes: 64}
	for mode, j := range jails(t, limits) {
		t.Run(string(mode)+"/fork", func(t *testing.T) {
			ws := buildHostile(t, j, forkBomb)
			start := time.Now()
			res := runProg(t, j, ws, 3*time.Second)
			require.True(t, res.TimedOut)
			require.Less(t, time.Since(start), 60*time.Second)
			if os.Geteuid() == 0 {
				require.Contains(t, string(res.Output), "fork failures 1", "the process limit stopped the bomb")
			}
			// The machine still runs the next jailed process.
			ok := runProg(t, j, buildHostile(t, j, "int main(void){return 0;}"), 20*time.Second)
			require.True(t, ok.OK(), "%s", ok.Output)
		})
		t.Run(string(mode)+"/memory", func(t *testing.T) {
			ws := buildHostile(t, j, memBomb)
			res := runProg(t, j, ws, 60*time.Second)
			require.False(t, res.OK())
			require.Contains(t, string(res.Output), "malloc failed after")
		})
	}
}

func TestJailBoundsFilesAndDisk(t *testing.T) {
	const bigFile = `#include <stdio.h>
#include <string.h>
#include <signal.h>
int main(int argc, char **argv) {
	signal(SIGXFSZ, SIG_IGN);
	static char buf[1 << 20]; memset(buf, 'a', sizeof buf);
	int files = argc > 1 ? 64 : 1;
	for (int f = 0; f < files; f++) {
		char name[32]; snprintf(name, sizeof name, "big%d", f);
		FILE *out = fopen(name, "w");
		if (!out) { printf("open failed\n"); return 2; }
		for (int i = 0; i < 1024; i++) {
			if (fwrite(buf, 1, sizeof buf, out) != sizeof buf || fflush(out) != 0) { printf("write refused at %d MiB of %s\n", i, name); break; }
		}
		fclose(out);
	}
	return 0;
}`
	limits := Limits{FileSize: 16 << 20, Disk: 48 << 20}
	for mode, j := range jails(t, limits) {
		t.Run(string(mode)+"/file", func(t *testing.T) {
			ws := buildHostile(t, j, bigFile)
			res := runProg(t, j, ws, 60*time.Second)
			require.Contains(t, string(res.Output), "write refused at 16 MiB of big0")
			st, err := os.Stat(filepath.Join(ws.Dir, "big0"))
			require.NoError(t, err)
			require.LessOrEqual(t, st.Size(), int64(16<<20))
		})
		t.Run(string(mode)+"/disk", func(t *testing.T) {
			ws := buildHostile(t, j, bigFile)
			res := runProg(t, j, ws, 60*time.Second, "many")
			require.Equal(t, "workspace disk use exceeded the limit of 48 MiB", res.Limit, "%s", res.Output)
			require.False(t, res.OK())
		})
	}
}

func TestDetectWithoutAnyJail(t *testing.T) {
	empty := t.TempDir()
	j := Detect(context.Background(), JailConfig{Path: empty})
	require.Equal(t, ModeNone, j.Mode())
	ok, why := j.Usable()
	require.False(t, ok)
	require.Contains(t, why, "prlimit is not installed")
	require.Contains(t, why, "--allow-unjailed")
	_, err := j.Run(context.Background(), Spec{Args: []string{"true"}, Dir: empty, Env: Env(empty, nil)})
	require.ErrorIs(t, err, ErrNoJail)

	allowed := Detect(context.Background(), JailConfig{Path: empty, AllowUnjailed: true})
	ok, _ = allowed.Usable()
	require.True(t, ok)
	require.False(t, allowed.Confined())
	require.False(t, allowed.MayRunSemihosting())
	require.Contains(t, allowed.Describe(), "UNCONFINED")

	// Unconfined, nothing runs while a key is in the environment: a
	// process of the same user could read it from /proc.
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); IsSecretName(k) {
			t.Setenv(k, "")
		}
	}
	res, err := allowed.Run(context.Background(), Spec{Args: []string{"true"}, Dir: empty, Env: Env(empty, nil)})
	require.NoError(t, err)
	require.True(t, res.OK())
	t.Setenv("OPENAI_API_KEY", testSecret)
	_, err = allowed.Run(context.Background(), Spec{Args: []string{"true"}, Dir: empty, Env: Env(empty, nil)})
	require.ErrorIs(t, err, ErrNoJail)
	require.ErrorContains(t, err, "credential variables are set (OPENAI_API_KEY)")
}

func TestReadOnlyPathsFromEnvAndArgs(t *testing.T) {
	sdk := t.TempDir()
	sub := filepath.Join(sdk, "include")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	ws := t.TempDir()
	got, _ := readOnlyPathsAndAliases(Spec{
		Env:  []string{"HOME=" + ws, "ZEPHYR_BASE=" + sdk, "PATH=/usr/bin:" + sub},
		Args: []string{"make", "-C", sub, "KERNEL=" + sdk, "M=" + ws, "/nonexistent/x"},
	}, ws)
	real, err := filepath.EvalSymlinks(sdk)
	require.NoError(t, err)
	require.Equal(t, []string{real, "/usr/bin"}, slices.Sorted(slices.Values(got)))
}

// TestSymlinkedPathsWorkInTheJail: an SDK named through a symlink
// (ZEPHYR_BASE=/opt/zephyr -> zephyr-4.1) is reachable by the name given.
func TestSymlinkedPathsWorkInTheJail(t *testing.T) {
	for mode, j := range jails(t, Limits{}) {
		t.Run(string(mode), func(t *testing.T) {
			base, err := os.MkdirTemp("", "embedeval-jail-sdk-")
			require.NoError(t, err)
			t.Cleanup(func() { _ = os.RemoveAll(base) })
			require.NoError(t, os.Chmod(base, 0o755))
			real := filepath.Join(base, "sdk-1.2")
			require.NoError(t, os.Mkdir(real, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(real, "version.txt"), []byte("sdk 1.2\n"), 0o644))
			link := filepath.Join(base, "sdk")
			require.NoError(t, os.Symlink("sdk-1.2", link))
			ws, err := NewWorkspace("symlink")
			require.NoError(t, err)
			t.Cleanup(func() { _ = ws.Close() })
			res, err := j.Run(context.Background(), Spec{Args: []string{"cat", link + "/version.txt"}, Dir: ws.Dir, Env: Env(ws.Dir, nil, "SDK_BASE="+link), Timeout: 20 * time.Second})
			require.NoError(t, err)
			require.True(t, res.OK(), "%s", res.Output)
			require.Equal(t, "sdk 1.2\n", string(res.Output))
		})
	}
}

// TestDetectProbesTheRunsUID: a $TMPDIR the run's uid cannot traverse makes
// every confined mode fail its probe, so doctor says so before any run.
func TestDetectProbesTheRunsUID(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("dedicated uids need root; as another user a closed TMPDIR is still the user's own")
	}
	jails(t, Limits{}) // requires the tools
	closed := t.TempDir()
	require.NoError(t, os.Chmod(closed, 0o700))
	t.Setenv("TMPDIR", closed)
	j := Detect(context.Background(), JailConfig{})
	require.Equal(t, ModeNone, j.Mode(), j.Describe())
	require.Contains(t, j.Describe(), "bubblewrap probe")
	require.Contains(t, j.Describe(), "dedicated uid: uid probe")
}

// TestJailPassesStdinAndKeepsStderrApart runs the scenario features through
// every jail this machine has: the jail must not swallow standard input or
// merge the streams.
func TestJailPassesStdinAndKeepsStderrApart(t *testing.T) {
	for mode, j := range jails(t, DefaultLimits()) {
		t.Run(string(mode), func(t *testing.T) {
			ws, err := NewWorkspace("stdin")
			require.NoError(t, err)
			defer ws.Close()
			res, err := j.Run(context.Background(), Spec{Args: []string{"sh", "-c", "read a; echo got $a; echo bad >&2; exit 1"}, Dir: ws.Dir,
				Env: Env(ws.Dir, nil), Timeout: 10 * time.Second, Stdin: []byte("x\n"), SeparateStderr: true})
			require.NoError(t, err)
			require.Equal(t, 1, res.ExitCode)
			require.Equal(t, "got x\n", string(res.Output))
			require.Equal(t, "bad\n", string(res.Stderr))

			res, err = j.Run(context.Background(), Spec{Args: []string{"sh", "-c", "echo ready; read a; echo got $a"}, Dir: ws.Dir,
				Env: Env(ws.Dir, nil), Timeout: 10 * time.Second, Stdin: []byte("y\n"),
				StdinWhen: func(out []byte) bool { return strings.Contains(string(out), "ready") }})
			require.NoError(t, err)
			require.Equal(t, "ready\ngot y\n", string(res.Output), "input held back until the banner reaches the jailed process")
		})
	}
}
