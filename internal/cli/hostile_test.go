package cli

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/testenv"
)

// hostileKey is put in the evaluator's environment; no output of any
// evaluation may contain it.
const hostileKey = "sk-ant-hostile-suite-0d5e1b"

// hostileSetup holds what the hostile answers aim at: a secret file in a
// world-readable host directory (as a home directory or a checkout often
// is), a world-writable drop directory outside every workspace, and the
// repository itself.
type hostileSetup struct {
	secretFile, dropDir, repoFile, homeFile string
}

// hostileChildEnv marks the re-executed test process that holds the key in
// the environment it was started with.
const hostileChildEnv = "EMBEDEVAL_HOSTILE_SUITE_CHILD"

// inKeyedProcess re-executes the running test in a child process started
// with the key in its environment and reports whether the caller is that
// child. /proc/<pid>/environ shows the environment a process was started
// with, not later setenv calls: only a process started with the key
// exposes it there, as the evaluator of a workflow step does.
func inKeyedProcess(t *testing.T) bool {
	t.Helper()
	if os.Getenv(hostileChildEnv) == "1" {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^"+t.Name()+"$", "-test.v", "-test.count=1")
	// The evaluator's home holds a credential file, as a developer's does.
	home, err := os.MkdirTemp("", "embedeval-hostile-home-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(home) })
	require.NoError(t, os.Chmod(home, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".netrc"), []byte("machine api.example password "+hostileKey+"\n"), 0o644))
	cmd.Env = append(os.Environ(), hostileChildEnv+"=1", "ANTHROPIC_API_KEY="+hostileKey, "GITHUB_TOKEN="+hostileKey, "HOME="+home)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the suite in the keyed process failed:\n%s", out)
	if strings.Contains(string(out), "--- SKIP: "+t.Name()) {
		t.Skipf("skipped in the keyed process:\n%s", out)
	}
	require.Contains(t, string(out), "--- PASS: "+t.Name(), "%s", out)
	return false
}

func newHostileSetup(t *testing.T) hostileSetup {
	t.Helper()
	testenv.Tool(t, "bwrap", "bubblewrap", "the hostile answers are contained by the jail")
	testenv.Tool(t, "gcc", "gcc", "the userspace answers are built on the host")
	testenv.Tool(t, "arm-none-eabi-gcc", "gcc-arm-none-eabi libnewlib-arm-none-eabi", "the semihosting answer is bare-metal firmware")
	testenv.Tool(t, "qemu-system-arm", "qemu-system-arm", "the semihosting answer runs on QEMU")
	require.Equal(t, hostileKey, os.Getenv("ANTHROPIC_API_KEY"), "the suite runs in a process started with the key")

	host, err := os.MkdirTemp("", "embedeval-hostile-host-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(host) })
	require.NoError(t, os.Chmod(host, 0o755))
	secret := filepath.Join(host, "secret.txt")
	require.NoError(t, os.WriteFile(secret, []byte(hostileKey+"\n"), 0o644))
	drop := filepath.Join(host, "drop")
	require.NoError(t, os.Mkdir(drop, 0o777))
	require.NoError(t, os.Chmod(drop, 0o777))
	repo, err := filepath.Abs("../../go.mod")
	require.NoError(t, err)
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	return hostileSetup{secretFile: secret, dropDir: drop, repoFile: repo, homeFile: filepath.Join(home, ".netrc")}
}

// answer writes a hostile answer from testdata/hostile with its
// placeholders filled in.
func (h hostileSetup) answer(t *testing.T, text string, extra ...string) string {
	t.Helper()
	r := strings.NewReplacer(append([]string{"@SECRET_FILE@", h.secretFile, "@DROP_DIR@", h.dropDir, "@REPO_FILE@", h.repoFile, "@HOME_FILE@", h.homeFile}, extra...)...)
	path := filepath.Join(t.TempDir(), "answer.c")
	require.NoError(t, os.WriteFile(path, []byte(r.Replace(text)), 0o644))
	return path
}

func readHostile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "hostile", name))
	require.NoError(t, err)
	return string(data)
}

// evaluateHostile runs `embedeval evaluate` on one answer with L1 and L2
// and checks what every hostile answer must never achieve: a key or the
// secret file's content in any output, a file outside the workspace.
func (h hostileSetup) evaluateHostile(t *testing.T, caseID, answer string) (int, string) {
	t.Helper()
	return h.evaluateHostileFor(t, caseID, answer, 5*time.Second)
}

