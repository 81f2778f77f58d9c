package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/score"
)

func TestLeaderboardRoundTrip(t *testing.T) {
	rep := goldenReport(t, goldenInput(t))
	p := filepath.Join(t.TempDir(), LeaderboardFile)
	require.NoError(t, WriteFileAtomic(p, LeaderboardMarkdown(rep, goldenOpts)))
	lb, err := ReadLeaderboard(p)
	require.NoError(t, err)
	require.Equal(t, 1, lb.SchemaVersion)

	byModel := map[string]score.ModelScore{}
	for _, m := range rep.Models {
		byModel[m.Model] = m
	}
	require.Len(t, lb.Models, len(rep.Models))
	for _, mc := range lb.Models {
		m, ok := byModel[mc.Model]
		require.True(t, ok, mc.Model)
		require.Len(t, mc.Rows, len(m.CategoryScores))
		for i, row := range mc.Rows {
			c := m.CategoryScores[i]
			require.Equal(t, c.Category, row.Category)
			require.InDelta(t, c.PassAt1*100, row.PassRatePercent, 0.05)
			require.Equal(t, c.PassedSamples, row.Passed)
			require.Equal(t, c.TotalSamples, row.Total)
			require.Equal(t, CategoryStatus(c.PassAt1), row.Status)
		}
	}
}

func TestLeaderboardRoundTripEscapesAndEmpty(t *testing.T) {
	rep := &score.Report{Models: []score.ModelScore{{Model: `a|b\c`, CategoryScores: []score.CategoryScore{
		{Category: "gpio-basic", Breakdown: score.Breakdown{PassAt1: 1, TotalSamples: 2, PassedSamples: 2}}}}}}
	lb, err := ParseLeaderboard("L.md", LeaderboardMarkdown(rep, Options{}))
	require.NoError(t, err)
	require.Equal(t, `a|b\c`, lb.Models[0].Model)

	lb, err = ParseLeaderboard("L.md", LeaderboardMarkdown(&score.Report{}, Options{}))
	require.NoError(t, err)
	require.Empty(t, lb.Models)
}

const validBoard = `# EmbedEval Leaderboard
<!-- SCHEMA_VERSION: 1 -->

## Model Comparison

| Rank | Model |
| --- | --- |
| 1 | m |

## Category Results

### m

| Category | Pass Rate | Passed | Total | Status |
|---|---|---|---|---|
| dma | 50.0% | 1 | 2 | PARTIAL |

## Layer Pass Rates
`

