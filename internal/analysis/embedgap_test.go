package analysis

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/score"
)

func TestDefaultExternalBenchmarks(t *testing.T) {
	ext, err := DefaultExternalBenchmarks()
	require.NoError(t, err)
	require.NotEmpty(t, ext)
	for _, e := range ext {
		// The shipped table holds placeholders only.
		require.True(t, e.Example, e.Model)
		require.Equal(t, DefaultBenchmark, e.Benchmark)
		require.Contains(t, e.Source, "fill from the model card")
	}
}

func TestParseExternalBenchmarks(t *testing.T) {
	tests := []struct {
		file    string
		wantErr string
		n       int
	}{
		{"external_valid.yaml", "", 3},
		{"external_unknown_field.yaml", "field score not found", 0},
		{"external_percent.yaml", "not in [0, 1]", 0},
		{"external_duplicate.yaml", "duplicate entry", 0},
		{"external_missing_score.yaml", "pass_at_1 is required", 0},
		{"external_missing_model.yaml", "model is required", 0},
		{"external_two_docs.yaml", "more than one YAML document", 0},
		{"external_empty.yaml", "empty file", 0},
		{"external_wrong_type.yaml", "cannot unmarshal", 0},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tc.file))
			require.NoError(t, err)
			ext, err := ParseExternalBenchmarks(tc.file, data)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				require.ErrorContains(t, err, tc.file)
				return
			}
			require.NoError(t, err)
			require.Len(t, ext, tc.n)
			require.Equal(t, "a", ext[0].Model)
			require.Equal(t, "HumanEval", ext[0].Benchmark)
			require.Equal(t, "MBPP", ext[1].Benchmark)
		})
	}
}

func TestEmbedGaps(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "external_valid.yaml"))
	require.NoError(t, err)
	ext, err := ParseExternalBenchmarks("external_valid.yaml", data)
	require.NoError(t, err)
	comparable := 0.25
	models := []score.ModelScore{
		{Model: "a", PassAt1: 0.6, TotalCases: 3},
		{Model: "b", PassAt1: 0.4, PassAt1Comparable: &comparable, TotalCases: 2},
		{Model: "c", PassAt1: 0.7, TotalCases: 3},
	}
	gaps := EmbedGaps(models, ext, DefaultBenchmark)
	require.Len(t, gaps, 2)
	require.Equal(t, "a", gaps[0].Model)
	require.InDelta(t, -0.3, gaps[0].Gap, 1e-12)
	require.True(t, gaps[0].Example)
	require.Equal(t, "b", gaps[1].Model)
	require.InDelta(t, -0.25, gaps[1].Gap, 1e-12)
	require.False(t, gaps[1].Example)
	require.Empty(t, EmbedGaps(models, ext, "APPS"))
}

func TestSafetyGuide(t *testing.T) {
	tiers := []struct {
		rate float64
		want RiskTier
	}{{0, Critical}, {0.4999, Critical}, {0.5, Caution}, {0.7999, Caution}, {0.8, Moderate}, {0.8999, Moderate}, {0.9, Reliable}, {1, Reliable}}
	for _, tc := range tiers {
		require.Equal(t, tc.want, TierFor(tc.rate), tc.rate)
	}
	cats := []score.CategoryScore{
		{Category: "uart", Breakdown: score.Breakdown{PassAt1: 0.95, TotalSamples: 10}},
		{Category: "dma", Breakdown: score.Breakdown{PassAt1: 0.2, TotalSamples: 10}},
		{Category: "adc", Breakdown: score.Breakdown{PassAt1: 0.2, TotalSamples: 4}},
		{Category: "ble", Breakdown: score.Breakdown{PassAt1: 0, TotalSamples: 0}},
		{Category: "timer", Breakdown: score.Breakdown{PassAt1: 0.85, TotalSamples: 10}},
	}
	guide := SafetyGuide(cats)
	var got []string
	for _, g := range guide {
		got = append(got, g.Category+" "+string(g.Tier))
		require.Equal(t, Recommendation(g.Tier), g.Recommendation)
	}
	require.Equal(t, []string{"adc Critical", "dma Critical", "timer Moderate", "uart Reliable"}, got)
	for _, tr := range RiskTiers() {
		require.NotEmpty(t, TierRange(tr))
	}
}
