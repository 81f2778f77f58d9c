package checks

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/forbidden"
)

// Limits bound every call into a check file (see "Limits" in docs/CHECKS.md).
type Limits struct {
	// MaxSteps is the Starlark step budget of one call (module load, run_checks,
	// or one mutation). Zero means DefaultMaxSteps.
	MaxSteps uint64
	// Timeout is the wall-clock budget of one call. Zero means DefaultTimeout.
	Timeout time.Duration
	// MaxValueBytes bounds one value a call builds: a string or bytes of
	// more bytes, or a list, tuple, dict or set of more than MaxValueBytes/16
	// elements, is refused before it is allocated. Zero means
	// DefaultMaxValueBytes.
	MaxValueBytes int
	// MaxAllocBytes bounds what one call allocates in all through operations
	// whose cost grows with their operands (an estimate: string bytes, 16
	// bytes per element, 64 per struct a helper returns). Zero means
	// DefaultMaxAllocBytes.
	MaxAllocBytes int64
}

// Default limits: generous for real checks (the bundled ones use well under 1%
// of them), small enough that a runaway loop is stopped quickly and that a
// hostile check cannot exhaust the evaluator's memory.
const (
	DefaultMaxSteps      = 20_000_000
	DefaultTimeout       = 5 * time.Second
	DefaultMaxValueBytes = 64 << 20
	DefaultMaxAllocBytes = 1 << 30
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
	// methods are the guarded methods of the built-in types (by type name,
	// then method name), and guarded their names.
	methods map[string]map[string]methodPre
	guarded map[string]bool
	// helpers are the uninstrumented Starlark functions the guards call.
	helpers starlark.StringDict
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
	if limits.MaxValueBytes == 0 {
		limits.MaxValueBytes = DefaultMaxValueBytes
	}
	if limits.MaxAllocBytes == 0 {
		limits.MaxAllocBytes = DefaultMaxAllocBytes
	}
	if table == nil {
		t, err := forbidden.Default()
		if err != nil {
			return nil, fmt.Errorf("load shipped forbidden_apis.yaml: %w", err)
		}
		table = t
	}
	r := &Runtime{limits: limits, forbidden: table, queries: csyntax.NewQueryCache(), regexps: &regexCache{compiled: map[reKey]*regexp.Regexp{}},
		methods: methodGuards(), guarded: map[string]bool{}}
	names := guardedNames(r.methods)
	for _, n := range names {
		r.guarded[n] = true
	}
	r.predeclared = predeclared()
	lib, err := loadStdlib(r.predeclared)
	if err != nil {
		return nil, fmt.Errorf("load the check standard library: %w", err)
	}
	for name, v := range lib {
		r.predeclared[name] = v
	}
	helpers, err := starlark.ExecFileOptions(fileOptions(), &starlark.Thread{Name: "helpers"}, "<embedeval>", helperSource(names), nil)
	if err != nil {
		return nil, fmt.Errorf("compile the guard helpers: %w", err)
	}
	r.helpers = helpers
	return r, nil
}

// Limits returns the limits in force.
func (r *Runtime) Limits() Limits { return r.limits }

func fileOptions() *syntax.FileOptions {
	return &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}
}

const stateKey = "embedeval.call"

