package score

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
)

// SanityTier is the tier that is reported (in tier breakdowns) but never
// scored into a model's overall, category, reasoning, difficulty, layer,
// failure, stability or comparable numbers.
const SanityTier = "sanity"

// DefaultScenario is the scenario of results that name none.
const DefaultScenario = "generation"

// Lookup returns the metadata of a case id, and false for a case that does
// not exist (any more).
type Lookup func(caseID string) (cases.Metadata, bool)

// LookupFrom indexes a list of metadata by id.
func LookupFrom(ms []cases.Metadata) Lookup {
	idx := make(map[string]cases.Metadata, len(ms))
	for _, m := range ms {
		idx[m.ID] = m
	}
	return func(id string) (cases.Metadata, bool) {
		m, ok := idx[id]
		return m, ok
	}
}

// maxExamples bounds the ids listed in one aggregated warning.
const maxExamples = 10

// caseMeta is the part of a case's metadata scoring needs, looked up once
// per case id.
type caseMeta struct {
	id         string
	category   string
	tier       string
	difficulty string
	reasoning  []string
}

func (m *caseMeta) scored() bool { return m.tier != SanityTier }

// taskKey identifies what pass@k is computed over: a case under one scenario
// (and, for bugfix, one mutation).
type taskKey struct {
	caseID   string
	scenario string
	mutation string
}

func compareTask(a, b taskKey) int {
	return cmp.Or(strings.Compare(a.caseID, b.caseID), strings.Compare(a.scenario, b.scenario),
		strings.Compare(a.mutation, b.mutation))
}

func (k taskKey) String() string {
	s := k.caseID
	if k.scenario != DefaultScenario {
		s += " [" + k.scenario
		if k.mutation != "" {
			s += " " + k.mutation
		}
		s += "]"
	}
	return s
}

// attemptSet remembers which attempts of a task were seen: a bitset for small
// non-negative attempts, a map for the rest.
type attemptSet struct {
	bits  []uint64
	other map[int]struct{}
}

const attemptBitsLimit = 1 << 16

// add records a and reports whether it was new.
func (s *attemptSet) add(a int) bool {
	if a >= 0 && a < attemptBitsLimit {
		w, b := a/64, uint(a%64)
		if w >= len(s.bits) {
			s.bits = append(s.bits, make([]uint64, w+1-len(s.bits))...)
		}
		if s.bits[w]&(1<<b) != 0 {
			return false
		}
		s.bits[w] |= 1 << b
		return true
	}
	if s.other == nil {
		s.other = map[int]struct{}{}
	}
	if _, ok := s.other[a]; ok {
		return false
	}
	s.other[a] = struct{}{}
	return true
}

type taskAcc struct {
	meta *caseMeta
	n, c int
	// q counts judged samples that pass on quality (QualityPass).
	q      int
	errors int
	seen   attemptSet
}

type checkKey struct{ check, category string }

type checkAcc struct {
	runs, fails, inconclusive int
	failing                   map[string]struct{}
}

type rowKey struct{ caseID, check, model string }

type rowAcc struct{ samples, passed, inconclusive int }

type layerAcc struct{ passed, failed, skipped, errored int }

type modelAcc struct {
	tasks    map[taskKey]*taskAcc
	layers   [result.LayerMutation + 1]layerAcc
	failedAt [result.LayerMutation + 1]int
	errors   ErrorCounts
	checks   map[checkKey]*checkAcc
}

// Scorer aggregates results one at a time. It is not safe for concurrent
// use. The zero value is not usable; call New.
type Scorer struct {
	lookup     Lookup
	meta       map[string]*caseMeta // nil value: unknown case
	models     map[string]*modelAcc
	rows       map[rowKey]*rowAcc
	unknown    map[string]int
	duplicates int
	dupExample []string
	scenarios  map[string]int
	counts     RunCounts
	passed     int // judged results that passed, all tiers
	warnings   []string
	// seenChecks is scratch space for de-duplicating check names within one
	// result.
	seenChecks []string
}

// New returns a Scorer that resolves case ids with lookup.
func New(lookup Lookup) *Scorer {
	return &Scorer{
		lookup:    lookup,
		meta:      map[string]*caseMeta{},
		models:    map[string]*modelAcc{},
		rows:      map[rowKey]*rowAcc{},
		unknown:   map[string]int{},
		scenarios: map[string]int{},
	}
}

