// Package validate checks a corpus of cases the way a maintainer reviewing a
// case pull request would: metadata, layout, check files that load, the scope
// audit, the reference solution through every selected layer, every negative
// killing the checks it names, accepted variants passing, and the L4 coverage of
// each case's checks. It reports problems; it never changes a case.
package validate

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/pycheck"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/scenario"
	"github.com/embedeval/embedeval-go/internal/workpool"
)

// Options configure a validation run.
type Options struct {
	CasesDir        string
	PrivateCasesDir string
	Filter          cases.Filter
	Layers          eval.LayerSet
	Jobs            int
	Toolchain       eval.Toolchain
	Limits          checks.Limits
	// Python, when set, runs check files that are Python modules through one
	// pycheck worker; nil refuses them (each such case reports an error).
	Python *pycheck.Options
	// CheckNamesBase, when set, is a git revision: every check name a case
	// reported there must still be reported or be renamed in
	// checks/check_name_migrations.yaml (contract §4.2).
	CheckNamesBase string
	// MinCoverage, when above zero, is the smallest share (percent) of a
	// case's checks that must_fail negatives must defend; a case below it
	// has an error naming the undefended checks.
	MinCoverage float64
	// RequireRequirements makes a check record that cites no requirement an
	// error; without it only the requirements that are cited are checked.
	RequireRequirements bool
	// RequireBlind makes a case with fewer than 2 blind accepts or 3 blind
	// rejects (checks/accept/blind-*, checks/reject/blind-*) an error.
	RequireBlind bool
}

// LayerSummary is one layer of the reference's evaluation.
type LayerSummary struct {
	Layer  int           `json:"layer"`
	Name   string        `json:"name"`
	Status result.Status `json:"status"`
	Reason string        `json:"reason,omitempty"`
}

// NegativeReport is one negative applied to the reference.
type NegativeReport struct {
	Name       string                 `json:"name"`
	Outcome    result.MutationOutcome `json:"outcome"`
	MustFail   []result.CheckVerdict  `json:"must_fail,omitempty"`
	ShouldFail []result.CheckVerdict  `json:"should_fail,omitempty"`
}

// Coverage says which checks the negatives defend.
type Coverage struct {
	Checks     []string `json:"checks"`
	Defended   []string `json:"defended"`
	Undefended []string `json:"undefended"`
}

// VariantReport is one accepted variant under checks/accept/.
type VariantReport struct {
	File   string         `json:"file"`
	Passed bool           `json:"passed"`
	Layers []LayerSummary `json:"layers"`
}

// CaseReport is everything validate found about one case.
type CaseReport struct {
	ID        string           `json:"id"`
	Dir       string           `json:"dir"`
	OK        bool             `json:"ok"`
	Hash      string           `json:"hash,omitempty"`
	Layers    []LayerSummary   `json:"layers"`
	Negatives []NegativeReport `json:"negatives"`
	Coverage  *Coverage        `json:"coverage,omitempty"`
	Variants  []VariantReport  `json:"accepted_variants"`
	// Rejects are the rejected solutions under checks/reject/.
	Rejects []RejectReport `json:"rejected_solutions"`
	// Blind sums the blind solutions (accepted and rejected).
	Blind BlindCounts `json:"blind"`
	// ChecksTotal counts the distinct checks of the reference's L0 and L3
	// records, ChecksWithRequirement those of them that cite a requirement.
	ChecksWithRequirement int            `json:"checks_with_requirement"`
	ChecksTotal           int            `json:"checks_total"`
	Problems              []diag.Problem `json:"problems"`
}

