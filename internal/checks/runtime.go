package checks

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/forbidden"
)

// Limits bound every call into a check file.
type Limits struct {
	// MaxSteps is the Starlark step budget of one call (module load, run_checks,
	// or one mutation). Zero means DefaultMaxSteps.
	MaxSteps uint64
	// Timeout is the wall-clock budget of one call. Zero means DefaultTimeout.
	Timeout time.Duration
}

// Default limits: generous for real checks (the bundled ones use well under 1%
// of them), small enough that a runaway loop is stopped quickly.
const (
	DefaultMaxSteps = 20_000_000
	DefaultTimeout  = 5 * time.Second
)

// Runtime compiles check files and holds what every call shares: the limits,
// the helper modules and the forbidden-API table. It is safe for concurrent use;
// calls take a Session, which is not.
type Runtime struct {
	limits      Limits
	forbidden   *forbidden.Table
	predeclared starlark.StringDict
	// queries holds the c.query patterns compiled so far, shared by every
	// session (compiled queries are immutable).
	queries *csyntax.QueryCache
	// regexps holds the compiled re patterns of every session.
	regexps *regexCache
	// foreign loads .py check files; nil refuses them.
	foreign ForeignBackend
}

// NewRuntime builds a runtime. table may be nil to use the shipped
// forbidden_apis.yaml.
func NewRuntime(limits Limits, table *forbidden.Table) (*Runtime, error) {
	if limits.MaxSteps == 0 {
		limits.MaxSteps = DefaultMaxSteps
	}
	if limits.Timeout == 0 {
		limits.Timeout = DefaultTimeout
	}
	if table == nil {
		t, err := forbidden.Default()
		if err != nil {
			return nil, fmt.Errorf("load shipped forbidden_apis.yaml: %w", err)
		}
		table = t
	}
	r := &Runtime{limits: limits, forbidden: table, queries: csyntax.NewQueryCache(), regexps: &regexCache{compiled: map[reKey]*regexp.Regexp{}}}
	r.predeclared = predeclared()
	return r, nil
}

// Limits returns the limits in force.
func (r *Runtime) Limits() Limits { return r.limits }

func fileOptions() *syntax.FileOptions {
	return &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}
}

const sessionKey = "embedeval.session"

// call runs fn on a fresh thread bounded by the runtime's limits and ctx.
func (r *Runtime) call(ctx context.Context, s *Session, name string, fn func(*starlark.Thread) (starlark.Value, error)) (starlark.Value, error) {
	thread := &starlark.Thread{
		Name:  name,
		Print: func(*starlark.Thread, string) {},
		Load: func(*starlark.Thread, string) (starlark.StringDict, error) {
			return nil, errors.New("load() is not available: check files are self-contained and every helper is predeclared")
		},
	}
	thread.SetMaxExecutionSteps(r.limits.MaxSteps)
	if s != nil {
		thread.SetLocal(sessionKey, s)
	}
	timer := time.NewTimer(r.limits.Timeout)
	defer timer.Stop()
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-timer.C:
			thread.Cancel(fmt.Sprintf("exceeded the time limit of %s", r.limits.Timeout))
		case <-ctx.Done():
			thread.Cancel(fmt.Sprintf("cancelled: %v", ctx.Err()))
		case <-done:
		}
	}()
	v, err := fn(thread)
	if err != nil && strings.Contains(err.Error(), "too many steps") {
		return nil, &limitError{err: err, msg: fmt.Sprintf("exceeded the step limit of %d", r.limits.MaxSteps)}
	}
	return v, err
}

type limitError struct {
	err error
	msg string
}

func (e *limitError) Error() string { return e.msg }
func (e *limitError) Unwrap() error { return e.err }

// loadModule executes a check file and returns its frozen globals.
func (r *Runtime) loadModule(ctx context.Context, path string, src []byte) (starlark.StringDict, error) {
	var globals starlark.StringDict
	s := r.NewSession()
	defer s.Close()
	_, err := r.call(ctx, s, filepath.Base(path), func(th *starlark.Thread) (starlark.Value, error) {
		g, err := starlark.ExecFileOptions(fileOptions(), th, path, src, r.predeclared)
		globals = g
		return starlark.None, err
	})
	if err != nil {
		return nil, positioned(path, "check-load", err)
	}
	return globals, nil
}

// positioned turns a Starlark error into a diag problem error that names the
// innermost position inside path (file:line:col).
func positioned(path, rule string, err error) error {
	var p diag.Problem
	var synErr syntax.Error
	var resErrs resolve.ErrorList
	var evalErr *starlark.EvalError
	var lim *limitError
	switch {
	case errors.As(err, &synErr):
		p = diag.Errorf(path, int(synErr.Pos.Line), int(synErr.Pos.Col), rule, "syntax error: %s", synErr.Msg)
	case errors.As(err, &resErrs):
		e := resErrs[0]
		p = diag.Errorf(path, int(e.Pos.Line), int(e.Pos.Col), rule, "%s", e.Msg)
	case errors.As(err, &evalErr):
		line, col, where := 0, 0, ""
		for i := len(evalErr.CallStack) - 1; i >= 0; i-- {
			fr := evalErr.CallStack[i]
			if fr.Pos.Filename() == path {
				line, col = int(fr.Pos.Line), int(fr.Pos.Col)
				break
			}
		}
		if n := len(evalErr.CallStack); n > 0 && evalErr.CallStack[n-1].Pos.Filename() == "<builtin>" {
			where = " (in " + evalErr.CallStack[n-1].Name + ")"
		}
		msg := evalErr.Msg
		if errors.As(err, &lim) {
			msg = lim.msg
		} else if strings.HasPrefix(msg, "Starlark computation cancelled: ") {
			msg = strings.TrimPrefix(msg, "Starlark computation cancelled: ")
		}
		p = diag.Errorf(path, line, col, rule, "%s%s", msg, where)
	case errors.As(err, &lim):
		p = diag.Errorf(path, 0, 0, rule, "%s", lim.msg)
	default:
		var de *diag.AsError
		if errors.As(err, &de) {
			return de
		}
		p = diag.Errorf(path, 0, 0, rule, "%v", err)
	}
	return &diag.AsError{Problem: p}
}
