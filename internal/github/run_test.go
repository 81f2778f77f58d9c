package github

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/report"
	"github.com/embedeval/embedeval-go/internal/score"
)

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, data, 0o644))
}

// resultsDir writes a results directory with two runs of claude-x (r0 before,
// r1 after), the files merge writes and files that must not be published.
func resultsDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	before, after := beforeAfter()
	for run, rep := range map[string]*score.Report{"r0": before, "r1": after} {
		data, err := report.SummaryJSON(rep, report.Options{RunID: run})
		require.NoError(t, err)
		writeFile(t, filepath.Join(dir, "runs", run, report.SummaryFile), data)
	}
	h := report.MergeHistory(
		report.HistoryEntries(before, report.Options{RunID: "r0", Generated: "2026-04-01T00:00:00Z"}),
		report.HistoryEntries(after, report.Options{RunID: "r1", Generated: "2026-04-19T00:00:00Z"}))
	data, err := report.HistoryJSON(h)
	require.NoError(t, err)
	writeFile(t, filepath.Join(dir, report.HistoryFile), data)
	writeFile(t, filepath.Join(dir, "heatmap.svg"), []byte("<svg/>\n"))
	// Kept out of the pull request.
	writeFile(t, filepath.Join(dir, "runs", "r1", "results.jsonl"), []byte("{}\n"))
	writeFile(t, filepath.Join(dir, "runs", "r1", "details", "claude-x", "gpio-001_1.c"), []byte("int main(void){}\n"))
	writeFile(t, filepath.Join(dir, ".LEADERBOARD.md.tmp-123"), []byte("torn"))
	return dir
}

func TestReadResultsDirLeavesOutIgnoredFiles(t *testing.T) {
	dir := resultsDir(t)
	files, err := ReadResultsDir(dir, "results")
	require.NoError(t, err)
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	require.Equal(t, []string{"results/heatmap.svg", "results/history.json", "results/runs/r0/summary.json", "results/runs/r1/summary.json"}, paths)

	require.NoError(t, os.Symlink("heatmap.svg", filepath.Join(dir, "link.svg")))
	_, err = ReadResultsDir(dir, "results")
	require.ErrorContains(t, err, "link.svg: not a regular file (symbolic links are not published)")

	_, err = ReadResultsDir(t.TempDir(), "results")
	require.ErrorContains(t, err, "no files to publish")
}

func TestReadSummaryRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, data, want string }{
		{"other version", `{"version":"2","models":[]}`, `version "2", want "1"`},
		{"trailing data", `{"version":"1"} {}`, "data after the document"},
		{"not JSON", `nope`, "invalid character 'o'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name+".json")
			writeFile(t, path, []byte(tt.data))
			_, err := ReadSummary(path)
			require.ErrorContains(t, err, "read summary "+path+": "+tt.want)
		})
	}
}

func TestBaselineTakesEachModelsPreviousRun(t *testing.T) {
	dir := resultsDir(t)
	_, after := beforeAfter()
	before, warnings, err := Baseline(dir, "r1", after)
	require.NoError(t, err)
	require.Empty(t, warnings)
	require.Len(t, before.Models, 1, "gpt-y has no earlier run")
	require.Equal(t, "claude-x", before.Models[0].Model)
	require.InDelta(t, 0.45, before.Models[0].PassAt1, 1e-12)

	require.NoError(t, os.Remove(filepath.Join(dir, "runs", "r0", report.SummaryFile)))
	before, warnings, err = Baseline(dir, "r1", after)
	require.NoError(t, err)
	require.Nil(t, before)
	require.Equal(t, []string{"no baseline for claude-x: " + filepath.Join(dir, "runs", "r0", report.SummaryFile) + " is missing"}, warnings)
}

func TestPrepareRunDryRun(t *testing.T) {
	dir := resultsDir(t)
	prep, err := PrepareRun(RunOptions{ResultsDir: dir, RunID: "r1", PathInRepo: "results"})
	require.NoError(t, err)
	require.Equal(t, "Benchmark results: run r1", prep.Title)
	require.Contains(t, prep.Body, "| claude-x | 45.0% [38.3, 51.9] n=200 | 60.0% [53.1, 66.5] n=200 | +15.0 pp | ▲ beyond noise | 2 |")
	require.Contains(t, prep.Body, "![pass@1 by model and category]("+filepath.ToSlash(filepath.Join(dir, "heatmap.svg"))+")")

	_, err = PrepareRun(RunOptions{ResultsDir: dir, RunID: "r9"})
	require.ErrorContains(t, err, "read summary: open "+filepath.Join(dir, "runs", "r9", "summary.json"))
}

