package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
)

// quality is a split's makespan against the lower bound.
type quality struct{ planned, counted, bound float64 }

// groupsOf returns the plan's units as the planner sees them (weights per
// image × model group), for comparing splits.
func groupsOf(t testing.TB, sel []*cases.Case, models []string, samples int, tm Timings) [][]float64 {
	reg, err := platform.Default()
	require.NoError(t, err)
	pred := Predictor{Timings: tm, Build: true, Run: true}
	byImage := map[string][]float64{}
	var images []string
	for _, c := range sel {
		tg, ok := reg.Resolve(c)
		require.True(t, ok, c.Meta.ID)
		s, _ := pred.Predict(c, tg)
		if _, ok := byImage[tg.Image]; !ok {
			images = append(images, tg.Image)
		}
		byImage[tg.Image] = append(byImage[tg.Image], float64(samples)*s)
	}
	var groups [][]float64
	for range models {
		for _, im := range images {
			groups = append(groups, byImage[im])
		}
	}
	return groups
}

func measure(t testing.TB, groups [][]float64, maxJobs int) quality {
	s, err := Allot(groups, maxJobs)
	require.NoError(t, err)
	var all []float64
	for _, g := range groups {
		all = append(all, g...)
	}
	return quality{planned: overall(s), counted: overall(CountSplit(groups, maxJobs)), bound: LowerBound(all, min(maxJobs, len(all)))}
}

func bundledCorpus(t testing.TB) []*cases.Case {
	c := cases.LoadCorpus(filepath.Join("..", "..", "cases"), "")
	require.Empty(t, c.Broken)
	require.NotEmpty(t, c.Cases)
	return c.Cases
}

// paretoGroups spreads n heavy-tailed durations over g image groups.
func paretoGroups(seed uint64, n, g int) [][]float64 {
	w := pareto(seed, n, 1.5, 5)
	groups := make([][]float64, g)
	for i, x := range w {
		groups[i%g] = append(groups[i%g], x)
	}
	return groups
}

// TestMakespanBundledCorpus: on the bundled corpus's predicted durations
// the plan is within 5% of the lower bound max(total/jobs, longest unit).
func TestMakespanBundledCorpus(t *testing.T) {
	sel := bundledCorpus(t)
	for _, tc := range []struct {
		models []string
		jobs   []int
	}{
		// The bound max(total/jobs, longest unit) ignores that a job runs one
		// image and one model: with 7 images, few jobs cannot split the
		// three 90 s Yocto recipes or the 32 Zephyr cases finely enough
		// (63 cases: 16 jobs give 1.057 of the bound; 88 cases, 3 models:
		// 64 jobs give 1.07, as total/64 then equals the longest unit), so
		// the job counts start where grouping no longer binds.
		{[]string{"a"}, []int{32, 64, 256}},
		{[]string{"a", "b", "c"}, []int{96, 128, 256}},
	} {
		for _, samples := range []int{1, 5} {
			for _, jobs := range tc.jobs {
				models := tc.models
				q := measure(t, groupsOf(t, sel, models, samples, nil), jobs)
				require.LessOrEqual(t, q.planned, 1.05*q.bound, "%d models, %d samples, %d jobs: %+v", len(models), samples, jobs, q)
			}
		}
	}
}

// TestMakespanHeavyTail: on Pareto(1.5) durations spread over 6 images the
// plan is within 10% of the lower bound.
func TestMakespanHeavyTail(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		for _, jobs := range []int{32, 128, 256} {
			q := measure(t, paretoGroups(seed, 3000, 6), jobs)
			require.LessOrEqual(t, q.planned, 1.10*q.bound, "seed %d, %d jobs: %+v", seed, jobs, q)
		}
	}
}

