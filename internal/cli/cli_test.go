package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const badCorpus = "../validate/testdata/bad/cases"

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(NewRootCommand(&out, &errOut), args)
	return code, out.String(), errOut.String()
}

func TestHelpOnEveryCommand(t *testing.T) {
	root := NewRootCommand(&bytes.Buffer{}, &bytes.Buffer{})
	for _, c := range root.Commands() {
		if c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		code, out, _ := runCLI(t, c.Name(), "--help")
		require.Equal(t, ExitOK, code, c.Name())
		require.Contains(t, out, "Usage:", c.Name())
		require.NotEmpty(t, c.Short, c.Name())
	}
	code, out, _ := runCLI(t, "--help")
	require.Equal(t, ExitOK, code)
	require.Contains(t, out, "Exit codes: 0 ok, 1 findings")
}

func TestExitCodes(t *testing.T) {
	code, out, _ := runCLI(t, "validate", "--cases", badCorpus, "--case", "timer-001")
	require.Equal(t, ExitOK, code, out)
	require.Contains(t, out, "1 cases: 1 ok, 0 failed")

	code, out, errOut := runCLI(t, "validate", "--cases", badCorpus, "--case", "timer-001,timer-016")
	require.Equal(t, ExitFindings, code)
	require.Contains(t, out, `must_fail check "timer_started" still passes on the mutated reference`)
	require.Equal(t, "embedeval: 1 of 2 cases failed validation\n", errOut)

	code, _, errOut = runCLI(t, "validate", "--no-such-flag")
	require.Equal(t, ExitUsage, code)
	require.Equal(t, "embedeval: unknown flag: --no-such-flag\n", errOut)

	code, _, errOut = runCLI(t, "validate", "--cases", badCorpus, "--layers", "L9")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, errOut, `unknown layer "L9"`)

	code, _, errOut = runCLI(t, "list", "--cases", badCorpus, "--difficulty", "trivial")
	require.Equal(t, ExitUsage, code)
	require.Equal(t, "embedeval: --difficulty: \"trivial\" is not one of [easy medium hard]\n", errOut)

	code, _, _ = runCLI(t, "frobnicate")
	require.Equal(t, ExitUsage, code)

	code, _, errOut = runCLI(t, "shard", "--cases", badCorpus, "--max-jobs", "300", "--plan", filepath.Join(t.TempDir(), "plan.json"))
	require.Equal(t, ExitUsage, code)
	require.Contains(t, errOut, "embedeval: --max-jobs must be between 1 and 256 (GitHub's matrix limit), got 300\n")
}

func TestListAndCategories(t *testing.T) {
	code, out, errOut := runCLI(t, "list", "--cases", badCorpus, "--case", "timer-001,timer-016")
	require.Equal(t, ExitFindings, code, "broken cases in the corpus make list exit 1")
	require.Contains(t, errOut, `timer-002/metadata.yaml:5: invalid YAML`)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4)
	require.Regexp(t, `^timer-001\s+zephyr\s+timer\s+easy\s+core\s+native_sim\s+native_sim\s+public\s+starlark\s+Periodic timer$`, lines[1])
	require.Equal(t, "2 cases", lines[3])

	_, out, _ = runCLI(t, "categories", "--cases", badCorpus)
	require.Contains(t, out, "| timer | 15 | 0 | 0 | 15 |\n")
	require.Contains(t, out, "| **total** | 15 | 0 | 0 | 15 |\n")
}

func TestRunReference(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "run", "--cases", badCorpus, "--case", "timer-001", "--model", "reference", "--samples", "2", "--output-dir", dir, "--run-id", "r1")
	require.Equal(t, ExitOK, code, errOut)
	require.Contains(t, out, "reference: 2 results, 2 passed, 0 failed, 0 errors; pass rate 100.0% of 2 judged")
	require.Contains(t, out, "layers (passed/ran): L0 2/2, L1 not run, L2 not run, L3 2/2, L4 2/2")
	require.FileExists(t, filepath.Join(dir, "runs", "r1", "results.jsonl"))

	code, _, errOut = runCLI(t, "run", "--cases", badCorpus, "--model", "gpt-9")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, errOut, `unknown model spec "gpt-9"`)
	require.Contains(t, errOut, "openai:<model>", "the error lists the specs")
}

func TestReportIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := runCLI(t, "run", "--cases", badCorpus, "--case", "timer-001,timer-019", "--model", "reference", "--samples", "2", "--output-dir", dir, "--run-id", "r1")
	require.Equal(t, ExitOK, code, errOut)
	for _, f := range []string{"runs/r1/summary.json", "runs/r1/per_check_metrics.json", "LEADERBOARD.md", "LEADERBOARD_PER_CHECK.md"} {
		require.FileExists(t, filepath.Join(dir, filepath.FromSlash(f)))
	}
	read := func() []string {
		var out []string
		for _, f := range []string{"runs/r1/summary.json", "runs/r1/per_check_metrics.json", "LEADERBOARD.md", "LEADERBOARD_PER_CHECK.md"} {
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
			require.NoError(t, err)
			out = append(out, string(data))
		}
		return out
	}
	code, out, errOut := runCLI(t, "report", "--cases", badCorpus, "--results", dir, "--run-id", "r1")
	require.Equal(t, ExitOK, code, errOut)
	require.Contains(t, out, "LEADERBOARD.md")
	first := read()
	code, _, _ = runCLI(t, "report", "--cases", badCorpus, "--results", dir, "--run-id", "r1")
	require.Equal(t, ExitOK, code)
	require.Equal(t, first, read(), "the same results give byte-identical reports")
	require.Contains(t, first[2], "| reference | 50.0% |", "one of the two cases fails for the reference (timer-019's reference fails L3)")

	// The seed's run-level fields: the run's date from run.json, its model,
	// and the results.
	var summary struct {
		RunTimestamp string `json:"run_timestamp"`
		Model        string `json:"model"`
		TotalResults int    `json:"total_results"`
		Passed       int    `json:"passed"`
		Failed       int    `json:"failed"`
	}
	require.NoError(t, json.Unmarshal([]byte(first[0]), &summary))
	man, err := os.ReadFile(filepath.Join(dir, "runs", "r1", "run.json"))
	require.NoError(t, err)
	var started struct {
		StartedAt time.Time `json:"started_at"`
	}
	require.NoError(t, json.Unmarshal(man, &started))
	require.Equal(t, started.StartedAt.UTC().Format(time.DateOnly), summary.RunTimestamp)
	require.Equal(t, "reference", summary.Model)
	require.Equal(t, 4, summary.TotalResults)
	require.Equal(t, 2, summary.Passed)
	require.Equal(t, 2, summary.Failed)

	// Without --run-id: the latest run, named on stderr, same files.
	code, _, errOut = runCLI(t, "report", "--cases", badCorpus, "--results", dir)
	require.Equal(t, ExitOK, code, errOut)
	require.Contains(t, errOut, "no --run-id: reporting the latest run, r1 (started ")
	require.Equal(t, first, read())
	code, _, errOut = runCLI(t, "run", "--cases", badCorpus, "--case", "timer-001", "--model", "reference", "--output-dir", dir, "--run-id", "r2")
	require.Equal(t, ExitOK, code, errOut)
	code, _, errOut = runCLI(t, "report", "--cases", badCorpus, "--results", dir)
	require.Equal(t, ExitOK, code, errOut)
	require.Contains(t, errOut, "reporting the latest run, r2 (started ", "r2 started last (or in the same second, and sorts after r1)")
	require.FileExists(t, filepath.Join(dir, "runs", "r2", "summary.json"))

	// report keeps the settings the run recorded: a run at temperature 0.5
	// is not rewritten as a run at 0.
	code, _, errOut = runCLI(t, "run", "--cases", badCorpus, "--case", "timer-001", "--model", "reference", "--output-dir", dir, "--run-id", "r3", "--temperature", "0.5")
	require.Equal(t, ExitOK, code, errOut)
	temperature := func() float64 {
		data, err := os.ReadFile(filepath.Join(dir, "runs", "r3", "summary.json"))
		require.NoError(t, err)
		var s struct {
			Temperature float64 `json:"temperature"`
		}
		require.NoError(t, json.Unmarshal(data, &s))
		return s.Temperature
	}
	require.Equal(t, 0.5, temperature())
	code, _, errOut = runCLI(t, "report", "--cases", badCorpus, "--results", dir, "--run-id", "r3")
	require.Equal(t, ExitOK, code, errOut)
	require.Equal(t, 0.5, temperature(), "report keeps the run's recorded temperature")

	code, _, errOut = runCLI(t, "report", "--cases", badCorpus, "--results", t.TempDir())
	require.Equal(t, ExitUsage, code)
	require.Contains(t, errOut, "no run to report under ")
	require.Contains(t, errOut, "pass --run-id")
}

