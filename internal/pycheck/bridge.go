package pycheck

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
)

//go:embed worker.py
var workerSource string

// DefaultPython is the interpreter used when Options.Python is empty.
const DefaultPython = "python3"

// BridgeRule is the diagnostic rule of worker failures (crash, hang, no
// interpreter), as opposed to the case's own load/runtime/shape errors.
const BridgeRule = "python-bridge"

// PassThroughEnv names the variables the worker inherits besides the sandbox's
// base allowlist: where Python looks for the Python implementation's package.
func PassThroughEnv() []string {
	return []string{"PYTHONPATH", "VIRTUAL_ENV", "PYTHONUSERBASE"}
}

// Options configure a Bridge.
type Options struct {
	// Python is the interpreter (a name on PATH or a path); DefaultPython if empty.
	Python string
	// Timeout bounds one call (import, run_checks, one mutation);
	// checks.DefaultTimeout if zero.
	Timeout time.Duration
	// Logger receives worker starts and restarts; slog.Default() if nil.
	Logger *slog.Logger
	// Jail confines the worker (sandbox.Jail.Wrap); the worker does not
	// start without one. Only a bubblewrap jail confines its file system
	// view and processes (Bridge.Jailed).
	Jail *sandbox.Jail
	// ReadOnly are the host paths the worker must read besides the
	// interpreter's trees and PYTHONPATH: the corpus roots. A module asked
	// about outside them (and outside earlier ones) gets its directory bound
	// too, at the cost of a worker restart.
	ReadOnly []string
}

// Bridge is a checks.ForeignBackend backed by one CPython worker process. It is
// safe for concurrent use: calls are serialised, the worker being one
// single-threaded interpreter.
type Bridge struct {
	opts Options
	// slot is a one-place semaphore guarding w; waiting on it honours ctx.
	slot chan struct{}
	w    *worker
	ws   *sandbox.Workspace
	// starts counts worker processes started (1 + restarts).
	starts int
	// interp is the interpreter's self-description, asked once.
	interp *interpreter
	// visible are the resolved host paths the running (or next) worker
	// sees: Options.ReadOnly, PYTHONPATH entries and extra.
	visible []string
	// extra are module directories outside Options.ReadOnly that callers
	// asked about; they are bound from the next start on.
	extra []string
}

var (
	_ checks.ForeignBackend = (*Bridge)(nil)
	_ checks.ForeignBatcher = (*Bridge)(nil)
)

