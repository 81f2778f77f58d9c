package checks

import (
	"context"
	"path/filepath"

	"go.starlark.net/syntax"

	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/result"
)

// ForeignBackend runs check files written in another language than Starlark:
// today the Python bridge for the Python implementation's checks/*.py modules.
// Every error it returns for a case's file should be a *diag.AsError naming
// file:line, so it reaches the report like a Starlark error does.
type ForeignBackend interface {
	// LoadChecks imports a static or behavior module and confirms it defines
	// run_checks taking one parameter.
	LoadChecks(ctx context.Context, path string) error
	// RunChecks calls run_checks(code) of the module at path.
	RunChecks(ctx context.Context, path, code string) ([]result.CheckDetail, error)
	// LoadNegatives imports a negatives module and describes its NEGATIVES.
	LoadNegatives(ctx context.Context, path string) ([]ForeignNegative, error)
	// ApplyNegative applies the mutation of the named negative to code.
	ApplyNegative(ctx context.Context, path, name, code string) (string, error)
}

// ForeignNegative is one NEGATIVES entry as a foreign backend reports it.
type ForeignNegative struct {
	Name           string
	MustFail       []string
	ShouldFail     []string
	Description    string
	BugDescription string
	FactorID       string
	// Line is where the entry (or its mutation) is written; 0 when unknown.
	Line int
}

// PythonExt is the extension of the Python implementation's check modules.
const PythonExt = ".py"

// IsForeignFile reports whether path is a check file for a foreign backend
// (a Python module) rather than a Starlark file.
func IsForeignFile(path string) bool { return filepath.Ext(path) == PythonExt }

// UseForeign makes the runtime load .py check files through b. Without it,
// loading one is refused with an error that says how to enable it.
func (r *Runtime) UseForeign(b ForeignBackend) { r.foreign = b }

func (r *Runtime) refuseForeign(path string) error {
	return &diag.AsError{Problem: diag.Errorf(path, 0, 0, "python-checks",
		"Python check module: it runs arbitrary code, so it is only loaded with --allow-python-checks (see docs/PYTHON-CHECKS.md)")}
}

func (r *Runtime) loadForeignChecks(ctx context.Context, path string) (*CheckModule, error) {
	if r.foreign == nil {
		return nil, r.refuseForeign(path)
	}
	if err := r.foreign.LoadChecks(ctx, path); err != nil {
		return nil, err
	}
	return &CheckModule{Path: path, rt: r, foreign: r.foreign}, nil
}

func (r *Runtime) loadForeignNegatives(ctx context.Context, path string) (*NegativeSet, error) {
	if r.foreign == nil {
		return nil, r.refuseForeign(path)
	}
	entries, err := r.foreign.LoadNegatives(ctx, path)
	if err != nil {
		return nil, err
	}
	set := &NegativeSet{Path: path, rt: r}
	for _, e := range entries {
		set.Negatives = append(set.Negatives, &Negative{
			Name: e.Name, MustFail: e.MustFail, ShouldFail: e.ShouldFail,
			Description: e.Description, BugDescription: e.BugDescription, FactorID: e.FactorID,
			Pos: syntax.MakePosition(&set.Path, int32(e.Line), 0), set: set, foreign: r.foreign,
		})
	}
	return set, nil
}

// ForeignBatcher is implemented by a foreign backend that can run all of L4
// in one call: every negative applied to the code and, on each mutant that
// differs from it, the named check modules run. Crossing a process boundary
// costs ~0.1 ms per call, so one call per evaluation instead of two per
// negative keeps the bridge faster than the Python implementation itself.
type ForeignBatcher interface {
	MutateAll(ctx context.Context, negativesPath, code string, plans []MutantPlan) ([]MutantOutcome, error)
}

// MutantPlan is one negative of a batch and the check modules (paths) to run
// on its mutant.
type MutantPlan struct {
	Negative string
	Modules  []string
}

// MutantOutcome is one negative's result in a batch.
type MutantOutcome struct {
	// Unchanged is set when the mutation left the code as it was.
	Unchanged bool
	// MutationErr is the mutation's own failure; ModuleErr a check module's
	// failure on the mutant. Both are *diag.AsError when located.
	MutationErr, ModuleErr error
	// Details are the records of the modules, in plan order.
	Details []result.CheckDetail
}

// Batcher returns the set's foreign backend when it is a .py module whose
// backend can run L4 in one call, and nil otherwise.
func (s *NegativeSet) Batcher() ForeignBatcher {
	if s == nil || len(s.Negatives) == 0 || s.Negatives[0].foreign == nil {
		return nil
	}
	b, _ := s.Negatives[0].foreign.(ForeignBatcher)
	return b
}

// IsForeign reports whether the module runs through a foreign backend.
func (m *CheckModule) IsForeign() bool { return m != nil && m.foreign != nil }