// call runs fn on a fresh thread bounded by the runtime's limits and ctx.
//
// fn runs on its own goroutine. At the time limit (or when ctx ends) the
// thread is cancelled and the helpers stop; if fn has still not returned
// abandonGrace later (it is stuck inside an interpreter built-in, such as a
// sort or a hash of a huge value), call returns the limit error without it.
// The abandoned goroutine keeps the session caches it was using, and closes
// them when it ends; the session continues with fresh ones.
func (r *Runtime) call(ctx context.Context, s *Session, name string, fn func(*starlark.Thread) (starlark.Value, error)) (starlark.Value, error) {
	thread := &starlark.Thread{
		Name:  name,
		Print: func(*starlark.Thread, string) {},
		Load: func(*starlark.Thread, string) (starlark.StringDict, error) {
			return nil, errors.New("load() is not available: check files are self-contained and every helper is predeclared")
		},
	}
	thread.SetMaxExecutionSteps(r.limits.MaxSteps)
	if s == nil {
		s = r.NewSession()
		defer s.Close()
	}
	st := newCallState(r, s.state)
	thread.SetLocal(stateKey, st)
	s.state.parses.SetDeadline(time.Now().Add(r.limits.Timeout))

	type outcome struct {
		v     starlark.Value
		err   error
		panic any
	}
	done := make(chan outcome, 1)
	go func() {
		var out outcome
		defer func() {
			if p := recover(); p != nil {
				out = outcome{panic: fmt.Sprintf("%v\n\n%s", p, debug.Stack())}
			}
			done <- out
			st.mu.Lock()
			st.finished = true
			abandoned := st.abandoned
			st.mu.Unlock()
			if abandoned {
				st.cache.close()
			}
		}()
		out.v, out.err = fn(thread)
	}()
	finish := func(out outcome) (starlark.Value, error) {
		s.state.parses.SetDeadline(time.Time{})
		if out.panic != nil {
			panic(out.panic)
		}
		if out.err != nil && strings.Contains(out.err.Error(), "too many steps") {
			return nil, &limitError{err: out.err, msg: fmt.Sprintf("exceeded the step limit of %d", r.limits.MaxSteps)}
		}
		return out.v, out.err
	}

	timer := time.NewTimer(r.limits.Timeout)
	defer timer.Stop()
	select {
	case out := <-done:
		return finish(out)
	case <-timer.C:
		st.stop(r.timeLimitMsg())
	case <-ctx.Done():
		st.stop(fmt.Sprintf("cancelled: %v", ctx.Err()))
	}
	thread.Cancel(*st.reason.Load())
	grace := time.NewTimer(abandonGrace)
	defer grace.Stop()
	select {
	case out := <-done:
		return finish(out)
	case <-grace.C:
	}
	st.mu.Lock()
	if st.finished {
		st.mu.Unlock()
		return finish(<-done)
	}
	st.abandoned = true
	st.mu.Unlock()
	s.detach()
	return nil, &limitError{msg: *st.reason.Load()}
}

type limitError struct {
	err error
	msg string
}

func (e *limitError) Error() string { return e.msg }
func (e *limitError) Unwrap() error { return e.err }

// loadModule compiles a check file, instrumented (see instrument), executes
// its top level and returns its frozen globals.
func (r *Runtime) loadModule(ctx context.Context, path string, src []byte) (starlark.StringDict, error) {
	if len(src) > MaxCheckFileBytes {
		return nil, fileTooLarge(path, int64(len(src)))
	}
	f, err := fileOptions().Parse(path, src, 0)
	if err != nil {
		return nil, positioned(path, "check-load", err)
	}
	instrument(f, r.guarded)
	prog, err := starlark.FileProgram(f, r.predeclared.Has)
	if err != nil {
		return nil, positioned(path, "check-load", err)
	}
	var globals starlark.StringDict
	s := r.NewSession()
	defer s.Close()
	_, err = r.call(ctx, s, filepath.Base(path), func(th *starlark.Thread) (starlark.Value, error) {
		g, err := prog.Init(th, r.predeclared)
		g.Freeze()
		globals = g
		return starlark.None, err
	})
	if err != nil {
		return nil, positioned(path, "check-load", err)
	}
	return globals, nil
}

// fileTooLarge is the error of a check file over MaxCheckFileBytes.
func fileTooLarge(path string, n int64) error {
	return &diag.AsError{Problem: diag.Errorf(path, 0, 0, "check-load", "check file is %d bytes; the limit is %d bytes", n, MaxCheckFileBytes)}
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
		// A helper's name says where the error happened; a guard's does not
		// (it stands for the operator at the position).
		if n := len(evalErr.CallStack); n > 0 && evalErr.CallStack[n-1].Pos.Filename() == "<builtin>" && !strings.HasPrefix(evalErr.CallStack[n-1].Name, "$") {
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