// Summary counts the outcome of a run.
type Summary struct {
	Cases    int `json:"cases"`
	OK       int `json:"ok"`
	Failed   int `json:"failed"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
}

// Report is the result of validating a corpus.
type Report struct {
	Layers   string         `json:"layers"`
	Cases    []CaseReport   `json:"cases"`
	Problems []diag.Problem `json:"problems"`
	Summary  Summary        `json:"summary"`
}

// OK reports whether nothing is wrong.
func (r *Report) OK() bool { return r.Summary.Failed == 0 && !diag.HasErrors(r.Problems) }

// Run validates every selected case. One broken case never stops the others.
func Run(ctx context.Context, opts Options) (*Report, error) {
	rt, err := checks.NewRuntime(opts.Limits, nil)
	if err != nil {
		return nil, err
	}
	var bridge *pycheck.Bridge
	if opts.Python != nil {
		bridge = pycheck.New(*opts.Python)
		defer bridge.Close()
		rt.UseForeign(bridge)
	}
	if opts.Layers == 0 {
		opts.Layers = eval.AllLayers
	}
	ev := eval.New(opts.Toolchain, opts.Layers)
	// Accepted variants must pass L0–L3; mutating them (L4) proves nothing
	// about the checks that the reference's negatives do not.
	variantEv := eval.New(opts.Toolchain, opts.Layers&^(1<<result.LayerMutation))
	rep := &Report{Layers: opts.Layers.String(), Problems: []diag.Problem{}}
	var entries []cases.Entry
	es, ps := cases.Discover(opts.CasesDir, false)
	entries = append(entries, es...)
	rep.Problems = append(rep.Problems, ps...)
	if opts.PrivateCasesDir != "" {
		es, ps := cases.Discover(opts.PrivateCasesDir, true)
		entries = append(entries, es...)
		rep.Problems = append(rep.Problems, ps...)
	}
	if len(opts.Filter.IDs) > 0 {
		kept := entries[:0]
		for _, e := range entries {
			for _, id := range opts.Filter.IDs {
				if e.Name == id {
					kept = append(kept, e)
					break
				}
			}
		}
		entries = kept
	}
	reports := make([]*CaseReport, len(entries))
	err = workpool.Each(ctx, len(entries), opts.Jobs, rt.NewSession, (*checks.Session).Close, func(s *checks.Session, i int) {
		reports[i] = validateCase(ctx, caseEnv{rt: rt, ev: ev, variantEv: variantEv, bridge: bridge, minCoverage: opts.MinCoverage, requireRequirements: opts.RequireRequirements, requireBlind: opts.RequireBlind}, s, entries[i], opts.Filter, opts.CheckNamesBase)
	})
	if err != nil {
		return nil, fmt.Errorf("validation interrupted: %w", err)
	}
	ids := map[string]string{}
	for _, cr := range reports {
		if cr == nil {
			continue
		}
		if cr.ID != "" {
			if prev, dup := ids[cr.ID]; dup {
				cr.Problems = append(cr.Problems, diag.Errorf(filepath.Join(cr.Dir, "metadata.yaml"), 0, 0, "metadata", "duplicate case id %q (also used by %s)", cr.ID, prev))
			} else {
				ids[cr.ID] = cr.Dir
			}
		}
		diag.Sort(cr.Problems)
		cr.OK = !diag.HasErrors(cr.Problems)
		rep.Cases = append(rep.Cases, *cr)
	}
	diag.Sort(rep.Problems)
	rep.Summary = summarize(rep)
	return rep, nil
}

func summarize(rep *Report) Summary {
	s := Summary{Cases: len(rep.Cases)}
	count := func(ps []diag.Problem) {
		for _, p := range ps {
			if p.Severity == diag.Error {
				s.Errors++
			} else {
				s.Warnings++
			}
		}
	}
	count(rep.Problems)
	for _, c := range rep.Cases {
		if c.OK {
			s.OK++
		} else {
			s.Failed++
		}
		count(c.Problems)
	}
	return s
}

// validateCase returns nil when the case is filtered out.
// caseEnv is what every case's validation shares.
type caseEnv struct {
	rt            *checks.Runtime
	ev, variantEv *eval.Evaluator
	// bridge runs .py check files; nil when they are not allowed.
	bridge *pycheck.Bridge
	// minCoverage is Options.MinCoverage.
	minCoverage float64
	// requireRequirements is Options.RequireRequirements.
	requireRequirements bool
	// requireBlind is Options.RequireBlind.
	requireBlind bool
}

func validateCase(ctx context.Context, env caseEnv, s *checks.Session, e cases.Entry, f cases.Filter, base string) *CaseReport {
	rt, ev, variantEv, bridge := env.rt, env.ev, env.variantEv, env.bridge
	cr := &CaseReport{ID: e.Name, Dir: e.Dir, Layers: []LayerSummary{}, Negatives: []NegativeReport{}, Variants: []VariantReport{}, Problems: []diag.Problem{}}
	c, ps := cases.Load(e)
	cr.Problems = append(cr.Problems, ps...)
	if c.Meta.ID != "" {
		cr.ID = c.Meta.ID
	}
	cr.Hash = c.Hash
	if diag.HasErrors(ps) {
		return cr
	}
	f.IncludePrivate = f.IncludePrivate || e.Private
	if !f.Match(c) {
		return nil
	}
	cc, ps := eval.LoadCaseChecks(ctx, rt, c)
	cr.Problems = append(cr.Problems, ps...)
	scs, scProblems := scenarioProblems(c)
	cr.Problems = append(cr.Problems, scProblems...)
	if c.SDKInferred {
		cr.Problems = append(cr.Problems, diag.Warnf(filepath.Join(c.Dir, "metadata.yaml"), 1, 1, "metadata",
			"no sdk field: sdk %q taken from platform %q (the field is required in this project's layout)", c.Meta.SDK, c.Meta.Platform))
	}
	for _, m := range []*checks.CheckModule{cc.Static, cc.Behavior} {
		var found []diag.Problem
		switch {
		case m == nil:
		case checks.IsForeignFile(m.Path):
			if bridge != nil {
				var err error
				found, err = bridge.Audit(ctx, m.Path)
				if err != nil {
					cr.Problems = append(cr.Problems, diag.Errorf(m.Path, 0, 0, checks.AuditRule, "scope audit failed: %v", err))
				}
			}
		default:
			found = checks.AuditScope(m.Path, m.Source)
		}
		if c.LegacyRules() && m != nil && checks.IsForeignFile(m.Path) {
			found = legacyAudit(found)
		}
		cr.Problems = append(cr.Problems, found...)
	}
	if diag.HasErrors(ps) {
		return cr
	}
	refBytes, err := cases.ReadFile(c.ReferencePath)
	if err != nil {
		cr.Problems = append(cr.Problems, diag.Errorf(c.ReferencePath, 0, 0, "layout", "cannot read reference: %v", err))
		return cr
	}
	ref := string(refBytes)
	res := ev.Evaluate(ctx, s, cc, ref, eval.Subject{Model: "reference"})
	cr.Layers = summarizeLayers(res)
	cr.Problems = append(cr.Problems, layerProblems(c.ReferencePath, "reference", res)...)
	if c.LegacyRules() {
		cr.Problems = append(cr.Problems, sharedNames(cc, res)...)
	}
	refChecks := map[string]bool{}
	records := checkRecords(cc, res)
	for _, r := range records {
		refChecks[r.detail.CheckName] = true
	}
	cr.ChecksWithRequirement, cr.ChecksTotal = requirementCounts(records)
	if l, ok := res.Layer(result.LayerMutation); ok && cc.Negatives != nil && len(l.Mutations) > 0 {
		cr.Negatives, ps = negativeProblems(cc, l.Mutations, refChecks)
		cr.Problems = append(cr.Problems, ps...)
	}
	if checksRan(res) {
		cr.Coverage = coverage(cc, refChecks)
		if p := coverageProblem(cc, cr.Coverage, env.minCoverage); p != nil {
			cr.Problems = append(cr.Problems, *p)
		}
		cr.Problems = append(cr.Problems, migrationProblems(filepath.Join(c.Dir, filepath.FromSlash(cases.MigrationsFile)), refChecks)...)
		if base != "" {
			cr.Problems = append(cr.Problems, immutabilityProblems(ctx, rt, s, c, base, refChecks)...)
		}
	}
	for _, path := range c.AcceptPaths {
		vr := VariantReport{File: path, Layers: []LayerSummary{}}
		data, err := cases.ReadFile(path)
		if err != nil {
			cr.Problems = append(cr.Problems, diag.Errorf(path, 0, 0, "accept", "cannot read accepted variant: %v", err))
			continue
		}
		if p := similarityProblem(path, ref, string(data)); p != nil {
			cr.Problems = append(cr.Problems, *p)
		}
		vres := variantEv.Evaluate(ctx, s, cc, string(data), eval.Subject{Model: "accepted-variant"})
		vr.Layers = summarizeLayers(vres)
		vps := layerProblems(path, "accepted variant", vres)
		vr.Passed = !diag.HasErrors(vps)
		cr.Problems = append(cr.Problems, vps...)
		cr.Variants = append(cr.Variants, vr)
		records = append(records, checkRecords(cc, vres)...)
	}
	// A reject may name a scenario run as the check that catches it.
	rejectKnown := maps.Clone(refChecks)
	for _, sc := range scs {
		rejectKnown[sc.CheckName()] = true
	}
	for _, path := range c.RejectPaths {
		rr, ps := judgeReject(ctx, s, variantEv, cc, path, rejectKnown)
		cr.Rejects = append(cr.Rejects, rr)
		cr.Problems = append(cr.Problems, ps...)
	}
	cr.Blind = blindCounts(cr)
	blindRecordProblems(c, cr)
	if env.requireBlind {
		if p := blindSetProblem(c, cr.Blind); p != nil {
			cr.Problems = append(cr.Problems, *p)
		}
	}
	for _, sc := range scs {
		d := result.CheckDetail{CheckName: sc.CheckName(), CheckType: "runtime"}
		if sc.Requirement != "" {
			d.Requirement = result.Ptr(sc.Requirement)
		}
		records = append(records, citedRecord{file: sc.Path, detail: d})
	}
	cr.Problems = append(cr.Problems, requirementProblems(c, records, env.requireRequirements)...)
	return cr
}

// scenarioProblems loads the case's L2 scenarios (checks/scenarios/) and
// reports their problems: a file that does not parse, and an input or
// expectation only a program can have (arguments, environment, files, exit
// status, separate streams) in a firmware case. Only embedded-linux cases
// run programs; every other SDK runs firmware, whose console is the UART.
func scenarioProblems(c *cases.Case) ([]scenario.Scenario, []diag.Problem) {
	scs, ps := scenario.Load(c.Dir)
	if c.Meta.SDK == "embedded-linux" {
		return scs, ps
	}
	for _, sc := range scs {
		if f := sc.ProgramOnly(); f != "" {
			ps = append(ps, diag.Errorf(sc.Path, 0, 0, scenario.Rule, "%s is for programs; a firmware scenario gives only stdin (the UART) and judges expect.output and expect.exit_code", f))
		}
	}
	return scs, ps
}

// checkRecords returns the L0 and L3 check records of an evaluation, each
// with the check file that returned it.
func checkRecords(cc *eval.CaseChecks, res result.EvalResult) []citedRecord {
	var out []citedRecord
	for _, f := range []struct {
		layer int
		m     *checks.CheckModule
	}{{result.LayerStatic, cc.Static}, {result.LayerHeuristic, cc.Behavior}} {
		l, ok := res.Layer(f.layer)
		if !ok || f.m == nil {
			continue
		}
		for _, d := range l.Details {
			out = append(out, citedRecord{file: f.m.Path, detail: d})
		}
	}
	return out
}

func summarizeLayers(res result.EvalResult) []LayerSummary {
	out := make([]LayerSummary, 0, len(res.Layers))
	for _, l := range res.Layers {
		out = append(out, LayerSummary{Layer: l.Layer, Name: l.Name, Status: l.Status, Reason: l.Reason})
	}
	return out
}

// layerProblems turns failing or erroring layers L0–L3 of a solution that must
// pass into problems. L4 is judged separately (negativeProblems).
func layerProblems(file, what string, res result.EvalResult) []diag.Problem {
	var ps []diag.Problem
	for _, l := range res.Layers {
		if l.Layer == result.LayerMutation {
			continue
		}
		switch l.Status {
		case result.StatusError:
			if l.Problem != nil {
				ps = append(ps, *l.Problem)
			} else {
				ps = append(ps, diag.Errorf(file, 0, 0, "layer", "L%d %s could not run on the %s: %s", l.Layer, result.LayerShortName(l.Layer), what, deref(l.Error)))
			}
		case result.StatusFailed:
			failed := 0
			for _, d := range l.Details {
				if !d.Passed {
					failed++
					ps = append(ps, diag.Errorf(file, 0, 0, "layer", "%s fails L%d %s check %q (expected %s, actual %s)", what, l.Layer, result.LayerShortName(l.Layer), d.CheckName, quoteOrNone(d.Expected), quoteOrNone(d.Actual)))
				}
			}
			if failed == 0 {
				msg := l.Reason
				if msg == "" {
					msg = deref(l.Error)
				}
				ps = append(ps, diag.Errorf(file, 0, 0, "layer", "%s fails L%d %s: %s", what, l.Layer, result.LayerShortName(l.Layer), msg))
			}
		}
	}
	return ps
}

// negativeProblems judges the negatives on the reference: every mutation must
// change it, every must_fail label must name an existing check that fails on
// the mutant; should_fail misses are warnings.
func negativeProblems(cc *eval.CaseChecks, muts []result.MutationResult, refChecks map[string]bool) ([]NegativeReport, []diag.Problem) {
	var reports []NegativeReport
	var ps []diag.Problem
	byName := map[string]*checks.Negative{}
	for _, n := range cc.Negatives.Negatives {
		byName[n.Name] = n
	}
	known := make([]string, 0, len(refChecks))
	for n := range refChecks {
		known = append(known, n)
	}
	sort.Strings(known)
	path := cc.Negatives.Path
	for _, m := range muts {
		neg := byName[m.Name]
		reports = append(reports, NegativeReport{Name: m.Name, Outcome: m.Outcome, MustFail: m.MustFail, ShouldFail: m.ShouldFail})
		at := func(label string) (int, int) {
			p := neg.Pos
			if label != "" {
				p = neg.LabelPos(label)
			}
			return int(p.Line), int(p.Col)
		}
		for _, label := range append(append([]string{}, neg.MustFail...), neg.ShouldFail...) {
			if !refChecks[label] {
				l, c := at(label)
				ps = append(ps, diag.Errorf(path, l, c, "negatives", "negative %q names check %q, which the reference's checks do not report (known: %s)", neg.Name, label, strings.Join(known, ", ")))
			}
		}
		switch m.Outcome {
		case result.MutationUnchanged:
			l, c := at("")
			ps = append(ps, diag.Errorf(path, l, c, "negatives", "negative %q: mutation leaves the reference unchanged", neg.Name))
		case result.MutationError:
			if m.Problem != nil {
				ps = append(ps, *m.Problem)
				break
			}
			l, c := at("")
			ps = append(ps, diag.Errorf(path, l, c, "negatives", "%s", m.Error))
		case result.MutationApplied:
			for _, v := range m.MustFail {
				if v.Caught || !refChecks[v.CheckName] {
					continue
				}
				l, c := at(v.CheckName)
				switch {
				case v.Missing:
					ps = append(ps, diag.Errorf(path, l, c, "negatives", "negative %q: check %q does not report on the mutated reference", neg.Name, v.CheckName))
				case v.Inconclusive:
					ps = append(ps, diag.Errorf(path, l, c, "negatives", "negative %q: must_fail check %q is inconclusive on the mutated reference, which is not a catch", neg.Name, v.CheckName))
				default:
					ps = append(ps, diag.Errorf(path, l, c, "negatives", "negative %q: must_fail check %q still passes on the mutated reference", neg.Name, v.CheckName))
				}
			}
			for _, v := range m.ShouldFail {
				if !v.Caught && refChecks[v.CheckName] {
					l, c := at(v.CheckName)
					how := "misses the seeded bug"
					if v.Inconclusive {
						how = "is inconclusive on the mutated reference, so it misses the seeded bug"
					}
					ps = append(ps, diag.Warnf(path, l, c, "negatives", "negative %q: should_fail check %q %s", neg.Name, v.CheckName, how))
				}
			}
		}
	}
	return reports, ps
}

// coverageProblem is the error of a case whose L4 coverage is below min
// percent, or nil.
func coverageProblem(cc *eval.CaseChecks, cov *Coverage, min float64) *diag.Problem {
	if min <= 0 || len(cov.Checks) == 0 {
		return nil
	}
	pct := 100 * float64(len(cov.Defended)) / float64(len(cov.Checks))
	if pct >= min {
		return nil
	}
	file := cc.Case.Dir
	if cc.Negatives != nil {
		file = cc.Negatives.Path
	}
	p := diag.Errorf(file, 0, 0, "coverage", "L4 coverage %d/%d (%.1f%%) is below the required %g%%: no must_fail negative defends %s",
		len(cov.Defended), len(cov.Checks), pct, min, strings.Join(cov.Undefended, ", "))
	return &p
}

func coverage(cc *eval.CaseChecks, refChecks map[string]bool) *Coverage {
	cov := &Coverage{Checks: []string{}, Defended: []string{}, Undefended: []string{}}
	defended := map[string]bool{}
	if cc.Negatives != nil {
		for _, n := range cc.Negatives.Negatives {
			for _, l := range n.MustFail {
				defended[l] = true
			}
		}
	}
	for name := range refChecks {
		cov.Checks = append(cov.Checks, name)
		if defended[name] {
			cov.Defended = append(cov.Defended, name)
		} else {
			cov.Undefended = append(cov.Undefended, name)
		}
	}
	sort.Strings(cov.Checks)
	sort.Strings(cov.Defended)
	sort.Strings(cov.Undefended)
	return cov
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func quoteOrNone(s *string) string {
	if s == nil {
		return "None"
	}
	return fmt.Sprintf("%q", *s)
}

// checksRan reports whether both check layers gave a verdict on the reference
// (or ran and report no checks at all), so that the set of check names is
// complete.
func checksRan(res result.EvalResult) bool {
	for _, n := range []int{result.LayerStatic, result.LayerHeuristic} {
		l, ok := res.Layer(n)
		empty := ok && l.Status == result.StatusSkipped && l.Reason == eval.NoChecksReason
		if !ok || (l.Status != result.StatusPassed && l.Status != result.StatusFailed && !empty) {
			return false
		}
	}
	return true
}

// migrationProblems checks checks/check_name_migrations.yaml against the
// checks the reference reports: an old name must no longer be reported, and
// the new name must be (directly, or through a later rename).
func migrationProblems(path string, live map[string]bool) []diag.Problem {
	renames, ps := cases.LoadMigrations(path)
	renamedTo := map[string]string{}
	for _, r := range renames {
		if !r.Retired {
			renamedTo[r.From] = r.To
		}
	}
	for _, r := range renames {
		if r.Retired {
			if live[r.From] {
				ps = append(ps, diag.Errorf(path, r.Line, 0, "migrations", "check_name %q is retired but the checks still report it", r.From))
			}
			continue
		}
		if live[r.From] {
			ps = append(ps, diag.Errorf(path, r.Line, 0, "migrations", "check_name %q is renamed to %q but the checks still report %q", r.From, r.To, r.From))
		}
		to, seen := r.To, map[string]bool{}
		for !live[to] && renamedTo[to] != "" && !seen[to] {
			seen[to] = true
			to = renamedTo[to]
		}
		if !live[to] {
			ps = append(ps, diag.Errorf(path, r.Line, 0, "migrations", "rename %q -> %q: no check reports %q", r.From, r.To, r.To))
		}
	}
	return ps
}

// maxAuditLines bounds the lines one legacy scope-audit warning lists.
const maxAuditLines = 20

// legacyAudit folds the scope-audit errors of one check file of a flat-layout
// case into one warning: the raw substring tests the Python implementation's
// format allows, with the lines to change when migrating to this project's
// layout. Other problems pass through.
func legacyAudit(found []diag.Problem) []diag.Problem {
	var out, audit []diag.Problem
	for _, p := range found {
		if p.Rule == checks.AuditRule && p.Severity == diag.Error {
			audit = append(audit, p)
			continue
		}
		out = append(out, p)
	}
	if len(audit) == 0 {
		return out
	}
	var lines []string
	for _, p := range audit {
		l := strconv.Itoa(p.Line)
		if len(lines) == 0 || lines[len(lines)-1] != l {
			lines = append(lines, l)
		}
	}
	if len(lines) > maxAuditLines {
		lines = append(lines[:maxAuditLines], "...")
	}
	first := audit[0]
	return append(out, diag.Warnf(first.File, first.Line, first.Col, checks.AuditRule,
		"%d raw substring test(s) on the code argument, on line(s) %s: an error in this project's layout (use scoped_contains), allowed in the Python implementation's flat layout",
		len(audit), strings.Join(lines, ", ")))
}

// sharedNames warns about check names both check files of a flat-layout
// case report on the reference: the Python implementation keeps the two
// records apart (one per layer) and so does the evaluator for that layout,
// but this project's layout requires names unique in a case.
func sharedNames(cc *eval.CaseChecks, res result.EvalResult) []diag.Problem {
	l0, ok0 := res.Layer(result.LayerStatic)
	l3, ok3 := res.Layer(result.LayerHeuristic)
	if !ok0 || !ok3 || cc.Behavior == nil || cc.Static == nil {
		return nil
	}
	static := map[string]bool{}
	for _, d := range l0.Details {
		static[d.CheckName] = true
	}
	var ps []diag.Problem
	seen := map[string]bool{}
	for _, d := range l3.Details {
		if static[d.CheckName] && !seen[d.CheckName] {
			seen[d.CheckName] = true
			ps = append(ps, diag.Warnf(cc.Behavior.Path, 0, 0, "check-shape",
				"check_name %q is also reported by %s: kept apart per layer in the Python implementation's flat layout, an error in this project's layout (names unique in a case)",
				d.CheckName, filepath.Base(cc.Static.Path)))
		}
	}
	return ps
}
