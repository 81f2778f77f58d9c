package checks

import (
	"context"
	"fmt"
	"io"
	"os"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/result"
)

// CheckModule is a loaded static.star or behavior.star file.
type CheckModule struct {
	// Path is the check file, as given to LoadChecks.
	Path    string
	rt      *Runtime
	runFunc *starlark.Function
	// foreign runs the module instead of Starlark when it is a .py file.
	foreign ForeignBackend
	// Source is the file's text, kept for the scope audit and error positions.
	Source []byte
}

// LoadChecksFile reads and loads a check file.
// A .py file is loaded through the foreign backend (see UseForeign).
func (r *Runtime) LoadChecksFile(ctx context.Context, path string) (*CheckModule, error) {
	if IsForeignFile(path) {
		return r.loadForeignChecks(ctx, path)
	}
	src, err := readCheckFile(path, "check file")
	if err != nil {
		return nil, err
	}
	return r.LoadChecks(ctx, path, src)
}

// readCheckFile reads a check file of at most MaxCheckFileBytes.
func readCheckFile(path, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &diag.AsError{Problem: diag.Errorf(path, 0, 0, "check-load", "cannot read %s: %v", what, err)}
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxCheckFileBytes+1))
	if err != nil {
		return nil, &diag.AsError{Problem: diag.Errorf(path, 0, 0, "check-load", "cannot read %s: %v", what, err)}
	}
	if len(src) > MaxCheckFileBytes {
		n := int64(len(src))
		if fi, err := f.Stat(); err == nil {
			n = fi.Size()
		}
		return nil, fileTooLarge(path, n)
	}
	return src, nil
}

// LoadChecks compiles and executes a check file and finds its run_checks
// function, which must take exactly one parameter (the code).
func (r *Runtime) LoadChecks(ctx context.Context, path string, src []byte) (*CheckModule, error) {
	globals, err := r.loadModule(ctx, path, src)
	if err != nil {
		return nil, err
	}
	v, ok := globals["run_checks"]
	if !ok {
		return nil, &diag.AsError{Problem: diag.Errorf(path, 0, 0, "check-load", "no run_checks function defined (want: def run_checks(code): ...)")}
	}
	fn, ok := v.(*starlark.Function)
	if !ok {
		return nil, &diag.AsError{Problem: diag.Errorf(path, 0, 0, "check-load", "run_checks is a %s, want a function", v.Type())}
	}
	if fn.NumParams() != 1 || fn.HasVarargs() || fn.HasKwargs() {
		pos := fn.Position()
		return nil, &diag.AsError{Problem: diag.Errorf(path, int(pos.Line), int(pos.Col), "check-load", "run_checks must take exactly one parameter (the code), it takes %d", fn.NumParams())}
	}
	return &CheckModule{Path: path, rt: r, runFunc: fn, Source: src}, nil
}

// Run calls run_checks(code) and converts the returned list into check
// records. Any error (a raise, a limit, a wrong shape) names file:line:col and is
// a case error, never a verdict on the code.
func (m *CheckModule) Run(ctx context.Context, s *Session, code string) ([]result.CheckDetail, error) {
	if m.foreign != nil {
		return m.foreign.RunChecks(ctx, m.Path, code)
	}
	v, err := m.rt.call(ctx, s, "run_checks", func(th *starlark.Thread) (starlark.Value, error) {
		return starlark.Call(th, m.runFunc, starlark.Tuple{starlark.String(code)}, nil)
	})
	if err != nil {
		return nil, positioned(m.Path, "check-runtime", err)
	}
	pos := m.runFunc.Position()
	details, err := toCheckDetails(v)
	if err != nil {
		return nil, &diag.AsError{Problem: diag.Errorf(m.Path, int(pos.Line), int(pos.Col), "check-shape", "run_checks returned %v", err)}
	}
	return details, nil
}

// Negative is one entry of NEGATIVES.
type Negative struct {
	Name           string
	MustFail       []string
	ShouldFail     []string
	Description    string
	BugDescription string
	FactorID       string
	// Pos is where the entry is written (the dict literal, or the mutation
	// function when the list is not a literal).
	Pos      syntax.Position
	mutation starlark.Callable
	labels   map[string]syntax.Position
	set      *NegativeSet
	// foreign applies the mutation when the set is a .py module.
	foreign ForeignBackend
}

