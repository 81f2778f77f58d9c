package eval

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/result"
)

// MaxCodeBytes is the largest generated solution the evaluator looks at. Larger
// code fails L0 without running checks: no firmware answer is that long, and
// checks on it would only burn time.
const MaxCodeBytes = 1 << 20

// CaseChecks is a case with its check files loaded.
type CaseChecks struct {
	Case      *cases.Case
	Static    *checks.CheckModule
	Behavior  *checks.CheckModule
	Negatives *checks.NegativeSet // nil when the case has none
}

// LoadCaseChecks loads the case's check files. Every load error is returned as
// a problem naming file:line:col.
func LoadCaseChecks(ctx context.Context, rt *checks.Runtime, c *cases.Case) (*CaseChecks, []diag.Problem) {
	cc := &CaseChecks{Case: c}
	var problems []diag.Problem
	add := func(err error) {
		var ae *diag.AsError
		if errors.As(err, &ae) {
			problems = append(problems, ae.Problem)
		} else {
			problems = append(problems, diag.Errorf(c.Dir, 0, 0, "check-load", "%v", err))
		}
	}
	var err error
	if cc.Static, err = rt.LoadChecksFile(ctx, c.StaticPath); err != nil {
		add(err)
	}
	if cc.Behavior, err = rt.LoadChecksFile(ctx, c.BehaviorPath); err != nil {
		add(err)
	}
	if c.NegativesPath != "" {
		if cc.Negatives, err = rt.LoadNegativesFile(ctx, c.NegativesPath); err != nil {
			add(err)
		}
	}
	return cc, problems
}

// Evaluator runs the layers. It is safe for concurrent use; each goroutine
// passes its own checks.Session.
type Evaluator struct {
	Toolchain Toolchain
	Layers    LayerSet
}

// New returns an evaluator running the given layers with toolchain tc (nil
// means NoToolchain).
func New(tc Toolchain, layers LayerSet) *Evaluator {
	if tc == nil {
		tc = NoToolchain{}
	}
	return &Evaluator{Toolchain: tc, Layers: layers}
}

// Subject names what is evaluated, for the result record.
type Subject struct {
	Model   string
	Attempt int
}

