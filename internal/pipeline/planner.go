package pipeline

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/platform"
)

// MaxMatrixJobs is GitHub's limit on the jobs of one matrix.
const MaxMatrixJobs = 256

// PlanOptions are the planner's inputs.
type PlanOptions struct {
	Inputs        Inputs
	BinaryVersion string
	// Cases are the selected cases (any order).
	Cases     []*cases.Case
	Registry  *platform.Registry
	Predictor Predictor
}

// unit is the planner's indivisible piece of work: one case for one model,
// with every sample (the samples of a case share its prompt and run in one
// job).
type unit struct {
	c      *cases.Case
	target platform.Target
	model  string
	per    float64 // predicted seconds of one sample
	source string
}

// group is the units that share a container image and a model.
type group struct {
	image, model, label string
	modelRank           int
	units               []unit
}

// BuildPlan plans the matrix: every selected case × model × sample exactly
// once, grouped by container image and model, balanced by predicted
// duration over at most Inputs.MaxJobs jobs (Allot). The same options give
// the same plan, byte for byte. The plan is not sealed (WritePlan seals).
func BuildPlan(o PlanOptions) (*Plan, error) {
	in := o.Inputs
	switch {
	case in.MaxJobs < 1 || in.MaxJobs > MaxMatrixJobs:
		return nil, fmt.Errorf("--max-jobs must be between 1 and %d (GitHub's matrix limit), got %d", MaxMatrixJobs, in.MaxJobs)
	case in.Samples < 1:
		return nil, fmt.Errorf("--samples must be at least 1, got %d", in.Samples)
	case len(in.Models) == 0:
		return nil, errors.New("no model given")
	case o.Registry == nil:
		return nil, errors.New("no platform registry")
	}
	seen := map[string]bool{}
	for _, m := range in.Models {
		if seen[m] {
			return nil, fmt.Errorf("model %q is given twice", m)
		}
		seen[m] = true
	}
	sel := slices.Clone(o.Cases)
	slices.SortFunc(sel, func(a, b *cases.Case) int { return strings.Compare(a.Meta.ID, b.Meta.ID) })
	for i := 1; i < len(sel); i++ {
		if sel[i].Meta.ID == sel[i-1].Meta.ID {
			return nil, fmt.Errorf("case %q is selected twice", sel[i].Meta.ID)
		}
	}
	type resolved struct {
		t      platform.Target
		per    float64
		source string
	}
	res := make([]resolved, len(sel))
	for i, c := range sel {
		t, ok := o.Registry.Resolve(c)
		if !ok {
			return nil, fmt.Errorf("case %s (%s): no platform target matches it", c.Meta.ID, c.Dir)
		}
		per, source := o.Predictor.Predict(c, t)
		res[i] = resolved{t, per, source}
	}
	groups := map[[2]string]*group{}
	for rank, m := range in.Models {
		for i, c := range sel {
			key := [2]string{res[i].t.Image, m}
			g := groups[key]
			if g == nil {
				g = &group{image: res[i].t.Image, model: m, modelRank: rank}
				groups[key] = g
			}
			g.units = append(g.units, unit{c: c, target: res[i].t, model: m, per: res[i].per, source: res[i].source})
		}
	}
	ordered := make([]*group, 0, len(groups))
	for _, g := range groups {
		g.label = groupLabel(g.units)
		ordered = append(ordered, g)
	}
	slices.SortFunc(ordered, func(a, b *group) int {
		return cmp.Or(cmp.Compare(a.modelRank, b.modelRank), strings.Compare(a.label, b.label), strings.Compare(a.image, b.image))
	})
	weights := make([][]float64, len(ordered))
	var all []float64
	for gi, g := range ordered {
		for _, u := range g.units {
			w := float64(in.Samples) * u.per
			weights[gi] = append(weights[gi], w)
			all = append(all, w)
		}
	}
	p := &Plan{Format: PlanFormat, Version: PlanVersion, BinaryVersion: o.BinaryVersion, Inputs: in, Jobs: []Job{}}
	if len(all) == 0 {
		return p, nil
	}
	schedules, err := Allot(weights, in.MaxJobs)
	if err != nil {
		return nil, err
	}
	for gi, g := range ordered {
		for bi, bin := range schedules[gi] {
			j := Job{
				Index:   len(p.Jobs) + 1,
				Name:    fmt.Sprintf("%s · %s · %d/%d", g.label, g.model, bi+1, len(schedules[gi])),
				Image:   g.image,
				Model:   g.model,
				Samples: in.Samples,
			}
			targets := map[string]bool{}
			for _, i := range bin.Items {
				u := g.units[i]
				j.Cases = append(j.Cases, JobCase{CaseRef: CaseRef{ID: u.c.Meta.ID, Hash: u.c.Hash}, Target: u.target.Name, PredictedSeconds: u.per, Source: u.source})
				targets[u.target.Name] = true
			}
			for t := range targets {
				j.Targets = append(j.Targets, t)
			}
			slices.Sort(j.Targets)
			j.PredictedSeconds = round3(bin.Load)
			p.Jobs = append(p.Jobs, j)
		}
	}
	total := 0.0
	for _, w := range all {
		total += w
	}
	p.TotalSeconds = round3(total)
	p.PredictedSeconds = round3(overall(schedules))
	p.LowerBound = round3(LowerBound(all, min(in.MaxJobs, len(all))))
	return p, nil
}

// groupLabel names a group for people: its cases' SDKs, sorted, joined by
// "+" (e.g. "zephyr", "baremetal+embedded-linux").
func groupLabel(us []unit) string {
	var sdks []string
	for _, u := range us {
		if !slices.Contains(sdks, u.c.Meta.SDK) {
			sdks = append(sdks, u.c.Meta.SDK)
		}
	}
	slices.Sort(sdks)
	return strings.Join(sdks, "+")
}
