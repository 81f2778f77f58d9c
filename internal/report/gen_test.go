package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/score"
)

// genSpec describes a deterministic synthetic result set.
type genSpec struct {
	models   []string
	cases    []cases.Metadata
	attempts func(model string) int
	// skipCase drops a (model, case) pair, giving models different case sets.
	skipCase func(model, caseID string) bool
	checks   int
	codeSize int
}

// hash01 maps its parts to a reproducible number in [0, 1).
func hash01(parts ...any) float64 {
	h := fnv.New64a()
	fmt.Fprint(h, parts...)
	return float64(h.Sum64()%1_000_000) / 1_000_000
}

// modelSkill spreads the models' pass rates.
func modelSkill(model string) float64 { return 0.35 + 0.5*hash01("skill", model) }

// genResult builds the result of one attempt: L0 checks, L1 compile (skipped
// when the case opts out), L2 runtime (skipped for odd cases), L3 checks, L4
// mutation checks; a few results are errors.
func genResult(spec *genSpec, model string, m cases.Metadata, attempt int, code string) result.EvalResult {
	r := result.EvalResult{CaseID: m.ID, Model: model, Attempt: attempt, GeneratedCode: code, Scenario: "generation"}
	u := hash01(model, m.ID, attempt)
	switch {
	case hash01("err", model, m.ID, attempt) < 0.04:
		r.Status = result.StatusError
		r.InfraError = "model API returned 529 after 3 retries"
		for n := 0; n <= result.LayerMutation; n++ {
			r.Layers = append(r.Layers, result.LayerResult{Layer: n, Name: result.LayerName(n), Status: result.StatusSkipped, Reason: "no code", Details: []result.CheckDetail{}})
		}
		return r
	case hash01("caseerr", model, m.ID, attempt) < 0.02:
		r.Status = result.StatusError
		msg := "checks/static.star:3: undefined name"
		r.Layers = append(r.Layers, result.LayerResult{Layer: 0, Name: "static", Status: result.StatusError, Error: &msg, Details: []result.CheckDetail{}})
		return r
	}
	pass := u < modelSkill(model)
	failAt := -1
	if !pass {
		failAt = []int{0, 0, 1, 3, 3, 2}[int(hash01("where", model, m.ID, attempt)*6)]
	}
	halted := false
	for n := 0; n <= result.LayerMutation; n++ {
		l := result.LayerResult{Layer: n, Name: result.LayerName(n), Details: []result.CheckDetail{}, DurationSeconds: 0.5}
		switch {
		case halted:
			l.Status, l.Reason = result.StatusSkipped, "halted"
		case n == 1 && m.L1Skip, n == 2 && (m.L1Skip || m.L2Skip):
			l.Status, l.Reason = result.StatusSkipped, "case opts out"
		case n == failAt:
			l.Status = result.StatusFailed
		default:
			l.Status = result.StatusPassed
		}
		if failAt == 2 && n == 2 && l.Status == result.StatusSkipped {
			failAt = 3 // runtime skipped: fail at heuristic instead
		}
		if l.Status != result.StatusSkipped && (n == 0 || n == 3) {
			for c := range spec.checks {
				name := fmt.Sprintf("%s_check_%d", result.LayerShortName(n), c)
				ok := l.Status == result.StatusPassed || c != int(hash01("which", model, m.ID, attempt)*float64(spec.checks))
				l.Details = append(l.Details, result.CheckDetail{CheckName: name, Passed: ok, CheckType: "constraint", Weight: 1})
			}
		}
		if n == result.LayerMutation && l.Status == result.StatusPassed {
			l.Details = append(l.Details, result.CheckDetail{CheckName: "drop_volatile/static_check_0", Passed: true, CheckType: result.CheckTypeMutation, Weight: 1})
		}
		l.Passed = l.Status == result.StatusPassed
		if l.Status == result.StatusFailed && n < result.LayerMutation {
			halted = true
			f := n
			r.FailedAtLayer = &f
		}
		r.Layers = append(r.Layers, l)
	}
	if r.FailedAtLayer != nil {
		r.Status = result.StatusFailed
	} else {
		r.Status, r.Passed = result.StatusPassed, true
	}
	return r
}

// writeResults writes the spec's results as JSON lines and returns how many.
func writeResults(w io.Writer, spec *genSpec) (int, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	enc := json.NewEncoder(bw)
	code := strings.Repeat("k_sleep(K_MSEC(10));\n", spec.codeSize/21+1)[:spec.codeSize]
	n := 0
	for _, model := range spec.models {
		for _, m := range spec.cases {
			if spec.skipCase != nil && spec.skipCase(model, m.ID) {
				continue
			}
			for a := range spec.attempts(model) {
				if err := enc.Encode(genResult(spec, model, m, a, code)); err != nil {
					return n, err
				}
				n++
			}
		}
	}
	return n, bw.Flush()
}

// goldenCases is a small corpus covering every tier, several categories,
// reasoning types and difficulties, and layers that cases opt out of.
func goldenCases() []cases.Metadata {
	return []cases.Metadata{
		{ID: "gpio-basic-001", Category: "gpio-basic", Difficulty: "easy", Tier: "core", ReasoningTypes: []string{"api_recall"}},
		{ID: "gpio-basic-002", Category: "gpio-basic", Difficulty: "medium", Tier: "core", ReasoningTypes: []string{"rule_application"}},
		{ID: "dma-001", Category: "dma", Difficulty: "hard", Tier: "challenge", ReasoningTypes: []string{"cross_domain", "system_reasoning"}},
		{ID: "dma-002", Category: "dma", Difficulty: "hard", Tier: "core", ReasoningTypes: []string{}},
		{ID: "isr-concurrency-001", Category: "isr-concurrency", Difficulty: "hard", Tier: "challenge", ReasoningTypes: []string{"system_reasoning"}},
		{ID: "uart-001", Category: "uart", Difficulty: "easy", Tier: "sanity", ReasoningTypes: []string{"api_recall"}},
		{ID: "kconfig-001", Category: "kconfig", Difficulty: "medium", Tier: "core", ReasoningTypes: []string{"api_recall"}, L2Skip: true},
		{ID: "timer-001", Category: "timer", Difficulty: "medium", Tier: "core", ReasoningTypes: []string{"rule_application"}, L1Skip: true},
	}
}

func goldenSpec() *genSpec {
	return &genSpec{
		models: []string{"claude-code://sonnet", "gpt-4o", "mock"},
		cases:  goldenCases(),
		attempts: func(model string) int {
			if model == "mock" {
				return 1
			}
			return 5
		},
		skipCase: func(model, caseID string) bool {
			return model == "mock" && (caseID == "dma-001" || caseID == "isr-concurrency-001")
		},
		checks:   3,
		codeSize: 64,
	}
}

// scoreStream reads a result stream and scores it, passing reader warnings on.
func scoreStream(r io.Reader, name string, lookup score.Lookup) (*score.Report, error) {
	s := score.New(lookup)
	warnings, err := score.DecodeResults(r, name, func(res result.EvalResult) error { return s.Add(&res) })
	if err != nil {
		return nil, err
	}
	s.Warn(warnings...)
	return s.Finish(), nil
}