// Evaluate runs every selected layer on code and returns the full record.
func (e *Evaluator) Evaluate(ctx context.Context, s *checks.Session, cc *CaseChecks, code string, subj Subject) result.EvalResult {
	start := time.Now()
	res := result.EvalResult{CaseID: cc.Case.Meta.ID, Model: subj.Model, Attempt: subj.Attempt}
	code, res.Notes = sanitize(code)
	res.Notes = append(res.Notes, cc.Case.Notes...)
	res.GeneratedCode = code
	halted := ""
	var staticNames, behaviorNames map[string]bool
	var artifact Artifact
	l1Reason := ""
	defer func() {
		if artifact != nil {
			_ = artifact.Close()
		}
	}()
	for n := result.LayerStatic; n <= result.LayerMutation; n++ {
		lr := result.LayerResult{Layer: n, Name: result.LayerName(n), Details: []result.CheckDetail{}}
		t0 := time.Now()
		switch {
		case halted != "":
			lr.Status, lr.Reason = result.StatusSkipped, halted
		case !e.Layers.Has(n):
			lr.Status, lr.Reason = result.StatusSkipped, "not selected (--layers)"
		default:
			switch n {
			case result.LayerStatic:
				if len(code) > MaxCodeBytes {
					lr.Status = result.StatusFailed
					lr.Reason = fmt.Sprintf("generated code is %d bytes; the limit is %d bytes", len(code), MaxCodeBytes)
					break
				}
				e.runChecks(ctx, s, cc.Static, code, &lr)
				staticNames = nameSet(lr.Details)
			case result.LayerCompile:
				if cc.Case.Meta.L1Skip {
					lr.Status, lr.Reason = result.StatusSkipped, "case opts out (l1_skip: true)"
					break
				}
				var out result.LayerResult
				out, artifact = e.Toolchain.Build(ctx, cc.Case, code)
				adopt(&lr, out)
			case result.LayerRuntime:
				switch {
				case cc.Case.Meta.L2Skip:
					lr.Status, lr.Reason = result.StatusSkipped, "case opts out (l2_skip: true)"
				case artifact == nil:
					lr.Status, lr.Reason = result.StatusSkipped, "nothing was built to run"
					if l1Reason != "" {
						lr.Reason = "needs L1, which was skipped: " + l1Reason
					}
				default:
					adopt(&lr, artifact.Run(ctx))
				}
			case result.LayerHeuristic:
				e.runChecks(ctx, s, cc.Behavior, code, &lr)
				behaviorNames = nameSet(lr.Details)
				// A name in both files is refused in this project's layout;
				// in the flat layout the Python implementation keeps the two
				// records apart (one per layer) and L4 pools them (verdicts).
				for _, d := range lr.Details {
					if staticNames[d.CheckName] && lr.Status != result.StatusError && !cc.Case.LegacyRules() {
						lr.Status = result.StatusError
						p := diag.Errorf(cc.Behavior.Path, 0, 0, "check-shape", "check_name %q is also returned by %s; check names must be unique in a case", d.CheckName, cc.Static.Path)
						lr.Error, lr.Problem = result.Ptr(p.String()), &p
					}
				}
			case result.LayerMutation:
				e.mutationLayer(ctx, s, cc, code, &lr, CheckOwners{Static: staticNames, Behavior: behaviorNames})
			}
		}
		lr.Passed = lr.Status == result.StatusPassed
		lr.DurationSeconds = time.Since(t0).Seconds()
		if n == result.LayerCompile && lr.Status == result.StatusSkipped {
			l1Reason = lr.Reason
		}
		res.Layers = append(res.Layers, lr)
		if halted == "" && n != result.LayerMutation {
			switch lr.Status {
			case result.StatusFailed:
				layer := n
				res.FailedAtLayer = &layer
				halted = fmt.Sprintf("halted: L%d %s failed", n, result.LayerShortName(n))
			case result.StatusError:
				halted = fmt.Sprintf("halted: L%d %s could not run", n, result.LayerShortName(n))
			}
		}
	}
	switch {
	case res.FailedAtLayer != nil:
		res.Status = result.StatusFailed
	case anyError(res.Layers[:result.LayerMutation]):
		res.Status = result.StatusError
	default:
		res.Status, res.Passed = result.StatusPassed, true
	}
	res.TotalTimeSeconds = time.Since(start).Seconds()
	return res
}

func anyError(ls []result.LayerResult) bool {
	for _, l := range ls {
		if l.Status == result.StatusError {
			return true
		}
	}
	return false
}

func nameSet(ds []result.CheckDetail) map[string]bool {
	m := make(map[string]bool, len(ds))
	for _, d := range ds {
		m[d.CheckName] = true
	}
	return m
}

// NoChecksReason is the reason of a check layer skipped because its module
// reports no checks at all (a case judged by running it may have none): the
// layer ran, and its list of check names is complete and empty.
const NoChecksReason = "run_checks returned no checks"

// runChecks fills lr from one check module.
func (e *Evaluator) runChecks(ctx context.Context, s *checks.Session, m *checks.CheckModule, code string, lr *result.LayerResult) {
	if m == nil {
		lr.Status, lr.Error = result.StatusError, result.Ptr("check file did not load")
		return
	}
	details, err := m.Run(ctx, s, code)
	if err != nil {
		lr.Status, lr.Error = result.StatusError, result.Ptr(err.Error())
		lr.Problem = problemOf(err)
		return
	}
	lr.Details = details
	lr.Status = result.StatusPassed
	if len(details) == 0 {
		lr.Status, lr.Reason = result.StatusSkipped, NoChecksReason
	}
	inconclusive := 0
	for _, d := range details {
		if d.Inconclusive {
			inconclusive++
		}
		if d.Failed() {
			lr.Status = result.StatusFailed
		}
	}
	if inconclusive > 0 {
		lr.Reason = plural(inconclusive, "check") + " inconclusive"
	}
}

// plural renders "1 check", "2 checks".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// adopt copies a toolchain's layer outcome into lr, keeping lr's layer number
// and name.
func adopt(lr *result.LayerResult, out result.LayerResult) {
	out.Layer, out.Name = lr.Layer, lr.Name
	if out.Details == nil {
		out.Details = []result.CheckDetail{}
	}
	*lr = out
}

