package pipeline

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/embedeval/embedeval-go/internal/mdescape"
)

// MatrixEntry is one entry of the workflow's matrix: enough for the job's
// name, its container and its `run --plan --shard` call.
type MatrixEntry struct {
	Shard int    `json:"shard"`
	Name  string `json:"name"`
	Image string `json:"image"`
	Model string `json:"model"`
}

// Matrix is the `matrix` output: {"include": [...]}.
type Matrix struct {
	Include []MatrixEntry `json:"include"`
}

// MatrixOf returns the plan's matrix.
func MatrixOf(p *Plan) Matrix {
	m := Matrix{Include: []MatrixEntry{}}
	for _, j := range p.Jobs {
		m.Include = append(m.Include, MatrixEntry{Shard: j.Index, Name: j.Name, Image: j.Image, Model: j.Model})
	}
	return m
}

// MatrixJSON is the matrix as one line of JSON.
func MatrixJSON(p *Plan) (string, error) {
	raw, err := json.Marshal(MatrixOf(p))
	if err != nil {
		return "", fmt.Errorf("encode matrix: %w", err)
	}
	return string(raw), nil
}

// WriteOutputs sets the step outputs through the Actions runner's
// GITHUB_OUTPUT file: matrix, jobs (the number of shards; an empty matrix
// is an error in GitHub, so workflows test jobs != '0') and plan-hash. It
// does nothing when GITHUB_OUTPUT is not set (not in Actions).
func WriteOutputs(a *githubactions.Action, p *Plan) error {
	if a.Getenv("GITHUB_OUTPUT") == "" {
		return nil
	}
	m, err := MatrixJSON(p)
	if err != nil {
		return err
	}
	return catch(func() {
		a.SetOutput("matrix", m)
		a.SetOutput("jobs", strconv.Itoa(len(p.Jobs)))
		a.SetOutput("plan-hash", p.Hash)
	})
}

// AddSummary appends markdown to the job summary (GITHUB_STEP_SUMMARY);
// nothing happens outside Actions.
func AddSummary(a *githubactions.Action, markdown string) error {
	if a.Getenv("GITHUB_STEP_SUMMARY") == "" {
		return nil
	}
	return catch(func() { a.AddStepSummary(markdown) })
}

// catch turns the panics go-githubactions raises on a failed file write
// into errors.
func catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("github actions output: %v", r)
		}
	}()
	f()
	return nil
}

// PlanSummary is the job-summary table of a plan.
func PlanSummary(p *Plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### Shard plan\n\n")
	units := 0
	for _, j := range p.Jobs {
		units += len(j.Cases)
	}
	fmt.Fprintf(&b, "%d jobs for %d case × model units × %d samples (at most %d jobs). Predicted longest job %s, lower bound %s, total %s. Plan %s.\n\n",
		len(p.Jobs), units, p.Inputs.Samples, p.Inputs.MaxJobs, seconds(p.PredictedSeconds), seconds(p.LowerBound), seconds(p.TotalSeconds), mdescape.Code(short(p.Hash)))
	if len(p.Jobs) == 0 {
		b.WriteString("No case selected: nothing to run.\n")
		return b.String()
	}
	b.WriteString("| Shard | Job | Image | Cases | Predicted |\n| ---: | --- | --- | ---: | ---: |\n")
	for _, j := range p.Jobs {
		fmt.Fprintf(&b, "| %d | %s | %s | %d | %s |\n", j.Index, mdescape.Text(j.Name), mdescape.Code(j.Image), len(j.Cases), seconds(j.PredictedSeconds))
	}
	return b.String()
}

// MergeSummary is the job-summary text of a merge.
func MergeSummary(o *MergeOutcome) string {
	var b strings.Builder
	r := o.Record
	fmt.Fprintf(&b, "### Merge of run %s\n\n", mdescape.Code(r.RunID))
	if o.PartialNote != "" {
		fmt.Fprintf(&b, "> **Warning: partial results.** %s\n\n", mdescape.Text(o.PartialNote))
	}
	fmt.Fprintf(&b, "%d of %d shards merged, %d results (%d errors, of which %d infrastructure). Plan %s.\n\n",
		len(r.Merged), r.Shards, r.Results, r.Errors, r.InfraErrors, mdescape.Code(short(r.PlanHash)))
	if len(o.Models) > 0 {
		b.WriteString("| Model | Results | Passed | Failed | Errors |\n| --- | ---: | ---: | ---: | ---: |\n")
		for _, m := range o.Models {
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", mdescape.Text(m.Model), m.Results, m.Passed, m.Failed, m.Error)
		}
		b.WriteString("\n")
	}
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "- left out: %s\n", mdescape.Text(p))
	}
	return b.String()
}

func seconds(s float64) string {
	if s >= 120 {
		return strconv.FormatFloat(s/60, 'f', 1, 64) + " min"
	}
	return strconv.FormatFloat(s, 'f', 1, 64) + " s"
}