// Warn records an input warning (e.g. from ReadResults) so that it reaches
// the Report and every report written from it.
func (s *Scorer) Warn(w ...string) { s.warnings = append(s.warnings, w...) }

func (s *Scorer) caseMeta(id string) *caseMeta {
	if m, ok := s.meta[id]; ok {
		return m
	}
	md, ok := s.lookup(id)
	if !ok {
		s.meta[id] = nil
		return nil
	}
	tier := md.Tier
	if tier == "" {
		tier = "core"
	}
	m := &caseMeta{id: id, category: md.Category, tier: tier, difficulty: md.Difficulty,
		reasoning: slices.Clone(md.ReasoningTypes)}
	s.meta[id] = m
	return m
}

// Add scores one result. It returns an error, and scores nothing, for a
// record that cannot be scored (no case id or model, an unknown status); a
// result for an unknown case or a repeated key is not an error: it is left
// out and reported in the Report's warnings.
func (s *Scorer) Add(r *result.EvalResult) error {
	if err := CheckResult(r); err != nil {
		return err
	}
	s.counts.Results++
	m := s.caseMeta(r.CaseID)
	if m == nil {
		s.unknown[r.CaseID]++
		s.counts.UnknownCaseResults++
		return nil
	}
	scenario := r.Scenario
	if scenario == "" {
		scenario = DefaultScenario
	}
	ma := s.models[r.Model]
	if ma == nil {
		ma = &modelAcc{tasks: map[taskKey]*taskAcc{}, checks: map[checkKey]*checkAcc{}}
		s.models[r.Model] = ma
	}
	key := taskKey{caseID: r.CaseID, scenario: scenario, mutation: r.Mutation}
	t := ma.tasks[key]
	if t == nil {
		t = &taskAcc{meta: m}
		ma.tasks[key] = t
	}
	if !t.seen.add(r.Attempt) {
		s.duplicates++
		s.counts.DuplicateResults++
		if len(s.dupExample) < maxExamples {
			s.dupExample = append(s.dupExample, fmt.Sprintf("%s %s attempt %d", r.Model, key, r.Attempt))
		}
		return nil
	}
	s.scenarios[scenario]++
	if r.Status == result.StatusError {
		countError(&ma.errors, r)
		countError(&s.counts.Errors, r)
		t.errors++
		return nil
	}
	s.counts.Judged++
	t.n++
	if r.Status == result.StatusPassed {
		t.c++
		s.passed++
	}
	if QualityPass(r) {
		t.q++
	}
	if m.scored() {
		for _, l := range r.Layers {
			la := &ma.layers[l.Layer]
			switch l.Status {
			case result.StatusPassed:
				la.passed++
			case result.StatusFailed:
				la.failed++
			case result.StatusSkipped:
				la.skipped++
			case result.StatusError:
				la.errored++
			}
		}
		if r.Status == result.StatusFailed && r.FailedAtLayer != nil {
			ma.failedAt[*r.FailedAtLayer]++
		}
	}
	s.addChecks(ma, m, r)
	return nil
}

// QualityPass reports whether a judged result passes on code quality alone,
// as the seed implementation's scorer counts it for pass_at_1_quality: L0
// (static) did not fail and L3 (heuristic) did not fail. L1 and L2 are
// ignored, and so is an L3 that did not run because an earlier layer failed
// (the seed skips a layer marked "Skipped" there); a layer that is absent,
// skipped or not selected does not fail.
func QualityPass(r *result.EvalResult) bool {
	for _, l := range r.Layers {
		if (l.Layer == result.LayerStatic || l.Layer == result.LayerHeuristic) && l.Status == result.StatusFailed {
			return false
		}
	}
	return true
}

func countError(e *ErrorCounts, r *result.EvalResult) {
	e.Results++
	if r.InfraError != "" {
		e.Infrastructure++
	} else {
		e.Case++
	}
}