// mutationLayer is L4: every negative is applied to the code under evaluation
// and the L0+L3 checks run on the mutant; each (negative, must_fail check) pair
// is recorded. Mutations that leave the code unchanged, or that cannot be
// applied to this code, are recorded and skipped.
func (e *Evaluator) mutationLayer(ctx context.Context, s *checks.Session, cc *CaseChecks, code string, lr *result.LayerResult, owners CheckOwners) {
	if cc.Negatives == nil {
		lr.Status, lr.Reason = result.StatusSkipped, "case has no negatives (checks/negatives.star or .py)"
		return
	}
	applied, missed, inconclusive := 0, 0, 0
	batch := batchMutations(ctx, cc, code, owners)
	for i, neg := range cc.Negatives.Negatives {
		var mr result.MutationResult
		if batch != nil {
			mr = batch[i]
		} else {
			mr = MutateAndCheck(ctx, s, cc, neg, code, owners)
		}
		lr.Mutations = append(lr.Mutations, mr)
		if mr.Outcome != result.MutationApplied {
			continue
		}
		applied++
		for _, v := range mr.MustFail {
			actual := "passed"
			switch {
			case v.Missing:
				actual = "not reported"
			case v.Inconclusive:
				actual = "inconclusive on the mutant"
				inconclusive++
			case v.Caught:
				actual = "failed"
			}
			if !v.Caught {
				missed++
			}
			lr.Details = append(lr.Details, result.CheckDetail{
				CheckName: neg.Name + "/" + v.CheckName, Passed: v.Caught,
				Expected: result.Ptr("check fails on the mutant"), Actual: result.Ptr(actual),
				CheckType: result.CheckTypeMutation, Weight: 1,
			})
		}
	}
	switch {
	case missed > 0:
		lr.Status = result.StatusFailed
		lr.Reason = fmt.Sprintf("%d seeded bug(s) not caught by the checks they name", missed)
		if inconclusive > 0 {
			lr.Reason += fmt.Sprintf(" (%d inconclusive on the mutant)", inconclusive)
		}
	case applied == 0:
		lr.Status, lr.Reason = result.StatusSkipped, "no mutation changed this code"
	default:
		lr.Status = result.StatusPassed
	}
}

// CheckOwners says which check file reported each check name on the
// unmutated code, so that L4 runs on a mutant only the files whose checks the
// negative names. Nil sets (or a name in neither) mean: run both.
type CheckOwners struct {
	Static, Behavior map[string]bool
}

// modules returns the check modules that must run for a negative's labels.
func (o CheckOwners) modules(cc *CaseChecks, neg *checks.Negative) []*checks.CheckModule {
	needStatic, needBehavior := false, false
	for _, label := range append(append([]string{}, neg.MustFail...), neg.ShouldFail...) {
		inStatic, inBehavior := o.Static[label], o.Behavior[label]
		if !inStatic && !inBehavior {
			return []*checks.CheckModule{cc.Static, cc.Behavior}
		}
		// A name both files report (the flat layout allows it) needs both.
		needStatic = needStatic || inStatic
		needBehavior = needBehavior || inBehavior
	}
	var out []*checks.CheckModule
	if needStatic {
		out = append(out, cc.Static)
	}
	if needBehavior {
		out = append(out, cc.Behavior)
	}
	return out
}

// MutateAndCheck applies one negative to code and runs, on the mutant, the
// check files (L0, L3) that report the checks the negative names.
func MutateAndCheck(ctx context.Context, s *checks.Session, cc *CaseChecks, neg *checks.Negative, code string, owners CheckOwners) result.MutationResult {
	mr := result.MutationResult{Name: neg.Name}
	mutant, err := neg.Apply(ctx, s, code)
	if err != nil {
		mr.Outcome, mr.Error, mr.Problem = result.MutationError, err.Error(), problemOf(err)
		return mr
	}
	if mutant == code {
		mr.Outcome = result.MutationUnchanged
		return mr
	}
	var details []result.CheckDetail
	for _, m := range owners.modules(cc, neg) {
		if m == nil {
			continue
		}
		ds, err := m.Run(ctx, s, mutant)
		if err != nil {
			return mutantChecksFailed(neg, err)
		}
		details = append(details, ds...)
	}
	return verdicts(neg, details)
}

