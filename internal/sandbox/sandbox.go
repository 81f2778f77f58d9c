// Package sandbox runs untrusted builds and programs: model output compiled by
// a toolchain, and the firmware it produces. Every process gets an
// allowlisted environment (no API keys, tokens or GITHUB_* variables), its own
// process group that is killed as a whole on timeout or cancellation, an
// output cap so a flood cannot exhaust memory, and a temporary workspace that
// is removed afterwards. It knows nothing about platforms or cases.
package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// DefaultMaxOutput is how many bytes of a process's combined output are kept.
const DefaultMaxOutput = 1 << 20

// outputGrace is how long a run waits for its output pipe to close after
// its leader has exited.
const outputGrace = 500 * time.Millisecond

// killGrace is how long a timed-out process group gets between SIGTERM and
// SIGKILL.
const killGrace = 500 * time.Millisecond

// Spec describes one process to run.
type Spec struct {
	// Args is the command line; Args[0] is looked up in the PATH of Env.
	Args []string
	// Dir is the working directory.
	Dir string
	// Env is the complete environment (build it with Env).
	Env []string
	// Workspace is the only directory a jailed process may write; empty
	// means Dir.
	Workspace string
	// ReadOnly lists host paths the process must see (read-only) besides
	// the system trees and the paths named in Env and Args, which a jail
	// binds on its own.
	ReadOnly []string
	// Timeout bounds the run; zero means no limit beyond ctx.
	Timeout time.Duration
	// MaxOutput caps the kept output (stdout and stderr interleaved); zero
	// means DefaultMaxOutput. The rest is read and dropped.
	MaxOutput int
	// Stdin, when non-nil, is written to the process's standard input,
	// which is then closed; nil gives it no input (/dev/null).
	Stdin []byte
	// StdinWhen, when set, holds Stdin back until it answers true for the
	// output kept so far (a firmware's "ready" banner): input sent before a
	// program can read it would test its start-up, not its behaviour. If
	// it never answers true, the process sees no input and no end of file.
	StdinWhen func(output []byte) bool
	// SeparateStderr keeps standard error apart: Result.Output then holds
	// standard output only and Result.Stderr standard error (each capped
	// at MaxOutput).
	SeparateStderr bool
	// Until, when set, is asked every 20 ms, while the output grows, with
	// the output kept so far (Result.Output's head); once it answers true
	// the process group is stopped as on a timeout and Result.Stopped is
	// set. It must not keep the slice.
	Until func(output []byte) bool
}

// Result is what a finished process left behind.
type Result struct {
	// ExitCode is the exit status, or -1 when the process was killed by a signal.
	ExitCode int
	// Signal names the signal that ended the process, if any.
	Signal string
	// TimedOut is set when the Timeout stopped the process (its group was
	// killed).
	TimedOut bool
	// Cancelled is set when ctx was cancelled first.
	Cancelled bool
	// Output is the combined output, at most MaxOutput bytes (the head, and
	// the tail past the cap when Truncated); standard output only under
	// Spec.SeparateStderr.
	Output []byte
	// Stderr is standard error under Spec.SeparateStderr, else empty.
	Stderr []byte
	// Stopped is set when Spec.Until ended the run (its group was killed).
	Stopped bool
	// Truncated tells that output past MaxOutput was dropped.
	Truncated bool
	// Duration is the wall time.
	Duration time.Duration
	// Limit names the jail limit that stopped the run (workspace disk use),
	// if one did; the process was killed.
	Limit string
}

// OK reports a clean zero exit.
func (r Result) OK() bool { return r.ExitCode == 0 && !r.TimedOut && !r.Cancelled }

// ErrNotFound is returned (wrapped) when the command does not exist.
var ErrNotFound = errors.New("command not found")

// runOptions are what a Jail adds to a run.
type runOptions struct {
	// uid, when > 0 and workspace is set, is the uid and gid the process
	// runs as.
	uid int
	// workspace is watched against limits.Disk while the process runs.
	workspace string
	limits    Limits
	// extraFiles are passed to the process as fds 3, 4, …
	extraFiles []*os.File
}

