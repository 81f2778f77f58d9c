package pipeline

// Reached only from tests (issue 17: test-only code stays out of the binaries).

// CountSplit is the naive split the planner is measured against: jobs are
// allotted to groups in proportion to their item counts (at least one each,
// at most maxJobs in all) and each group is cut into runs of consecutive
// items of (nearly) equal count, ignoring durations.
func CountSplit(groups [][]float64, maxJobs int) [][]Bin {
	total := 0
	nonEmpty := 0
	for _, g := range groups {
		total += len(g)
		if len(g) > 0 {
			nonEmpty++
		}
	}
	out := make([][]Bin, len(groups))
	spare := max(0, maxJobs-nonEmpty)
	for g, ws := range groups {
		if len(ws) == 0 {
			continue
		}
		k := 1 + spare*len(ws)/max(total, 1)
		k = min(k, len(ws))
		for b := range k {
			lo, hi := b*len(ws)/k, (b+1)*len(ws)/k
			var bin Bin
			for i := lo; i < hi; i++ {
				bin.Items = append(bin.Items, i)
				bin.Load += ws[i]
			}
			out[g] = append(out[g], bin)
		}
	}
	return out
}
