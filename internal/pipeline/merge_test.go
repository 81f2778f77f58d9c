package pipeline

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/publish"
	"github.com/embedeval/embedeval-go/internal/report"
)

// snapshot reads every file under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(path)
		out[path] = string(raw)
		return err
	}))
	return out
}

func mergeInto(t *testing.T, p *Plan, artifacts, results, runID string, partial bool) *MergeOutcome {
	t.Helper()
	o, err := Merge(context.Background(), MergeOptions{Plan: p, ArtifactsDir: artifacts, ResultsDir: results, RunID: runID, AllowPartial: partial, Corpus: fakeCorpus(12)})
	require.NoError(t, err)
	return o
}

func TestMergeIsIdempotent(t *testing.T) {
	p := smallPlan(t)
	artifacts, results := t.TempDir(), t.TempDir()
	writeArtifacts(t, p, artifacts)
	o := mergeInto(t, p, artifacts, results, "", false)
	require.Equal(t, DefaultRunID(p), o.Record.RunID)
	require.Equal(t, 24, o.Record.Results)
	require.Nil(t, o.Before)
	require.NotNil(t, o.After)
	first := snapshot(t, results)
	for _, f := range []string{
		"runs/" + o.Record.RunID + "/results.jsonl", "runs/" + o.Record.RunID + "/run.json", "runs/" + o.Record.RunID + "/merge.json",
		"runs/" + o.Record.RunID + "/summary.json", "LEADERBOARD.md", "timings.json", "heatmap.svg",
	} {
		require.Contains(t, first, filepath.Join(results, f))
	}
	mergeInto(t, p, artifacts, results, "", false)
	second := snapshot(t, results)
	require.Equal(t, len(first), len(second))
	for path, data := range first {
		require.Equal(t, data, second[path], "%s changed on the second merge", path)
	}
	tm, _, err := LoadTimings(filepath.Join(results, TimingsFile))
	require.NoError(t, err)
	c := p.Jobs[0].Cases[0]
	require.Equal(t, Timing{Platform: c.Target, Seconds: 2, Samples: 2, Recent: []float64{1.5, 2.5}, LastRun: o.Record.RunID}, tm[c.ID])
}

func TestMergeKeepsOtherModels(t *testing.T) {
	artifacts, results := t.TempDir(), t.TempDir()
	pa := planFor(t, fakeCorpus(12), []string{"model-a"}, 1, 4, nil)
	writeArtifacts(t, pa, artifacts)
	mergeInto(t, pa, artifacts, results, "run-a", false)

	artifactsB := t.TempDir()
	pb := planFor(t, fakeCorpus(12), []string{"model-b"}, 1, 4, nil)
	writeArtifacts(t, pb, artifactsB)
	o := mergeInto(t, pb, artifactsB, results, "run-b", false)
	require.NotNil(t, o.Before)
	require.Len(t, o.Before.Models, 1)
	require.Len(t, o.After.Models, 2)
	lb, err := report.ReadLeaderboard(filepath.Join(results, report.LeaderboardFile))
	require.NoError(t, err)
	var names []string
	for _, m := range lb.Models {
		names = append(names, m.Model)
	}
	require.ElementsMatch(t, []string{"model-a", "model-b"}, names)
	latest, err := publish.LatestRuns(results, "")
	require.NoError(t, err)
	require.Equal(t, map[string]string{"model-a": "run-a", "model-b": "run-b"}, latest)
}

func TestMergePartialIsMarked(t *testing.T) {
	p := smallPlan(t)
	artifacts, results := t.TempDir(), t.TempDir()
	writeArtifacts(t, p, artifacts)
	require.NoError(t, os.Remove(filepath.Join(artifacts, "shard-2.json")))
	_, err := Merge(context.Background(), MergeOptions{Plan: p, ArtifactsDir: artifacts, ResultsDir: results, Corpus: fakeCorpus(12)})
	require.EqualError(t, err, "refusing to merge the artifacts in "+artifacts+" (1 of 4 shards affected):\n  shard 2 of 4 is missing (expected artifact shard-2.json)\n(--allow-partial merges the complete shards and marks the reports partial; duplicated shards always refuse)")
	_, statErr := os.Stat(filepath.Join(results, "runs"))
	require.True(t, os.IsNotExist(statErr), "a refused merge writes nothing")

	o := mergeInto(t, p, artifacts, results, "r1", true)
	require.Equal(t, "run r1 merged 3 of 4 shards; missing shard 2. Pass rates cover only the merged shards.", o.PartialNote)
	require.Equal(t, []int{2}, o.Record.Missing)
	board, err := os.ReadFile(filepath.Join(results, report.LeaderboardFile))
	require.NoError(t, err)
	lines := strings.Split(string(board), "\n")
	require.Equal(t, "# EmbedEval Leaderboard", lines[0])
	require.Equal(t, "> **Warning: partial results.** run r1 merged 3 of 4 shards; missing shard 2. Pass rates cover only the merged shards.", lines[3])
	_, err = report.ParseLeaderboard("LEADERBOARD.md", board)
	require.NoError(t, err, "the partial line keeps the parse contract")
	require.Contains(t, MergeSummary(o), "> **Warning: partial results.**")
}

func TestShardList(t *testing.T) {
	require.Equal(t, "shard 3", shardList([]int{3}))
	require.Equal(t, "shards 1, 3 and 8", shardList([]int{1, 3, 8}))
}