// LabelPos returns where a must_fail/should_fail label is written, falling back
// to the entry's position.
func (n *Negative) LabelPos(label string) syntax.Position {
	if p, ok := n.labels[label]; ok {
		return p
	}
	return n.Pos
}

// NegativeSet is a loaded negatives.star file.
type NegativeSet struct {
	Path      string
	Negatives []*Negative
	rt        *Runtime
}

// LoadNegativesFile reads and loads a negatives file.
// A .py file is loaded through the foreign backend (see UseForeign).
func (r *Runtime) LoadNegativesFile(ctx context.Context, path string) (*NegativeSet, error) {
	if IsForeignFile(path) {
		return r.loadForeignNegatives(ctx, path)
	}
	src, err := readCheckFile(path, "negatives file")
	if err != nil {
		return nil, err
	}
	return r.LoadNegatives(ctx, path, src)
}

// LoadNegatives executes a negatives file and validates NEGATIVES against the
// contract (§2.3): a list of dicts with name, mutation (callable), must_fail
// and/or should_fail (lists of check names), and optional description,
// bug_description and factor_id. Unknown keys are errors.
func (r *Runtime) LoadNegatives(ctx context.Context, path string, src []byte) (*NegativeSet, error) {
	globals, err := r.loadModule(ctx, path, src)
	if err != nil {
		return nil, err
	}
	v, ok := globals["NEGATIVES"]
	if !ok {
		return nil, &diag.AsError{Problem: diag.Errorf(path, 0, 0, "negatives", "no NEGATIVES list defined")}
	}
	list, ok := v.(*starlark.List)
	if !ok {
		return nil, &diag.AsError{Problem: diag.Errorf(path, 0, 0, "negatives", "NEGATIVES is a %s, want a list of dicts", v.Type())}
	}
	positions := negativePositions(path, src)
	set := &NegativeSet{Path: path, rt: r}
	names := map[string]bool{}
	for i := 0; i < list.Len(); i++ {
		entryPos := syntax.MakePosition(&path, 0, 0)
		var labels map[string]syntax.Position
		if i < len(positions) {
			entryPos, labels = positions[i].pos, positions[i].labels
		}
		bad := func(format string, args ...any) error {
			return &diag.AsError{Problem: diag.Errorf(path, int(entryPos.Line), int(entryPos.Col), "negatives", "NEGATIVES[%d]: %s", i, fmt.Sprintf(format, args...))}
		}
		d, ok := list.Index(i).(*starlark.Dict)
		if !ok {
			return nil, bad("is a %s, want a dict", list.Index(i).Type())
		}
		n := &Negative{Pos: entryPos, labels: labels, set: set}
		for _, item := range d.Items() {
			k, ok := starlark.AsString(item[0])
			if !ok {
				return nil, bad("has a non-string key %s", shortRepr(item[0]))
			}
			val := item[1]
			switch k {
			case "name":
				s, ok := starlark.AsString(val)
				if !ok || s == "" {
					return nil, bad("name must be a non-empty string, got %s", val.Type())
				}
				n.Name = s
			case "mutation":
				c, ok := val.(starlark.Callable)
				if !ok {
					return nil, bad("mutation must be a function from code to code, got %s", val.Type())
				}
				n.mutation = c
				if fn, ok := val.(*starlark.Function); ok && entryPos.Line == 0 {
					n.Pos = fn.Position()
				}
			case "must_fail", "should_fail":
				labelsList, err := stringList(val)
				if err != nil {
					return nil, bad("%s %v", k, err)
				}
				if k == "must_fail" {
					n.MustFail = labelsList
				} else {
					n.ShouldFail = labelsList
				}
			case "description", "bug_description", "factor_id":
				s, ok := starlark.AsString(val)
				if !ok {
					return nil, bad("%s must be a string, got %s", k, val.Type())
				}
				switch k {
				case "description":
					n.Description = s
				case "bug_description":
					n.BugDescription = s
				default:
					n.FactorID = s
				}
			default:
				return nil, bad("unknown key %q (allowed: name, mutation, must_fail, should_fail, description, bug_description, factor_id)", k)
			}
		}
		switch {
		case n.Name == "":
			return nil, bad("missing name")
		case n.mutation == nil:
			return nil, bad("negative %q has no mutation", n.Name)
		case len(n.MustFail) == 0 && len(n.ShouldFail) == 0:
			return nil, bad("negative %q needs must_fail or should_fail (a non-empty list of check names)", n.Name)
		case names[n.Name]:
			return nil, bad("duplicate negative name %q", n.Name)
		}
		names[n.Name] = true
		set.Negatives = append(set.Negatives, n)
	}
	return set, nil
}

