package github

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/score"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// bd builds a breakdown of passed of n samples with its Wilson interval.
func bd(passed, n int) score.Breakdown {
	p := float64(passed) / float64(n)
	lo, hi := score.Wilson(p, n, score.Z95)
	return score.Breakdown{PassAt1: p, PassAt1CI: [2]float64{lo, hi}, TotalSamples: n, PassedSamples: passed, TotalCases: n / 3}
}

func model(name string, passed, n, infra int, cats []score.CategoryScore, checks []score.PerCheckStat) score.ModelScore {
	b := bd(passed, n)
	return score.ModelScore{Model: name, PassAt1: b.PassAt1, PassAt1CI: b.PassAt1CI, JudgedSamples: n, PassedSamples: passed, TotalCases: n / 3,
		CategoryScores: cats, PerCheckStats: checks, Errors: score.ErrorCounts{Infrastructure: infra, Results: infra}}
}

func cat(name string, passed, n int) score.CategoryScore {
	return score.CategoryScore{Category: name, Breakdown: bd(passed, n)}
}

func check(name, category string, runs, fails int, ids ...string) score.PerCheckStat {
	return score.PerCheckStat{CheckName: name, Category: category, TotalRuns: runs, FailCount: fails,
		PassRate: float64(runs-fails) / float64(runs), FailingTCIDs: ids}
}

func beforeAfter() (*score.Report, *score.Report) {
	before := &score.Report{Models: []score.ModelScore{
		model("claude-x", 90, 200, 0, []score.CategoryScore{
			cat("dma", 10, 60), cat("gpio", 40, 60), cat("isr", 30, 60), cat("timer", 10, 20),
		}, []score.PerCheckStat{
			check("dma_cache_flush", "dma", 60, 10, "dma-001"),
			check("isr_no_blocking", "isr", 60, 0),
		}),
		model("retired-model", 50, 100, 0, nil, nil),
	}}
	after := &score.Report{
		Models: []score.ModelScore{
			model("claude-x", 120, 200, 2, []score.CategoryScore{
				cat("dma", 40, 60),   // beyond noise, up
				cat("gpio", 20, 60),  // beyond noise, down
				cat("isr", 34, 60),   // within noise
				cat("timer", 10, 20), // unchanged: not shown
				cat("uart|spi", 5, 10),
			}, []score.PerCheckStat{
				check("dma_cache_flush", "dma", 60, 12, "dma-001", "dma-002"),
				check("isr_no_blocking", "isr", 60, 8, "isr-001", "isr-002", "isr-003", "isr-004", "isr-005", "isr-006", "isr-007"),
				check("uart_baud", "uart|spi", 10, 5, "uart-001"),
			}),
			model("gpt-y", 60, 150, 0, []score.CategoryScore{cat("dma", 20, 60)}, []score.PerCheckStat{
				check("dma_cache_flush", "dma", 60, 40, "dma-001"),
			}),
		},
		Overall:         score.OverallScore{TotalCases: 70},
		NSamplesPerCase: 3,
		Warnings:        []string{"2 results with infrastructure errors are kept out of every denominator"},
	}
	return before, after
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	require.Equal(t, string(want), got)
}

func TestRenderPRBodyGolden(t *testing.T) {
	before, after := beforeAfter()
	opts := BodyOptions{
		RunID:      "2026-04-19T12-00-00Z",
		RunURL:     "https://github.com/octo/bench/actions/runs/42",
		HeatmapURL: HeatmapURL("https://github.com/", "octo", "bench", "results/2026-04-19T12-00-00Z", "results", "heatmap.svg"),
	}
	body := RenderPRBody(before, after, opts)
	golden(t, "pr_body.md", body)
	require.Equal(t, body, RenderPRBody(before, after, opts), "deterministic")
	require.True(t, strings.HasPrefix(body, ResultsMarker+"\n"))
	require.Contains(t, body, "![pass@1 by model and category](https://github.com/octo/bench/blob/results/2026-04-19T12-00-00Z/results/heatmap.svg?raw=true)")
}

func TestRenderPRBodyFirstRun(t *testing.T) {
	_, after := beforeAfter()
	golden(t, "pr_body_first_run.md", RenderPRBody(nil, after, BodyOptions{RunID: "r1"}))
}

func TestRenderPRBodyFitsTheLimit(t *testing.T) {
	before, after := beforeAfter()
	for range 6 {
		after.Models[0].CategoryScores = append(after.Models[0].CategoryScores, after.Models[0].CategoryScores...)
	}
	full := RenderPRBody(before, after, BodyOptions{})
	for _, limit := range []int{len(full) / 2, 2500} {
		body := RenderPRBody(before, after, BodyOptions{MaxLength: limit})
		require.LessOrEqual(t, utf8.RuneCountInString(body), limit)
		require.Contains(t, body, "left out to fit GitHub's size limit")
		require.Contains(t, body, "### New failures by check")
	}
	tiny := RenderPRBody(before, after, BodyOptions{MaxLength: 100})
	require.Equal(t, 100, utf8.RuneCountInString(tiny))
}

