package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/mdescape"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/score"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output")

var goldenOpts = Options{RunID: "2026-04-19_golden-n5", Generated: "2026-04-19T12:34:56Z", RunTimestamp: "2026-04-19", NRuns: 1}

// goldenInput is the golden result set as JSON lines, with the bad input a
// real file may hold: a result for a case that no longer exists, a duplicate
// key and a torn last line.
func goldenInput(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	_, err := writeResults(&buf, goldenSpec())
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	gone := genResult(goldenSpec(), "gpt-4o", cases.Metadata{ID: "ble-099", Category: "ble"}, 0, "")
	b, err := json.Marshal(gone)
	require.NoError(t, err)
	lines = append(lines, string(b), lines[0])
	out := strings.Join(lines, "\n") + "\n" + lines[1][:57]
	return []byte(out)
}

func goldenReport(t testing.TB, input []byte) *score.Report {
	t.Helper()
	rep, err := scoreStream(bytes.NewReader(input), "results.jsonl", score.LookupFrom(goldenCases()))
	require.NoError(t, err)
	return rep
}

func TestGoldenFiles(t *testing.T) {
	rep := goldenReport(t, goldenInput(t))
	dir := t.TempDir()
	require.NoError(t, WriteRun(dir, rep, goldenOpts))
	files := map[string]string{
		"summary.json":             filepath.Join(dir, "runs", goldenOpts.RunID, SummaryFile),
		"per_check_metrics.json":   filepath.Join(dir, "runs", goldenOpts.RunID, PerCheckMetricsFile),
		"LEADERBOARD.md":           filepath.Join(dir, LeaderboardFile),
		"LEADERBOARD_PER_CHECK.md": filepath.Join(dir, LeaderboardPerCheckFile),
	}
	for golden, path := range files {
		t.Run(golden, func(t *testing.T) {
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			gp := filepath.Join("testdata", "golden", golden)
			if *update {
				require.NoError(t, os.WriteFile(gp, got, 0o644))
			}
			want, err := os.ReadFile(gp)
			require.NoError(t, err, "run go test ./internal/report -update to create the golden files")
			require.Equal(t, string(want), string(got))
		})
	}
	// No temporary files are left next to the reports.
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		require.False(t, strings.HasPrefix(e.Name(), "."), e.Name())
	}
}

func TestGoldenInputIsCovered(t *testing.T) {
	// The golden set must exercise what the issue lists; if the generator
	// changes so that one disappears, the goldens would silently stop
	// covering it.
	rep := goldenReport(t, goldenInput(t))
	require.Len(t, rep.Models, 3)
	require.Positive(t, rep.Counts.Errors.Infrastructure)
	require.Positive(t, rep.Counts.Errors.Case)
	require.Equal(t, 1, rep.Counts.UnknownCaseResults)
	require.Equal(t, 1, rep.Counts.DuplicateResults)
	require.NotNil(t, rep.Overall.CaseSetWarning)
	require.Len(t, rep.Warnings, 4)
	require.Contains(t, rep.Warnings[0], "results.jsonl:")
	require.Contains(t, rep.Warnings[0], "last line is cut off")
	sanity := false
	for _, ts := range rep.Models[0].TierScores {
		sanity = sanity || (ts.Tier == "sanity" && !ts.Scored)
	}
	require.True(t, sanity)
	skipped, mutationSeen := 0, false
	for _, m := range rep.Models {
		for _, l := range m.LayerStats {
			skipped += l.Skipped
		}
		for _, st := range m.PerCheckStats {
			mutationSeen = mutationSeen || strings.Contains(st.CheckName, "/")
		}
	}
	require.Positive(t, skipped)
	require.False(t, mutationSeen, "mutation checks must not reach per-check stats")
	for _, r := range rep.PerCheckRows {
		require.NotContains(t, r.CheckName, "/")
	}
	lb := LeaderboardMarkdown(rep, goldenOpts)
	for _, w := range rep.Warnings {
		require.Contains(t, string(lb), mdescape.Text(w))
	}
	sum, err := SummaryJSON(rep, goldenOpts)
	require.NoError(t, err)
	var doc struct{ Warnings []string }
	require.NoError(t, json.Unmarshal(sum, &doc))
	require.Equal(t, rep.Warnings, doc.Warnings)
}

