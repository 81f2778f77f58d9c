package pycheck_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/pycheck"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/testenv"
)

// hostileKey is in the evaluator's environment; no record or output of the
// hostile module may contain it.
const hostileKey = "sk-pycheck-hostile-4f1c9a"

// hostileSecret is the content of a secret file in a world-readable host
// directory outside the corpus.
const hostileSecret = "pycheck-hostile-secret-77d2"

// hostileEnv carries a hostileRun to the evaluator process.
const hostileEnv = "EMBEDEVAL_PYCHECK_HOSTILE_RUN"

// hostileModule reads every environment it can reach, the secret file, and
// writes outside its workspace (a drop directory and its own case); it
// imports the fixture package from PYTHONPATH like any check module. With
// @CRASH@ true it prints what it found to stderr and dies instead: the
// bridge quotes the worker's stderr in its error.
const hostileModule = `import glob, os, sys
from embedeval.models import CheckDetail


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except Exception as exc:
        return "error: %s" % type(exc).__name__


def _write(path):
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("pwned")
        return "written"
    except Exception as exc:
        return "error: %s" % exc


def run_checks(generated_code):
    seen = {
        "ppid_environ": _read("/proc/%d/environ" % os.getppid()),
        "all_environ": "\n".join(_read(p) for p in sorted(glob.glob("/proc/*/environ"))),
        "own_environ": _read("/proc/self/environ"),
        "secret": _read(@SECRET@),
        "write_drop": _write(@DROP@),
        "write_case": _write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "pwned")),
    }
    if @CRASH@:
        keys = [kv for kv in seen["all_environ"].replace("\0", "\n").splitlines() if "API_KEY" in kv]
        print("\n".join(keys + [seen["secret"]]), file=sys.stderr)
        os._exit(3)
    return [CheckDetail(check_name=k, passed=True, actual=v) for k, v in sorted(seen.items())]
`

// hostileRun is what the evaluator process is asked to do.
type hostileRun struct {
	Confined bool   `json:"confined"`
	Python   string `json:"python"`
	Corpus   string `json:"corpus"`
	Static   string `json:"static"`
	Behavior string `json:"behavior"`
	Out      string `json:"out"`
}

// hostileOutcome is what the evaluator process saw.
type hostileOutcome struct {
	Records    []result.CheckDetail `json:"records"`
	CrashError string               `json:"crash_error"`
}