// New returns a bridge; the worker starts on the first call.
func New(opts Options) *Bridge {
	if opts.Python == "" {
		opts.Python = DefaultPython
	}
	if opts.Timeout <= 0 {
		opts.Timeout = checks.DefaultTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	// The jail binds absolute paths only; callers pass corpus roots as
	// given on the command line ("cases").
	readOnly := make([]string, 0, len(opts.ReadOnly))
	for _, p := range opts.ReadOnly {
		if abs, err := filepath.Abs(p); err == nil {
			readOnly = append(readOnly, abs)
		}
	}
	opts.ReadOnly = readOnly
	return &Bridge{opts: opts, slot: make(chan struct{}, 1)}
}

// Jailed reports whether the worker runs confined: a bubblewrap jail, with
// its own read-only view of the file system, no network and its own PID
// namespace. In uid mode and in an allowed none mode the worker runs as the
// evaluator's user and sees what it sees.
func (b *Bridge) Jailed() bool {
	return b.opts.Jail.Mode() == sandbox.ModeBubblewrap && b.opts.Jail.Confined()
}

// Starts returns how many worker processes the bridge has started so far.
func (b *Bridge) Starts() int {
	b.slot <- struct{}{}
	defer func() { <-b.slot }()
	return b.starts
}

// Close stops the worker and removes its temporary directory.
func (b *Bridge) Close() error {
	b.slot <- struct{}{}
	defer func() { <-b.slot }()
	if b.w != nil {
		b.w.stop()
		b.w = nil
	}
	if b.ws != nil {
		err := b.ws.Close()
		b.ws = nil
		return err
	}
	return nil
}

// Version starts the worker if needed and returns the interpreter's version.
// It is how callers fail fast when the interpreter is missing.
func (b *Bridge) Version(ctx context.Context) (string, error) {
	var resp struct {
		Python string `json:"python"`
	}
	if err := b.call(ctx, "", request{Op: "ping"}, &resp); err != nil {
		return "", err
	}
	return resp.Python, nil
}

// Probe says what the worker sees: the interpreter's version and path, and
// where the Python implementation's embedeval package (embedeval.models and
// embedeval.check_utils) imports from, or why it does not.
type Probe struct {
	Python       string `json:"python"`
	Executable   string `json:"executable"`
	Embedeval    string `json:"embedeval,omitempty"`
	EmbedevalErr string `json:"embedeval_error,omitempty"`
}

// Probe starts the worker if needed and reports what it can import.
func (b *Bridge) Probe(ctx context.Context) (Probe, error) {
	var p Probe
	err := b.call(ctx, "", request{Op: "probe"}, &p)
	return p, err
}

// LoadChecks implements checks.ForeignBackend.
func (b *Bridge) LoadChecks(ctx context.Context, path string) error {
	return b.call(ctx, path, request{Op: "load_checks", Path: path}, nil)
}

// RunChecks implements checks.ForeignBackend.
func (b *Bridge) RunChecks(ctx context.Context, path, code string) ([]result.CheckDetail, error) {
	var resp struct {
		Details []map[string]json.RawMessage `json:"details"`
	}
	if err := b.call(ctx, path, request{Op: "run_checks", Path: path, Code: &code}, &resp); err != nil {
		return nil, err
	}
	details, err := toDetails(resp.Details)
	if err != nil {
		return nil, &diag.AsError{Problem: diag.Errorf(path, 0, 0, "check-shape", "run_checks returned %v", err)}
	}
	return details, nil
}

// LoadNegatives implements checks.ForeignBackend.
func (b *Bridge) LoadNegatives(ctx context.Context, path string) ([]checks.ForeignNegative, error) {
	var resp struct {
		Negatives []struct {
			Name           string   `json:"name"`
			MustFail       []string `json:"must_fail"`
			ShouldFail     []string `json:"should_fail"`
			Description    string   `json:"description"`
			BugDescription string   `json:"bug_description"`
			FactorID       string   `json:"factor_id"`
			Line           int      `json:"line"`
		} `json:"negatives"`
	}
	if err := b.call(ctx, path, request{Op: "load_negatives", Path: path}, &resp); err != nil {
		return nil, err
	}
	out := make([]checks.ForeignNegative, 0, len(resp.Negatives))
	seen := map[string]bool{}
	for i, n := range resp.Negatives {
		bad := func(format string, args ...any) error {
			return &diag.AsError{Problem: diag.Errorf(path, n.Line, 0, "negatives", "NEGATIVES[%d]: %s", i, fmt.Sprintf(format, args...))}
		}
		switch {
		case len(n.MustFail) == 0 && len(n.ShouldFail) == 0:
			return nil, bad("negative %q needs must_fail or should_fail (a non-empty list of check names)", n.Name)
		case seen[n.Name]:
			return nil, bad("duplicate negative name %q", n.Name)
		}
		seen[n.Name] = true
		out = append(out, checks.ForeignNegative{
			Name: n.Name, MustFail: n.MustFail, ShouldFail: n.ShouldFail, Description: n.Description,
			BugDescription: n.BugDescription, FactorID: n.FactorID, Line: n.Line,
		})
	}
	return out, nil
}

// ApplyNegative implements checks.ForeignBackend.
func (b *Bridge) ApplyNegative(ctx context.Context, path, name, code string) (string, error) {
	var resp struct {
		Code string `json:"code"`
	}
	if err := b.call(ctx, path, request{Op: "apply", Path: path, Name: name, Code: &code}, &resp); err != nil {
		return "", err
	}
	return resp.Code, nil
}

// MutateAll implements checks.ForeignBatcher: all of L4 in one round trip.
func (b *Bridge) MutateAll(ctx context.Context, negativesPath, code string, plans []checks.MutantPlan) ([]checks.MutantOutcome, error) {
	req := request{Op: "mutate_all", Path: negativesPath, Code: &code, Plans: []plan{}}
	for _, p := range plans {
		mods := make([]string, len(p.Modules))
		for i, m := range p.Modules {
			real, err := hostPath(m)
			if err != nil {
				return nil, err
			}
			mods[i] = real
		}
		req.Plans = append(req.Plans, plan{Negative: p.Negative, Modules: mods})
	}
	type itemError struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
		Line    int    `json:"line"`
		Path    string `json:"path"`
	}
	var resp struct {
		Outcomes []struct {
			Unchanged     bool                         `json:"unchanged"`
			MutationError *itemError                   `json:"mutation_error"`
			ModuleError   *itemError                   `json:"module_error"`
			Details       []map[string]json.RawMessage `json:"details"`
			Sizes         []int                        `json:"sizes"`
		} `json:"outcomes"`
	}
	// The time limit is per call of Python code: one mutation, one module run.
	calls := 0
	for _, p := range req.Plans {
		calls += 1 + len(p.Modules)
	}
	if err := b.callWithin(ctx, negativesPath, req, &resp, time.Duration(max(calls, 1))*b.opts.Timeout); err != nil {
		return nil, err
	}
	if len(resp.Outcomes) != len(plans) {
		return nil, &diag.AsError{Problem: diag.Errorf(negativesPath, 0, 0, BridgeRule, "the worker answered %d of %d negatives", len(resp.Outcomes), len(plans))}
	}
	// Module errors name the module as the case's author wrote its path.
	written := map[string]string{}
	for _, p := range plans {
		for _, m := range p.Modules {
			if real, err := hostPath(m); err == nil {
				written[real] = m
			}
		}
	}
	out := make([]checks.MutantOutcome, len(plans))
	for i, o := range resp.Outcomes {
		switch {
		case o.MutationError != nil:
			e := o.MutationError
			out[i].MutationErr = &diag.AsError{Problem: diag.Errorf(negativesPath, e.Line, 0, kindRule(e.Kind), "%s", e.Message)}
		case o.Unchanged:
			out[i].Unchanged = true
		case o.ModuleError != nil:
			e := o.ModuleError
			out[i].ModuleErr = &diag.AsError{Problem: diag.Errorf(cmpOr(written[e.Path], e.Path), e.Line, 0, kindRule(e.Kind), "%s", e.Message)}
		default:
			details, err := moduleDetails(o.Details, o.Sizes)
			if err != nil {
				out[i].ModuleErr = &diag.AsError{Problem: diag.Errorf(negativesPath, 0, 0, "check-shape", "run_checks returned %v", err)}
				continue
			}
			out[i].Details = details
		}
	}
	return out, nil
}

