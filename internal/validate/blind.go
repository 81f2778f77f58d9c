package validate

import (
	"bufio"
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/embedeval/embedeval-go/internal/blindrec"
	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/scenario"
)

// Blind solutions are answers written from the case's prompt, context and
// metadata alone, by authors who never saw its reference or checks:
// checks/accept/blind-<n>.<ext> must pass like any accepted variant,
// checks/reject/blind-<n>.<ext> carry one defect and must fail on a check
// their header names ("must_fail: a, b"). See docs/CASE-FORMAT.md.

// Minimum blind set of a case under RequireBlind.
const (
	minBlindAccepts = 2
	minBlindRejects = 3
)

// BlindRule is the rule of blind-set problems.
const BlindRule = blindrec.Rule

// RejectReport is one rejected solution under checks/reject/.
type RejectReport struct {
	File string `json:"file"`
	// Defect is the header's "defect:" line.
	Defect string `json:"defect,omitempty"`
	// MustFail are the checks its header names ("L1"/"L2" name a layer).
	MustFail []string `json:"must_fail"`
	// Caught says a named check failed on it; CaughtBy are those checks.
	Caught   bool     `json:"caught"`
	CaughtBy []string `json:"caught_by"`
	// FailedOther are the other checks and layers that failed on it.
	FailedOther []string `json:"failed_other"`
	// NotRun are the named layers ("L1", "L2") and scenario runs
	// ("scenario_*", part of L2) that did not run here; a reject nothing
	// else named caught is then not judged, neither caught nor missed (a
	// skipped layer is not a pass).
	NotRun []string       `json:"not_run,omitempty"`
	Layers []LayerSummary `json:"layers"`
}

// BlindCounts sums a case's blind set.
type BlindCounts struct {
	Accepts        int `json:"accepts"`
	AcceptsPassed  int `json:"accepts_passed"`
	Rejects        int `json:"rejects"`
	RejectsCaught  int `json:"rejects_caught"`
	RejectsWrong   int `json:"rejects_caught_for_another_reason"`
	RejectsMissed  int `json:"rejects_missed"`
	RejectsInvalid int `json:"rejects_without_valid_must_fail"`
	// RejectsNotJudged are rejects no named check caught whose named layer
	// (L1/L2) or scenario runs did not run on this machine.
	RejectsNotJudged int `json:"rejects_not_judged_here"`
	// FirstRound counts the first_round verdicts checks/blind.yaml records
	// (the state before any adjudication), and Pending its entries still
	// awaiting a decision.
	FirstRound map[string]int `json:"first_round"`
	Pending    int            `json:"pending"`
}

// isBlind reports a blind solution's file name.
func isBlind(path string) bool { return strings.HasPrefix(filepath.Base(path), "blind-") }

// maxHeaderLines bounds how far a reject's header is searched.
const maxHeaderLines = 40

// rejectHeader reads the "defect:" and "must_fail:" lines among the first
// lines of a rejected solution.
func rejectHeader(src string) (defect string, mustFail []string, found bool) {
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 0; n < maxHeaderLines && sc.Scan(); n++ {
		line := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(sc.Text()), "/*#;-"))
		if v, ok := strings.CutPrefix(line, "defect:"); ok && defect == "" {
			defect = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "*/"))
		}
		if v, ok := strings.CutPrefix(line, "must_fail:"); ok && !found {
			found = true
			for _, name := range strings.Split(strings.TrimSuffix(strings.TrimSpace(v), "*/"), ",") {
				if name = strings.TrimSpace(name); name != "" {
					mustFail = append(mustFail, name)
				}
			}
		}
	}
	return defect, mustFail, found
}

