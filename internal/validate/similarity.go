package validate

import (
	"strings"

	"github.com/embedeval/embedeval-go/internal/diag"
)

// SimilarityRule is the rule of the warning about an accepted variant that
// is nearly the reference.
const SimilarityRule = "accept-similarity"

// maxVariantOverlap is the share of the reference's lines an accepted
// variant may repeat, in order, before validate warns that it proves little.
const maxVariantOverlap = 0.9

// sharedLines returns how many of ref's non-blank lines reappear in variant
// in the same order (the longest common subsequence of the trimmed
// non-blank lines), and how many non-blank lines ref has.
func sharedLines(ref, variant string) (shared, total int) {
	a, b := contentLines(ref), contentLines(variant)
	if len(a) == 0 || len(b) == 0 {
		return 0, len(a)
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)], len(a)
}

func contentLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// similarityProblem warns when an accepted variant repeats most of the
// reference: it then says little about whether the checks accept a correct
// answer written differently, which is what variants are for. A blind
// answer is exempt: its author never saw the reference, so its likeness is
// what an independent engineer writes, not a copy.
func similarityProblem(path, ref, variant string) *diag.Problem {
	if isBlind(path) {
		return nil
	}
	shared, total := sharedLines(ref, variant)
	if total < 10 || float64(shared) < maxVariantOverlap*float64(total) {
		return nil
	}
	p := diag.Warnf(path, 0, 0, SimilarityRule, "accepted variant repeats %d of the reference's %d lines (%.0f%%): it proves little; write one with a different structure, names and order",
		shared, total, 100*float64(shared)/float64(total))
	return &p
}