func TestCompare(t *testing.T) {
	iv := func(lo, hi float64) *[2]float64 { return &[2]float64{lo, hi} }
	tests := []struct {
		name          string
		before, after *[2]float64
		want          Verdict
	}{
		{"no baseline", nil, iv(0.1, 0.2), NoBaseline},
		{"removed", iv(0.1, 0.2), nil, Removed},
		{"overlap", iv(0.1, 0.3), iv(0.2, 0.4), WithinNoise},
		{"touching counts as overlap", iv(0.1, 0.3), iv(0.3, 0.5), WithinNoise},
		{"improved", iv(0.1, 0.3), iv(0.31, 0.5), Improved},
		{"regressed", iv(0.4, 0.6), iv(0.1, 0.39), Regressed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { require.Equal(t, tt.want, Compare(tt.before, tt.after)) })
	}
}

// benchCategories are the corpus's 24 categories.
var benchCategories = []string{
	"adc", "ble", "boot", "device-tree", "dma", "gpio-basic", "isr-concurrency", "kconfig", "linux-driver",
	"linux-userspace", "memory-opt", "networking", "ota", "power-mgmt", "pwm", "security", "sensor-driver",
	"spi-i2c", "storage", "threading", "timer", "uart", "watchdog", "yocto",
}

// benchModels are model names as users write them, longest last.
var benchModels = []string{
	"claude-sonnet-4-5", "gpt-4o-mini", "openai:gpt-4.1", "claude-code://sonnet", "llama-3.1-70b-instruct",
	"qwen2.5-coder-32b", "deepseek-coder-v2", "gemini-2.5-pro", "mistral-large-2411", "anthropic/claude-3-5-sonnet-20241022",
}

// mix is a small deterministic hash of its arguments, for fixture numbers.
func mix(parts ...any) int {
	h := uint32(2166136261)
	for _, b := range []byte(fmt.Sprint(parts...)) {
		h = (h ^ uint32(b)) * 16777619
	}
	return int(h >> 1)
}

// benchReports is a before and after of n models over the 24 categories:
// 4 cases × 3 samples per category and model, 3 checks per category, about
// one cell in eight changed beyond noise, one in eight unchanged, the rest
// within noise; at 10 models the last one has no baseline.
func benchReports(n int) (*score.Report, *score.Report) {
	before, after := &score.Report{}, &score.Report{NSamplesPerCase: 3, Overall: score.OverallScore{TotalCases: 4 * len(benchCategories)}}
	for i, name := range benchModels[:n] {
		var bc, ac []score.CategoryScore
		var bk, ak []score.PerCheckStat
		bp, ap := 0, 0
		for _, c := range benchCategories {
			const samples = 12
			a := mix(name, c) % (samples + 1)
			b := a
			k := mix(c, name, "change") % 16
			switch {
			case k == 0 || k == 8: // unchanged
			case k == 1 && a <= samples-9:
				b = a + 9
			case k == 2 && a >= 9:
				b = a - 9
			default:
				b = min(samples, max(0, a+k%3-1))
			}
			if b == a && k != 0 && k != 8 && a < samples {
				b = a + 1
			}
			ac = append(ac, cat(c, a, samples))
			bc = append(bc, cat(c, b, samples))
			ap, bp = ap+a, bp+b
			for k := range 3 {
				chk := fmt.Sprintf("%s_check_%d", strings.ReplaceAll(c, "-", "_"), k)
				var ids, was []string
				for x := range 4 {
					id := fmt.Sprintf("%s-%03d", c, x+1)
					if mix(name, chk, x)%5 == 0 {
						ids = append(ids, id)
					}
					if mix(name, chk, x, "before")%4 == 0 {
						was = append(was, id)
					}
				}
				ak = append(ak, check(chk, c, samples, len(ids)*3, ids...))
				bk = append(bk, check(chk, c, samples, len(was)*3, was...))
			}
		}
		after.Models = append(after.Models, model(name, ap, samples24(), i%3, ac, ak))
		if i < n-1 || n == 2 {
			before.Models = append(before.Models, model(name, bp, samples24(), 0, bc, bk))
		}
	}
	after.Warnings = []string{"1 result with an infrastructure error is kept out of every denominator"}
	return before, after
}

func samples24() int { return 12 * len(benchCategories) }

