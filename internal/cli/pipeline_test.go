package cli

import (
	"encoding/json"
	"fmt"
	"github.com/embedeval/embedeval-go/internal/cases"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/github"
	"github.com/embedeval/embedeval-go/internal/pipeline"
	"github.com/embedeval/embedeval-go/internal/report"
)

const bundledCorpus = "../../cases"

// tree reads every file under dir, keyed by path relative to dir.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[rel] = string(raw)
		return err
	}))
	return out
}

// TestPipelineLocalEndToEnd plans the bundled corpus for the reference
// model, runs every shard, merges, writes the PR body, then merges the same
// artifacts again through the merge command: nothing changes.
func TestPipelineLocalEndToEnd(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "pipeline", "--local", "--cases", bundledCorpus, "--model", "reference", "--output-dir", dir, "--max-jobs", "8")
	require.Equal(t, ExitOK, code, out+errOut)
	require.Contains(t, out, "### Shard plan")
	nCases := len(cases.LoadCorpus(bundledCorpus, "").Cases)
	p, err := pipeline.ReadPlan(filepath.Join(dir, "plan.json"))
	require.NoError(t, err)
	require.LessOrEqual(t, len(p.Jobs), 8)
	require.Contains(t, out, fmt.Sprintf("%d of %d shards merged, %d results (0 errors, of which 0 infrastructure).", len(p.Jobs), len(p.Jobs), nCases))
	for _, j := range p.Jobs {
		a, err := pipeline.ReadArtifact(filepath.Join(dir, "artifacts", pipeline.ArtifactName(j.Index)))
		require.NoError(t, err)
		require.Equal(t, p.Hash, a.PlanHash)
		require.Len(t, a.Results, len(j.Cases))
	}
	runID := pipeline.DefaultRunID(p)
	var rec pipeline.MergeRecord
	raw, err := os.ReadFile(filepath.Join(dir, "results", "runs", runID, pipeline.MergeFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &rec))
	require.Equal(t, nCases, rec.Results)
	require.Equal(t, 0, rec.Errors)
	require.False(t, rec.Partial)
	results := readResults(t, filepath.Join(dir, "results", "runs", runID, "results.jsonl"))
	require.Len(t, results, nCases)
	for _, r := range results {
		require.Equal(t, "passed", string(r.Status), r.CaseID)
	}
	lb, err := report.ReadLeaderboard(filepath.Join(dir, "results", report.LeaderboardFile))
	require.NoError(t, err)
	require.Len(t, lb.Models, 1)
	body, err := os.ReadFile(filepath.Join(dir, "pr_body.md"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(body), github.ResultsMarker+"\n## Benchmark results for run `"+runID+"`"), string(body))
	tm, _, err := pipeline.LoadTimings(filepath.Join(dir, "results", pipeline.TimingsFile))
	require.NoError(t, err)
	require.Len(t, tm, nCases)

	before := tree(t, filepath.Join(dir, "results"))
	code, out, errOut = runCLI(t, "merge", "--plan", filepath.Join(dir, "plan.json"), "--artifacts", filepath.Join(dir, "artifacts"),
		"--results", filepath.Join(dir, "results"), "--pr-body", filepath.Join(dir, "pr_body_again.md"))
	require.Equal(t, ExitOK, code, out+errOut)
	after := tree(t, filepath.Join(dir, "results"))
	require.Equal(t, len(before), len(after))
	for path, data := range before {
		require.Equal(t, data, after[path], "%s changed when merged again", path)
	}
	again, err := os.ReadFile(filepath.Join(dir, "pr_body_again.md"))
	require.NoError(t, err)
	require.Equal(t, string(body), string(again))

	// merge scores the run from memory; report, from the file, agrees.
	scratch := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(scratch, "runs", runID), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(scratch, "runs", runID, "results.jsonl"), []byte(before[filepath.Join("runs", runID, "results.jsonl")]), 0o644))
	// run.json gives summary.json its run_timestamp (the run's start).
	require.NoError(t, os.WriteFile(filepath.Join(scratch, "runs", runID, "run.json"), []byte(before[filepath.Join("runs", runID, "run.json")]), 0o644))
	code, out, errOut = runCLI(t, "report", "--cases", bundledCorpus, "--results", scratch, "--run-id", runID)
	require.Equal(t, ExitOK, code, out+errOut)
	for _, f := range []string{"summary.json", "per_check_metrics.json", "report.md"} {
		raw, err := os.ReadFile(filepath.Join(scratch, "runs", runID, f))
		require.NoError(t, err)
		require.Equal(t, before[filepath.Join("runs", runID, f)], string(raw), f)
	}

	// The next dry run plans from the recorded durations.
	code, out, errOut = runCLI(t, "shard", "--cases", bundledCorpus, "--models", "reference", "--timings", filepath.Join(dir, "results", pipeline.TimingsFile),
		"--plan", filepath.Join(dir, "plan2.json"))
	require.Equal(t, ExitOK, code, out+errOut)
	p2, err := pipeline.ReadPlan(filepath.Join(dir, "plan2.json"))
	require.NoError(t, err)
	for _, j := range p2.Jobs {
		for _, c := range j.Cases {
			require.Equal(t, "history", c.Source, c.ID)
		}
	}
}

