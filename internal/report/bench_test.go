package report

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/score"
)

// benchCases makes n cases spread over every category, tier, difficulty and
// reasoning type.
func benchCases(n int) []cases.Metadata {
	cats, tiers, diffs, rts := cases.Categories(), cases.Tiers(), cases.Difficulties(), cases.ReasoningTypes()
	out := make([]cases.Metadata, n)
	for i := range out {
		c := cats[i%len(cats)]
		out[i] = cases.Metadata{ID: fmt.Sprintf("%s-%03d", c, i/len(cats)+1), Category: c, Tier: tiers[i%len(tiers)],
			Difficulty: diffs[i%len(diffs)], ReasoningTypes: []string{rts[i%len(rts)]}, L2Skip: i%5 == 0}
	}
	return out
}

// benchSpec gives the first extra models one attempt more than the others.
func benchSpec(models, nCases, attempts, extra, codeSize int) *genSpec {
	spec := &genSpec{cases: benchCases(nCases), checks: 2, codeSize: codeSize}
	for i := range models {
		spec.models = append(spec.models, fmt.Sprintf("model-%02d", i))
	}
	spec.attempts = func(model string) int {
		if model < fmt.Sprintf("model-%02d", extra) {
			return attempts + 1
		}
		return attempts
	}
	return spec
}

// peakHeap samples the live heap every few milliseconds until stop is
// called, and returns the largest value seen in bytes.
func peakHeap() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	done := make(chan struct{})
	result := make(chan uint64)
	go func() {
		var peak uint64
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				result <- peak
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 { close(done); return <-result }
}

// pipeline is what `merge` does after the artifacts are combined: read the
// result file, score it and write every report.
func pipeline(b *testing.B, path, outDir string, lookup score.Lookup) {
	f, err := os.Open(path)
	require.NoError(b, err)
	defer f.Close()
	rep, err := scoreStream(f, path, lookup)
	require.NoError(b, err)
	require.NoError(b, WriteRun(outDir, rep, Options{RunID: "bench", Generated: "2026-01-01T00:00:00Z"}))
}

func benchPipeline(b *testing.B, spec *genSpec) {
	dir := b.TempDir()
	path := filepath.Join(dir, "results.jsonl")
	f, err := os.Create(path)
	require.NoError(b, err)
	n, err := writeResults(f, spec)
	require.NoError(b, err)
	require.NoError(b, f.Close())
	st, err := os.Stat(path)
	require.NoError(b, err)
	lookup := score.LookupFrom(spec.cases)
	runtime.GC()
	b.ResetTimer()
	var peak uint64
	for b.Loop() {
		stop := peakHeap()
		pipeline(b, path, filepath.Join(dir, "out"), lookup)
		peak = max(peak, stop())
	}
	b.ReportMetric(float64(peak)/(1<<20), "MB-peak-heap")
	b.ReportMetric(float64(n), "results")
	b.ReportMetric(float64(st.Size())/(1<<20), "MB-input")
}

// BenchmarkPipeline100k: 10 models × 300 cases × 33-34 attempts (100,200
// results), 4 checks each: load JSON lines, score, write every report.
func BenchmarkPipeline100k(b *testing.B) { benchPipeline(b, benchSpec(10, 300, 33, 4, 200)) }

// BenchmarkPipeline1M: 1,000,000 results (10 models × 1,000 cases × 100
// attempts) with 2 KB of generated code each. Run with -benchtime 1x; the
// input file (~2.6 GB) is generated in b.TempDir first.
func BenchmarkPipeline1M(b *testing.B) { benchPipeline(b, benchSpec(10, 1000, 100, 0, 2048)) }