// addChecks counts the non-mutation checks of the layers that ran. A check
// reported more than once in one result counts once: inconclusive if no
// report decided, else passed only if every decided report passed.
func (s *Scorer) addChecks(ma *modelAcc, m *caseMeta, r *result.EvalResult) {
	seen := s.seenChecks[:0]
	type verdict struct {
		name            string
		decided, passed bool
	}
	var small [32]verdict
	verdicts := small[:0]
	for _, l := range r.Layers {
		if l.Status != result.StatusPassed && l.Status != result.StatusFailed {
			continue
		}
		for _, d := range l.Details {
			if d.CheckType == result.CheckTypeMutation {
				continue
			}
			i := slices.Index(seen, d.CheckName)
			if i < 0 {
				seen = append(seen, d.CheckName)
				verdicts = append(verdicts, verdict{name: d.CheckName, passed: true})
				i = len(verdicts) - 1
			}
			if !d.Inconclusive {
				verdicts[i].decided = true
				verdicts[i].passed = verdicts[i].passed && d.Passed
			}
		}
	}
	s.seenChecks = seen[:0]
	for _, v := range verdicts {
		ck := checkKey{check: v.name, category: m.category}
		ca := ma.checks[ck]
		if ca == nil {
			ca = &checkAcc{}
			ma.checks[ck] = ca
		}
		ca.runs++
		rk := rowKey{caseID: m.id, check: v.name, model: r.Model}
		ra := s.rows[rk]
		if ra == nil {
			ra = &rowAcc{}
			s.rows[rk] = ra
		}
		ra.samples++
		if !v.decided {
			ca.inconclusive++
			ra.inconclusive++
			continue
		}
		if v.passed {
			ra.passed++
			continue
		}
		ca.fails++
		if ca.failing == nil {
			ca.failing = map[string]struct{}{}
		}
		ca.failing[m.id] = struct{}{}
	}
}

