package analysis

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/score"
)

// TaskKey identifies a task as package score does: a case under one scenario
// (and, for bugfix, one mutation).
type TaskKey struct {
	CaseID   string `json:"case_id"`
	Scenario string `json:"scenario"`
	Mutation string `json:"mutation,omitempty"`
}

// String is the case id, followed by "[scenario mutation]" for a scenario
// other than generation.
func (k TaskKey) String() string {
	s := k.CaseID
	if k.Scenario != score.DefaultScenario {
		s += " [" + k.Scenario
		if k.Mutation != "" {
			s += " " + k.Mutation
		}
		s += "]"
	}
	return s
}

// CompareTasks orders tasks by case id, scenario, mutation.
func CompareTasks(a, b TaskKey) int {
	return cmp.Or(strings.Compare(a.CaseID, b.CaseID), strings.Compare(a.Scenario, b.Scenario),
		strings.Compare(a.Mutation, b.Mutation))
}

// caseInfo is the part of a case's metadata the analysis needs.
type caseInfo struct {
	category, difficulty, tier string
}

func (c *caseInfo) scored() bool { return c.tier != score.SanityTier }

// confidenceScale turns a confidence into an integer so that sums do not
// depend on the order of the results.
const confidenceScale = 1_000_000

type patternAcc struct {
	failures int
	// confidence is the sum of round(confidence × confidenceScale).
	confidence int64
	cases      map[string]struct{}
}

type configAcc struct{ n, c, partial, unjudged int }

type taskAcc struct {
	info         *caseInfo
	n, c, errors int
	attempts     map[int]struct{}
	configs      [5]configAcc
}

type modelAcc struct {
	tasks    map[TaskKey]*taskAcc
	patterns [8]patternAcc
}

// Counts says what a Collector was given and what became of it.
type Counts struct {
	// Results is every result passed to Add.
	Results int `json:"results"`
	// Judged counts passed or failed results of known cases (all tiers);
	// Failed the failed ones among them; Errors the results with status
	// error.
	Judged int `json:"judged"`
	Failed int `json:"failed"`
	Errors int `json:"errors"`
	// Classified counts the failed results of scored (non-sanity) cases that
	// the taxonomy classified.
	Classified int `json:"classified"`
	// UnknownCaseResults and DuplicateResults are left out of every number,
	// as in package score.
	UnknownCaseResults int `json:"unknown_case_results"`
	DuplicateResults   int `json:"duplicate_results"`
}

// Collector aggregates results one at a time into per-(model, task) and
// per-(model, pattern) counters. It is not safe for concurrent use; the zero
// value is not usable, call NewCollector.
type Collector struct {
	lookup score.Lookup
	cases  map[string]*caseInfo // nil value: unknown case
	models map[string]*modelAcc
	counts Counts
}

// NewCollector returns a Collector resolving case ids with lookup.
func NewCollector(lookup score.Lookup) *Collector {
	return &Collector{lookup: lookup, cases: map[string]*caseInfo{}, models: map[string]*modelAcc{}}
}

func (c *Collector) caseInfo(id string) *caseInfo {
	if ci, ok := c.cases[id]; ok {
		return ci
	}
	md, ok := c.lookup(id)
	if !ok {
		c.cases[id] = nil
		return nil
	}
	ci := &caseInfo{category: md.Category, difficulty: md.Difficulty, tier: md.Tier}
	if ci.tier == "" {
		ci.tier = "core"
	}
	c.cases[id] = ci
	return ci
}

// Add counts one result. It returns score.CheckResult's error for a record
// that cannot be scored; results of unknown cases and repeated (model, case,
// scenario, mutation, attempt) keys are left out and counted, as in package
// score.
func (c *Collector) Add(r *result.EvalResult) error {
	if err := score.CheckResult(r); err != nil {
		return err
	}
	c.counts.Results++
	ci := c.caseInfo(r.CaseID)
	if ci == nil {
		c.counts.UnknownCaseResults++
		return nil
	}
	scenario := r.Scenario
	if scenario == "" {
		scenario = score.DefaultScenario
	}
	ma := c.models[r.Model]
	if ma == nil {
		ma = &modelAcc{tasks: map[TaskKey]*taskAcc{}}
		c.models[r.Model] = ma
	}
	key := TaskKey{CaseID: r.CaseID, Scenario: scenario, Mutation: r.Mutation}
	t := ma.tasks[key]
	if t == nil {
		t = &taskAcc{info: ci, attempts: map[int]struct{}{}}
		ma.tasks[key] = t
	}
	if _, dup := t.attempts[r.Attempt]; dup {
		c.counts.DuplicateResults++
		return nil
	}
	t.attempts[r.Attempt] = struct{}{}
	if r.Status == result.StatusError {
		c.counts.Errors++
		t.errors++
		return nil
	}
	c.counts.Judged++
	t.n++
	if r.Status == result.StatusPassed {
		t.c++
	} else {
		c.counts.Failed++
	}
	if !ci.scored() {
		return nil
	}
	for i, cfg := range Configs() {
		v := Rejudge(r, cfg)
		a := &t.configs[i]
		if v.Partial {
			a.partial++
		}
		switch {
		case !v.Judged:
			a.unjudged++
		case v.Passed:
			a.n++
			a.c++
		default:
			a.n++
		}
	}
	if cl, ok := Classify(r); ok {
		c.counts.Classified++
		pa := &ma.patterns[patternIndex(cl.Pattern)]
		pa.failures++
		pa.confidence += int64(math.Round(cl.Confidence * confidenceScale))
		if pa.cases == nil {
			pa.cases = map[string]struct{}{}
		}
		pa.cases[r.CaseID] = struct{}{}
	}
	return nil
}

