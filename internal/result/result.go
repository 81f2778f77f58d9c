// Package result defines the records an evaluation produces: CheckDetail,
// LayerResult and EvalResult, with the JSON field names of the seed
// implementation plus an explicit per-layer status. It holds data only; the
// evaluator fills it and scoring and reporting read it.
package result

import "github.com/embedeval/embedeval-go/internal/diag"

// CheckType values with a meaning fixed by the interop contract.
const (
	// CheckTypeMutation marks L4 synthetic checks; authors must not use it, and
	// per-check statistics exclude it.
	CheckTypeMutation = "mutation"
)

// CheckDetail is one check's outcome (interop contract §2.2).
type CheckDetail struct {
	CheckName string  `json:"check_name"`
	Passed    bool    `json:"passed"`
	Expected  *string `json:"expected"`
	Actual    *string `json:"actual"`
	CheckType string  `json:"check_type"`
	Weight    float64 `json:"weight"`
	// Inconclusive marks a check that could not decide (an unknown value, a
	// call through a function pointer). It is additive to the contract's
	// shape: Passed is then true, so a reader that knows only passed never
	// sees a failure; it never fails a layer and never counts as an L4 catch.
	Inconclusive bool `json:"inconclusive,omitempty"`
	// Requirement, when set, quotes verbatim the text of the case's prompt.md
	// or of one of its context/ files that the check enforces; validate holds
	// it against those files. Additive to the contract's shape: absent when
	// the check cites nothing.
	Requirement *string `json:"requirement,omitempty"`
}

// Failed reports whether the record is evidence of a fault: it failed and
// was not inconclusive.
func (d CheckDetail) Failed() bool { return !d.Passed && !d.Inconclusive }

// Layer numbers, in the order the evaluator runs them.
const (
	LayerStatic    = 0
	LayerCompile   = 1
	LayerRuntime   = 2
	LayerHeuristic = 3
	LayerMutation  = 4
)

// LayerName returns the name of a layer number as the seed implementation
// writes it in LayerResult.name and keys layer_pass_rates with:
// static_analysis, compile_gate, runtime_execution, static_heuristic,
// test_quality_proof.
func LayerName(layer int) string {
	switch layer {
	case LayerStatic:
		return "static_analysis"
	case LayerCompile:
		return "compile_gate"
	case LayerRuntime:
		return "runtime_execution"
	case LayerHeuristic:
		return "static_heuristic"
	case LayerMutation:
		return "test_quality_proof"
	}
	return "unknown"
}

// LayerShortName returns the short name of a layer number, for people
// (reports, messages, feedback prompts) and for --layers: static, compile,
// runtime, heuristic, mutation. Records written by earlier versions of this
// binary carry these names in LayerResult.name; they still load.
func LayerShortName(layer int) string {
	switch layer {
	case LayerStatic:
		return "static"
	case LayerCompile:
		return "compile"
	case LayerRuntime:
		return "runtime"
	case LayerHeuristic:
		return "heuristic"
	case LayerMutation:
		return "mutation"
	}
	return "unknown"
}

// LayerNumber returns the layer number of a name, long (LayerName) or short
// (LayerShortName), and false for any other name.
func LayerNumber(name string) (int, bool) {
	for n := LayerStatic; n <= LayerMutation; n++ {
		if name == LayerName(n) || name == LayerShortName(n) {
			return n, true
		}
	}
	return 0, false
}

// NormalizeLayerNames rewrites the short layer names of older records
// (static, compile, ...) as LayerName; other names are left alone.
func (r *EvalResult) NormalizeLayerNames() {
	for i := range r.Layers {
		if n, ok := LayerNumber(r.Layers[i].Name); ok && n == r.Layers[i].Layer {
			r.Layers[i].Name = LayerName(n)
		}
	}
}

// Status is what happened to a layer.
type Status string

const (
	// StatusPassed means the layer ran and everything in it passed.
	StatusPassed Status = "passed"
	// StatusFailed means the layer ran and found a fault in the code.
	StatusFailed Status = "failed"
	// StatusSkipped means the layer did not run; Reason says why. Never a pass.
	StatusSkipped Status = "skipped"
	// StatusError means the layer could not give a verdict because of the case or
	// the infrastructure (a broken check, a crashed toolchain); never a model
	// failure.
	StatusError Status = "error"
)

