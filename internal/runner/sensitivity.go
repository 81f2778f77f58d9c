package runner

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/prompt"
	"github.com/embedeval/embedeval-go/internal/result"
)

// SampleCases picks n cases deterministically: the cases sorted by id are
// shuffled with a generator seeded by seed, the first n are kept, and they are
// returned sorted by id. n <= 0 or n >= len(cs) keeps every case.
func SampleCases(cs []*cases.Case, n int, seed uint64) []*cases.Case {
	sorted := slices.Clone(cs)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Meta.ID < sorted[j].Meta.ID })
	if n <= 0 || n >= len(sorted) {
		return sorted
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	rng.Shuffle(len(sorted), func(i, j int) { sorted[i], sorted[j] = sorted[j], sorted[i] })
	out := sorted[:n]
	sort.Slice(out, func(i, j int) bool { return out[i].Meta.ID < out[j].Meta.ID })
	return out
}

// VariantVerdict is one prompt variant's outcome on a case.
type VariantVerdict struct {
	Variant string        `json:"variant"`
	Status  result.Status `json:"status"`
	// Agrees is whether the verdict equals the original prompt's; nil when
	// either could not be judged (an error).
	Agrees *bool `json:"agrees"`
}

// CaseSensitivity is the robustness of one case to prompt variants.
type CaseSensitivity struct {
	CaseID   string           `json:"case_id"`
	Original result.Status    `json:"original"`
	Variants []VariantVerdict `json:"variants"`
	// Robustness is the share of judged variants whose verdict agrees with
	// the original's (1.0 all agree, 0.0 none); nil when nothing could be
	// compared.
	Robustness *float64 `json:"robustness"`
}

// SensitivityReport is the outcome of a prompt-sensitivity analysis.
type SensitivityReport struct {
	Model    string            `json:"model"`
	Seed     uint64            `json:"seed"`
	Variants []string          `json:"variants"`
	Cases    []CaseSensitivity `json:"cases"`
	// MeanRobustness is the mean over cases with a robustness; nil when none.
	MeanRobustness *float64 `json:"mean_robustness"`
}

// Sensitivity runs every case of opts (one model, one sample) with the
// original prompt and with each variant (generation scenario, one sample),
// and compares the verdicts. opts.Archive, Samples, Scenario and
// Prompt.Variant are overridden; the other options apply to every variant.
func Sensitivity(ctx context.Context, opts Options, variants []prompt.Variant, seed uint64) (SensitivityReport, error) {
	models := opts.models()
	if len(models) != 1 {
		return SensitivityReport{}, fmt.Errorf("sensitivity analysis takes one model, got %d", len(models))
	}
	opts.Models, opts.Model = models, nil
	opts.Archive, opts.Samples, opts.Scenario = nil, 1, Generation
	rep := SensitivityReport{Model: models[0].Name(), Seed: seed}
	verdicts := map[prompt.Variant]map[string]result.Status{}
	for _, v := range append([]prompt.Variant{prompt.Original}, variants...) {
		o := opts
		o.Prompt.Variant = v
		rs, err := Run(ctx, o)
		if err != nil {
			return rep, fmt.Errorf("variant %s: %w", v, err)
		}
		verdicts[v] = map[string]result.Status{}
		for _, r := range rs {
			verdicts[v][r.CaseID] = r.Status
		}
		if v != prompt.Original {
			rep.Variants = append(rep.Variants, v.String())
		}
	}
	judged := func(s result.Status) bool { return s == result.StatusPassed || s == result.StatusFailed }
	var sum float64
	var counted int
	for _, c := range SampleCases(opts.Cases, 0, seed) {
		id := c.Meta.ID
		cs := CaseSensitivity{CaseID: id, Original: verdicts[prompt.Original][id], Variants: []VariantVerdict{}}
		agree, total := 0, 0
		for _, v := range variants {
			vv := VariantVerdict{Variant: v.String(), Status: verdicts[v][id]}
			if judged(cs.Original) && judged(vv.Status) {
				a := vv.Status == cs.Original
				vv.Agrees = &a
				total++
				if a {
					agree++
				}
			}
			cs.Variants = append(cs.Variants, vv)
		}
		if total > 0 {
			r := float64(agree) / float64(total)
			cs.Robustness = &r
			sum += r
			counted++
		}
		rep.Cases = append(rep.Cases, cs)
	}
	if counted > 0 {
		m := sum / float64(counted)
		rep.MeanRobustness = &m
	}
	return rep, nil
}