// run starts the process in its own process group and waits for it. The
// error is non-nil only when the process could not be started (ErrNotFound
// for a missing command); a failing or killed process is a Result.
func run(ctx context.Context, spec Spec, opts runOptions) (Result, error) {
	if len(spec.Args) == 0 {
		return Result{}, errors.New("sandbox: empty command line")
	}
	path, err := lookPath(spec.Args[0], spec.Dir, spec.Env)
	if err != nil {
		return Result{}, err
	}
	maxOut := spec.MaxOutput
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	out := &cappedBuffer{limit: maxOut}
	var satisfied, stdinReady chan struct{}
	if spec.Until != nil {
		satisfied = make(chan struct{})
	}
	errOut := out
	if spec.SeparateStderr {
		errOut = &cappedBuffer{limit: maxOut}
	}
	cmd := exec.Command(path, spec.Args[1:]...)
	cmd.Args[0] = spec.Args[0]
	cmd.Dir = spec.Dir
	cmd.Env = spec.Env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	cmd.Stdin = nil
	var stdinW *os.File
	switch {
	case spec.Stdin != nil && spec.StdinWhen != nil:
		// A pipe of our own, written once the output says so; the child
		// gets its read end directly, so Wait never waits for our writer.
		r, w, err := os.Pipe()
		if err != nil {
			return Result{}, fmt.Errorf("sandbox: stdin pipe: %w", err)
		}
		defer r.Close()
		defer w.Close()
		cmd.Stdin, stdinW = r, w
		stdinReady = make(chan struct{})
	case spec.Stdin != nil:
		cmd.Stdin = bytes.NewReader(spec.Stdin)
	}
	cmd.Stdout = out
	cmd.Stderr = errOut
	// A descendant that left the process group (setsid) may hold the output
	// pipe open after the leader exits: stop waiting for it after a grace
	// period (a jail then kills it).
	cmd.WaitDelay = outputGrace
	cmd.ExtraFiles = opts.extraFiles
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if opts.workspace != "" && opts.uid > 0 {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(opts.uid), Gid: uint32(opts.uid), Groups: []uint32{}}
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{}, fmt.Errorf("sandbox: start %s: %w", spec.Args[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	finished := make(chan struct{})
	defer close(finished)
	if stdinW != nil {
		go feedWhenReady(stdinW, spec.Stdin, stdinReady, finished)
	}
	if satisfied != nil || stdinReady != nil {
		var when func([]byte) bool
		if stdinReady != nil {
			when = spec.StdinWhen
		}
		go watchOutput(out, spec.Until, when, satisfied, stdinReady, finished)
	}

	var timeout <-chan time.Time
	if spec.Timeout > 0 {
		t := time.NewTimer(spec.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	var overLimit <-chan string
	if opts.workspace != "" && opts.limits.Disk > 0 {
		watchCtx, stopWatch := context.WithCancel(ctx)
		defer stopWatch()
		overLimit = watchDisk(watchCtx, opts.workspace, opts.limits)
	}
	res := Result{}
	var waitErr error
	select {
	case waitErr = <-done:
	case <-timeout:
		res.TimedOut = true
		waitErr = killGroup(cmd.Process.Pid, done)
	case <-ctx.Done():
		res.Cancelled = true
		waitErr = killGroup(cmd.Process.Pid, done)
	case <-satisfied:
		res.Stopped = true
		waitErr = killGroup(cmd.Process.Pid, done)
	case res.Limit = <-overLimit:
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		waitErr = <-done
	}
	// Whatever the leader did, no member of its group outlives the run.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	res.Duration = time.Since(start)
	res.Output, res.Truncated = out.bytes()
	if spec.SeparateStderr {
		var errTruncated bool
		res.Stderr, errTruncated = errOut.bytes()
		res.Truncated = res.Truncated || errTruncated
	}
	res.ExitCode = 0
	if errors.Is(waitErr, exec.ErrWaitDelay) && cmd.ProcessState != nil {
		// The leader exited; only a stray descendant held the output open.
		waitErr = nil
		if !cmd.ProcessState.Success() {
			waitErr = &exec.ExitError{ProcessState: cmd.ProcessState}
		}
	}
	if waitErr != nil {
		var ee *exec.ExitError
		if errors.As(waitErr, &ee) {
			res.ExitCode = ee.ExitCode()
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				res.Signal = ws.Signal().String()
			}
		} else {
			res.ExitCode = -1
		}
	}
	return res, nil
}

// killGroup asks the whole process group to stop, then kills it, and waits
// for the leader.
func killGroup(pid int, done <-chan error) error {
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case err := <-done:
		return err
	case <-time.After(killGrace):
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	return <-done
}

// lookPath resolves a command in the PATH of env (not of this process); a
// relative path with a slash is taken from dir.
func lookPath(name, dir string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
		return "", fmt.Errorf("sandbox: %s: %w", name, ErrNotFound)
	}
	for _, dir := range filepath.SplitList(envValue(env, "PATH")) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("sandbox: %s: %w (PATH=%s)", name, ErrNotFound, envValue(env, "PATH"))
}

func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// cappedBuffer keeps the first half of the limit and the last half, so both
// the first errors and the end of a long log survive.
type cappedBuffer struct {
	mu      sync.Mutex
	limit   int
	head    bytes.Buffer
	tail    []byte
	dropped bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)

	headCap := b.limit / 2
	if room := headCap - b.head.Len(); room > 0 {
		take := min(room, len(p))
		b.head.Write(p[:take])
		p = p[take:]
	}
	if len(p) == 0 {
		return n, nil
	}
	tailCap := b.limit - headCap
	b.tail = append(b.tail, p...)
	if len(b.tail) > tailCap {
		b.dropped = true
		b.tail = append(b.tail[:0], b.tail[len(b.tail)-tailCap:]...)
	}
	return n, nil
}

// outputPoll is how often a run's output is shown to Spec.Until and
// Spec.StdinWhen: polling bounds their cost (a firmware writing its UART a
// byte at a time would otherwise have them rescan the output per byte) and
// keeps them off the writer's path.
const outputPoll = 20 * time.Millisecond

// ask calls f with the head kept so far and its length, under the lock.
func (b *cappedBuffer) ask(f func([]byte) bool) (bool, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return f(b.head.Bytes()), b.head.Len()
}

// headLen is the length of the head kept so far.
func (b *cappedBuffer) headLen() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.head.Len()
}

