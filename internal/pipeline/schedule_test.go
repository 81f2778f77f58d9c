package pipeline

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// pareto draws n heavy-tailed durations (shape alpha, minimum xm seconds).
func pareto(seed uint64, n int, alpha, xm float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]float64, n)
	for i := range out {
		out[i] = xm / math.Pow(1-r.Float64(), 1/alpha)
	}
	return out
}

// checkPartition asserts every item is in exactly one bin and the loads add up.
func checkPartition(t *testing.T, w []float64, bins []Bin) {
	t.Helper()
	seen := make([]int, len(w))
	for _, b := range bins {
		require.NotEmpty(t, b.Items)
		sum := 0.0
		for _, i := range b.Items {
			seen[i]++
			sum += w[i]
		}
		require.InDelta(t, sum, b.Load, 1e-6)
		require.True(t, slices.IsSorted(b.Items))
	}
	for i, n := range seen {
		require.Equal(t, 1, n, "item %d", i)
	}
}

func TestScheduleProperties(t *testing.T) {
	for _, tc := range []struct {
		name string
		w    []float64
		k    int
		want float64 // expected makespan, when known
	}{
		{"one bin", []float64{3, 1, 2}, 1, 6},
		{"more bins than items", []float64{3, 1}, 5, 3},
		{"LPT's classic bad case is fixed by the local search", []float64{3, 3, 2, 2, 2}, 2, 6},
		{"equal items", []float64{1, 1, 1, 1, 1, 1}, 3, 2},
		{"one giant", []float64{100, 1, 1, 1}, 2, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bins := Schedule(tc.w, tc.k)
			checkPartition(t, tc.w, bins)
			require.LessOrEqual(t, len(bins), tc.k)
			require.InDelta(t, tc.want, Makespan(bins), 1e-9)
			require.Equal(t, bins, Schedule(tc.w, tc.k), "deterministic")
		})
	}
}

func TestScheduleHeavyTailWithinTenPercent(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		w := pareto(seed, 2000, 1.5, 5)
		for _, k := range []int{16, 64, 256} {
			bins := Schedule(w, k)
			checkPartition(t, w, bins)
			lb := LowerBound(w, k)
			require.LessOrEqual(t, Makespan(bins), 1.10*lb, "seed %d, %d jobs", seed, k)
		}
	}
}

func TestAllot(t *testing.T) {
	groups := [][]float64{{50, 50, 50, 50}, {1, 1}, {}, {10, 10, 10}}
	s, err := Allot(groups, 6)
	require.NoError(t, err)
	jobs := 0
	for g, bins := range s {
		if len(groups[g]) == 0 {
			require.Empty(t, bins)
			continue
		}
		require.NotEmpty(t, bins)
		checkPartition(t, groups[g], bins)
		jobs += len(bins)
	}
	require.LessOrEqual(t, jobs, 6)
	require.Len(t, s[0], 4, "the heaviest group gets the spare jobs")
	require.InDelta(t, 50, overall(s), 1e-9)

	_, err = Allot([][]float64{{1}, {1}, {1}}, 2)
	require.EqualError(t, err, "3 image × model groups need at least 3 jobs; --max-jobs is 2")
}

func TestAllotStopsWhenNothingShortens(t *testing.T) {
	s, err := Allot([][]float64{{100, 1, 1, 1, 1}}, 256)
	require.NoError(t, err)
	require.InDelta(t, 100, overall(s), 1e-9)
	require.Len(t, s[0], 2, "a second job takes the small items; more would not help")
}

func TestCountSplit(t *testing.T) {
	groups := [][]float64{{9, 1, 1, 1}, {1, 1}}
	s := CountSplit(groups, 4)
	for g := range groups {
		checkPartition(t, groups[g], s[g])
	}
	require.Len(t, s[0], 2)
	require.Len(t, s[1], 1)
	require.InDelta(t, 10, overall(s), 1e-9)
}