func TestDeterministicAcrossOrder(t *testing.T) {
	input := goldenInput(t)
	lines := strings.Split(string(input), "\n")
	body := lines[:len(lines)-2] // drop the duplicate and torn line: order-dependent by design
	render := func(ls []string) [][]byte {
		rep := goldenReport(t, []byte(strings.Join(ls, "\n")+"\n"))
		s, err := SummaryJSON(rep, goldenOpts)
		require.NoError(t, err)
		p, err := PerCheckMetricsJSON(rep, goldenOpts)
		require.NoError(t, err)
		return [][]byte{s, p, LeaderboardMarkdown(rep, goldenOpts), LeaderboardPerCheckMarkdown(rep, goldenOpts)}
	}
	want := render(body)
	rev := slices.Clone(body)
	slices.Reverse(rev)
	require.Equal(t, want, render(rev))
	require.Equal(t, want, render(body), "a second run gives the same bytes")
}

func TestPerCheckMetricsShape(t *testing.T) {
	rep := goldenReport(t, goldenInput(t))
	data, err := PerCheckMetricsJSON(rep, goldenOpts)
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(data, &doc))
	require.ElementsMatch(t, []string{"schema_version", "run_id", "generated", "rows"}, keys(doc))
	require.Equal(t, 1.0, doc["schema_version"])
	rows := doc["rows"].([]any)
	require.NotEmpty(t, rows)
	row := rows[0].(map[string]any)
	require.ElementsMatch(t, []string{"case_id", "category", "check_name", "model", "samples", "passed", "pass_rate"}, keys(row))

	empty, err := PerCheckMetricsJSON(&score.Report{}, Options{})
	require.NoError(t, err)
	require.Equal(t, "{\n  \"schema_version\": 1,\n  \"run_id\": null,\n  \"generated\": null,\n  \"rows\": []\n}\n", string(empty))
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestSummaryPerCheckStatShape(t *testing.T) {
	rep := goldenReport(t, goldenInput(t))
	data, err := SummaryJSON(rep, goldenOpts)
	require.NoError(t, err)
	var doc struct {
		Version string           `json:"version"`
		Models  []map[string]any `json:"models"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	require.Equal(t, BenchmarkReportVersion, doc.Version)
	stats := doc.Models[0]["per_check_stats"].([]any)
	require.ElementsMatch(t, []string{"check_name", "category", "total_runs", "fail_count", "pass_rate", "failing_tc_ids"},
		keys(stats[0].(map[string]any)))
}

func TestWriteRunRejectsBadRunID(t *testing.T) {
	for _, id := range []string{"", "..", "a/b", `a\b`} {
		err := WriteRun(t.TempDir(), &score.Report{}, Options{RunID: id})
		require.Error(t, err, id)
	}
	require.EqualError(t, WriteRun(t.TempDir(), &score.Report{}, Options{RunID: "a/b"}),
		`write reports: run id "a/b" must be a single path component`)
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "f.txt")
	require.NoError(t, WriteFileAtomic(p, []byte("one")))
	require.NoError(t, WriteFileAtomic(p, []byte("two")))
	got, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, "two", string(got))
	entries, err := os.ReadDir(filepath.Dir(p))
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary file left behind")

	// A directory in the way: the error names the path and nothing is left.
	blocked := filepath.Join(dir, "blocked")
	require.NoError(t, os.MkdirAll(filepath.Join(blocked, "x"), 0o755))
	err = WriteFileAtomic(blocked, []byte("data"))
	require.ErrorContains(t, err, "write "+blocked+":")
	entries, err = os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		require.False(t, strings.HasPrefix(e.Name(), ".blocked"), e.Name())
	}
}

func TestCategoryStatus(t *testing.T) {
	tests := []struct {
		rate float64
		want string
	}{{1, StatusPass}, {0.8, StatusPass}, {0.7999, StatusPartial}, {0.5, StatusPartial}, {0.4999, StatusFail}, {0, StatusFail}}
	for _, tt := range tests {
		require.Equal(t, tt.want, CategoryStatus(tt.rate), "rate %v", tt.rate)
	}
}

// Compile-time use of result, so the generator's imports stay honest.
var _ = result.StatusPassed

func TestLeaderboardLinksCharts(t *testing.T) {
	rep := goldenReport(t, goldenInput(t))
	opts := goldenOpts
	opts.Charts = []string{"heatmap.svg", "heatmap.png", "pass_at_1.svg", "pass_at_1.png"}
	md := LeaderboardMarkdown(rep, opts)
	require.Contains(t, string(md), "## Charts\n\n![heatmap](heatmap.svg) ([PNG](heatmap.png))\n\n![pass_at_1](pass_at_1.svg) ([PNG](pass_at_1.png))\n")
	lb, err := ParseLeaderboard("LEADERBOARD.md", md)
	require.NoError(t, err, "the charts section does not disturb the v1 parse contract")
	require.NotEmpty(t, lb.Models)
	require.NotContains(t, string(LeaderboardMarkdown(rep, goldenOpts)), "## Charts", "no charts, no section")
}