// CheckResult reports why a result record cannot be scored, or nil.
func CheckResult(r *result.EvalResult) error {
	switch {
	case r.CaseID == "":
		return fmt.Errorf("result has no case_id")
	case r.Model == "":
		return fmt.Errorf("result for case %q has no model", r.CaseID)
	case strings.ContainsFunc(r.Model, isControl):
		return fmt.Errorf("result for case %q: model %q contains a control character", r.CaseID, r.Model)
	case strings.ContainsFunc(r.CaseID, isControl):
		return fmt.Errorf("result case_id %q contains a control character", r.CaseID)
	}
	switch r.Status {
	case result.StatusPassed, result.StatusFailed, result.StatusError:
	case "":
		return fmt.Errorf("result %s/%s attempt %d has no status (want passed, failed or error)", r.Model, r.CaseID, r.Attempt)
	default:
		return fmt.Errorf("result %s/%s attempt %d: status %q is not passed, failed or error", r.Model, r.CaseID, r.Attempt, r.Status)
	}
	if r.Passed != (r.Status == result.StatusPassed) {
		return fmt.Errorf("result %s/%s attempt %d: passed=%t contradicts status %q", r.Model, r.CaseID, r.Attempt, r.Passed, r.Status)
	}
	if r.FailedAtLayer != nil && (*r.FailedAtLayer < 0 || *r.FailedAtLayer > result.LayerMutation) {
		return fmt.Errorf("result %s/%s attempt %d: failed_at_layer %d is not a layer (0-4)", r.Model, r.CaseID, r.Attempt, *r.FailedAtLayer)
	}
	for i, l := range r.Layers {
		if l.Layer < 0 || l.Layer > result.LayerMutation {
			return fmt.Errorf("result %s/%s attempt %d: layers[%d].layer %d is not a layer (0-4)", r.Model, r.CaseID, r.Attempt, i, l.Layer)
		}
		switch l.Status {
		case result.StatusPassed, result.StatusFailed, result.StatusSkipped, result.StatusError:
		default:
			return fmt.Errorf("result %s/%s attempt %d: layers[%d].status %q is not passed, failed, skipped or error", r.Model, r.CaseID, r.Attempt, i, l.Status)
		}
	}
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// Finish computes the Report. The Scorer may keep receiving results
// afterwards; a later Finish includes them.
func (s *Scorer) Finish() *Report {
	rep := &Report{
		Models:           []ModelScore{},
		Categories:       []CategoryScore{},
		TierScores:       []TierScore{},
		ReasoningScores:  []ReasoningScore{},
		DifficultyScores: []DifficultyScore{},
		Scenarios:        slices.Sorted(maps.Keys(s.scenarios)),
		Counts:           s.counts,
		PassedResults:    s.passed,
		Warnings:         slices.Clone(s.warnings),
	}
	if rep.Warnings == nil {
		rep.Warnings = []string{}
	}
	names := slices.Sorted(maps.Keys(s.models))
	// Scored task sets per model, in sorted order.
	scoredKeys := make([][]taskKey, len(names))
	all := groups{}
	allTasks := map[taskKey]struct{}{}
	for i, name := range names {
		ma := s.models[name]
		keys := slices.SortedFunc(maps.Keys(ma.tasks), compareTask)
		for _, k := range keys {
			t := ma.tasks[k]
			if t.n == 0 {
				continue
			}
			all.add("tier", t.meta.tier, t)
			if t.meta.scored() {
				scoredKeys[i] = append(scoredKeys[i], k)
				allTasks[k] = struct{}{}
				all.addScored(t)
			}
		}
		rep.Models = append(rep.Models, s.modelScore(name, ma, keys, scoredKeys[i]))
		rep.NSamplesPerCase = max(rep.NSamplesPerCase, rep.Models[i].NSamples)
		rep.Counts.Errors.UnjudgedCases += rep.Models[i].Errors.UnjudgedCases
	}
	rep.Categories = categoryScores(all["category"])
	rep.TierScores = tierScores(all["tier"])
	rep.ReasoningScores = reasoningScores(all["reasoning"])
	rep.DifficultyScores = difficultyScores(all["difficulty"])
	rep.Overall = OverallScore{TotalCases: len(allTasks), TotalModels: len(names)}
	s.comparable(rep, names, scoredKeys)
	best := -1.0
	for _, m := range rep.Models {
		p := m.PassAt1
		if m.PassAt1Comparable != nil {
			p = *m.PassAt1Comparable
		}
		if m.TotalCases > 0 && p > best {
			best, rep.Overall.BestModel, rep.Overall.BestPassAt1 = p, m.Model, p
		}
	}
	rep.PerCheckRows, rep.InconclusiveChecks = s.perCheckRows()
	rep.Warnings = append(rep.Warnings, s.ownWarnings()...)
	if rep.Overall.CaseSetWarning != nil {
		rep.Warnings = append(rep.Warnings, *rep.Overall.CaseSetWarning)
	}
	return rep
}

// comparable fills the common-task numbers when models saw different task
// sets.
func (s *Scorer) comparable(rep *Report, names []string, scoredKeys [][]taskKey) {
	if len(names) < 2 {
		return
	}
	common := map[taskKey]int{}
	for _, keys := range scoredKeys {
		for _, k := range keys {
			common[k]++
		}
	}
	var inter []taskKey
	for k, n := range common {
		if n == len(names) {
			inter = append(inter, k)
		}
	}
	slices.SortFunc(inter, compareTask)
	nCommon := len(inter)
	rep.Overall.CommonCases = &nCommon
	differ := false
	for _, keys := range scoredKeys {
		if len(keys) != nCommon {
			differ = true
		}
	}
	if !differ {
		return
	}
	var sizes []string
	for i, name := range names {
		sizes = append(sizes, fmt.Sprintf("%s %d", name, len(scoredKeys[i])))
	}
	w := fmt.Sprintf("warning: models were scored on different case sets (%s); only %d cases are common to all %d models. pass_at_1 values are not directly comparable; pass_at_1_comparable scores every model on the common cases only",
		strings.Join(sizes, ", "), nCommon, len(names))
	rep.Overall.CaseSetWarning = &w
	for i, name := range names {
		ma := s.models[name]
		sum := 0.0
		for _, k := range inter {
			t := ma.tasks[k]
			sum += PassAtK(t.n, t.c, 1)
		}
		v := 0.0
		if nCommon > 0 {
			v = sum / float64(nCommon)
		}
		n := nCommon
		rep.Models[i].PassAt1Comparable = &v
		rep.Models[i].ComparableCases = &n
	}
}

func (s *Scorer) ownWarnings() []string {
	var out []string
	if len(s.unknown) > 0 {
		ids := slices.Sorted(maps.Keys(s.unknown))
		out = append(out, fmt.Sprintf("warning: %d results for %d cases that are not in the case metadata (removed or renamed?) were excluded from every score: %s",
			s.counts.UnknownCaseResults, len(ids), listExamples(ids)))
	}
	if s.duplicates > 0 {
		out = append(out, fmt.Sprintf("warning: %d duplicate results (same model, case, scenario, mutation and attempt) were ignored, keeping the first occurrence of each: %s",
			s.duplicates, listExamples(s.dupExample[:min(len(s.dupExample), s.duplicates)])+moreSuffix(s.duplicates, len(s.dupExample))))
	}
	if len(s.scenarios) > 1 {
		var parts []string
		for _, sc := range slices.Sorted(maps.Keys(s.scenarios)) {
			parts = append(parts, fmt.Sprintf("%s %d", sc, s.scenarios[sc]))
		}
		out = append(out, fmt.Sprintf("warning: results mix scenarios (%s); each (case, scenario, mutation) is scored as its own task", strings.Join(parts, ", ")))
	}
	return out
}

func listExamples(ids []string) string {
	if len(ids) <= maxExamples {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:maxExamples], ", ") + moreSuffix(len(ids), maxExamples)
}