// LayerResult is the outcome of one layer for one piece of code.
type LayerResult struct {
	Layer int    `json:"layer"`
	Name  string `json:"name"`
	// Passed is true only when Status is passed.
	Passed          bool          `json:"passed"`
	Status          Status        `json:"status"`
	Reason          string        `json:"reason,omitempty"`
	Details         []CheckDetail `json:"details"`
	Error           *string       `json:"error"`
	DurationSeconds float64       `json:"duration_seconds"`
	// Mutations holds the per-negative outcomes of L4.
	Mutations []MutationResult `json:"mutations,omitempty"`
	// Problem is the structured form of Error when the cause is a located
	// problem in a case file; it is not serialised.
	Problem *diag.Problem `json:"-"`
}

// MutationOutcome is what happened to one negative in L4.
type MutationOutcome string

const (
	// MutationApplied means the mutant differed from the code and was checked.
	MutationApplied MutationOutcome = "applied"
	// MutationUnchanged means the mutation left the code as it was, so it says
	// nothing about the checks; it is skipped.
	MutationUnchanged MutationOutcome = "unchanged"
	// MutationError means the mutation or the checks on the mutant raised.
	MutationError MutationOutcome = "error"
)

// MutationResult is one negative applied to one piece of code.
type MutationResult struct {
	Name    string          `json:"name"`
	Outcome MutationOutcome `json:"outcome"`
	// Caught lists, for each must_fail check, whether it failed on the mutant.
	MustFail []CheckVerdict `json:"must_fail,omitempty"`
	// ShouldFail lists the soft expectations.
	ShouldFail []CheckVerdict `json:"should_fail,omitempty"`
	Error      string         `json:"error,omitempty"`
	// Problem is the located form of Error, when there is one; not serialised.
	Problem *diag.Problem `json:"-"`
}

// CheckVerdict says whether a named check failed on a mutant ("caught").
type CheckVerdict struct {
	CheckName string `json:"check_name"`
	Caught    bool   `json:"caught"`
	// Missing is set when the check did not report at all on the mutant.
	Missing bool `json:"missing,omitempty"`
	// Inconclusive is set when the check could not decide on the mutant;
	// that is never a catch.
	Inconclusive bool `json:"inconclusive,omitempty"`
}

// EvalResult is the evaluation of one generated (or reference) solution of one
// case through every layer.
type EvalResult struct {
	CaseID        string        `json:"case_id"`
	Model         string        `json:"model"`
	Attempt       int           `json:"attempt"`
	GeneratedCode string        `json:"generated_code"`
	Layers        []LayerResult `json:"layers"`
	// FailedAtLayer is the first layer that failed, or nil.
	FailedAtLayer *int `json:"failed_at_layer"`
	// Passed is the case verdict: every layer that ran passed (L4 excluded).
	Passed bool `json:"passed"`
	// Status is passed, failed, or error (the verdict could not be given; kept
	// out of pass@k denominators).
	Status           Status  `json:"status"`
	TotalTimeSeconds float64 `json:"total_time_seconds"`
	// Scenario is generation or bugfix; Mutation names the negative a bugfix
	// prompt was built from.
	Scenario string `json:"scenario,omitempty"`
	Mutation string `json:"mutation,omitempty"`
	// FeedbackRounds is how many compiler-feedback rounds were used; Turns how
	// many agent turns.
	FeedbackRounds int `json:"feedback_rounds,omitempty"`
	Turns          int `json:"turns,omitempty"`
	// TokenUsage, CostUSD and GenerationSeconds describe the model calls
	// behind this result (all rounds and turns together).
	TokenUsage        *TokenUsage `json:"token_usage,omitempty"`
	CostUSD           float64     `json:"cost_usd"`
	GenerationSeconds float64     `json:"generation_seconds,omitempty"`
	// InfraError is set when Status is error because of the infrastructure (a
	// model API that failed after retries, a crashed toolchain), as opposed to
	// a broken case.
	InfraError string `json:"infra_error,omitempty"`
	// Notes are non-fatal remarks about the input (e.g. replaced invalid UTF-8).
	Notes []string `json:"notes,omitempty"`
}

// TokenUsage counts tokens of model calls.
type TokenUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Layer returns the result of layer n, if present.
func (r *EvalResult) Layer(n int) (LayerResult, bool) {
	for _, l := range r.Layers {
		if l.Layer == n {
			return l, true
		}
	}
	return LayerResult{}, false
}

// Ptr returns a pointer to s, for the optional string fields.
func Ptr(s string) *string { return &s }
