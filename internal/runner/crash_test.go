package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/result"
)

// TestKillAndResume builds the embedeval binary, kills a run with SIGKILL
// after some results are written, adds a torn line as a crash in mid-write
// would, and resumes it with the same --run-id: every (case, sample) ends up
// exactly once, nothing written before the kill is redone or changed.
func TestKillAndResume(t *testing.T) {
	tmp, bin, corpus := binaryAndCorpus(t)
	outDir := filepath.Join(tmp, "results")
	ids := []string{"timer-001", "kconfig-001", "gpio-basic-001", "device-tree-001", "threading-001"}
	const samples = 10
	total := len(ids) * samples
	args := []string{"run", "--cases", corpus, "--case", strings.Join(ids, ","), "--model", "reference",
		"--samples", fmt.Sprint(samples), "--jobs", "1", "--output-dir", outDir, "--run-id", "crash"}
	results := filepath.Join(outDir, "runs", "crash", ResultsFile)

	first := exec.Command(bin, args...)
	require.NoError(t, first.Start())
	exited := make(chan error, 1)
	go func() { exited <- first.Wait() }()
	deadline := time.Now().Add(2 * time.Minute)
	killed := false
	for !killed {
		select {
		case err := <-exited:
			t.Fatalf("the run ended (%v) before it could be killed: it was too fast for this test", err)
		default:
		}
		if raw, err := os.ReadFile(results); err == nil && bytes.Count(raw, []byte("\n")) >= 3 {
			require.NoError(t, first.Process.Kill())
			<-exited
			killed = true
		}
		require.True(t, time.Now().Before(deadline), "no results written within two minutes")
		time.Sleep(time.Millisecond)
	}
	before := readLines(t, results)
	require.GreaterOrEqual(t, len(before), 3)
	require.Less(t, len(before), total, "killed mid-run")

	f, err := os.OpenFile(results, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"case_id":"timer-001","model":"refer`)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	second := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	second.Stdout, second.Stderr = &stdout, &stderr
	require.NoError(t, second.Run(), "stderr: %s", stderr.String())
	require.Contains(t, stdout.String(), fmt.Sprintf("resuming run crash: %d results already done, %d to do\n", len(before), total-len(before)))
	require.Contains(t, stderr.String(), "incomplete last line")
	require.Equal(t, total-len(before), strings.Count(stdout.String(), "\nPASSED ")+boolInt(strings.HasPrefix(stdout.String(), "PASSED ")),
		"only the unfinished results are evaluated again")
	require.Contains(t, stdout.String(), fmt.Sprintf("reference: %d results, %d passed, 0 failed, 0 errors", total, total))

	after := readLines(t, results)
	require.Len(t, after, total)
	seen := map[Key]bool{}
	for _, l := range after {
		var r result.EvalResult
		require.NoError(t, json.Unmarshal([]byte(l), &r))
		require.False(t, seen[KeyOf(r)], "duplicate %s", KeyOf(r))
		seen[KeyOf(r)] = true
		require.Equal(t, result.StatusPassed, r.Status, KeyOf(r).String())
	}
	for _, id := range ids {
		for a := 1; a <= samples; a++ {
			require.True(t, seen[Key{Model: "reference", CaseID: id, Attempt: a}], "%s #%d", id, a)
		}
	}
	for _, l := range before {
		require.Contains(t, after, l, "a result written before the kill is kept byte for byte")
	}
	var man Manifest
	raw, err := os.ReadFile(filepath.Join(outDir, "runs", "crash", ManifestFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &man))
	require.Len(t, man.ResumedAt, 1)
	require.Len(t, man.Cases, len(ids))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// binaryAndCorpus builds embedeval into a temporary directory and copies the
// bundled corpus next to it.
func binaryAndCorpus(t *testing.T) (tmp, bin, corpus string) {
	t.Helper()
	tmp = t.TempDir()
	bin = filepath.Join(tmp, "embedeval")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/embedeval")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	corpus = filepath.Join(tmp, "cases")
	require.NoError(t, os.CopyFS(corpus, os.DirFS(bundled)))
	return tmp, bin, corpus
}

// TestCommands drives bugfix with a replay record, agent, retest-only and
// sensitivity through the binary.
func TestCommands(t *testing.T) {
	tmp, bin, corpus := binaryAndCorpus(t)
	outDir := filepath.Join(tmp, "results")
	run := func(wantCode int, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else {
			require.NoError(t, err)
		}
		require.Equal(t, wantCode, code, "%v\nstdout: %s\nstderr: %s", args, stdout.String(), stderr.String())
		return stdout.String() + stderr.String()
	}
	static := []string{"--cases", corpus, "--layers", "L0,L3,L4", "--output-dir", outDir}

	replay := filepath.Join(tmp, "replay.jsonl")
	out := run(0, append([]string{"run", "--case", "kconfig-001", "--scenario", "bugfix", "--run-id", "bf", "--replay-record", replay}, static...)...)
	require.Contains(t, out, "PASSED kconfig-001 [immediate_log_mode] #1")
	results := readLines(t, filepath.Join(outDir, "runs", "bf", ResultsFile))
	require.Len(t, readLines(t, replay), len(results), "one reply per result")
	var rec ReplayRecord
	require.NoError(t, json.Unmarshal([]byte(readLines(t, replay)[0]), &rec))
	require.Equal(t, "kconfig-001", rec.CaseID)
	require.Contains(t, rec.Reply, "CONFIG_LOG_MODE_DEFERRED=y")

	out = run(0, append([]string{"agent", "mock", "--case", "kconfig-001", "--max-turns", "2", "--run-id", "ag"}, static...)...)
	require.Contains(t, out, "FAILED kconfig-001              #1  L0:failed L1:skip L2:skip L3:skip L4:skip  turns 2")

	out = run(0, append([]string{"run", "--case", "kconfig-001,gpio-basic-001", "--retest-only", "--run-id", "rt1"}, static...)...)
	require.Contains(t, out, "retest-only: 1 of 2 selected cases changed since their last run or were never run", "kconfig-001 was run (by the agent) and has not changed")
	out = run(0, append([]string{"run", "--case", "kconfig-001,gpio-basic-001", "--retest-only", "--run-id", "rt2"}, static...)...)
	require.Contains(t, out, "retest-only: 0 of 2 selected cases")

	out = run(2, append([]string{"run", "--case", "kconfig-001", "--scenario", "bugfix", "--run-id", "bf", "--samples", "2"}, static...)...)
	require.Contains(t, out, "samples: run has 1, now 2")

	out = run(0, "sensitivity", "reference", "--cases", corpus, "--layers", "L0,L3,L4", "--sample", "2", "--seed", "3", "--json")
	var rep SensitivityReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Len(t, rep.Cases, 2)
	require.Equal(t, 1.0, *rep.MeanRobustness, "the reference ignores the prompt")
}