func TestMergeCommandRefusesMissingShard(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "pipeline", "--local", "--cases", bundledCorpus, "--case", "timer-001,uart-001,kconfig-001", "--output-dir", dir)
	require.Equal(t, ExitOK, code, out+errOut)
	require.NoError(t, os.Remove(filepath.Join(dir, "artifacts", "shard-2.json")))
	args := []string{"merge", "--plan", filepath.Join(dir, "plan.json"), "--artifacts", filepath.Join(dir, "artifacts"), "--results", filepath.Join(t.TempDir(), "results")}
	code, _, errOut = runCLI(t, args...)
	require.Equal(t, ExitFindings, code)
	require.Contains(t, errOut, "embedeval: refusing to merge the artifacts in "+filepath.Join(dir, "artifacts")+" (1 of 3 shards affected):\n  shard 2 of 3 is missing (expected artifact shard-2.json)\n")

	code, out, errOut = runCLI(t, append(args, "--allow-partial")...)
	require.Equal(t, ExitOK, code, errOut)
	require.Contains(t, errOut, "warning: partial results: run plan-")
	require.Contains(t, out, "> **Warning: partial results.**")
	require.Contains(t, out, "2 of 3 shards merged")
}

func TestShardCommandWritesActionsOutputs(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary")}
	tf := newTestFactory(t)
	tf.env = env
	cmd := newShardCommand(tf.Factory)
	code := Main(cmd, []string{"--cases", bundledCorpus, "--model", "reference", "--model", "mock", "--samples", "3", "--max-jobs", "64", "--plan", filepath.Join(dir, "plan.json"), "--timings", filepath.Join(dir, "none.json")})
	require.Equal(t, ExitOK, code, tf.errOut.String())
	p, err := pipeline.ReadPlan(filepath.Join(dir, "plan.json"))
	require.NoError(t, err)
	m, err := pipeline.MatrixJSON(p)
	require.NoError(t, err)
	raw, err := os.ReadFile(env["GITHUB_OUTPUT"])
	require.NoError(t, err)
	require.Contains(t, string(raw), "matrix<<_GitHubActionsFileCommandDelimeter_\n"+m+"\n")
	require.Contains(t, string(raw), "jobs<<_GitHubActionsFileCommandDelimeter_\n"+strconv.Itoa(len(p.Jobs))+"\n")
	summary, err := os.ReadFile(env["GITHUB_STEP_SUMMARY"])
	require.NoError(t, err)
	require.Equal(t, pipeline.PlanSummary(p)+"\n", string(summary))
	require.Equal(t, []string{"reference", "mock"}, p.Inputs.Models)
	require.Equal(t, "reference", p.Jobs[0].Model)
	require.Equal(t, "mock", p.Jobs[len(p.Jobs)-1].Model)
}

