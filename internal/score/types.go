package score

// The types below are the scored numbers. Their JSON field names are those of
// the seed's BenchmarkReport models (ModelScore, CategoryScore, TierScore,
// ReasoningScore, OverallScore, PerCheckStat); fields the seed does not have
// are additive (interop contract §2.4b: additive-only within a version).

// Breakdown is pass@1 over one group of tasks (a category, tier, reasoning
// type or difficulty) for one model, or across models for the top-level
// breakdowns.
type Breakdown struct {
	// PassAt1 is the mean over the group's tasks of c/n (c correct of n
	// judged samples).
	PassAt1 float64 `json:"pass_at_1"`
	// PassAt1CI is the Wilson 95% interval of PassAt1 with n = TotalSamples.
	PassAt1CI [2]float64 `json:"pass_at_1_ci"`
	// TotalCases counts tasks with at least one judged sample.
	TotalCases int `json:"total_cases"`
	// PassedCases counts tasks whose every judged sample passed.
	PassedCases int `json:"passed_cases"`
	// TotalSamples and PassedSamples count judged samples (passed or failed
	// results; errors are never judged).
	TotalSamples  int `json:"total_samples"`
	PassedSamples int `json:"passed_samples"`
}

// CategoryScore is pass@1 for one case category.
type CategoryScore struct {
	Category string `json:"category"`
	Breakdown
}

// TierScore is pass@1 for one evaluation tier. Scored says whether the tier
// counts into the overall numbers (false for sanity).
type TierScore struct {
	Tier   string `json:"tier"`
	Scored bool   `json:"scored"`
	Breakdown
}

// ReasoningScore is pass@1 for one reasoning type; a case with several
// reasoning types counts in each.
type ReasoningScore struct {
	ReasoningType string `json:"reasoning_type"`
	Breakdown
}

// DifficultyScore is pass@1 for one difficulty level.
type DifficultyScore struct {
	Difficulty string `json:"difficulty"`
	Breakdown
}

// LayerStat counts one layer's outcomes over one model's scored results.
// PassRate is Passed/Ran, where Ran counts only results in which the layer
// actually ran (status passed or failed); skipped and errored layers are
// counted apart and never enter the rate.
type LayerStat struct {
	Layer    int     `json:"layer"`
	Name     string  `json:"name"`
	Ran      int     `json:"ran"`
	Passed   int     `json:"passed"`
	Failed   int     `json:"failed"`
	Skipped  int     `json:"skipped"`
	Errored  int     `json:"errored"`
	PassRate float64 `json:"pass_rate"`
}

// FailureCount is how many failed results first failed at one layer.
type FailureCount struct {
	Layer    int    `json:"layer"`
	Name     string `json:"name"`
	Failures int    `json:"failures"`
}

// ErrorCounts counts results kept out of every denominator.
type ErrorCounts struct {
	// Results is the number of results with status error.
	Results int `json:"results"`
	// Infrastructure counts those with infra_error set (model API, toolchain,
	// timeouts of our own making); Case counts the rest (a broken case).
	Infrastructure int `json:"infrastructure"`
	Case           int `json:"case"`
	// UnjudgedCases counts tasks whose every result was an error.
	UnjudgedCases int `json:"unjudged_cases"`
}

// Stability classifies a model's scored tasks by their judged samples:
// Always (every sample passed), Flaky (some passed), Never (none passed),
// each over tasks with at least two judged samples; Single counts tasks with
// exactly one.
type Stability struct {
	Always int `json:"always"`
	Flaky  int `json:"flaky"`
	Never  int `json:"never"`
	Single int `json:"single"`
}

// PerCheckStat aggregates one check in one category for one model (interop
// contract §2.4b). FailingTCIDs is the sorted distinct set of case ids where
// the check failed at least once. TotalRuns counts every run where the check
// reported, Inconclusive those where it could not decide (additive, omitted
// when zero); PassRate is over decided runs only (see PassRateOf).
type PerCheckStat struct {
	CheckName    string   `json:"check_name"`
	Category     string   `json:"category"`
	TotalRuns    int      `json:"total_runs"`
	FailCount    int      `json:"fail_count"`
	PassRate     float64  `json:"pass_rate"`
	FailingTCIDs []string `json:"failing_tc_ids"`
	Inconclusive int      `json:"inconclusive,omitempty"`
}

