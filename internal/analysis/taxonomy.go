package analysis

import (
	"strings"

	"github.com/embedeval/embedeval-go/internal/result"
)

// Pattern is one failure pattern of the taxonomy.
type Pattern string

// The eight failure patterns of the methodology.
const (
	// HappyPathBias: error-path handling or cleanup is missing.
	HappyPathBias Pattern = "happy_path_bias"
	// SemanticMismatch: the code builds but behaves wrongly on the hardware.
	SemanticMismatch Pattern = "semantic_mismatch"
	// ResourceImbalance: something acquired is never released.
	ResourceImbalance Pattern = "resource_imbalance"
	// OrderViolation: init/register/use (or teardown) order is wrong.
	OrderViolation Pattern = "order_violation"
	// CrossPlatform: an API of another platform or SDK is used.
	CrossPlatform Pattern = "cross_platform"
	// APIHallucination: a function or symbol that does not exist is called.
	APIHallucination Pattern = "api_hallucination"
	// MissingSafety: forbidden API in an ISR, missing volatile/atomic/locking.
	MissingSafety Pattern = "missing_safety"
	// Unknown: no rule maps the failure to a pattern.
	Unknown Pattern = "unknown"
)

// Patterns returns the eight patterns in their fixed order, which is also the
// tie-break order of the vote (earlier wins; Unknown is last and so loses
// every tie).
func Patterns() []Pattern {
	return []Pattern{HappyPathBias, SemanticMismatch, ResourceImbalance, OrderViolation,
		CrossPlatform, APIHallucination, MissingSafety, Unknown}
}

// PatternDescription returns the methodology's one-line description of p.
func PatternDescription(p Pattern) string {
	switch p {
	case HappyPathBias:
		return "Error path cleanup missing"
	case SemanticMismatch:
		return "Compiles but wrong HW semantics"
	case ResourceImbalance:
		return "Alloc without free"
	case OrderViolation:
		return "Init/register/use order wrong"
	case CrossPlatform:
		return "Wrong platform API used"
	case APIHallucination:
		return "Non-existent API called"
	case MissingSafety:
		return "Forbidden API in ISR, missing guards"
	}
	return "Unmapped check failure"
}

func patternIndex(p Pattern) int {
	for i, q := range Patterns() {
		if q == p {
			return i
		}
	}
	return len(Patterns()) - 1
}

// KeywordRule maps check names to a pattern. A check name (or check type) is
// split into lower-case words at every character that is not a letter or a
// digit; the rule matches when one of its Keywords, itself a sequence of
// words joined by "_", occurs as consecutive words.
type KeywordRule struct {
	Pattern  Pattern
	Keywords []string
}

// KeywordRules returns the check-name table, in match order: the first rule
// with a matching keyword decides a check's vote.
func KeywordRules() []KeywordRule {
	return []KeywordRule{
		{CrossPlatform, []string{"foreign", "cross_platform", "wrong_platform", "platform_api", "platform_apis"}},
		{APIHallucination, []string{"hallucinated", "nonexistent", "non_existent", "undeclared", "api_exists", "known_api", "known_apis"}},
		{MissingSafety, []string{"isr", "irq", "fromisr", "volatile", "atomic", "block", "blocking", "spinlock",
			"mutex", "lock", "locked", "serialized", "critical_section", "reentrant", "wraparound", "overflow"}},
		{OrderViolation, []string{"order", "ordered", "ordering", "before", "after_init", "sequence"}},
		{HappyPathBias, []string{"cleanup", "unwound", "unwind", "every_path", "error_path", "errors_handled",
			"errors_propagated", "checked", "recovers", "handled", "propagated"}},
		{ResourceImbalance, []string{"released", "releases", "release", "freed", "free", "closed", "close",
			"leak", "leaks", "balanced", "unref", "put", "deinit", "unregistered"}},
		{SemanticMismatch, []string{"runtime", "output", "exact_match", "expected_output"}},
	}
}

