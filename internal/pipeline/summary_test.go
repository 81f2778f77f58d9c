package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sethvargo/go-githubactions"
	"github.com/stretchr/testify/require"
)

func TestOutputsAndSummary(t *testing.T) {
	p := planFor(t, fakeCorpus(3), []string{"m"}, 1, 8, nil)
	dir := t.TempDir()
	env := map[string]string{"GITHUB_OUTPUT": filepath.Join(dir, "out"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary")}
	var stdout bytes.Buffer
	a := githubactions.New(githubactions.WithWriter(&stdout), githubactions.WithGetenv(func(k string) string { return env[k] }))
	require.NoError(t, WriteOutputs(a, p))
	require.NoError(t, AddSummary(a, PlanSummary(p)))
	m, err := MatrixJSON(p)
	require.NoError(t, err)
	require.Equal(t, `{"include":[{"shard":1,"name":"embedded-linux · m · 1/1","image":"repo:images/linux-local","model":"m"},{"shard":2,"name":"esp-idf · m · 1/1","image":"espressif/idf:v5.3.2","model":"m"},{"shard":3,"name":"zephyr · m · 1/1","image":"ghcr.io/zephyrproject-rtos/ci:v0.28.4","model":"m"}]}`, m)
	out, err := os.ReadFile(env["GITHUB_OUTPUT"])
	require.NoError(t, err)
	const d = "_GitHubActionsFileCommandDelimeter_"
	require.Equal(t, "matrix<<"+d+"\n"+m+"\n"+d+"\njobs<<"+d+"\n3\n"+d+"\nplan-hash<<"+d+"\n"+p.Hash+"\n"+d+"\n", string(out))
	sum, err := os.ReadFile(env["GITHUB_STEP_SUMMARY"])
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(sum), "### Shard plan\n\n3 jobs for 3 case × model units × 1 samples (at most 8 jobs)."), string(sum))
	require.Contains(t, string(sum), "| 3 | zephyr · m · 1/1 | `ghcr.io/zephyrproject-rtos/ci:v0.28.4` | 1 | 50.0 s |")
	require.Empty(t, stdout.String())

	// Outside Actions nothing is written and nothing panics.
	none := githubactions.New(githubactions.WithGetenv(func(string) string { return "" }))
	require.NoError(t, WriteOutputs(none, p))
	require.NoError(t, AddSummary(none, "x"))
	// An unwritable output file is an error, not a panic.
	bad := githubactions.New(githubactions.WithGetenv(func(string) string { return filepath.Join(dir, "no", "such", "dir") }))
	require.ErrorContains(t, WriteOutputs(bad, p), "github actions output")
}

func TestEmptyPlanMatrix(t *testing.T) {
	p := planFor(t, nil, []string{"m"}, 1, 8, nil)
	m, err := MatrixJSON(p)
	require.NoError(t, err)
	require.Equal(t, `{"include":[]}`, m)
	require.Contains(t, PlanSummary(p), "No case selected: nothing to run.")
}
