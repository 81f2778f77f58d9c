package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/toolchain/kbuild"
)

// legacyTree copies testdata/legacy (the Python implementation's flat
// layout: no sdk, a non-prefixed id, a check name in both modules, a kernel
// module without Kbuild) and points PYTHONPATH at the stand-in package.
func legacyTree(t *testing.T) string {
	t.Helper()
	usePythonStandIn(t)
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("testdata/legacy")))
	return dir
}

// kbuildCanBuild says whether this machine builds the fixture's 6.1 kernel
// module (make, gcc, 6.1 headers, a jail), and why not.
func kbuildCanBuild(t *testing.T, corpus string) (bool, string) {
	t.Helper()
	for _, tool := range []string{"make", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			return false, tool + " is not installed"
		}
	}
	c, ps := cases.Load(cases.Entry{Dir: filepath.Join(corpus, "linux-driver-001"), Name: "linux-driver-001", Layout: cases.LayoutFlat})
	require.Empty(t, ps)
	if _, err := kbuild.New().HeadersFor(c); err != nil {
		return false, err.Error()
	}
	if j := sandbox.Detect(context.Background(), sandbox.JailConfig{}); !j.Confined() {
		return false, "no jail: " + j.Describe()
	}
	return true, ""
}

// TestLegacyTreeRuns runs a tree in the Python implementation's flat layout
// through run, validate and the local pipeline unchanged, and checks that the
// same case in this project's layout is still held to this project's rules.
func TestLegacyTreeRuns(t *testing.T) {
	corpus := legacyTree(t)

	runDir := t.TempDir()
	code, out, errOut := runCLI(t, "run", "--cases", corpus, "--model", "reference", "--allow-python-checks",
		"--output-dir", runDir, "--run-id", "legacy")
	require.Equal(t, ExitOK, code, out+errOut)
	require.Contains(t, out, "2 results, 2 passed, 0 failed, 0 errors")
	require.Contains(t, errOut, `warning: id "acme-timer-001" does not start with its category "timer"`)
	results := readResults(t, filepath.Join(runDir, "runs", "legacy", "results.jsonl"))
	require.Len(t, results, 2)
	byID := map[string]result.EvalResult{}
	for _, r := range results {
		byID[r.CaseID] = r
		require.Equal(t, result.StatusPassed, r.Status, r.CaseID)
	}

	timer := byID["acme-timer-001"]
	require.Equal(t, []string{`sdk "zephyr" inferred from platform "native_sim" (metadata.yaml has no sdk field)`}, timer.Notes)
	names := func(layer int) []string {
		l, ok := timer.Layer(layer)
		require.True(t, ok)
		var out []string
		for _, d := range l.Details {
			out = append(out, d.CheckName)
		}
		return out
	}
	require.Equal(t, []string{"kernel_header", "timer_started"}, names(result.LayerStatic))
	require.Equal(t, []string{"timer_started", "period_500ms"}, names(result.LayerHeuristic), "the shared name is kept in each layer")
	l4, _ := timer.Layer(result.LayerMutation)
	require.Equal(t, result.StatusPassed, l4.Status)
	require.Equal(t, []string{"never_started/timer_started", "wrong_period/period_500ms"}, names(result.LayerMutation))

	module := byID["linux-driver-001"]
	require.Equal(t, []string{`sdk "embedded-linux" inferred from platform "docker_only" (metadata.yaml has no sdk field)`}, module.Notes)
	l1, _ := module.Layer(result.LayerCompile)
	if ok, why := kbuildCanBuild(t, corpus); ok {
		require.Equal(t, result.StatusPassed, l1.Status, "a module without Kbuild builds from src/main.c against 6.1 headers: %s", l1.Reason)
	} else {
		t.Logf("L1 of the kernel module not checked for a pass: %s", why)
		require.Equal(t, result.StatusSkipped, l1.Status, l1.Reason)
	}

	code, out, errOut = runCLI(t, "validate", "--cases", corpus, "--allow-python-checks")
	require.Equal(t, ExitOK, code, out+errOut)
	require.Contains(t, out, "2 cases: 2 ok, 0 failed; 0 errors, 7 warnings")
	for _, want := range []string{
		`acme-timer-001/metadata.yaml:1:5: warning: id "acme-timer-001" does not start with its category "timer"`,
		`acme-timer-001/metadata.yaml:1:1: warning: no sdk field: sdk "zephyr" taken from platform "native_sim"`,
		`acme-timer-001/checks/behavior.py: warning: check_name "timer_started" is also reported by static.py`,
		`acme-timer-001/checks/static.py:6:15: warning: 2 raw substring test(s) on the code argument, on line(s) 6, 10`,
	} {
		require.Contains(t, out, want)
	}

	dir := t.TempDir()
	code, out, errOut = runCLI(t, "pipeline", "--local", "--cases", corpus, "--model", "reference", "--output-dir", dir,
		"--layers", "L0,L3,L4", "--allow-python-checks")
	require.Equal(t, ExitOK, code, out+errOut)
	require.Contains(t, out, "2 results (0 errors, of which 0 infrastructure)")

	// The same case in this project's layout (cases/<sdk>/<id>/, sdk given):
	// the id prefix refuses it, and under a prefixed id the shared name and
	// the raw substring tests are errors.
	ours := t.TempDir()
	sdkCase := filepath.Join(ours, "zephyr", "acme-timer-001")
	require.NoError(t, os.CopyFS(sdkCase, os.DirFS(filepath.Join(corpus, "acme-timer-001"))))
	meta := filepath.Join(sdkCase, "metadata.yaml")
	raw, err := os.ReadFile(meta)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(meta, []byte(strings.Replace(string(raw), "platform: native_sim\n", "platform: native_sim\nsdk: zephyr\n", 1)), 0o644))
	code, out, _ = runCLI(t, "validate", "--cases", ours, "--allow-python-checks", "--layers", "L0,L3,L4")
	require.Equal(t, ExitFindings, code)
	require.Contains(t, out, `metadata.yaml:1:5: id "acme-timer-001" does not start with its category "timer" [metadata]`)

	renamed := filepath.Join(ours, "zephyr", "timer-001")
	require.NoError(t, os.Rename(sdkCase, renamed))
	raw, err = os.ReadFile(filepath.Join(renamed, "metadata.yaml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(renamed, "metadata.yaml"), []byte(strings.Replace(string(raw), "acme-timer-001", "timer-001", 1)), 0o644))
	code, out, _ = runCLI(t, "validate", "--cases", ours, "--allow-python-checks", "--layers", "L0,L3,L4")
	require.Equal(t, ExitFindings, code)
	require.Contains(t, out, `check_name "timer_started" is also returned by `)
	require.Contains(t, out, `timer-001/checks/static.py:6:15: raw substring test "in" on the code argument`)
	require.Contains(t, out, "3 errors, 0 warnings")
}
