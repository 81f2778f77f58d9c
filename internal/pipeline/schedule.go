package pipeline

import (
	"cmp"
	"fmt"
	"slices"
)

// eps absorbs floating-point noise when comparing loads.
const eps = 1e-9

// Bin is one job of a schedule: the indices of its items and their total.
type Bin struct {
	Items []int
	Load  float64
}

// Makespan is the largest load of the bins.
func Makespan(bins []Bin) float64 {
	m := 0.0
	for _, b := range bins {
		m = max(m, b.Load)
	}
	return m
}

// LowerBound is max(total / jobs, longest item): no split of the items over
// that many jobs can finish sooner.
func LowerBound(weights []float64, jobs int) float64 {
	total, longest := 0.0, 0.0
	for _, w := range weights {
		total += w
		longest = max(longest, w)
	}
	if jobs < 1 {
		jobs = 1
	}
	return max(total/float64(jobs), longest)
}

// Schedule splits weighted items over k bins: longest processing time first
// (each item, longest first with ties by index, goes to the least-loaded bin,
// ties by bin index), then a local search that moves or swaps items out of
// the fullest bin while that makes it lighter without making the other bin
// as full. Deterministic. k is capped at the number of items; items in each
// bin are sorted by index.
func Schedule(weights []float64, k int) []Bin {
	k = min(k, len(weights))
	if k < 1 {
		return nil
	}
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(weights[b], weights[a]), cmp.Compare(a, b))
	})
	bins := make([]Bin, k)
	for _, i := range order {
		best := 0
		for j := 1; j < k; j++ {
			if bins[j].Load < bins[best].Load-eps {
				best = j
			}
		}
		bins[best].Items = append(bins[best].Items, i)
		bins[best].Load += weights[i]
	}
	improve(weights, bins)
	for i := range bins {
		slices.Sort(bins[i].Items)
	}
	return bins
}

// improve runs the move/swap local search on the fullest bin until no move
// helps (each accepted move strictly lowers the fullest bin and leaves the
// other one below the old maximum, so it terminates; the cap is a guard).
func improve(w []float64, bins []Bin) {
	for range 10000 {
		top := 0
		for j := range bins {
			if bins[j].Load > bins[top].Load+eps {
				top = j
			}
		}
		limit := bins[top].Load
		bestPeak, bestB, bestI, bestJ := limit-eps, -1, -1, -1
		for ii, i := range bins[top].Items {
			for b := range bins {
				if b == top {
					continue
				}
				// move i to b
				if peak := max(limit-w[i], bins[b].Load+w[i]); peak < bestPeak {
					bestPeak, bestB, bestI, bestJ = peak, b, ii, -1
				}
				// swap i with a lighter j of b
				for jj, j := range bins[b].Items {
					d := w[i] - w[j]
					if d <= eps {
						continue
					}
					if peak := max(limit-d, bins[b].Load+d); peak < bestPeak {
						bestPeak, bestB, bestI, bestJ = peak, b, ii, jj
					}
				}
			}
		}
		if bestB < 0 {
			return
		}
		i := bins[top].Items[bestI]
		bins[top].Items = slices.Delete(bins[top].Items, bestI, bestI+1)
		bins[top].Load -= w[i]
		if bestJ >= 0 {
			j := bins[bestB].Items[bestJ]
			bins[bestB].Items = slices.Delete(bins[bestB].Items, bestJ, bestJ+1)
			bins[bestB].Load -= w[j]
			bins[top].Items = append(bins[top].Items, j)
			bins[top].Load += w[j]
		}
		bins[bestB].Items = append(bins[bestB].Items, i)
		bins[bestB].Load += w[i]
	}
}

// Allot splits groups of items (items of a group must share a job: one
// container image and model) over at most maxJobs jobs. Every non-empty
// group gets one job; then the group with the longest job gets another
// while that shortens its longest job and jobs remain. The result has one
// schedule per group. It fails when there are more groups than jobs.
func Allot(groups [][]float64, maxJobs int) ([][]Bin, error) {
	out := make([][]Bin, len(groups))
	used := 0
	for g, ws := range groups {
		if len(ws) == 0 {
			continue
		}
		out[g] = Schedule(ws, 1)
		used++
	}
	if used > maxJobs {
		return nil, &TooFewJobsError{Groups: used, MaxJobs: maxJobs}
	}
	stuck := make([]bool, len(groups))
	for used < maxJobs {
		top := -1
		for g := range groups {
			if len(out[g]) == 0 || stuck[g] {
				continue
			}
			if top < 0 || Makespan(out[g]) > Makespan(out[top])+eps {
				top = g
			}
		}
		if top < 0 {
			break
		}
		// The fullest unstuck group must be the overall fullest, else no
		// extra job can shorten the plan.
		if Makespan(out[top]) < overall(out)-eps {
			break
		}
		cur := Makespan(out[top])
		accepted := false
		for k := len(out[top]) + 1; k <= len(groups[top]) && used+k-len(out[top]) <= maxJobs; k++ {
			cand := Schedule(groups[top], k)
			if Makespan(cand) < cur-eps {
				used += k - len(out[top])
				out[top] = cand
				accepted = true
				break
			}
		}
		if !accepted {
			stuck[top] = true
		}
	}
	return out, nil
}

func overall(schedules [][]Bin) float64 {
	m := 0.0
	for _, s := range schedules {
		m = max(m, Makespan(s))
	}
	return m
}

// TooFewJobsError is Allot's error when there are more image × model groups
// than jobs: every group needs a job of its own (a job runs in one image).
type TooFewJobsError struct {
	// Groups is the number of groups, the fewest jobs that can work.
	Groups int
	// MaxJobs is the limit that was given.
	MaxJobs int
}

func (e *TooFewJobsError) Error() string {
	return fmt.Sprintf("%d image × model groups need at least %d jobs; --max-jobs is %d", e.Groups, e.Groups, e.MaxJobs)
}
