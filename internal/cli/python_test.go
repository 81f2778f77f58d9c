package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/pipeline"
	"github.com/embedeval/embedeval-go/internal/testenv"
)

// usePythonStandIn skips without python3 and points PYTHONPATH at the
// stand-in of the Python implementation's package.
func usePythonStandIn(t *testing.T) {
	t.Helper()
	testenv.Tool(t, "python3", "python3", "the Python check bridge runs CPython")
	pyimpl, err := filepath.Abs("../pycheck/testdata/pyimpl")
	require.NoError(t, err)
	t.Setenv("PYTHONPATH", pyimpl)
}

// mixedCorpus builds a corpus holding the Python bridge's fixture cases
// (checks/*.py) next to a bundled Starlark case, and points PYTHONPATH at the
// stand-in of the Python implementation's package.
func mixedCorpus(t *testing.T) string {
	t.Helper()
	usePythonStandIn(t)
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("../pycheck/testdata/corpus")))
	require.NoError(t, os.CopyFS(filepath.Join(dir, "zephyr", "kconfig-002"), os.DirFS(filepath.Join(bundledCorpus, "zephyr", "kconfig-002"))))
	return dir
}

// TestMixedTreeThroughThePipeline runs a corpus of .star and .py cases through
// list, validate, run and the whole local pipeline (shard, every shard in its
// shard, merge) with --allow-python-checks, and checks that each command
// refuses the Python cases clearly without it.
func TestMixedTreeThroughThePipeline(t *testing.T) {
	corpus := mixedCorpus(t)

	code, out, errOut := runCLI(t, "list", "--cases", corpus)
	require.Equal(t, ExitOK, code, errOut)
	for _, want := range []string{"gpio-basic-001 ", "kconfig-001 ", "kconfig-002 "} {
		line := lineWith(out, want)
		require.NotEmpty(t, line, want)
		backend := "python"
		if want == "kconfig-002 " {
			backend = "starlark"
		}
		require.Contains(t, strings.Fields(line), backend, line)
	}

	code, out, _ = runCLI(t, "validate", "--cases", corpus, "--layers", "L0,L3,L4")
	require.Equal(t, ExitFindings, code)
	require.Contains(t, out, "only loaded with --allow-python-checks")
	require.Contains(t, out, "ok    kconfig-002", "the Starlark case still validates")
	code, out, errOut = runCLI(t, "validate", "--cases", corpus, "--layers", "L0,L3,L4", "--allow-python-checks")
	require.Equal(t, ExitOK, code, out+errOut)
	require.Contains(t, out, "3 cases: 3 ok, 0 failed; 0 errors")
	require.Contains(t, out, "L4 coverage 7/7  variants 1/1")

	code, _, errOut = runCLI(t, "run", "--cases", corpus, "--model", "reference", "--output-dir", t.TempDir())
	require.Equal(t, ExitUsage, code)
	require.Contains(t, errOut, "2 selected case(s) have Python check modules")
	require.Contains(t, errOut, "gpio-basic-001, kconfig-001")
	runDir := t.TempDir()
	code, out, errOut = runCLI(t, "run", "--cases", corpus, "--model", "reference", "--output-dir", runDir, "--layers", "L0,L3,L4", "--allow-python-checks", "--run-id", "py")
	require.Equal(t, ExitOK, code, out+errOut)
	require.Contains(t, out, "3 results, 3 passed")
	assertParityScript(t, corpus, filepath.Join(runDir, "runs", "py", "results.jsonl"))

	code, _, errOut = runCLI(t, "evaluate", "--cases", corpus, "--case", "kconfig-001", "--layers", "L0,L3,L4")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, errOut, "--allow-python-checks")
	code, out, errOut = runCLI(t, "evaluate", "--cases", corpus, "--case", "kconfig-001", "--layers", "L0,L3,L4", "--allow-python-checks")
	require.Equal(t, ExitOK, code, out+errOut)
	require.Contains(t, out, "    ok   config_i2c_enabled  expected: CONFIG_I2C=y  actual: CONFIG_I2C=y")
	require.Contains(t, out, "applied  i2c_as_module: config_i2c_enabled caught, log_level_warning missed (should_fail)")

	dir := t.TempDir()
	code, _, errOut = runCLI(t, "pipeline", "--local", "--cases", corpus, "--model", "reference", "--output-dir", dir, "--layers", "L0,L3,L4")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, errOut, "--allow-python-checks")
	code, out, errOut = runCLI(t, "pipeline", "--local", "--cases", corpus, "--model", "reference", "--output-dir", dir,
		"--layers", "L0,L3,L4", "--allow-python-checks")
	require.Equal(t, ExitOK, code, out+errOut)
	require.Contains(t, out, "3 results (0 errors, of which 0 infrastructure)")
	p, err := pipeline.ReadPlan(filepath.Join(dir, "plan.json"))
	require.NoError(t, err)
	results := readResults(t, filepath.Join(dir, "results", "runs", pipeline.DefaultRunID(p), "results.jsonl"))
	require.Len(t, results, 3)
	for _, r := range results {
		require.Equal(t, "passed", string(r.Status), r.CaseID)
		l4, ok := r.Layer(4)
		require.True(t, ok)
		require.Equal(t, "passed", string(l4.Status), r.CaseID)
		require.NotEmpty(t, l4.Details, r.CaseID)
	}
}

func lineWith(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// assertParityScript runs scripts/pycheck_parity.py compare on a run's
// results: the bridge's records equal in-process evaluation; a tampered
// record is reported with its line.
func assertParityScript(t *testing.T, corpus, results string) {
	t.Helper()
	script := filepath.Join("..", "..", "scripts", "pycheck_parity.py")
	out, err := exec.Command("python3", "-B", script, "compare", "--cases", corpus, results).CombinedOutput()
	require.NoError(t, err, string(out))
	require.Contains(t, string(out), "2 results of .py cases compared, 0 differ")

	raw, err := os.ReadFile(results)
	require.NoError(t, err)
	var lines []string
	tampered := false
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if !tampered && strings.Contains(l, `"case_id":"kconfig-001"`) {
			l = strings.Replace(l, `"check_name":"config_i2c_enabled","passed":true`, `"check_name":"config_i2c_enabled","passed":false`, 1)
			tampered = true
		}
		lines = append(lines, l)
	}
	require.True(t, tampered)
	bad := filepath.Join(t.TempDir(), "results.jsonl")
	require.NoError(t, os.WriteFile(bad, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	out, err = exec.Command("python3", "-B", script, "compare", "--cases", corpus, bad).CombinedOutput()
	require.Error(t, err)
	require.Contains(t, string(out), "kconfig-001 #1: L0 check records differ")
	require.Contains(t, string(out), "2 results of .py cases compared, 1 differ")
}