// TaskResult is one (task, model) row: judged samples, how many passed, and
// the results with status error (never judged).
type TaskResult struct {
	TaskKey
	Category   string `json:"category"`
	Difficulty string `json:"difficulty"`
	Tier       string `json:"tier"`
	Model      string `json:"model"`
	Samples    int    `json:"samples"`
	Passed     int    `json:"passed"`
	Errors     int    `json:"errors"`
}

// Status values of a TaskResult.
const (
	TaskPass  = "PASS"  // every judged sample passed
	TaskFlaky = "FLAKY" // some judged samples passed
	TaskFail  = "FAIL"  // no judged sample passed
	TaskError = "ERROR" // no judged sample (every result was an error)
)

// Status classifies the row: PASS, FLAKY, FAIL or ERROR.
func (t TaskResult) Status() string {
	switch {
	case t.Samples == 0:
		return TaskError
	case t.Passed == t.Samples:
		return TaskPass
	case t.Passed == 0:
		return TaskFail
	}
	return TaskFlaky
}

// TaxonomyRow is one pattern's share of a model's classified failures.
type TaxonomyRow struct {
	Pattern  Pattern `json:"pattern"`
	Failures int     `json:"failures"`
	// Share is Failures over the model's classified failures.
	Share float64 `json:"share"`
	// MeanConfidence is the mean vote confidence of the failures (each
	// rounded to 1e-6 before summing).
	MeanConfidence float64 `json:"mean_confidence"`
	// Cases are the distinct case ids of the failures, sorted.
	Cases []string `json:"cases"`
}

// ModelTaxonomy is the failure taxonomy of one model ("all" for every model
// together). Rows hold every pattern, in Patterns() order.
type ModelTaxonomy struct {
	Model  string        `json:"model"`
	Failed int           `json:"failed"`
	Rows   []TaxonomyRow `json:"rows"`
}

// Analysis is what a Collector computed. Every slice is sorted and non-nil.
type Analysis struct {
	// Models are the model names, sorted.
	Models []string `json:"models"`
	// Tasks has one row per (task, model), every tier, sorted by task then
	// model.
	Tasks []TaskResult `json:"tasks"`
	// Taxonomy has one entry per model (sorted); TaxonomyAll sums them.
	Taxonomy    []ModelTaxonomy `json:"taxonomy"`
	TaxonomyAll ModelTaxonomy   `json:"taxonomy_all"`
	Ablation    Ablation        `json:"ablation"`
	Calibration Calibration     `json:"calibration"`
	Counts      Counts          `json:"counts"`
}

// AllModels is the Model of the aggregate rows.
const AllModels = "all"

// Finish computes the Analysis. The Collector may keep receiving results; a
// later Finish includes them.
func (c *Collector) Finish() *Analysis {
	an := &Analysis{Models: slices.Sorted(maps.Keys(c.models)), Tasks: []TaskResult{}, Taxonomy: []ModelTaxonomy{},
		Counts: c.counts}
	allPatterns := [8]patternAcc{}
	for _, name := range an.Models {
		ma := c.models[name]
		an.Taxonomy = append(an.Taxonomy, taxonomy(name, ma.patterns[:]))
		for i, p := range ma.patterns {
			a := &allPatterns[i]
			a.failures += p.failures
			a.confidence += p.confidence
			for id := range p.cases {
				if a.cases == nil {
					a.cases = map[string]struct{}{}
				}
				a.cases[id] = struct{}{}
			}
		}
		for k, t := range ma.tasks {
			an.Tasks = append(an.Tasks, TaskResult{TaskKey: k, Category: t.info.category, Difficulty: t.info.difficulty,
				Tier: t.info.tier, Model: name, Samples: t.n, Passed: t.c, Errors: t.errors})
		}
	}
	slices.SortFunc(an.Tasks, func(a, b TaskResult) int {
		return cmp.Or(CompareTasks(a.TaskKey, b.TaskKey), strings.Compare(a.Model, b.Model))
	})
	an.TaxonomyAll = taxonomy(AllModels, allPatterns[:])
	an.Ablation = c.ablation(an.Models)
	an.Calibration = c.calibration(an.Models)
	return an
}

func taxonomy(model string, acc []patternAcc) ModelTaxonomy {
	mt := ModelTaxonomy{Model: model, Rows: []TaxonomyRow{}}
	for _, a := range acc {
		mt.Failed += a.failures
	}
	for i, p := range Patterns() {
		a := acc[i]
		row := TaxonomyRow{Pattern: p, Failures: a.failures, Cases: slices.Sorted(maps.Keys(a.cases))}
		if row.Cases == nil {
			row.Cases = []string{}
		}
		if a.failures > 0 {
			row.Share = float64(a.failures) / float64(mt.Failed)
			row.MeanConfidence = float64(a.confidence) / confidenceScale / float64(a.failures)
		}
		mt.Rows = append(mt.Rows, row)
	}
	return mt
}

// sortedTasks returns a model's scored tasks with judged samples, sorted.
func (ma *modelAcc) sortedTasks(scoredOnly bool) []TaskKey {
	var keys []TaskKey
	for k, t := range ma.tasks {
		if scoredOnly && !t.info.scored() {
			continue
		}
		keys = append(keys, k)
	}
	slices.SortFunc(keys, CompareTasks)
	return keys
}