func TestAnalysisCommandsPoolEveryRun(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"r1", "r2"} {
		code, _, errOut := runCLI(t, "run", "--cases", badCorpus, "--case", "timer-001,timer-019", "--model", "reference", "--model", "mock", "--output-dir", dir, "--run-id", id)
		require.Equal(t, ExitOK, code, errOut)
	}
	for cmd, file := range map[string]string{"guide": "SAFE_GUIDE.md", "calibrate": "calibration.json", "ablation": "runs/all/ablation.md"} {
		code, out, errOut := runCLI(t, cmd, "--cases", badCorpus, "--results", dir)
		require.Equal(t, ExitOK, code, "%s: %s", cmd, errOut)
		require.Contains(t, out, filepath.Join(dir, filepath.FromSlash(file)))
		require.FileExists(t, filepath.Join(dir, filepath.FromSlash(file)))
	}
	guide, err := os.ReadFile(filepath.Join(dir, "SAFE_GUIDE.md"))
	require.NoError(t, err)
	require.Contains(t, string(guide), "| timer | Critical | 25.0% |", "two runs pooled: 2 of 8 samples pass (the reference passes timer-001 in both runs; mock nothing)")
	require.Contains(t, string(guide), "| 4 | 8 |")

	code, _, errOut := runCLI(t, "guide", "--cases", badCorpus, "--results", t.TempDir())
	require.Equal(t, ExitUsage, code)
	require.Contains(t, errOut, "no runs under")
}

func TestEvaluateCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "evaluate", "--cases", bundledCorpus, "--case", "timer-001", "--layers", "L0,L3,L4")
	require.Equal(t, ExitOK, code, out+errOut)
	require.Contains(t, out, "timer-001 on reference: PASSED")
	require.Contains(t, out, "    ok   reload_value_1ms  expected: SysTick reload = 25 MHz / 1 kHz - 1 = 24999  actual: reload register values: 24999")
	require.Contains(t, out, "applied  reload_off_by_one: reload_value_1ms caught")

	// A wrong answer from a file: the failing checks are shown, exit 1.
	wrong := filepath.Join(t.TempDir(), "main.c")
	require.NoError(t, os.WriteFile(wrong, []byte("#include <stdio.h>\nint main(void)\n{\n\tprintf(\"tick ok\\n\");\n\treturn 0;\n}\n"), 0o644))
	code, out, _ = runCLI(t, "evaluate", "--cases", bundledCorpus, "--case", "timer-001", "--layers", "L0,L3,L4", wrong)
	require.Equal(t, ExitFindings, code)
	require.Contains(t, out, "timer-001 on "+wrong+": FAILED")
	require.Contains(t, out, "    FAIL systick_handler_defined")
	require.Contains(t, out, "L3 heuristic: skipped (halted: L0 static failed)")

	code, out, _ = runCLI(t, "evaluate", "--cases", bundledCorpus, "--case", "timer-001", "--layers", "L0", "--json")
	require.Equal(t, ExitOK, code)
	require.Contains(t, out, `"case_id": "timer-001"`)

	code, _, errOut = runCLI(t, "evaluate", "--cases", bundledCorpus, "--layers", "L0")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, errOut, "give exactly one case with --case")
	code, _, errOut = runCLI(t, "evaluate", "--cases", bundledCorpus, "--case", "no-such-001")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, errOut, "case no-such-001 not found")
}

func TestDoctorProbesThePythonBridge(t *testing.T) {
	code, out, errOut := runCLI(t, "doctor", "--python", filepath.Join(t.TempDir(), "no-python"))
	require.Equal(t, ExitOK, code, errOut)
	require.Contains(t, out, "baremetal-cortex-m")
	require.Contains(t, out, "python checks (--allow-python-checks): unavailable: ")
	require.Contains(t, out, "cannot start the Python check worker")
}

func TestEvaluateShowsInconclusiveChecks(t *testing.T) {
	code, out, errOut := runCLI(t, "evaluate", "--cases", "../validate/testdata/inconclusive/cases", "--case", "timer-001", "--layers", "L0,L3,L4")
	require.Equal(t, ExitOK, code, out+errOut)
	require.Contains(t, out, "L3 heuristic: passed (1 check inconclusive)")
	require.Contains(t, out, "    n/a  period_in_range  expected: 10..1000 ms  actual: 1 period(s) unknown")
	require.Contains(t, out, "applied  sleep_via_pointer: sleep_called MISSED (inconclusive on the mutant)")
}