func TestPublishRunEndToEnd(t *testing.T) {
	dir := resultsDir(t)
	files, err := ReadResultsDir(dir, "results")
	require.NoError(t, err)
	byPath := map[string]File{}
	for _, f := range files {
		byPath[f.Path] = f
	}
	blobBody := func(path string) string {
		data, err := json.Marshal(map[string]string{"content": string(byPath[path].Data), "encoding": "utf-8"})
		require.NoError(t, err)
		return string(data)
	}
	prep, err := PrepareRun(RunOptions{ResultsDir: dir, RunID: "r1", Owner: "octo", Repo: "bench", PathInRepo: "results", RunURL: "https://example.test/run"})
	require.NoError(t, err)
	prBody, err := json.Marshal(map[string]string{"title": prep.Title, "head": "results/r1", "base": "main", "body": prep.Body})
	require.NoError(t, err)
	commitBody, err := json.Marshal(map[string]any{"message": prep.CommitMessage, "tree": "tree1", "parents": []string{"base1"}})
	require.NoError(t, err)
	require.Contains(t, prep.Body, "(https://github.com/octo/bench/blob/results/r1/results/heatmap.svg?raw=true)")

	_, p, _ := newRegistry(t,
		expected{Method: "GET", Path: api + "/git/ref/heads/main", Reply: `{"object":{"sha":"base1"}}`},
		expected{Method: "GET", Path: api + "/git/commits/base1", Reply: `{"tree":{"sha":"tree0"}}`},
		expected{Method: "GET", Path: api + "/git/trees/tree0", Query: "recursive=1", Reply: `{"tree":[
			{"path":"results/heatmap.svg","type":"blob","mode":"100644","sha":"` + byPath["results/heatmap.svg"].BlobSHA() + `"},
			{"path":"results/runs/r0/summary.json","type":"blob","mode":"100644","sha":"` + byPath["results/runs/r0/summary.json"].BlobSHA() + `"}]}`},
		expected{Method: "POST", Path: api + "/git/blobs", Body: blobBody("results/history.json"), Status: 201, Reply: `{"sha":"h1"}`},
		expected{Method: "POST", Path: api + "/git/blobs", Body: blobBody("results/runs/r1/summary.json"), Status: 201, Reply: `{"sha":"s1"}`},
		expected{Method: "POST", Path: api + "/git/trees", Body: `{"base_tree":"tree0","tree":[
			{"path":"results/history.json","mode":"100644","type":"blob","sha":"h1"},
			{"path":"results/runs/r1/summary.json","mode":"100644","type":"blob","sha":"s1"}]}`, Status: 201, Reply: `{"sha":"tree1"}`},
		expected{Method: "POST", Path: api + "/git/commits", Body: string(commitBody), Status: 201, Reply: `{"sha":"c1"}`},
		expected{Method: "GET", Path: api + "/git/ref/heads/results/r1", Status: 404, Reply: `{"message":"Not Found"}`},
		expected{Method: "POST", Path: api + "/git/refs", Body: `{"ref":"refs/heads/results/r1","sha":"c1"}`, Status: 201, Reply: `{}`},
		expected{Method: "GET", Path: api + "/pulls", Query: "head=octo%3Aresults%2Fr1&state=open", Reply: `[]`},
		expected{Method: "POST", Path: api + "/pulls", Body: string(prBody), Status: 201, Reply: `{"number":3,"html_url":"https://github.com/octo/bench/pull/3"}`},
	)
	got, res, err := p.PublishRun(context.Background(), RunOptions{ResultsDir: dir, RunID: "r1", Owner: "octo", Repo: "bench",
		Base: "main", PathInRepo: "results", RunURL: "https://example.test/run"})
	require.NoError(t, err)
	require.Equal(t, prep, got)
	require.Equal(t, PublishResult{Branch: "results/r1", CommitSHA: "c1", Uploaded: 2, Unchanged: 2, PRNumber: 3,
		PRURL: "https://github.com/octo/bench/pull/3", Created: true}, *res)
	require.True(t, strings.HasPrefix(prep.CommitMessage, "results: run r1\n\nModels: claude-x, gpt-y"))
}