func (h hostileSetup) evaluateHostileFor(t *testing.T, caseID, answer string, runTimeout time.Duration) (int, string) {
	t.Helper()
	start := time.Now()
	code, out, errOut := runCLI(t, "evaluate", "--cases", bundledCorpus, "--case", caseID, "--layers", "L1,L2", "--json", "--run-timeout", runTimeout.String(), answer)
	all := out + errOut
	// Bounded by the run timeout plus a generous build allowance: a loaded
	// 2-core runner builds slowly, and the point is that it ends at all.
	require.Less(t, time.Since(start), runTimeout+3*time.Minute, "the evaluation was not bounded")
	require.NotContains(t, all, hostileKey, "a key or the secret file reached the output")
	require.NotContains(t, all, "module github.com/embedeval", "the repository reached the output")
	require.NoFileExists(t, filepath.Join(h.dropDir, "dropped.txt"), "the answer wrote outside its workspace")
	require.NoFileExists(t, filepath.Join(h.dropDir, "system.txt"), "semihosting ran a host command")
	var rec struct {
		Layers []struct {
			Name, Status, Reason string
		} `json:"layers"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rec), all)
	require.Len(t, rec.Layers, 5)
	require.NotEqual(t, "skipped", rec.Layers[1].Status, "L1 was not run: %s", rec.Layers[1].Reason)
	if rec.Layers[1].Status == "passed" {
		require.NotEqual(t, "skipped", rec.Layers[2].Status, "L2 was not run: %s", rec.Layers[2].Reason)
	}
	return code, rec.Layers[1].Status + " / " + rec.Layers[2].Status + ": " + rec.Layers[1].Reason + " / " + rec.Layers[2].Reason
}

// TestHostileAnswersAreContained is the suite of hostile answers,
// evaluated through the evaluate command with the jail auto-detection the
// command uses: each is contained, none reaches a key, a host file or
// anything outside its workspace, and none outlives its run.
func TestHostileAnswersAreContained(t *testing.T) {
	if !inKeyedProcess(t) {
		return
	}
	h := newHostileSetup(t)
	const userspace = "linux-userspace-004"

	// The program's output does not reach the results: these two answers
	// report by their exit status whether anything was in reach (42) or
	// everything was refused (7).
	t.Run("proc-environ", func(t *testing.T) {
		_, out := h.evaluateHostile(t, userspace, h.answer(t, readHostile(t, "proc_environ.c")))
		require.Contains(t, out, "exited with status 7", "a process environment holding the key was readable")
	})
	t.Run("host-files", func(t *testing.T) {
		_, out := h.evaluateHostile(t, userspace, h.answer(t, readHostile(t, "host_files.c")))
		require.Contains(t, out, "exited with status 7", "a host file was readable or writable")
	})
	t.Run("include-host-file", func(t *testing.T) {
		_, out := h.evaluateHostile(t, userspace, h.answer(t, readHostile(t, "include_host.c")))
		require.True(t, strings.HasPrefix(out, "failed"), "the host file is not there to include: %s", out)
	})
	t.Run("setsid-double-fork", func(t *testing.T) {
		var raw [4]byte
		_, err := rand.Read(raw[:])
		require.NoError(t, err)
		name := "esc" + hex.EncodeToString(raw[:])
		h.evaluateHostile(t, userspace, h.answer(t, readHostile(t, "escape.c"), "@NAME@", name))
		require.Empty(t, processesNamed(name), "a descendant outlived the run")
	})
	t.Run("fork-bomb", func(t *testing.T) {
		h.evaluateHostile(t, userspace, h.answer(t, readHostile(t, "fork_bomb.c")))
	})
	t.Run("memory-bomb", func(t *testing.T) {
		// A long run timeout: touching 4 GiB takes seconds on a loaded
		// runner, and the point is that the limit, not the clock, stops it.
		_, out := h.evaluateHostileFor(t, userspace, h.answer(t, readHostile(t, "memory_bomb.c")), 2*time.Minute)
		require.Contains(t, out, "exited with status 1", "malloc failed (its only way out): the memory limit stopped it")
	})
	t.Run("1GiB-file", func(t *testing.T) {
		h.evaluateHostile(t, userspace, h.answer(t, readHostile(t, "big_file.c")))
	})
	t.Run("semihosting", func(t *testing.T) {
		ref, err := os.ReadFile(filepath.Join(bundledCorpus, "baremetal", "timer-001", "reference", "main.c"))
		require.NoError(t, err)
		_, out := h.evaluateHostile(t, "timer-001", h.answer(t, string(ref)+readHostile(t, "semihosting.c.tail")))
		require.Equal(t, "passed / passed: built by baremetal for mps2-an385 (target baremetal-cortex-m) / ran baremetal for mps2-an385 (target baremetal-cortex-m)", out,
			"the firmware ran, its constructor included (and its host calls went nowhere)")
	})

	// After all of that, an honest answer still builds, runs and passes.
	code, out, errOut := runCLI(t, "evaluate", "--cases", bundledCorpus, "--case", userspace, "--layers", "L1,L2")
	require.Equal(t, ExitOK, code, out+errOut)
}

// processesNamed lists the /proc entries whose command name is name: the
// host's /proc shows the processes of every PID namespace.
func processesNamed(name string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		comm, err := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		if err == nil && strings.TrimSpace(string(comm)) == name {
			out = append(out, e.Name())
		}
	}
	return out
}