func TestRunPlanFlags(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.json")
	code, out, errOut := runCLI(t, "shard", "--cases", bundledCorpus, "--case", "timer-001", "--plan", plan, "--timings", filepath.Join(dir, "none.json"))
	require.Equal(t, ExitOK, code, out+errOut)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--plan", plan}, "embedeval: --plan FILE and --shard N (N >= 1) go together\n"},
		{[]string{"--shard", "1"}, "embedeval: --plan FILE and --shard N (N >= 1) go together\n"},
		{[]string{"--plan", plan, "--shard", "2"}, "embedeval: --shard: shard 2 is not in the plan (shards 1 to 1)\n"},
		{[]string{"--plan", plan, "--shard", "1", "--model", "mock"}, "embedeval: --model cannot be given with --plan: the plan sets it\n"},
		{[]string{"--plan", plan, "--shard", "1", "--samples", "4"}, "embedeval: --samples cannot be given with --plan: the plan sets it\n"},
		{[]string{"--plan", filepath.Join(dir, "nope.json"), "--shard", "1"}, "embedeval: read plan: open " + filepath.Join(dir, "nope.json") + ": no such file or directory\n"},
	} {
		code, _, errOut := runCLI(t, append([]string{"run"}, tc.args...)...)
		require.Equal(t, ExitUsage, code, tc.args)
		require.Equal(t, tc.want, errOut, tc.args)
	}
	art := filepath.Join(dir, "a", "shard-1.json")
	code, out, errOut = runCLI(t, "run", "--plan", plan, "--shard", "1", "--artifact", art)
	require.Equal(t, ExitOK, code, out+errOut)
	a, err := pipeline.ReadArtifact(art)
	require.NoError(t, err)
	require.Equal(t, 1, a.Shard)
	require.Equal(t, "reference", a.Model)
	require.Len(t, a.Results, 1)
	require.Equal(t, "timer-001", a.Results[0].CaseID)
	require.Contains(t, a.Timings, "timer-001")
}

func TestPipelineNeedsLocal(t *testing.T) {
	code, _, errOut := runCLI(t, "pipeline", "--cases", bundledCorpus)
	require.Equal(t, ExitUsage, code)
	require.Equal(t, "embedeval: only --local is available here: in GitHub Actions the workflow runs shard, run --plan and merge as steps\n", errOut)
}

// TestLocalPipelinePicksEnoughShards: two models over cases of six images
// are twelve image × model groups, more than the default eight shards;
// without --max-jobs the pipeline takes twelve, and a limit the user sets
// below that is a usage error naming the minimum.
func TestLocalPipelinePicksEnoughShards(t *testing.T) {
	sel := "timer-001,uart-001,kconfig-001,threading-001,adc-004,yocto-001"
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "pipeline", "--local", "--cases", bundledCorpus, "--case", sel, "--model", "reference", "--model", "mock",
		"--layers", "L0", "--output-dir", dir)
	require.Equal(t, ExitOK, code, out+errOut)
	data, err := os.ReadFile(filepath.Join(dir, "plan.json"))
	require.NoError(t, err)
	var plan struct {
		Jobs []json.RawMessage `json:"jobs"`
	}
	require.NoError(t, json.Unmarshal(data, &plan))
	require.Equal(t, 12, len(plan.Jobs), "one shard per image × model group")

	code, _, errOut = runCLI(t, "pipeline", "--local", "--cases", bundledCorpus, "--case", sel, "--model", "reference", "--model", "mock",
		"--layers", "L0", "--output-dir", t.TempDir(), "--max-jobs", "4")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, errOut, "--max-jobs 4 is below the minimum for this selection: 12 image × model groups need at least 12 shards")
}