// judgeReject evaluates one rejected solution: caught when a check (or a
// layer "L1"/"L2") its header names fails on it, with evidence (an
// inconclusive record is not a failure).
func judgeReject(ctx context.Context, s *checks.Session, ev *eval.Evaluator, cc *eval.CaseChecks, path string, known map[string]bool) (RejectReport, []diag.Problem) {
	rr := RejectReport{File: path, MustFail: []string{}, CaughtBy: []string{}, FailedOther: []string{}, Layers: []LayerSummary{}}
	data, err := cases.ReadFile(path)
	if err != nil {
		return rr, []diag.Problem{diag.Errorf(path, 0, 0, BlindRule, "cannot read rejected solution: %v", err)}
	}
	var ps []diag.Problem
	defect, mustFail, found := rejectHeader(string(data))
	rr.Defect = defect
	if mustFail != nil {
		rr.MustFail = mustFail
	}
	switch {
	case !found || len(mustFail) == 0:
		ps = append(ps, diag.Errorf(path, 0, 0, BlindRule, "rejected solution has no \"must_fail: <check>[, <check>]\" line in its first %d lines", maxHeaderLines))
	default:
		for _, name := range mustFail {
			if !known[name] && name != "L1" && name != "L2" {
				ps = append(ps, diag.Errorf(path, 0, 0, BlindRule, "must_fail names %q, which is not a check of this case", name))
			}
		}
	}
	res := ev.Evaluate(ctx, s, cc, string(data), eval.Subject{Model: "rejected-solution"})
	rr.Layers = summarizeLayers(res)
	failed := map[string]bool{}
	for _, l := range res.Layers {
		if l.Layer == result.LayerMutation {
			continue
		}
		if l.Status == result.StatusError {
			ps = append(ps, diag.Errorf(path, 0, 0, BlindRule, "L%d %s could not run on the rejected solution: %s", l.Layer, result.LayerShortName(l.Layer), deref(l.Error)))
			continue
		}
		if l.Layer == result.LayerCompile || l.Layer == result.LayerRuntime {
			name := "L" + string(rune('0'+l.Layer))
			switch {
			case l.Status == result.StatusFailed:
				failed[name] = true
			case l.Status == result.StatusSkipped:
				// The layer itself, and at L2 every scenario run it holds.
				for _, n := range mustFail {
					if n == name || (l.Layer == result.LayerRuntime && strings.HasPrefix(n, scenario.CheckPrefix)) {
						rr.NotRun = append(rr.NotRun, n)
					}
				}
			}
		}
		for _, d := range l.Details {
			if d.Failed() {
				failed[d.CheckName] = true
			}
		}
	}
	for _, name := range mustFail {
		if failed[name] {
			rr.CaughtBy = append(rr.CaughtBy, name)
		}
	}
	for name := range failed {
		if !slices.Contains(mustFail, name) {
			rr.FailedOther = append(rr.FailedOther, name)
		}
	}
	slices.Sort(rr.FailedOther)
	rr.Caught = len(rr.CaughtBy) > 0
	if found && len(mustFail) > 0 && !rr.Caught {
		if len(rr.NotRun) > 0 {
			ps = append(ps, diag.Warnf(path, 0, 0, BlindRule, "rejected solution not judged here: %s did not run (no named check failed on it)", strings.Join(rr.NotRun, ", ")))
			return rr, ps
		}
		if len(rr.FailedOther) > 0 {
			ps = append(ps, diag.Errorf(path, 0, 0, BlindRule, "rejected solution is caught for another reason: %s failed, not the named %s", strings.Join(rr.FailedOther, ", "), strings.Join(mustFail, ", ")))
		} else {
			ps = append(ps, diag.Errorf(path, 0, 0, BlindRule, "rejected solution passes: none of %s fails on it", strings.Join(mustFail, ", ")))
		}
	}
	return rr, ps
}

// blindCounts sums the blind solutions of a case report.
func blindCounts(cr *CaseReport) BlindCounts {
	var b BlindCounts
	for _, v := range cr.Variants {
		if isBlind(v.File) {
			b.Accepts++
			if v.Passed {
				b.AcceptsPassed++
			}
		}
	}
	for _, r := range cr.Rejects {
		if !isBlind(r.File) {
			continue
		}
		b.Rejects++
		switch {
		case len(r.MustFail) == 0:
			b.RejectsInvalid++
		case r.Caught:
			b.RejectsCaught++
		case len(r.NotRun) > 0:
			b.RejectsNotJudged++
		case len(r.FailedOther) > 0:
			b.RejectsWrong++
		default:
			b.RejectsMissed++
		}
	}
	return b
}

// blindSetProblem reports a case whose blind set is smaller than required.
func blindSetProblem(c *cases.Case, b BlindCounts) *diag.Problem {
	if b.Accepts >= minBlindAccepts && b.Rejects >= minBlindRejects {
		return nil
	}
	p := diag.Errorf(c.Dir, 0, 0, BlindRule, "case has %d blind accepts and %d blind rejects, want at least %d and %d (checks/accept/blind-<n>.<ext>, checks/reject/blind-<n>.<ext>)",
		b.Accepts, b.Rejects, minBlindAccepts, minBlindRejects)
	return &p
}

// BlindFile is the adjudication record of a case's blind solutions,
// relative to the case.
const BlindFile = blindrec.File

// blindRecordProblems holds the case's blind files against checks/blind.yaml
// (every blind file needs an entry, every entry a file), and turns the
// errors of a solution whose decision is "pending" into warnings: its
// adjudication is recorded as not done yet.
func blindRecordProblems(c *cases.Case, cr *CaseReport) {
	entries, ps := blindrec.Load(c.Dir)
	cr.Problems = append(cr.Problems, ps...)
	if entries == nil {
		return
	}
	cr.Blind.FirstRound = map[string]int{}
	for _, e := range entries {
		if e.FirstRound != "" {
			cr.Blind.FirstRound[e.FirstRound]++
		}
		if e.Decision == "pending" {
			cr.Blind.Pending++
		}
	}
	rel := func(p string) string {
		r, err := filepath.Rel(filepath.Join(c.Dir, "checks"), p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	present := map[string]bool{}
	for _, p := range append(append([]string{}, c.AcceptPaths...), c.RejectPaths...) {
		if !isBlind(p) {
			continue
		}
		present[rel(p)] = true
		if _, ok := entries[rel(p)]; !ok {
			cr.Problems = append(cr.Problems, diag.Errorf(p, 0, 0, BlindRule, "blind solution has no entry in %s (author, first_round, decision)", BlindFile))
		}
	}
	for f, e := range entries {
		if !present[f] {
			cr.Problems = append(cr.Problems, diag.Errorf(filepath.Join(c.Dir, filepath.FromSlash(BlindFile)), e.Line, 0, BlindRule, "%s is listed but not present", f))
		}
	}
	for i, p := range cr.Problems {
		e, ok := entries[rel(p.File)]
		if ok && e.Decision == "pending" && p.Severity == diag.Error && (p.Rule == BlindRule || p.Rule == "layer") {
			cr.Problems[i] = diag.Warnf(p.File, p.Line, p.Col, BlindRule+"-pending", "pending adjudication: %s", p.Message)
		}
	}
}