func moreSuffix(total, shown int) string {
	if total > shown {
		return fmt.Sprintf(" (+%d more)", total-shown)
	}
	return ""
}

func (s *Scorer) modelScore(name string, ma *modelAcc, allKeys, scored []taskKey) ModelScore {
	ms := ModelScore{
		Model:               name,
		LayerPassRates:      map[string]float64{},
		LayerStats:          []LayerStat{},
		FailureDistribution: []FailureCount{},
		Errors:              ma.errors,
		PerCheckStats:       []PerCheckStat{},
	}
	g := groups{}
	var p1, p3, p5 float64
	for _, k := range allKeys {
		t := ma.tasks[k]
		if t.n == 0 {
			ms.Errors.UnjudgedCases++
			continue
		}
		g.add("tier", t.meta.tier, t)
	}
	for _, k := range scored {
		t := ma.tasks[k]
		g.addScored(t)
		p1 += PassAtK(t.n, t.c, 1)
		p3 += PassAtK(t.n, t.c, 3)
		p5 += PassAtK(t.n, t.c, 5)
		ms.TotalCases++
		ms.JudgedSamples += t.n
		ms.PassedSamples += t.c
		ms.NSamples = max(ms.NSamples, t.n)
		if t.c == t.n {
			ms.PassedCases++
		}
		if t.q > 0 {
			ms.PassedCasesQuality++
		}
		switch {
		case t.n == 1:
			ms.Stability.Single++
		case t.c == t.n:
			ms.Stability.Always++
		case t.c == 0:
			ms.Stability.Never++
		default:
			ms.Stability.Flaky++
		}
	}
	if ms.TotalCases > 0 {
		n := float64(ms.TotalCases)
		ms.PassAt1, ms.PassAt3, ms.PassAt5 = p1/n, p3/n, p5/n
		ms.PassAt1Quality = float64(ms.PassedCasesQuality) / n
	}
	ms.AvgScore = ms.PassAt1
	lo, hi := Wilson(ms.PassAt1, ms.JudgedSamples, Z95)
	ms.PassAt1CI = [2]float64{lo, hi}
	ms.CategoryScores = categoryScores(g["category"])
	ms.TierScores = tierScores(g["tier"])
	ms.ReasoningScores = reasoningScores(g["reasoning"])
	ms.DifficultyScores = difficultyScores(g["difficulty"])
	for n, la := range ma.layers {
		st := LayerStat{Layer: n, Name: result.LayerName(n), Ran: la.passed + la.failed,
			Passed: la.passed, Failed: la.failed, Skipped: la.skipped, Errored: la.errored}
		if st.Ran+st.Skipped+st.Errored == 0 {
			continue
		}
		if st.Ran > 0 {
			st.PassRate = float64(st.Passed) / float64(st.Ran)
			ms.LayerPassRates[st.Name] = st.PassRate
		}
		ms.LayerStats = append(ms.LayerStats, st)
	}
	for n, f := range ma.failedAt {
		if f > 0 {
			ms.FailureDistribution = append(ms.FailureDistribution, FailureCount{Layer: n, Name: result.LayerName(n), Failures: f})
		}
	}
	for _, ck := range slices.SortedFunc(maps.Keys(ma.checks), func(a, b checkKey) int {
		return cmp.Or(strings.Compare(a.check, b.check), strings.Compare(a.category, b.category))
	}) {
		ca := ma.checks[ck]
		st := PerCheckStat{CheckName: ck.check, Category: ck.category, TotalRuns: ca.runs, FailCount: ca.fails,
			FailingTCIDs: slices.Sorted(maps.Keys(ca.failing)), Inconclusive: ca.inconclusive,
			PassRate: PassRateOf(ca.runs-ca.fails-ca.inconclusive, ca.runs, ca.inconclusive)}
		if st.FailingTCIDs == nil {
			st.FailingTCIDs = []string{}
		}
		ms.PerCheckStats = append(ms.PerCheckStats, st)
	}
	return ms
}

