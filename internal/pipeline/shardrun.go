package pipeline

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/runner"
)

// ShardRunOptions configure RunShard: one shard of a plan.
type ShardRunOptions struct {
	Plan *Plan
	// Shard is the shard's number (1-based); Artifact is where its artifact
	// is written.
	Shard    int
	Artifact string
	// Run are the runner's options for the job (its model, cases loaded
	// from the corpus, the plan's settings); RunShard sets Samples,
	// Scenario and FeedbackRounds from the plan and the progress hooks.
	Run runner.Options
	// Version is this binary's version; Jail describes the jail.
	Version, Jail string
	// CasesDir names the corpus in messages.
	CasesDir string
	// Out and Err receive progress and summary; Terminal says Out is a
	// terminal.
	Out, Err io.Writer
	Terminal bool
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// ShardOutcome is what RunShard did.
type ShardOutcome struct {
	Artifact *Artifact
	// Errors is the number of results that could not be evaluated (they
	// are in the artifact).
	Errors int
}

// InputError is RunShard's error about its inputs (a shard not in the plan,
// a case of the plan missing or changed since planning): a usage error, not
// a failure of the run.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

func inputError(format string, args ...any) error {
	return &InputError{Err: fmt.Errorf(format, args...)}
}

// CheckShard returns shard n of p and checks that this binary (version)
// may run it.
func CheckShard(p *Plan, n int, version, planPath string) (*Job, error) {
	job, err := p.Job(n)
	if err != nil {
		return nil, fmt.Errorf("--shard: %w", err)
	}
	if p.BinaryVersion != version {
		return nil, fmt.Errorf("%s was planned by embedeval %s; this is %s (merge would refuse the artifact)", planPath, p.BinaryVersion, version)
	}
	return job, nil
}

// RunShard runs one shard of a plan with the plan's options — every case of
// the job must be in Run.Cases at the hash planned — and writes the shard
// artifact atomically.
func RunShard(ctx context.Context, o ShardRunOptions) (*ShardOutcome, error) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	p, n := o.Plan, o.Shard
	job, err := p.Job(n)
	if err != nil {
		return nil, inputError("--shard: %w", err)
	}
	scenario, err := runner.ParseScenario(p.Inputs.Scenario)
	if err != nil {
		return nil, inputError("plan: %w", err)
	}
	found := map[string]*cases.Case{}
	for _, c := range o.Run.Cases {
		found[c.Meta.ID] = c
	}
	evaluated := make([]CaseRef, 0, len(job.Cases))
	for _, jc := range job.Cases {
		c := found[jc.ID]
		switch {
		case c == nil:
			return nil, inputError("shard %d: case %s of the plan is not in %s (or does not load)", n, jc.ID, o.CasesDir)
		case c.Hash != jc.Hash:
			return nil, inputError("shard %d: case %s changed since planning (now %s, the plan has %s); plan again", n, jc.ID, c.Hash, jc.Hash)
		}
		evaluated = append(evaluated, CaseRef{ID: c.Meta.ID, Hash: c.Hash})
	}
	fmt.Fprintf(o.Out, "shard %d of %d: %s (%d cases × %d samples)\n", n, len(p.Jobs), job.Name, len(job.Cases), job.Samples)
	opts := o.Run
	opts.Samples, opts.Scenario, opts.FeedbackRounds = job.Samples, scenario, p.Inputs.FeedbackRounds
	progress := runner.NewProgress(o.Out, o.Terminal, func(r result.EvalResult) string { return runner.ResultLine(r, false) }, nil)
	opts.OnPlan = func(todo, _ int) { progress.Start(todo) }
	opts.OnResult = progress.Add
	opts.OnNote = func(s string) { fmt.Fprintln(o.Err, "note: "+s) }
	started := now()
	results, err := runner.Run(ctx, opts)
	progress.Finish()
	if err != nil {
		return nil, fmt.Errorf("shard %d: %w (no artifact written)", n, err)
	}
	art := NewArtifact(p, n, o.Version, evaluated, started, now().Sub(started), results)
	art.Jail = o.Jail
	if err := WriteArtifact(o.Artifact, art); err != nil {
		return nil, err
	}
	errorsTotal := runner.PrintSummary(o.Out, []string{job.Model}, results)
	fmt.Fprintf(o.Out, "artifact: %s (%d results, %d infrastructure errors)\n", o.Artifact, len(results), len(art.InfraErrors))
	return &ShardOutcome{Artifact: art, Errors: errorsTotal}, nil
}