// mutantChecksFailed is the outcome of a negative whose mutant made a check
// module fail to run.
func mutantChecksFailed(neg *checks.Negative, err error) result.MutationResult {
	mr := result.MutationResult{Name: neg.Name, Outcome: result.MutationError}
	mr.Error = fmt.Sprintf("negative %q: checks raised on the mutant: %v", neg.Name, err)
	if p := problemOf(err); p != nil {
		p.Message = fmt.Sprintf("negative %q: checks raised on the mutant: %s", neg.Name, p.Message)
		mr.Problem = p
	}
	return mr
}

// batchMutations runs all of L4 in one call when the negatives and every
// check module a negative needs go through the same foreign backend that can
// batch (the Python bridge); it returns nil otherwise, and the negatives are
// applied one by one. The outcomes are those MutateAndCheck would give.
func batchMutations(ctx context.Context, cc *CaseChecks, code string, owners CheckOwners) []result.MutationResult {
	batcher := cc.Negatives.Batcher()
	if batcher == nil {
		return nil
	}
	plans := make([]checks.MutantPlan, len(cc.Negatives.Negatives))
	for i, neg := range cc.Negatives.Negatives {
		plans[i].Negative = neg.Name
		for _, m := range owners.modules(cc, neg) {
			if m == nil {
				continue
			}
			if !m.IsForeign() {
				return nil
			}
			plans[i].Modules = append(plans[i].Modules, m.Path)
		}
	}
	outcomes, err := batcher.MutateAll(ctx, cc.Negatives.Path, code, plans)
	out := make([]result.MutationResult, len(plans))
	for i, neg := range cc.Negatives.Negatives {
		var o checks.MutantOutcome
		if err != nil {
			o.MutationErr = err
		} else {
			o = outcomes[i]
		}
		switch {
		case o.MutationErr != nil:
			out[i] = result.MutationResult{Name: neg.Name, Outcome: result.MutationError, Error: o.MutationErr.Error(), Problem: problemOf(o.MutationErr)}
		case o.Unchanged:
			out[i] = result.MutationResult{Name: neg.Name, Outcome: result.MutationUnchanged}
		case o.ModuleErr != nil:
			out[i] = mutantChecksFailed(neg, o.ModuleErr)
		default:
			out[i] = verdicts(neg, o.Details)
		}
	}
	return out
}

// verdicts judges a negative's labels on the checks its mutant got. A check
// catches the bug only when it fails on evidence: an inconclusive check is
// not a catch.
func verdicts(neg *checks.Negative, details []result.CheckDetail) result.MutationResult {
	mr := result.MutationResult{Name: neg.Name}
	byName := map[string][]result.CheckDetail{}
	for _, d := range details {
		byName[d.CheckName] = append(byName[d.CheckName], d)
	}
	// A name reported more than once (by both check files, which only the
	// flat layout allows) catches the bug only when every report of it fails,
	// as the Python implementation's L4 judges it.
	verdict := func(name string) result.CheckVerdict {
		ds := byName[name]
		v := result.CheckVerdict{CheckName: name, Missing: len(ds) == 0, Caught: len(ds) > 0}
		for _, d := range ds {
			v.Caught = v.Caught && d.Failed()
			v.Inconclusive = v.Inconclusive || d.Inconclusive
		}
		return v
	}
	for _, n := range neg.MustFail {
		mr.MustFail = append(mr.MustFail, verdict(n))
	}
	for _, n := range neg.ShouldFail {
		mr.ShouldFail = append(mr.ShouldFail, verdict(n))
	}
	mr.Outcome = result.MutationApplied
	return mr
}

// sanitize replaces invalid UTF-8 so that checks, syntax trees and JSON all see
// the same text, and says so in a note.
func sanitize(code string) (string, []string) {
	if utf8.ValidString(code) {
		return code, nil
	}
	bad := 0
	for i := 0; i < len(code); {
		r, size := utf8.DecodeRuneInString(code[i:])
		if r == utf8.RuneError && size == 1 {
			bad++
		}
		i += size
	}
	return strings.ToValidUTF8(code, "\uFFFD"), []string{fmt.Sprintf("generated code held %d invalid UTF-8 byte(s); each run was replaced by U+FFFD", bad)}
}

// problemOf returns a copy of the located problem inside err, or nil.
func problemOf(err error) *diag.Problem {
	var ae *diag.AsError
	if errors.As(err, &ae) {
		p := ae.Problem
		return &p
	}
	return nil
}