// ModelScore is every number of one model. The seed's ModelScore fields come
// first, in its order (per_check_stats aside, which stays last); the rest are
// additive.
type ModelScore struct {
	Model   string  `json:"model"`
	PassAt1 float64 `json:"pass_at_1"`
	// PassAt1Quality is the seed's quality score: PassedCasesQuality /
	// TotalCases. With one sample per case it is pass@1 counting L0 and L3
	// only; with more, like the seed, it counts a task once any of its
	// samples passes on quality.
	PassAt1Quality float64 `json:"pass_at_1_quality"`
	// PassAt1Comparable is pass@1 on the tasks common to all models; set only
	// when the models were scored on different task sets.
	PassAt1Comparable *float64 `json:"pass_at_1_comparable"`
	PassAt3           float64  `json:"pass_at_3"`
	PassAt5           float64  `json:"pass_at_5"`
	// AvgScore is PassAt1, as the seed writes it.
	AvgScore    float64 `json:"avg_score"`
	TotalCases  int     `json:"total_cases"`
	PassedCases int     `json:"passed_cases"`
	// PassedCasesQuality counts scored tasks with at least one judged sample
	// that passes on quality (QualityPass: neither L0 nor L3 failed).
	PassedCasesQuality int  `json:"passed_cases_quality"`
	ComparableCases    *int `json:"comparable_cases"`
	// LayerPassRates is keyed by the seed's layer names (result.LayerName):
	// static_analysis, compile_gate, runtime_execution, static_heuristic,
	// test_quality_proof; a layer that never ran has no key.
	LayerPassRates map[string]float64 `json:"layer_pass_rates"`
	PassAt1CI      [2]float64         `json:"pass_at_1_ci"`
	// NSamples is the largest number of judged samples of any scored task.
	NSamples int `json:"n_samples"`
	// JudgedSamples is the number of judged scored samples (the n of the CI).
	JudgedSamples       int               `json:"judged_samples"`
	PassedSamples       int               `json:"passed_samples"`
	CategoryScores      []CategoryScore   `json:"category_scores"`
	TierScores          []TierScore       `json:"tier_scores"`
	ReasoningScores     []ReasoningScore  `json:"reasoning_scores"`
	DifficultyScores    []DifficultyScore `json:"difficulty_scores"`
	LayerStats          []LayerStat       `json:"layer_stats"`
	FailureDistribution []FailureCount    `json:"failure_distribution"`
	Errors              ErrorCounts       `json:"errors"`
	Stability           Stability         `json:"stability"`
	PerCheckStats       []PerCheckStat    `json:"per_check_stats"`
}

// OverallScore summarises the run across models.
type OverallScore struct {
	// TotalCases counts distinct scored tasks across all models.
	TotalCases  int    `json:"total_cases"`
	TotalModels int    `json:"total_models"`
	BestModel   string `json:"best_model"`
	// BestPassAt1 is the best model's pass@1 (its comparable pass@1 when the
	// models saw different task sets).
	BestPassAt1 float64 `json:"best_pass_at_1"`
	// CommonCases counts tasks scored for every model (nil with one model).
	CommonCases    *int    `json:"common_cases"`
	CaseSetWarning *string `json:"case_set_warning"`
}

// RunCounts counts the results a Scorer was given and what became of them.
type RunCounts struct {
	// Results is every result passed to Add.
	Results int `json:"results"`
	// Judged are passed or failed results of known cases (all tiers).
	Judged int `json:"judged"`
	// Errors are results with status error (all models).
	Errors ErrorCounts `json:"errors"`
	// UnknownCaseResults are results for case ids the metadata lookup does
	// not know; they are excluded from every number.
	UnknownCaseResults int `json:"unknown_case_results"`
	// DuplicateResults are repeated (model, case, scenario, mutation,
	// attempt) keys; only the first occurrence was scored.
	DuplicateResults int `json:"duplicate_results"`
}

// PerCheckRow is one (case, check, model) row of per_check_metrics.json
// (interop contract §2.4a). Samples counts every sample where the check
// reported, Passed the decided passes, Inconclusive the undecided samples
// (additive, omitted when zero); PassRate is over decided samples only (see
// PassRateOf).
type PerCheckRow struct {
	CaseID       string  `json:"case_id"`
	Category     string  `json:"category"`
	CheckName    string  `json:"check_name"`
	Model        string  `json:"model"`
	Samples      int     `json:"samples"`
	Passed       int     `json:"passed"`
	PassRate     float64 `json:"pass_rate"`
	Inconclusive int     `json:"inconclusive,omitempty"`
}

// PassRateOf is a check's pass rate over its decided outcomes:
// passed / (runs - inconclusive). A check that never decided has no evidence
// of a failure, and its rate is 1.
func PassRateOf(passed, runs, inconclusive int) float64 {
	decided := runs - inconclusive
	if decided <= 0 {
		return 1
	}
	return float64(passed) / float64(decided)
}

// Report is the outcome of scoring one stream of results. Every slice is
// sorted and non-nil; the same results in any order (duplicates aside) give
// an identical Report.
type Report struct {
	Models           []ModelScore      `json:"models"`
	Categories       []CategoryScore   `json:"categories"`
	TierScores       []TierScore       `json:"tier_scores"`
	ReasoningScores  []ReasoningScore  `json:"reasoning_scores"`
	DifficultyScores []DifficultyScore `json:"difficulty_scores"`
	Overall          OverallScore      `json:"overall"`
	// NSamplesPerCase is the largest NSamples of any model.
	NSamplesPerCase int `json:"n_samples_per_case"`
	// Scenarios lists the scenarios seen, sorted.
	Scenarios []string  `json:"scenarios"`
	Counts    RunCounts `json:"counts"`
	// PassedResults counts judged results that passed (known cases, first
	// occurrence of each key, every tier).
	PassedResults int `json:"-"`
	// PerCheckRows are sorted by pass_rate ascending, then case_id,
	// check_name, model.
	PerCheckRows []PerCheckRow `json:"-"`
	// InconclusiveChecks counts the inconclusive check outcomes of the run:
	// the sum of the rows' Inconclusive.
	InconclusiveChecks int `json:"-"`
	// Warnings are the input warnings (in the order given) followed by the
	// scorer's own, each one line.
	Warnings []string `json:"warnings"`
}