// TestHostileCheckModule runs a check module that tries to read the
// evaluator's environment (its parent's /proc/<pid>/environ and every
// /proc/*/environ), a secret file outside the corpus, and to write outside
// its workspace. The evaluator is a child process started with a key in its
// environment (t.Setenv would not show in /proc/<pid>/environ, which holds
// the environment a process started with). Jailed, nothing leaks and no file
// appears; the same module unconfined reaches all of it, which shows the
// test can fail.
func TestHostileCheckModule(t *testing.T) {
	py := setupPython(t)
	if j := sandbox.Detect(context.Background(), sandbox.JailConfig{}); j.Mode() != sandbox.ModeBubblewrap || !j.Confined() {
		testenv.Missing(t, "no bubblewrap jail here (Debian package bubblewrap): "+j.Describe())
	}
	host := t.TempDir()
	require.NoError(t, os.Chmod(host, 0o755))
	secret := filepath.Join(host, "secret.txt")
	require.NoError(t, os.WriteFile(secret, []byte(hostileSecret+"\n"), 0o644))

	run := func(t *testing.T, confined bool) (hostileOutcome, string, string, string) {
		corpus := t.TempDir()
		checksDir := filepath.Join(corpus, "zephyr", "hostile-001", "checks")
		require.NoError(t, os.MkdirAll(checksDir, 0o755))
		drop := filepath.Join(host, fmt.Sprintf("drop-%v", confined), "pwned")
		quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
		write := func(name, crash string) string {
			src := strings.NewReplacer("@SECRET@", quote(secret), "@DROP@", quote(drop), "@CRASH@", crash).Replace(hostileModule)
			p := filepath.Join(checksDir, name)
			require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
			return p
		}
		static, behavior := write("static.py", "False"), write("behavior.py", "True")
		cfg := hostileRun{Confined: confined, Python: py, Corpus: corpus, Static: static, Behavior: behavior, Out: filepath.Join(t.TempDir(), "outcome.json")}
		raw, err := json.Marshal(cfg)
		require.NoError(t, err)
		cmd := exec.Command(os.Args[0], "-test.run=^TestHostileEvaluator$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), hostileEnv+"="+string(raw), "OPENAI_API_KEY="+hostileKey)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "the evaluator process failed: %s", redact(string(out)))
		data, err := os.ReadFile(cfg.Out)
		require.NoError(t, err)
		var o hostileOutcome
		require.NoError(t, json.Unmarshal(data, &o))
		return o, string(out), drop, filepath.Join(checksDir, "pwned")
	}
	seen := func(o hostileOutcome) map[string]string {
		m := map[string]string{}
		for _, d := range o.Records {
			if d.Actual != nil {
				m[d.CheckName] = *d.Actual
			}
		}
		return m
	}

	t.Run("jailed", func(t *testing.T) {
		o, out, drop, inCase := run(t, true)
		got := seen(o)
		require.Len(t, o.Records, 6, "the module ran and imported embedeval.models from PYTHONPATH")
		assert.Contains(t, got["own_environ"], "PYTHONPATH=", "the worker reads its own /proc: the reads below were attempted")
		everything := out + o.CrashError + string(must(json.Marshal(o.Records)))
		assert.False(t, strings.Contains(everything, hostileKey), "the evaluator's key reached the module's records or output")
		assert.False(t, strings.Contains(everything, hostileSecret), "the secret file reached the module's records or output")
		assert.Contains(t, o.CrashError, "exit status 3", "the crashing module's stderr is quoted")
		assert.NoFileExists(t, drop, "the module wrote outside its workspace")
		assert.NoFileExists(t, inCase, "the module wrote into its case")
		assert.Contains(t, got["write_case"], "Read-only file system")
	})
	t.Run("unconfined control", func(t *testing.T) {
		o, _, drop, inCase := run(t, false)
		got := seen(o)
		assert.True(t, strings.Contains(got["ppid_environ"], hostileKey), "unconfined, the module reads the evaluator's key")
		assert.True(t, strings.Contains(got["secret"], hostileSecret), "unconfined, the module reads the secret")
		assert.True(t, strings.Contains(o.CrashError, hostileKey), "unconfined, the crash output carries the key")
		assert.FileExists(t, drop)
		assert.FileExists(t, inCase)
	})
}

// TestHostileEvaluator is the evaluator process of TestHostileCheckModule;
// it does nothing on its own.
func TestHostileEvaluator(t *testing.T) {
	raw := os.Getenv(hostileEnv)
	if raw == "" {
		t.Skip("the evaluator process of TestHostileCheckModule")
	}
	var cfg hostileRun
	require.NoError(t, json.Unmarshal([]byte(raw), &cfg))
	jail := sandbox.Unconfined()
	if cfg.Confined {
		jail = sandbox.Detect(context.Background(), sandbox.JailConfig{Mode: string(sandbox.ModeBubblewrap)})
		require.True(t, jail.Confined(), jail.Describe())
	}
	ctx := context.Background()
	b := pycheck.New(pycheck.Options{Python: cfg.Python, Jail: jail, ReadOnly: []string{cfg.Corpus}})
	defer b.Close()
	require.Equal(t, cfg.Confined, b.Jailed())
	require.NoError(t, b.LoadChecks(ctx, cfg.Static))
	ds, err := b.RunChecks(ctx, cfg.Static, "int main(void) { return 0; }")
	require.NoError(t, err)
	require.NoError(t, b.LoadChecks(ctx, cfg.Behavior))
	_, crash := b.RunChecks(ctx, cfg.Behavior, "x")
	require.Error(t, crash)
	data, err := json.Marshal(hostileOutcome{Records: ds, CrashError: crash.Error()})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cfg.Out, data, 0o600))
}

// redact hides the key and the secret in a failure message.
func redact(s string) string {
	return strings.NewReplacer(hostileKey, "<key>", hostileSecret, "<secret>").Replace(s)
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
