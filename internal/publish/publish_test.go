package publish

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/runner"
)

func writeRun(t *testing.T, dir, id string, started time.Time, models ...string) {
	t.Helper()
	runDir := filepath.Join(dir, "runs", id)
	require.NoError(t, os.MkdirAll(runDir, 0o755))
	raw, err := json.Marshal(runner.Manifest{RunID: id, StartedAt: started, Options: runner.RunOptions{Models: models}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(runDir, runner.ManifestFile), raw, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(runDir, runner.ResultsFile), nil, 0o644))
}

func TestLatestRuns(t *testing.T) {
	dir := t.TempDir()
	day := func(d int) time.Time { return time.Date(2026, 5, d, 0, 0, 0, 0, time.UTC) }
	writeRun(t, dir, "z-old", day(1), "a", "b")
	writeRun(t, dir, "a-new", day(3), "b")
	writeRun(t, dir, "m-mid", day(2), "a", "c")
	writeRun(t, dir, "tie-1", day(4), "d")
	writeRun(t, dir, "tie-2", day(4), "d")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "runs", "no-manifest"), 0o755))
	got, err := LatestRuns(dir, "")
	require.NoError(t, err)
	require.Equal(t, map[string]string{"a": "m-mid", "b": "a-new", "c": "m-mid", "d": "tie-2"}, got)
	got, err = LatestRuns(dir, "a-new")
	require.NoError(t, err)
	require.Equal(t, "z-old", got["b"], "excluding a run falls back to the one before")
	empty, err := LatestRuns(t.TempDir(), "")
	require.NoError(t, err)
	require.Empty(t, empty)
}

func TestMarkPartial(t *testing.T) {
	board := "# EmbedEval Leaderboard\n<!-- SCHEMA_VERSION: 1 -->\n\nRun: `r`\n"
	require.Equal(t, "# EmbedEval Leaderboard\n<!-- SCHEMA_VERSION: 1 -->\n\n"+PartialPrefix+"why\n\nRun: `r`\n", string(markPartial([]byte(board), "why")))
}

func TestMarkPartialEscapes(t *testing.T) {
	board := "# EmbedEval Leaderboard\n<!-- SCHEMA_VERSION: 1 -->\n\nRun: `r`\n"
	got := string(markPartial([]byte(board), "<!-- @octocat\n# x"))
	require.Equal(t, "# EmbedEval Leaderboard\n<!-- SCHEMA_VERSION: 1 -->\n\n"+PartialPrefix+"&lt;!-- @&#8203;octocat # x\n\nRun: `r`\n", got)
}
