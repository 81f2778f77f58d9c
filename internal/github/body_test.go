package github

import (
	"flag"
	"os"
	"path/filepath"
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
