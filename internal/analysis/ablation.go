package analysis

import (
	"slices"

	"github.com/embedeval/embedeval-go/internal/result"
)

// Config is one layer configuration of the ablation study.
type Config struct {
	Name   string `json:"name"`
	Layers []int  `json:"layers"`
}

// Configs returns the methodology's five configurations, in order: L0 only,
// L0+L3, L0+L1, L0+L1+L3 and Full (L0-L4).
func Configs() []Config {
	return []Config{
		{"L0 only", []int{0}},
		{"L0+L3", []int{0, 3}},
		{"L0+L1", []int{0, 1}},
		{"L0+L1+L3", []int{0, 1, 3}},
		{"Full (L0-L4)", []int{0, 1, 2, 3, 4}},
	}
}

// Verdict is a result re-judged under one configuration.
type Verdict struct {
	// Judged is false when no layer of the configuration ran (passed or
	// failed); such a result is left out of the configuration's rate.
	Judged bool
	Passed bool
	// Partial is set when a layer of the configuration did not run
	// (skipped, errored or absent): the verdict rests on fewer layers.
	Partial bool
}

// Rejudge judges r as if only cfg's layers had run: it passes when every
// layer of cfg that ran passed and at least one ran. Skipped and errored
// layers never count as a pass; they make the verdict Partial. L4
// (mutation) grades the checks rather than the code and, as in pass@1,
// never fails a result; it is not counted as missing either. Results with
// status error are never judged.
func Rejudge(r *result.EvalResult, cfg Config) Verdict {
	var v Verdict
	if r.Status == result.StatusError {
		return v
	}
	v.Passed = true
	for _, n := range cfg.Layers {
		if n == result.LayerMutation {
			continue
		}
		l, ok := r.Layer(n)
		switch {
		case !ok:
			v.Partial = true
		case l.Status == result.StatusPassed:
			v.Judged = true
		case l.Status == result.StatusFailed:
			v.Judged = true
			v.Passed = false
		default:
			v.Partial = true
		}
	}
	v.Passed = v.Passed && v.Judged
	return v
}

// ConfigRate is the pass rate of one configuration: the mean over tasks of
// the share of judged samples that pass under it (pass@1 re-judged).
type ConfigRate struct {
	Config
	PassRate float64 `json:"pass_rate"`
	// Judged and Passed count samples judged under the configuration.
	Judged int `json:"judged"`
	Passed int `json:"passed"`
	// Partial counts judged samples with a layer of the configuration that did
	// not run (skipped or errored); Unjudged counts samples where none ran.
	Partial  int `json:"partial"`
	Unjudged int `json:"unjudged"`
}

// Contribution is what adding Layer to From changes: the pass rate of From
// minus that of To (From plus the layer). Positive means the layer rejects
// code the smaller configuration accepts.
type Contribution struct {
	Layer string  `json:"layer"`
	From  string  `json:"from"`
	To    string  `json:"to"`
	Delta float64 `json:"delta"`
}

// ModelAblation is one model's ablation ("all" for every (model, task) pair
// together).
type ModelAblation struct {
	Model         string         `json:"model"`
	Configs       []ConfigRate   `json:"configs"`
	Contributions []Contribution `json:"contributions"`
}

// Ablation holds every model's ablation, sorted by model, and the aggregate.
type Ablation struct {
	Models []ModelAblation `json:"models"`
	All    ModelAblation   `json:"all"`
}

// contributionSteps are the layer deltas reported, as (layer, from, to)
// indexes into Configs().
func contributionSteps() []struct {
	layer    string
	from, to int
} {
	return []struct {
		layer    string
		from, to int
	}{
		{"L3", 0, 1},
		{"L1", 0, 2},
		{"L3", 2, 3},
		{"L2", 3, 4},
	}
}

type rateAcc struct {
	sum   float64
	tasks int
	configAcc
}

func (c *Collector) ablation(models []string) Ablation {
	ab := Ablation{Models: []ModelAblation{}}
	all := make([]rateAcc, len(Configs()))
	for _, name := range models {
		ma := c.models[name]
		accs := make([]rateAcc, len(Configs()))
		for _, k := range ma.sortedTasks(true) {
			t := ma.tasks[k]
			for i := range Configs() {
				for _, a := range []*rateAcc{&accs[i], &all[i]} {
					ca := t.configs[i]
					a.n += ca.n
					a.c += ca.c
					a.partial += ca.partial
					a.unjudged += ca.unjudged
					if ca.n > 0 {
						a.sum += float64(ca.c) / float64(ca.n)
						a.tasks++
					}
				}
			}
		}
		ab.Models = append(ab.Models, modelAblation(name, accs))
	}
	ab.All = modelAblation(AllModels, all)
	return ab
}

func modelAblation(name string, accs []rateAcc) ModelAblation {
	ma := ModelAblation{Model: name, Configs: []ConfigRate{}, Contributions: []Contribution{}}
	for i, cfg := range Configs() {
		a := accs[i]
		cr := ConfigRate{Config: Config{Name: cfg.Name, Layers: slices.Clone(cfg.Layers)}, Judged: a.n, Passed: a.c,
			Partial: a.partial, Unjudged: a.unjudged}
		if a.tasks > 0 {
			cr.PassRate = a.sum / float64(a.tasks)
		}
		ma.Configs = append(ma.Configs, cr)
	}
	for _, s := range contributionSteps() {
		ma.Contributions = append(ma.Contributions, Contribution{Layer: s.layer, From: ma.Configs[s.from].Name,
			To: ma.Configs[s.to].Name, Delta: ma.Configs[s.from].PassRate - ma.Configs[s.to].PassRate})
	}
	return ma
}