func stringList(v starlark.Value) ([]string, error) {
	it, ok := v.(starlark.Indexable)
	if !ok {
		return nil, fmt.Errorf("must be a list of check names, got %s", v.Type())
	}
	if _, isStr := v.(starlark.String); isStr {
		return nil, fmt.Errorf("must be a list of check names, got a single string")
	}
	out := make([]string, 0, it.Len())
	for i := 0; i < it.Len(); i++ {
		s, ok := starlark.AsString(it.Index(i))
		if !ok || s == "" {
			return nil, fmt.Errorf("must be a list of check names, item %d is %s", i, it.Index(i).Type())
		}
		out = append(out, s)
	}
	return out, nil
}

// Apply runs the mutation on code. The mutation must return a string.
func (n *Negative) Apply(ctx context.Context, s *Session, code string) (string, error) {
	if n.foreign != nil {
		return n.foreign.ApplyNegative(ctx, n.set.Path, n.Name, code)
	}
	v, err := n.set.rt.call(ctx, s, "mutation", func(th *starlark.Thread) (starlark.Value, error) {
		return starlark.Call(th, n.mutation, starlark.Tuple{starlark.String(code)}, nil)
	})
	if err != nil {
		ae := positioned(n.set.Path, "negatives", err).(*diag.AsError)
		ae.Problem.Message = fmt.Sprintf("negative %q: mutation raised: %s", n.Name, ae.Problem.Message)
		return "", ae
	}
	str, ok := v.(starlark.String)
	if !ok {
		return "", &diag.AsError{Problem: diag.Errorf(n.set.Path, int(n.Pos.Line), int(n.Pos.Col), "negatives", "negative %q: mutation returned %s, want a string", n.Name, v.Type())}
	}
	return string(str), nil
}

type entryPositions struct {
	pos    syntax.Position
	labels map[string]syntax.Position
}

// negativePositions finds, when NEGATIVES is assigned a list literal at top
// level, the position of each entry and of each string in its must_fail and
// should_fail lists, so errors point at the line an author must change.
func negativePositions(path string, src []byte) []entryPositions {
	f, err := syntax.Parse(path, src, 0)
	if err != nil {
		return nil
	}
	var out []entryPositions
	for _, stmt := range f.Stmts {
		as, ok := stmt.(*syntax.AssignStmt)
		if !ok {
			continue
		}
		id, ok := as.LHS.(*syntax.Ident)
		if !ok || id.Name != "NEGATIVES" {
			continue
		}
		lst, ok := as.RHS.(*syntax.ListExpr)
		if !ok {
			return nil
		}
		out = out[:0]
		for _, el := range lst.List {
			start, _ := el.Span()
			ep := entryPositions{pos: start, labels: map[string]syntax.Position{}}
			if d, ok := el.(*syntax.DictExpr); ok {
				for _, e := range d.List {
					entry := e.(*syntax.DictEntry)
					key, ok := entry.Key.(*syntax.Literal)
					if !ok || (key.Value != "must_fail" && key.Value != "should_fail") {
						continue
					}
					if l, ok := entry.Value.(*syntax.ListExpr); ok {
						for _, item := range l.List {
							if lit, ok := item.(*syntax.Literal); ok {
								if s, ok := lit.Value.(string); ok {
									if _, seen := ep.labels[s]; !seen {
										ep.labels[s] = lit.TokenPos
									}
								}
							}
						}
					}
				}
			}
			out = append(out, ep)
		}
	}
	return out
}