func TestParseLeaderboardBadInput(t *testing.T) {
	edit := func(old, new string) string {
		require.Contains(t, validBoard, old)
		return strings.Replace(validBoard, old, new, 1)
	}
	tests := []struct {
		name, content, want string
	}{
		{"empty", "\n\n", `L.md: empty file: expected a LEADERBOARD.md starting with a "# " heading`},
		{"no h1", "## Category Results\n", `L.md:1: expected the top heading ("# ..."), found "## Category Results"`},
		{"missing version", edit("<!-- SCHEMA_VERSION: 1 -->\n", ""), `L.md:3: missing schema version: the line after the top heading must be "<!-- SCHEMA_VERSION: 1 -->"`},
		{"unknown version", edit("SCHEMA_VERSION: 1", "SCHEMA_VERSION: 2"), "L.md:2: unsupported LEADERBOARD.md schema version 2 (this reader understands 1)"},
		{"other spelling", edit("SCHEMA_VERSION: 1", "leaderboard_schema_version: 1"), `L.md:2: malformed schema version comment "<!-- leaderboard_schema_version: 1 -->": expected "<!-- SCHEMA_VERSION: 1 -->"`},
		{"missing section", edit("## Category Results", "## Categories"), `L.md: missing section "## Category Results"`},
		{"second section", validBoard + "\n## Category Results\n", `L.md:20: second "## Category Results" section (the first is on line 10)`},
		{"table outside subsection", edit("### m\n", ""), `L.md:13: table outside a "### <model-id>" subsection`},
		{"no table", edit("| Category | Pass Rate | Passed | Total | Status |\n|---|---|---|---|---|\n| dma | 50.0% | 1 | 2 | PARTIAL |\n", "nothing here\n"), `L.md:12: subsection "m" has no category table (want "| Category | Pass Rate | Passed | Total | Status |")`},
		{"renamed column", edit("| Pass Rate |", "| pass@1 |"), `L.md:14: unexpected table header "| Category | pass@1 | Passed | Total | Status |": want "| Category | Pass Rate | Passed | Total | Status |"`},
		{"reordered columns", edit("| Passed | Total |", "| Total | Passed |"), `L.md:14: unexpected table header "| Category | Pass Rate | Total | Passed | Status |": want "| Category | Pass Rate | Passed | Total | Status |"`},
		{"no separator", edit("|---|---|---|---|---|\n", ""), `L.md:15: expected the table's separator row, found "| dma | 50.0% | 1 | 2 | PARTIAL |"`},
		{"rate without percent", edit("50.0%", "0.5"), `L.md:16: model "m": category "dma": Pass Rate "0.5" is not a percentage like "87.5%"`},
		{"rate above 100", edit("50.0%", "150.0%"), `L.md:16: model "m": category "dma": Pass Rate "150.0%" is above 100%`},
		{"fractional count", edit("| 1 | 2 |", "| 1.5 | 2 |"), `L.md:16: model "m": category "dma": Passed "1.5" is not a non-negative integer`},
		{"passed above total", edit("| 1 | 2 |", "| 3 | 2 |"), `L.md:16: model "m": category "dma": Passed 3 is more than Total 2`},
		{"unknown status", edit("PARTIAL", "MEH"), `L.md:16: model "m": category "dma": Status "MEH" is not one of PASS, PARTIAL, FAIL`},
		{"missing cell", edit("| 2 | PARTIAL |", "| PARTIAL |"), `L.md:16: model "m": row has 4 cells, want 5 (Category | Pass Rate | Passed | Total | Status)`},
		{"unterminated row", edit("| PARTIAL |", "| PARTIAL"), `L.md:16: table row does not end with "|": "| dma | 50.0% | 1 | 2 | PARTIAL"`},
		{"duplicate category", edit("| dma | 50.0% | 1 | 2 | PARTIAL |\n", "| dma | 50.0% | 1 | 2 | PARTIAL |\n| dma | 50.0% | 1 | 2 | PARTIAL |\n"), `L.md:17: model "m": duplicate category "dma"`},
		{"duplicate model", edit("## Layer Pass Rates", "### m\n\n## Layer Pass Rates"), `L.md:18: duplicate subsection for model "m"`},
		{"second table", edit("\n## Layer Pass Rates", "\n| x | 1.0% | 1 | 1 | PASS |\n## Layer Pass Rates"), `L.md:18: model "m": a second table in the subsection`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseLeaderboard("L.md", []byte(tt.content))
			require.EqualError(t, err, tt.want)
		})
	}
	lb, err := ParseLeaderboard("L.md", []byte(strings.ReplaceAll(validBoard, "\n", "\r\n")))
	require.NoError(t, err, "CRLF line endings are accepted")
	require.Equal(t, []CategoryRow{{Category: "dma", PassRatePercent: 50, Passed: 1, Total: 2, Status: "PARTIAL"}}, lb.Models[0].Rows)
	_, err = ReadLeaderboard(filepath.Join(t.TempDir(), "none.md"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

func FuzzParseLeaderboard(f *testing.F) {
	f.Add([]byte(validBoard))
	f.Add([]byte(strings.Replace(validBoard, "50.0%", "100%", 1)))
	f.Add([]byte("# x\n<!-- SCHEMA_VERSION: 1 -->\n## Category Results\n### a\n| Category | Pass Rate | Passed | Total | Status |\n|---|---|---|---|---|\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lb, err := ParseLeaderboard("fuzz.md", data)
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "fuzz.md"), err.Error())
			return
		}
		require.Equal(t, LeaderboardSchemaVersion, lb.SchemaVersion)
		seen := map[string]bool{}
		for _, m := range lb.Models {
			require.NotEmpty(t, m.Model)
			require.False(t, seen[m.Model])
			seen[m.Model] = true
			for _, r := range m.Rows {
				require.NotEmpty(t, r.Category)
				require.LessOrEqual(t, r.Passed, r.Total)
				require.GreaterOrEqual(t, r.Passed, 0)
				require.False(t, math.IsNaN(r.PassRatePercent))
				require.LessOrEqual(t, r.PassRatePercent, 100.0)
				require.Contains(t, []string{StatusPass, StatusPartial, StatusFail}, r.Status, fmt.Sprint(r))
			}
		}
	})
}

func TestLeaderboardEscapesHostileNames(t *testing.T) {
	model := "<img src=x onerror=alert(1)> @octocat [x](javascript:alert(1)) #1 `x` *y* a|b\\c"
	category := "<!-- dma | gpio"
	rep := &score.Report{
		Models: []score.ModelScore{{Model: model,
			CategoryScores: []score.CategoryScore{{Category: category, Breakdown: score.Breakdown{PassAt1: 0.5, TotalSamples: 2, PassedSamples: 1}}},
			PerCheckStats:  []score.PerCheckStat{{CheckName: "@octocat\n# heading", Category: category, TotalRuns: 2, FailCount: 1, PassRate: 0.5, FailingTCIDs: []string{"<b>x</b>"}}},
		}},
		Warnings: []string{"- [ ] <script>alert(1)</script>\n## not a heading"},
	}
	board := string(LeaderboardMarkdown(rep, Options{RunID: "r`1"}))
	perCheck := string(LeaderboardPerCheckMarkdown(rep, Options{}))
	for name, md := range map[string]string{"LEADERBOARD.md": board, "LEADERBOARD_PER_CHECK.md": perCheck} {
		md = strings.Replace(md, SchemaComment(LeaderboardSchemaVersion), "", 1)
		require.NotRegexp(t, `<[A-Za-z!/]`, md, name)
		require.NotContains(t, md, "@octocat", name)
		require.NotRegexp(t, `(^|[^\\])\]\(`, md, name)
		require.NotRegexp(t, "(?m)^(## not|# heading)", md, name)
		require.NotRegexp(t, `(^|\W)#1`, md, name)
	}
	require.Contains(t, board, "### &lt;img src=x onerror=alert(1)&gt; @&#8203;octocat [x\\](javascript:alert(1)) #&#8203;1 \\`x\\` \\*y\\* a\\|b\\\\c\n")
	require.Contains(t, board, "\n- \\- [ ] &lt;script&gt;alert(1)&lt;/script&gt; ## not a heading\n")
	require.Contains(t, board, "\nRun: r\\`1\n")
	require.Contains(t, perCheck, "| @&#8203;octocat # heading | &lt;!-- dma \\| gpio | ")

	lb, err := ParseLeaderboard("L.md", []byte(board))
	require.NoError(t, err)
	require.Equal(t, model, lb.Models[0].Model, "the reader undoes the escaping")
	require.Equal(t, category, lb.Models[0].Rows[0].Category)
}