// watchOutput polls out until stop: it closes stdinReady once stdinWhen
// accepts the output and satisfied once until does (either may be nil),
// asking only when the output has grown.
func watchOutput(out *cappedBuffer, until, stdinWhen func([]byte) bool, satisfied, stdinReady chan struct{}, stop <-chan struct{}) {
	t := time.NewTicker(outputPoll)
	defer t.Stop()
	seen := -1
	for until != nil || stdinWhen != nil {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		if n := out.headLen(); n == seen {
			continue
		}
		if stdinWhen != nil {
			if ok, n := out.ask(stdinWhen); ok {
				close(stdinReady)
				stdinWhen = nil
			} else {
				seen = n
			}
		}
		if until != nil {
			if ok, n := out.ask(until); ok {
				close(satisfied)
				until = nil
			} else {
				seen = n
			}
		}
	}
}

// feedWhenReady writes data to w and closes it once ready is closed, or
// just closes it when the run has finished first.
func feedWhenReady(w *os.File, data []byte, ready, finished <-chan struct{}) {
	select {
	case <-ready:
		_, _ = w.Write(data) // a process that stopped reading is judged by its output
	case <-finished:
	}
	w.Close()
}

func (b *cappedBuffer) bytes() ([]byte, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := append([]byte(nil), b.head.Bytes()...)
	if b.dropped {
		out = append(out, []byte("\n[... output truncated ...]\n")...)
	}
	return append(out, b.tail...), b.dropped
}
