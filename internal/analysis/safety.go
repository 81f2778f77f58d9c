package analysis

import (
	"cmp"
	"slices"
	"strings"

	"github.com/embedeval/embedeval-go/internal/score"
)

// RiskTier is a safety-guide tier.
type RiskTier string

// The four risk tiers, from least to most trustworthy.
const (
	Critical RiskTier = "Critical" // pass rate < 50%
	Caution  RiskTier = "Caution"  // 50% <= pass rate < 80%
	Moderate RiskTier = "Moderate" // 80% <= pass rate < 90%
	Reliable RiskTier = "Reliable" // pass rate >= 90%
)

// RiskTiers returns the tiers from Critical to Reliable.
func RiskTiers() []RiskTier { return []RiskTier{Critical, Caution, Moderate, Reliable} }

// TierFor returns the risk tier of a pass rate in [0, 1]; the bounds apply
// to the unrounded rate (79.96% is Caution).
func TierFor(passRate float64) RiskTier {
	switch {
	case passRate < 0.5:
		return Critical
	case passRate < 0.8:
		return Caution
	case passRate < 0.9:
		return Moderate
	}
	return Reliable
}

// TierRange returns the pass-rate range of a tier as the methodology writes
// it.
func TierRange(t RiskTier) string {
	switch t {
	case Critical:
		return "<50%"
	case Caution:
		return "50-79%"
	case Moderate:
		return "80-89%"
	}
	return "90%+"
}

// Recommendation returns the methodology's advice for a tier.
func Recommendation(t RiskTier) string {
	switch t {
	case Critical:
		return "Do not trust — write manually or review every line"
	case Caution:
		return "Use as starting point only, expert review mandatory"
	case Moderate:
		return "Spot check safety-critical patterns"
	}
	return "Standard code review sufficient"
}

// CategoryRisk is one category of the safety guide.
type CategoryRisk struct {
	Category string   `json:"category"`
	Tier     RiskTier `json:"tier"`
	score.Breakdown
	Recommendation string `json:"recommendation"`
}

// SafetyGuide assigns every category a risk tier from its pass rate across
// all models and runs: the cross-model category pass@1 of package score
// (mean over every (model, task) pair of the share of judged samples that
// passed; sanity cases excluded). Rows are sorted from the riskiest (lowest
// pass rate) up, then by category.
func SafetyGuide(categories []score.CategoryScore) []CategoryRisk {
	out := []CategoryRisk{}
	for _, c := range categories {
		if c.TotalSamples == 0 {
			continue
		}
		t := TierFor(c.PassAt1)
		out = append(out, CategoryRisk{Category: c.Category, Tier: t, Breakdown: c.Breakdown, Recommendation: Recommendation(t)})
	}
	slices.SortStableFunc(out, func(a, b CategoryRisk) int {
		return cmp.Or(cmp.Compare(a.PassAt1, b.PassAt1), strings.Compare(a.Category, b.Category))
	})
	return out
}