// moduleDetails converts the records of a mutant's modules, concatenated,
// module by module (sizes gives each module's count): names must be unique
// within one module, while the two modules of a flat-layout case may share
// a name. Without sizes, or when they do not add up, the records are one
// module's.
func moduleDetails(items []map[string]json.RawMessage, sizes []int) ([]result.CheckDetail, error) {
	total := 0
	for _, n := range sizes {
		if n < 0 {
			total = -1
			break
		}
		total += n
	}
	if total != len(items) {
		sizes = []int{len(items)}
	}
	var out []result.CheckDetail
	start := 0
	for _, n := range sizes {
		ds, err := toDetails(items[start : start+n])
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
		start += n
	}
	return out, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Audit reports raw substring tests on the code parameter of a .py check
// file (`"x" in code`, code.find(...)), like checks.AuditScope does for
// Starlark files.
func (b *Bridge) Audit(ctx context.Context, path string) ([]diag.Problem, error) {
	var resp struct {
		CodeName string `json:"code_name"`
		Findings []struct {
			Line int    `json:"line"`
			Col  int    `json:"col"`
			Op   string `json:"op"`
		} `json:"findings"`
	}
	if err := b.call(ctx, path, request{Op: "audit", Path: path}, &resp); err != nil {
		return nil, err
	}
	var problems []diag.Problem
	for _, f := range resp.Findings {
		what := fmt.Sprintf("raw substring test %q", f.Op)
		if f.Op != "in" && f.Op != "not in" {
			what = fmt.Sprintf("raw substring search %s.%s(...)", resp.CodeName, f.Op)
		}
		problems = append(problems, diag.Errorf(path, f.Line, f.Col, checks.AuditRule,
			"%s on the code argument; use scoped_contains(%s, needle, scope=\"stripped\"|\"code_only\"|\"raw\")", what, resp.CodeName))
	}
	return problems, nil
}

type request struct {
	Op    string  `json:"op"`
	Path  string  `json:"path,omitempty"`
	Name  string  `json:"name,omitempty"`
	Code  *string `json:"code,omitempty"`
	Plans []plan  `json:"plans,omitempty"`
}

// plan is one negative of a mutate_all request.
type plan struct {
	Negative string   `json:"negative"`
	Modules  []string `json:"modules"`
}

type response struct {
	OK      bool   `json:"ok"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Line    int    `json:"line"`
}

// kindRules maps the worker's error kinds to diagnostic rules.
func kindRule(kind string) string {
	switch kind {
	case "load":
		return "check-load"
	case "runtime":
		return "check-runtime"
	case "shape":
		return "check-shape"
	case "negatives":
		return "negatives"
	default:
		return BridgeRule
	}
}

// call sends one request and decodes the response into out (when not nil).
// A case error comes back as a *diag.AsError naming path and line; a hang or a
// crash stops the worker (the next call starts a fresh one) and is reported
// the same way, so the case is an error and never a model failure.
func (b *Bridge) call(ctx context.Context, path string, req request, out any) error {
	return b.callWithin(ctx, path, req, out, b.opts.Timeout)
}

// callWithin is call with an explicit time limit.
func (b *Bridge) callWithin(ctx context.Context, path string, req request, out any, timeout time.Duration) error {
	select {
	case b.slot <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-b.slot }()
	// where names the file in diagnostics: the check file, or the
	// interpreter for requests about no file (ping, probe).
	where := path
	if where == "" {
		where = b.opts.Python
	}
	if path != "" {
		real, err := hostPath(path)
		if err != nil {
			return err
		}
		req.Path = real
	}
	b.makeVisible(req)
	if b.w == nil {
		if err := b.start(ctx); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return &diag.AsError{Problem: diag.Errorf(where, 0, 0, BridgeRule, "cannot start the Python check worker: %v", err)}
		}
	}
	line, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("encode %s request: %w", req.Op, err)
	}
	raw, err := b.w.roundTrip(ctx, append(line, '\n'), timeout)
	if err != nil {
		w := b.w
		b.w = nil
		w.stop()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var te *timeoutError
		if errors.As(err, &te) {
			return &diag.AsError{Problem: diag.Errorf(where, 0, 0, "check-runtime",
				"%s did not return within %s; the Python worker was stopped and is restarted for the next call", opName(req.Op), timeout)}
		}
		b.opts.Logger.Warn("python check worker died; it is restarted for the next call", "err", err, "stderr", w.stderrTail())
		return &diag.AsError{Problem: diag.Errorf(where, 0, 0, BridgeRule, "the Python worker died during %s (%v); stderr: %s", opName(req.Op), err, w.stderrTail())}
	}
	var resp response
	if err := json.Unmarshal(raw, &resp); err != nil {
		return &diag.AsError{Problem: diag.Errorf(where, 0, 0, BridgeRule, "unreadable worker response to %s: %v", req.Op, err)}
	}
	if !resp.OK {
		return &diag.AsError{Problem: diag.Errorf(where, resp.Line, 0, kindRule(resp.Kind), "%s", resp.Message)}
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return &diag.AsError{Problem: diag.Errorf(where, 0, 0, BridgeRule, "unreadable worker response to %s: %v", req.Op, err)}
		}
	}
	return nil
}

func opName(op string) string {
	switch op {
	case "run_checks":
		return "run_checks"
	case "apply":
		return "the mutation"
	case "mutate_all":
		return "the negatives (mutations and checks on the mutants)"
	case "load_checks", "load_negatives":
		return "the import"
	default:
		return op
	}
}

// StartTimeout bounds the worker's start-up (the interpreter and its first
// answer), which is not counted in any call's time limit.
const StartTimeout = 60 * time.Second

func (b *Bridge) start(ctx context.Context) error {
	if b.opts.Jail == nil {
		return errors.New("no jail configured for the Python worker")
	}
	if b.ws == nil {
		ws, err := sandbox.NewWorkspace("embedeval-python-")
		if err != nil {
			return err
		}
		b.ws = ws
	}
	set := []string{"PYTHONDONTWRITEBYTECODE=1", "PYTHONIOENCODING=utf-8", "PYTHONUNBUFFERED=1"}
	userBase, ok := os.LookupEnv("PYTHONUSERBASE")
	if !ok {
		// HOME is the workspace in the sandbox; keep user-site installs
		// (pip install --user) of the real home importable.
		if home, err := os.UserHomeDir(); err == nil {
			userBase = filepath.Join(home, ".local")
		}
	}
	// The jail binds each path at its real location: name them so.
	if userBase != "" {
		set = append(set, "PYTHONUSERBASE="+realList(userBase))
	}
	if v, ok := os.LookupEnv("PYTHONPATH"); ok {
		set = append(set, "PYTHONPATH="+realList(v))
	}
	env := sandbox.Env(b.ws.Dir, PassThroughEnv(), set...)
	if b.interp == nil {
		// Asked outside the jail: Options.Python may be a shim (pyenv's
		// are bash scripts) living where the jail has no reason to look.
		in, err := resolveInterpreter(ctx, b.opts.Python, b.ws.Dir, env)
		if err != nil {
			return err
		}
		b.interp = &in
	}
	readOnly := append(append(append([]string{}, b.interp.Paths...), b.opts.ReadOnly...), b.extra...)
	argv, err := b.opts.Jail.Wrap(sandbox.Spec{
		Args: []string{b.interp.Executable, "-B", "-c", workerSource},
		Dir:  b.ws.Dir, Env: env, ReadOnly: readOnly,
	})
	if err != nil {
		return fmt.Errorf("confine the Python worker: %w", err)
	}
	b.visible = visibleRoots(append(append([]string{}, b.opts.ReadOnly...), b.extra...), env)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = b.ws.Dir
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	w, err := startWorker(cmd)
	if err != nil {
		return err
	}
	// The interpreter's start-up is not a check's time: wait for it apart,
	// with a generous limit, so that a loaded machine does not turn the
	// first call into a timeout.
	if _, err := w.roundTrip(ctx, []byte(`{"op":"ping"}`+"\n"), StartTimeout); err != nil {
		w.stop()
		return fmt.Errorf("%s did not start (%v); stderr: %s", b.opts.Python, err, w.stderrTail())
	}
	if b.starts == 0 && !b.Jailed() {
		b.opts.Logger.Warn("the Python check worker is not jailed: check modules run as this user and see its files", "jail", b.opts.Jail.Describe())
	}
	b.w = w
	b.starts++
	b.opts.Logger.Debug("python check worker started", "python", b.interp.Executable, "jailed", b.Jailed(), "pid", cmd.Process.Pid, "starts", b.starts)
	return nil
}

// hostPath is the absolute path of p with symlinks resolved: the path a
// jail binds, hence the one the worker is given. A path that does not
// resolve is returned absolute (the worker reports it missing).
func hostPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", p, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	return abs, nil
}

// realList resolves the symlinks of every absolute entry of a path list
// (PYTHONPATH) that exists; other entries are kept as they are.
func realList(v string) string {
	parts := filepath.SplitList(v)
	for i, p := range parts {
		if !filepath.IsAbs(p) {
			continue
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			parts[i] = real
		}
	}
	return strings.Join(parts, string(filepath.ListSeparator))
}

// visibleRoots resolves the paths a jailed worker sees on purpose: roots and
// the PYTHONPATH and PYTHONUSERBASE entries of env.
func visibleRoots(roots, env []string) []string {
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == "PYTHONPATH" || k == "PYTHONUSERBASE" {
			roots = append(roots, filepath.SplitList(v)...)
		}
	}
	var out []string
	for _, r := range roots {
		if !filepath.IsAbs(r) {
			continue
		}
		if real, err := filepath.EvalSymlinks(r); err == nil {
			out = append(out, real)
		}
	}
	return out
}

// makeVisible binds the directory of every module req names that a jailed
// worker cannot see (outside Options.ReadOnly: validate's base-revision
// modules in a temporary directory), stopping the running worker so that
// the next start binds it. Each directory costs one restart at most.
func (b *Bridge) makeVisible(req request) {
	if !b.Jailed() {
		return
	}
	paths := []string{req.Path}
	for _, p := range req.Plans {
		paths = append(paths, p.Modules...)
	}
	for _, p := range paths {
		if p == "" || b.sees(p) {
			continue
		}
		dir := filepath.Dir(p)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() || slices.Contains(b.extra, dir) {
			continue
		}
		b.extra = append(b.extra, dir)
		b.visible = append(b.visible, dir)
		if b.w != nil {
			b.opts.Logger.Debug("python check worker restarted to see a module outside the corpus roots", "dir", dir)
			b.w.stop()
			b.w = nil
		}
	}
}

// sees reports whether p lies under a path the worker sees.
func (b *Bridge) sees(p string) bool {
	for _, r := range b.visible {
		if p == r || strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

type timeoutError struct{}

func (*timeoutError) Error() string { return "timed out" }

// worker is one running interpreter.
type worker struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	// stdout is the read end of the worker's stdout pipe; the reader
	// goroutine owns it until stop closes it.
	stdout *os.File
	lines  chan []byte // closed when stdout ends
	// done is closed when the process has exited and its stderr has been
	// read to the end (exec copies cmd.Stderr before Wait returns), so that
	// whoever waits for done reads the whole of stderr.
	done   chan struct{}
	stderr tailBuffer
}

const maxStderr = 4096

// stderrDrain bounds how long Wait keeps reading stderr after the worker has
// exited, for a descendant that still holds it open.
const stderrDrain = 5 * time.Second

// tailBuffer keeps the last maxStderr bytes written to it.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

// Write appends p, keeping the last maxStderr bytes; it never fails.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > maxStderr {
		t.b = append([]byte(nil), t.b[len(t.b)-maxStderr:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// startWorker starts cmd with its stdin, stdout and stderr connected.
//
// Stderr goes to a buffer through cmd.Stderr, not a StderrPipe: exec then
// copies it to EOF before Wait returns, so when done is closed the message
// about a crash can quote everything the worker printed. (With a pipe read by
// a goroutine of our own, Wait may close the pipe before that goroutine has
// read the last bytes: a dying worker's stderr came back empty under load.)
// Stdout is an os.Pipe read to EOF by its own goroutine, which Wait never
// closes under it.
func startWorker(cmd *exec.Cmd) (*worker, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		_ = stdin.Close()
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	w := &worker{cmd: cmd, stdin: stdin, stdout: pr, lines: make(chan []byte, 1), done: make(chan struct{})}
	cmd.Stdout = pw
	cmd.Stderr = &w.stderr
	cmd.WaitDelay = stderrDrain
	err = cmd.Start()
	// The child has its own copy of the write end; ours must go, or the
	// reader never sees EOF.
	_ = pw.Close()
	if err != nil {
		_ = pr.Close()
		return nil, err
	}
	go func() {
		defer close(w.lines)
		r := bufio.NewReaderSize(pr, 64<<10)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 && err == nil {
				w.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		_ = cmd.Wait()
		close(w.done)
	}()
	return w, nil
}

func (w *worker) roundTrip(ctx context.Context, req []byte, timeout time.Duration) ([]byte, error) {
	if _, err := w.stdin.Write(req); err != nil {
		return nil, fmt.Errorf("write request: %w", err)
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case line, ok := <-w.lines:
		if !ok {
			// Stdout ended: wait for the exit and the end of stderr, so
			// the caller's message has all of it.
			select {
			case <-w.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("worker exited: %s", w.cmd.ProcessState)
		}
		return line, nil
	case <-timer.C:
		return nil, &timeoutError{}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// stderrTail is the end of what the worker printed on stderr. It is
// complete once done is closed (after roundTrip reported an exit, or stop).
func (w *worker) stderrTail() string {
	s := strings.TrimSpace(w.stderr.String())
	if s == "" {
		return "(empty)"
	}
	return s
}

// stop kills the worker's whole process group and waits for it.
func (w *worker) stop() {
	_ = w.stdin.Close()
	if w.cmd.Process != nil {
		_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
	}
	<-w.done
	// Unblocks the stdout reader should a process outside the group still
	// hold the write end.
	_ = w.stdout.Close()
}
