package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/platform"
)

// fakeCase is a case that resolves through the shipped registry.
func fakeCase(id, sdk, ref string) *cases.Case {
	c := &cases.Case{Meta: cases.Metadata{ID: id, SDK: sdk, Category: "timer", Platform: "native_sim"}, ReferencePath: filepath.Join("/nonexistent", id, ref)}
	c.Hash = "sha256:" + fmt.Sprintf("%064x", len(id)*7919+int(id[len(id)-1]))
	return c
}

func fakeCorpus(n int) []*cases.Case {
	sdks := []struct{ sdk, ref string }{{"zephyr", "main.c"}, {"embedded-linux", "main.c"}, {"esp-idf", "main.c"}, {"baremetal", "main.c"}, {"zephyr", "app.overlay"}, {"freertos", "main.c"}}
	var out []*cases.Case
	for i := range n {
		s := sdks[i%len(sdks)]
		out = append(out, fakeCase(fmt.Sprintf("%s-%03d", s.sdk, i), s.sdk, s.ref))
	}
	return out
}

func planFor(t *testing.T, sel []*cases.Case, models []string, samples, maxJobs int, tm Timings) *Plan {
	t.Helper()
	reg, err := platform.Default()
	require.NoError(t, err)
	p, err := BuildPlan(PlanOptions{
		Inputs:        Inputs{CasesDir: "cases", Models: models, Samples: samples, Scenario: "generation", Layers: "L0,L1,L2,L3,L4", MaxJobs: maxJobs},
		BinaryVersion: "test", Cases: sel, Registry: reg, Predictor: Predictor{Timings: tm, Build: true, Run: true},
	})
	require.NoError(t, err)
	require.NoError(t, p.Seal())
	return p
}

func TestPlanProperties(t *testing.T) {
	reg, err := platform.Default()
	require.NoError(t, err)
	for _, tc := range []struct {
		cases, samples, maxJobs int
		models                  []string
	}{
		{9, 1, 64, []string{"reference"}},
		{60, 3, 8, []string{"a", "b"}},
		{200, 5, 256, []string{"a", "b", "c"}},
		{7, 2, 30, []string{"m"}},
	} {
		t.Run(fmt.Sprintf("%d cases %d samples %d jobs", tc.cases, tc.samples, tc.maxJobs), func(t *testing.T) {
			sel := fakeCorpus(tc.cases)
			p := planFor(t, sel, tc.models, tc.samples, tc.maxJobs, nil)
			require.LessOrEqual(t, len(p.Jobs), tc.maxJobs)
			count := map[string]int{}
			for i, j := range p.Jobs {
				require.Equal(t, i+1, j.Index)
				require.Equal(t, tc.samples, j.Samples)
				sum := 0.0
				for _, jc := range j.Cases {
					count[j.Model+" "+jc.ID]++
					var c *cases.Case
					for _, x := range sel {
						if x.Meta.ID == jc.ID {
							c = x
						}
					}
					require.NotNil(t, c)
					tgt, ok := reg.Resolve(c)
					require.True(t, ok)
					require.Equal(t, j.Image, tgt.Image, "job %d mixes images", j.Index)
					require.Equal(t, c.Hash, jc.Hash)
					sum += float64(j.Samples) * jc.PredictedSeconds
				}
				require.InDelta(t, sum, j.PredictedSeconds, 0.01)
			}
			require.Len(t, count, len(sel)*len(tc.models), "every case × model is planned")
			for k, n := range count {
				require.Equal(t, 1, n, "%s planned %d times", k, n)
			}
			require.GreaterOrEqual(t, p.PredictedSeconds+1e-9, p.LowerBound)

			again := planFor(t, sel, tc.models, tc.samples, tc.maxJobs, nil)
			a, err := p.Encode()
			require.NoError(t, err)
			b, err := again.Encode()
			require.NoError(t, err)
			require.Equal(t, string(a), string(b), "deterministic")
			// Input order does not matter.
			rev := make([]*cases.Case, len(sel))
			for i, c := range sel {
				rev[len(sel)-1-i] = c
			}
			require.Equal(t, p.Hash, planFor(t, rev, tc.models, tc.samples, tc.maxJobs, nil).Hash)
		})
	}
}

func TestPlanUsesHistory(t *testing.T) {
	sel := []*cases.Case{fakeCase("zephyr-1", "zephyr", "main.c"), fakeCase("zephyr-2", "zephyr", "main.c")}
	tm := Timings{"zephyr-1": {Platform: "zephyr", Seconds: 7, Samples: 3}, "zephyr-2": {Platform: "esp-idf", Seconds: 1, Samples: 1}}
	p := planFor(t, sel, []string{"m"}, 1, 4, tm)
	byID := map[string]JobCase{}
	for _, j := range p.Jobs {
		for _, c := range j.Cases {
			byID[c.ID] = c
		}
	}
	require.Equal(t, JobCase{CaseRef: CaseRef{ID: "zephyr-1", Hash: sel[0].Hash}, Target: "zephyr", PredictedSeconds: 7, Source: "history"}, byID["zephyr-1"])
	require.Equal(t, "table", byID["zephyr-2"].Source, "history of another platform is ignored")
	require.Equal(t, "zephyr · m · 1/2", p.Jobs[0].Name)
}

func TestPlanRefusals(t *testing.T) {
	reg, err := platform.Default()
	require.NoError(t, err)
	base := Inputs{Models: []string{"m"}, Samples: 1, MaxJobs: 4}
	for _, tc := range []struct {
		name string
		edit func(*Inputs)
		sel  []*cases.Case
		want string
	}{
		{"too many jobs", func(in *Inputs) { in.MaxJobs = 257 }, nil, "--max-jobs must be between 1 and 256 (GitHub's matrix limit), got 257"},
		{"no samples", func(in *Inputs) { in.Samples = 0 }, nil, "--samples must be at least 1, got 0"},
		{"model twice", func(in *Inputs) { in.Models = []string{"m", "m"} }, nil, `model "m" is given twice`},
		{"unresolvable", func(*Inputs) {}, []*cases.Case{fakeCase("x-1", "nosuchsdk", "main.c")}, "case x-1 (): no platform target matches it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := base
			tc.edit(&in)
			_, err := BuildPlan(PlanOptions{Inputs: in, Cases: tc.sel, Registry: reg})
			require.EqualError(t, err, tc.want)
		})
	}
}

func TestPlanFileRoundTripAndTamper(t *testing.T) {
	p := planFor(t, fakeCorpus(12), []string{"a"}, 2, 5, nil)
	path := filepath.Join(t.TempDir(), "plan.json")
	require.NoError(t, WritePlan(path, p))
	back, err := ReadPlan(path)
	require.NoError(t, err)
	require.Equal(t, p, back)

	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	edited := []byte(string(raw[:len(raw)-2]) + " }\n")
	_, err = DecodePlan("plan.json", edited)
	require.NoError(t, err, "whitespace does not change the canonical hash")

	tampered := []byte(strings.Replace(string(raw), `"samples": 2`, `"samples": 3`, 1))
	_, err = DecodePlan("plan.json", tampered)
	require.ErrorContains(t, err, "plan.json: plan hash "+p.Hash+" does not match its content")

	_, err = DecodePlan("plan.json", []byte("{\n  \"format\": 1\n}"))
	require.EqualError(t, err, "plan.json:2:13: json: cannot unmarshal number into Go struct field Plan.format of type string")
}