// HallucinationMarkers are the compiler/linker messages that make an L1
// failure an api_hallucination vote; they are matched case-insensitively in
// the layer's error and reason and in its failed checks' actual values.
func HallucinationMarkers() []string {
	return []string{"implicit declaration", "undefined reference", "undeclared", "unknown type name", "has no member named"}
}

// words splits s into lower-case alphanumeric words.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

func containsWords(haystack, needle []string) bool {
	for i := 0; i+len(needle) <= len(haystack); i++ {
		ok := true
		for j, w := range needle {
			if haystack[i+j] != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// MatchCheck returns the pattern the keyword table gives a check from its
// name, then its type; ok is false when no rule matches.
func MatchCheck(name, checkType string) (Pattern, bool) {
	for _, s := range []string{name, checkType} {
		ws := words(s)
		if len(ws) == 0 {
			continue
		}
		for _, rule := range KeywordRules() {
			for _, k := range rule.Keywords {
				if containsWords(ws, strings.Split(k, "_")) {
					return rule.Pattern, true
				}
			}
		}
	}
	return Unknown, false
}

func hasHallucinationMarker(texts ...string) bool {
	for _, t := range texts {
		t = strings.ToLower(t)
		for _, m := range HallucinationMarkers() {
			if strings.Contains(t, m) {
				return true
			}
		}
	}
	return false
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// layerDefault is the vote of a failed check (or of a failed layer without
// failed checks) that the keyword table does not map: api_hallucination for
// an L1 failure whose text carries a hallucination marker, semantic_mismatch
// for L2, unknown otherwise.
func layerDefault(l *result.LayerResult, texts ...string) Pattern {
	switch l.Layer {
	case result.LayerCompile:
		if hasHallucinationMarker(append(texts, deref(l.Error), l.Reason)...) {
			return APIHallucination
		}
	case result.LayerRuntime:
		return SemanticMismatch
	}
	return Unknown
}

// Classification is the taxonomy verdict of one failed result.
type Classification struct {
	Pattern Pattern
	// Votes counts the votes per pattern, indexed like Patterns().
	Votes [8]int
	// Total is the number of votes cast; Confidence = Votes[winner] / Total.
	Total      int
	Confidence float64
}

// Classify votes over the failed result's failed layers L0-L3 (L4 grades
// the checks, not the code). Each failed non-mutation check casts one vote:
// the keyword table's pattern when its name or type matches, else the
// layer's default (see layerDefault). A failed layer without failed checks
// casts one vote with the layer's default. The pattern with most votes wins,
// ties going to the earlier pattern of Patterns(). ok is false for a result
// that is not failed.
func Classify(r *result.EvalResult) (Classification, bool) {
	var c Classification
	if r.Status != result.StatusFailed {
		return c, false
	}
	for i := range r.Layers {
		l := &r.Layers[i]
		if l.Status != result.StatusFailed || l.Layer == result.LayerMutation {
			continue
		}
		cast := 0
		for _, d := range l.Details {
			if d.Passed || d.CheckType == result.CheckTypeMutation {
				continue
			}
			p, ok := MatchCheck(d.CheckName, d.CheckType)
			if !ok || p == SemanticMismatch && l.Layer == result.LayerCompile {
				p = layerDefault(l, deref(d.Actual))
			}
			c.Votes[patternIndex(p)]++
			cast++
		}
		if cast == 0 {
			c.Votes[patternIndex(layerDefault(l))]++
			cast++
		}
		c.Total += cast
	}
	if c.Total == 0 {
		// A failed status without a failed layer: nothing to vote on.
		c.Votes[patternIndex(Unknown)]++
		c.Total = 1
	}
	best := 0
	for i, v := range c.Votes {
		if v > c.Votes[best] {
			best = i
		}
	}
	c.Pattern = Patterns()[best]
	c.Confidence = float64(c.Votes[best]) / float64(c.Total)
	return c, true
}