// BenchmarkMakespan reports makespan / lower bound for the planner and for
// a count-based split (ratio 1 is optimal).
func BenchmarkMakespan(b *testing.B) {
	sel := bundledCorpus(b)
	type scenario struct {
		name   string
		groups [][]float64
		jobs   int
	}
	var ss []scenario
	for _, jobs := range []int{8, 16} {
		ss = append(ss, scenario{fmt.Sprintf("bundled/1model×5samples/%djobs", jobs), groupsOf(b, sel, []string{"a"}, 5, nil), jobs})
	}
	for _, jobs := range []int{24, 32, 64} {
		ss = append(ss, scenario{fmt.Sprintf("bundled/3models×5samples/%djobs", jobs), groupsOf(b, sel, []string{"a", "b", "c"}, 5, nil), jobs})
	}
	for _, jobs := range []int{32, 128, 256} {
		ss = append(ss, scenario{fmt.Sprintf("pareto1.5/3000units×6images/%djobs", jobs), paretoGroups(7, 3000, 6), jobs})
	}
	for _, s := range ss {
		b.Run(s.name, func(b *testing.B) {
			var q quality
			for b.Loop() {
				q = measure(b, s.groups, s.jobs)
			}
			b.ReportMetric(q.planned/q.bound, "plan/bound")
			b.ReportMetric(q.counted/q.bound, "count/bound")
			b.ReportMetric(q.bound, "bound-s")
		})
	}
}

// bigMerge writes 256 artifacts totalling 100,000 results (20,000 cases ×
// 5 samples, each with ~1 KiB of code) and returns the plan and corpus.
func bigMerge(b *testing.B, dir string) (*Plan, []*cases.Case) {
	const jobs, casesN, samples = 256, 20000, 5
	code := strings.Repeat("int x = 0; /* padding of a realistic answer */\n", 20)
	p := &Plan{Format: PlanFormat, Version: PlanVersion, BinaryVersion: "bench", Inputs: Inputs{Models: []string{"m"}, Samples: samples, Scenario: "generation", MaxJobs: jobs}}
	var corpus []*cases.Case
	for j := range jobs {
		p.Jobs = append(p.Jobs, Job{Index: j + 1, Name: fmt.Sprintf("bench · m · %d/%d", j+1, jobs), Image: "img", Targets: []string{"t"}, Model: "m", Samples: samples})
	}
	for i := range casesN {
		id := fmt.Sprintf("case-%05d", i)
		j := &p.Jobs[i%jobs]
		j.Cases = append(j.Cases, JobCase{CaseRef: CaseRef{ID: id, Hash: "sha256:00"}, Target: "t", PredictedSeconds: 1})
		corpus = append(corpus, &cases.Case{Meta: cases.Metadata{ID: id, Category: []string{"timer", "gpio-basic", "uart", "storage"}[i%4], SDK: "zephyr"}})
	}
	require.NoError(b, p.Seal())
	for _, j := range p.Jobs {
		var rs []result.EvalResult
		var refs []CaseRef
		for ci, c := range j.Cases {
			refs = append(refs, c.CaseRef)
			for a := 1; a <= samples; a++ {
				r := fakeResult(c.ID, "m", a, (ci+a)%3 != 0, 1.5)
				r.GeneratedCode = code
				rs = append(rs, r)
			}
		}
		require.NoError(b, WriteArtifact(filepath.Join(dir, ArtifactName(j.Index)), NewArtifact(p, j.Index, "bench", refs, time.Unix(0, 0), time.Second, rs)))
	}
	return p, corpus
}

// BenchmarkMerge256x100k merges 256 artifacts totalling 100,000 results
// into an empty results tree: collect, check, write the run, score,
// every report, the leaderboard and timings.json.
func BenchmarkMerge256x100k(b *testing.B) {
	artifacts := b.TempDir()
	p, corpus := bigMerge(b, artifacts)
	for b.Loop() {
		b.StopTimer()
		results := b.TempDir()
		b.StartTimer()
		o, err := Merge(context.Background(), MergeOptions{Plan: p, ArtifactsDir: artifacts, ResultsDir: results, RunID: "bench", Corpus: corpus})
		require.NoError(b, err)
		require.Equal(b, 100000, o.Record.Results)
	}
}