// checkBody asserts the shape every body has: within limit, <details>
// blocks written as GitHub needs them to render Markdown inside, the
// per-model table open, and every table row with as many cells as its
// header.
func checkBody(t *testing.T, body string, limit int) {
	t.Helper()
	require.LessOrEqual(t, utf8.RuneCountInString(body), limit)
	require.True(t, strings.HasPrefix(body, ResultsMarker+"\n"))
	lines := strings.Split(body, "\n")
	depth, cells := 0, 0
	for i, l := range lines {
		switch {
		case l == "<details>":
			require.Zero(t, depth, "line %d: nested <details>", i+1)
			depth++
			require.Equal(t, "", lines[i-1], "line %d: blank line before <details>", i+1)
			require.True(t, strings.HasPrefix(lines[i+1], "<summary>") && strings.HasSuffix(lines[i+1], "</summary>"), "line %d: <summary> follows <details>", i+2)
			require.Equal(t, "", lines[i+2], "line %d: blank line after <summary>, so GitHub renders the Markdown inside", i+3)
		case l == "</details>":
			require.Equal(t, 1, depth, "line %d: </details> without <details>", i+1)
			depth--
			require.Equal(t, "", lines[i-1], "line %d: blank line before </details>", i+1)
			require.Equal(t, "", lines[i+1], "line %d: blank line after </details>", i+1)
		case strings.Contains(l, "details>") || strings.Contains(l, "summary>"):
			require.True(t, strings.HasPrefix(l, "<summary>"), "line %d: stray HTML %q", i+1, l)
		case strings.HasPrefix(l, "| "):
			n := countCells(l)
			if cells == 0 {
				cells = n
			}
			require.Equal(t, cells, n, "line %d: %q", i+1, l)
		default:
			cells = 0
		}
	}
	require.Zero(t, depth, "every <details> is closed")
	model := strings.Index(body, "### pass@1 by model\n")
	require.GreaterOrEqual(t, model, 0)
	if d := strings.Index(body, "<details>"); d >= 0 {
		require.Greater(t, d, strings.Index(body, "### pass@1 by model and category"), "the per-model table stays open")
	}
}

// countCells counts the cells of a Markdown table row, honouring "\|".
func countCells(row string) int {
	n := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n - 1
}

func TestRenderPRBodyModels(t *testing.T) {
	for _, n := range []int{2, 10} {
		t.Run(fmt.Sprintf("%d models", n), func(t *testing.T) {
			before, after := benchReports(n)
			opts := BodyOptions{
				RunID:      "2026-04-20T03-17-00Z",
				RunURL:     "https://github.com/octo/bench/actions/runs/43",
				HeatmapURL: HeatmapURL("https://github.com", "octo", "bench", "results/2026-04-20T03-17-00Z", "results", "heatmap.svg"),
			}
			body := RenderPRBody(before, after, opts)
			golden(t, fmt.Sprintf("pr_body_%d_models.md", n), body)
			checkBody(t, body, MaxBodyLength)
			require.Equal(t, 2, strings.Count(body, "<details>"), "the category and failure tables fold")
			require.Contains(t, body, "Changes beyond noise, regressions first")
			for _, m := range after.Models {
				require.True(t, strings.Contains(body, "\n| "+m.Model+" | "), "%s has rows in the category table", m.Model)
			}
			t.Logf("%d models: %d lines, %d table rows, %d characters", n, strings.Count(body, "\n"),
				strings.Count(body, "\n| ")-2*strings.Count(body, "\n| --- "), utf8.RuneCountInString(body))

			// Cut to a smaller limit, the cut note stays inside the fold.
			small := RenderPRBody(before, after, BodyOptions{MaxLength: 12000})
			checkBody(t, small, 12000)
			require.Contains(t, small, "left out to fit GitHub's size limit")
			note := strings.Index(small, "left out to fit")
			require.Less(t, note, strings.Index(small[note:], "</details>")+note)
		})
	}
}

func TestRenderPRBodyShortTablesStayOpen(t *testing.T) {
	before, after := beforeAfter()
	body := RenderPRBody(before, after, BodyOptions{})
	checkBody(t, body, MaxBodyLength)
	require.NotContains(t, body, "<details>", "5 and 3 rows are not folded")
}

func TestRenderPRBodyHostileNames(t *testing.T) {
	before, after := benchReports(2)
	evil := "</summary></details><script>x</script> @octocat #1 | `a` [x](javascript:alert(1))\n# h"
	for _, r := range []*score.Report{before, after} {
		r.Models[0].Model = evil
		for i := range r.Models[0].CategoryScores[:3] {
			r.Models[0].CategoryScores[i].Category = evil + strconv.Itoa(i)
		}
	}
	after.Warnings = append(after.Warnings, strings.Repeat("<b>very long warning</b> ", 1000))
	body := RenderPRBody(before, after, BodyOptions{})
	checkBody(t, body, MaxBodyLength)
	for _, bad := range []string{"<script>", "</summary></details>", "<b>", "@octocat", "#1 ", "[x](javascript:", "\n# h"} {
		require.False(t, strings.Contains(body, bad), "%q in the body", bad)
	}
	require.True(t, strings.Contains(body, "&lt;/summary&gt;&lt;/details&gt;&lt;script&gt;x&lt;/script&gt; @&#8203;octocat #&#8203;1 \\| \\`a\\` [x\\](javascript:alert(1)) # h"))
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "- ") {
			require.Less(t, utf8.RuneCountInString(l), 2*maxWarningRunes, "long warnings are shortened")
		}
	}
}
