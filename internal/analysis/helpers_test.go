package analysis

import (
	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/score"
)

// ls describes one layer of a test result.
type ls struct {
	n      int
	st     result.Status
	failed []string // failed check names
	passed []string // passed check names
	reason string
	err    string
	ctype  string
}

func layer(n int, st result.Status, failed ...string) ls { return ls{n: n, st: st, failed: failed} }

// mk builds a result; its status follows the evaluator's rule (first failed
// layer below L4: failed; else an errored layer below L4: error; else passed).
func mk(model, caseID string, attempt int, layers ...ls) result.EvalResult {
	r := result.EvalResult{CaseID: caseID, Model: model, Attempt: attempt, GeneratedCode: "int main(void){}", Scenario: "generation"}
	errored := false
	for _, s := range layers {
		l := result.LayerResult{Layer: s.n, Name: result.LayerName(s.n), Status: s.st, Passed: s.st == result.StatusPassed,
			Reason: s.reason, Details: []result.CheckDetail{}}
		if s.err != "" {
			l.Error = result.Ptr(s.err)
		}
		ct := s.ctype
		if ct == "" {
			ct = "constraint"
		}
		for _, c := range s.passed {
			l.Details = append(l.Details, result.CheckDetail{CheckName: c, Passed: true, CheckType: ct, Weight: 1})
		}
		for _, c := range s.failed {
			l.Details = append(l.Details, result.CheckDetail{CheckName: c, Passed: false, CheckType: ct, Weight: 1})
		}
		r.Layers = append(r.Layers, l)
		if s.n < result.LayerMutation {
			if s.st == result.StatusFailed && r.FailedAtLayer == nil {
				n := s.n
				r.FailedAtLayer = &n
			}
			errored = errored || s.st == result.StatusError
		}
	}
	switch {
	case r.FailedAtLayer != nil:
		r.Status = result.StatusFailed
	case errored:
		r.Status = result.StatusError
	default:
		r.Status, r.Passed = result.StatusPassed, true
	}
	return r
}

// pass is a result where L0-L3 passed and L4 passed.
func pass(model, caseID string, attempt int) result.EvalResult {
	return mk(model, caseID, attempt, layer(0, result.StatusPassed), layer(1, result.StatusPassed),
		layer(2, result.StatusPassed), layer(3, result.StatusPassed), layer(4, result.StatusPassed))
}

// failAt is a result failing at layer n with the given failed checks; later
// layers are skipped (halted).
func failAt(model, caseID string, attempt, n int, checks ...string) result.EvalResult {
	var layers []ls
	for i := 0; i <= result.LayerMutation; i++ {
		switch {
		case i < n:
			layers = append(layers, layer(i, result.StatusPassed))
		case i == n:
			layers = append(layers, layer(i, result.StatusFailed, checks...))
		default:
			layers = append(layers, ls{n: i, st: result.StatusSkipped, reason: "halted"})
		}
	}
	return mk(model, caseID, attempt, layers...)
}

func testLookup() score.Lookup {
	return score.LookupFrom([]cases.Metadata{
		{ID: "gpio-basic-001", Category: "gpio-basic", Difficulty: "easy", Tier: "core"},
		{ID: "dma-001", Category: "dma", Difficulty: "hard", Tier: "core"},
		{ID: "timer-001", Category: "timer", Difficulty: "easy", Tier: "core"},
		{ID: "uart-001", Category: "uart", Difficulty: "easy", Tier: "sanity"},
	})
}