// perCheckRows returns the rows of per_check_metrics.json and the total of
// their inconclusive outcomes.
func (s *Scorer) perCheckRows() ([]PerCheckRow, int) {
	rows := make([]PerCheckRow, 0, len(s.rows))
	inconclusive := 0
	for k, a := range s.rows {
		rows = append(rows, PerCheckRow{CaseID: k.caseID, Category: s.meta[k.caseID].category, CheckName: k.check,
			Model: k.model, Samples: a.samples, Passed: a.passed, Inconclusive: a.inconclusive,
			PassRate: PassRateOf(a.passed, a.samples, a.inconclusive)})
		inconclusive += a.inconclusive
	}
	slices.SortFunc(rows, func(a, b PerCheckRow) int {
		return cmp.Or(cmp.Compare(a.PassRate, b.PassRate), strings.Compare(a.CaseID, b.CaseID),
			strings.Compare(a.CheckName, b.CheckName), strings.Compare(a.Model, b.Model))
	})
	return rows, inconclusive
}

// groupAcc accumulates one breakdown group; tasks must be added in a fixed
// order so that the float sum is reproducible.
type groupAcc struct {
	sum    float64
	cases  int
	passed int
	n, c   int
}

// groups maps a dimension ("category", "tier", ...) to its groups.
type groups map[string]map[string]*groupAcc

func (g groups) add(dim, name string, t *taskAcc) {
	d := g[dim]
	if d == nil {
		d = map[string]*groupAcc{}
		g[dim] = d
	}
	a := d[name]
	if a == nil {
		a = &groupAcc{}
		d[name] = a
	}
	a.sum += PassAtK(t.n, t.c, 1)
	a.cases++
	a.n += t.n
	a.c += t.c
	if t.c == t.n {
		a.passed++
	}
}

// addScored adds a scored (non-sanity) task to every scored dimension.
func (g groups) addScored(t *taskAcc) {
	g.add("category", t.meta.category, t)
	g.add("difficulty", t.meta.difficulty, t)
	for _, r := range t.meta.reasoning {
		g.add("reasoning", r, t)
	}
}

func (a *groupAcc) breakdown() Breakdown {
	b := Breakdown{TotalCases: a.cases, PassedCases: a.passed, TotalSamples: a.n, PassedSamples: a.c}
	if a.cases > 0 {
		b.PassAt1 = a.sum / float64(a.cases)
	}
	lo, hi := Wilson(b.PassAt1, a.n, Z95)
	b.PassAt1CI = [2]float64{lo, hi}
	return b
}

func categoryScores(d map[string]*groupAcc) []CategoryScore {
	out := []CategoryScore{}
	for _, k := range slices.Sorted(maps.Keys(d)) {
		out = append(out, CategoryScore{Category: k, Breakdown: d[k].breakdown()})
	}
	return out
}

func reasoningScores(d map[string]*groupAcc) []ReasoningScore {
	out := []ReasoningScore{}
	for _, k := range slices.Sorted(maps.Keys(d)) {
		out = append(out, ReasoningScore{ReasoningType: k, Breakdown: d[k].breakdown()})
	}
	return out
}

// orderOf sorts known enum values in their declared order, then unknown
// values by name.
func orderOf(known []string) func(a, b string) int {
	rank := func(s string) int {
		if i := slices.Index(known, s); i >= 0 {
			return i
		}
		return len(known)
	}
	return func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b)) }
}

func tierScores(d map[string]*groupAcc) []TierScore {
	out := []TierScore{}
	for _, k := range slices.SortedFunc(maps.Keys(d), orderOf(cases.Tiers())) {
		out = append(out, TierScore{Tier: k, Scored: k != SanityTier, Breakdown: d[k].breakdown()})
	}
	return out
}

func difficultyScores(d map[string]*groupAcc) []DifficultyScore {
	out := []DifficultyScore{}
	for _, k := range slices.SortedFunc(maps.Keys(d), orderOf(cases.Difficulties())) {
		out = append(out, DifficultyScore{Difficulty: k, Breakdown: d[k].breakdown()})
	}
	return out
}
