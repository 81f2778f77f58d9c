// Package toolchain turns the platform registry into the evaluator's L1 and
// L2: it resolves a case to its target, picks the backend, checks that this
// machine has what the backend needs (skipping with the reason, or failing
// with --require-layers), stages a fresh workspace from the case plus the
// code, and judges runtime output against checks/expected_output.txt. The
// backends themselves live in subpackages; all of them run untrusted code
// through package sandbox.
package toolchain

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
)

// Default time limits. Runs stop at RunTimeout as the seeds describe:
// firmware runs forever, so reaching it is normal.
const (
	DefaultBuildTimeout = 5 * time.Minute
	DefaultRunTimeout   = 10 * time.Second
)

// Request is one build of one case.
type Request struct {
	Case   *cases.Case
	Code   string
	Target platform.Target
	// Board is the case's build_board or the target's default.
	Board                    string
	BuildTimeout, RunTimeout time.Duration
	// CanRun tells the backend whether L2 will be asked for, so it can skip
	// run-only preparation.
	CanRun bool
	// Jobs is how many compiler processes one build may run at once (make
	// -j, ninja -j). The worker pool already runs one build per core, so the
	// default is 1: parallel builds must not oversubscribe the machine.
	Jobs int
	// Jail runs every process of the build and of the run: compilers on
	// model code are as untrusted as the firmware they produce.
	Jail *sandbox.Jail
}

// Availability says what a backend can do on this machine.
type Availability struct {
	Build, Run bool
	// Why names what is missing when Build or Run is false.
	Why string
}

// Backend builds (and runs) cases of the targets that name it.
type Backend interface {
	// Name is the backend's registry name.
	Name() string
	// Available checks this machine for the tools the target needs.
	Available(t platform.Target) Availability
	// Build stages and compiles; on success the Artifact runs L2.
	Build(ctx context.Context, req Request) (result.LayerResult, eval.Artifact)
}

// CaseAware is implemented by a backend whose tools depend on the case as
// well as on the target: the kbuild backend needs kernel headers of the
// case's kernel series. PlanFor asks AvailableFor instead of Available, so
// such a case is skipped (an error under RequireBuild) with the backend's
// reason. Available still answers for the target as a whole (doctor).
type CaseAware interface {
	AvailableFor(t platform.Target, c *cases.Case) Availability
}

// Options configure the dispatcher.
type Options struct {
	BuildTimeout, RunTimeout time.Duration
	// BuildJobs is Request.Jobs for every build (default 1).
	BuildJobs int
	// RequireBuild and RequireRun turn a missing toolchain into an error
	// (layer status error) instead of a skip: CI images use them so that a
	// broken image cannot pass silently.
	RequireBuild, RequireRun bool
	// Jail confines every build and run. Without a usable jail nothing is
	// built or run: L1 and L2 are skipped with the reason (an error under
	// RequireBuild).
	Jail *sandbox.Jail
}

// Dispatcher implements eval.Toolchain over a registry and a set of backends.
type Dispatcher struct {
	reg      *platform.Registry
	backends map[string]Backend
	opts     Options
}

// New returns a dispatcher. Backends are keyed by their Name.
func New(reg *platform.Registry, opts Options, backends ...Backend) *Dispatcher {
	if opts.BuildTimeout <= 0 {
		opts.BuildTimeout = DefaultBuildTimeout
	}
	if opts.RunTimeout <= 0 {
		opts.RunTimeout = DefaultRunTimeout
	}
	if opts.BuildJobs <= 0 {
		opts.BuildJobs = 1
	}
	m := map[string]Backend{}
	for _, b := range backends {
		m[b.Name()] = b
	}
	return &Dispatcher{reg: reg, backends: m, opts: opts}
}

var _ eval.Toolchain = (*Dispatcher)(nil)

// Plan is what the dispatcher would do for a case, for doctor and reports.
type Plan struct {
	Target  platform.Target
	Board   string
	Backend Backend
	Avail   Availability
	// Skip is set when L1 cannot run at all; it says why.
	Skip string
	// RunSkip is set when L2 cannot run; it says why.
	RunSkip string
}

// PlanFor resolves a case.
func (d *Dispatcher) PlanFor(c *cases.Case) Plan {
	t, ok := d.reg.Resolve(c)
	if !ok {
		return Plan{Skip: fmt.Sprintf("no platform target matches sdk %s, platform %s", c.Meta.SDK, c.Meta.Platform)}
	}
	p := Plan{Target: t, Board: t.Board(c)}
	if !t.CanBuild() {
		p.Skip = fmt.Sprintf("platform cannot build: target %s has no L1 (%s answers are checked statically only)", t.Name, platform.OutputKind(c))
		return p
	}
	b, ok := d.backends[t.Backend]
	if !ok {
		p.Skip = fmt.Sprintf("toolchain unavailable: backend %q is not part of this build", t.Backend)
		return p
	}
	p.Backend = b
	if ok, why := d.opts.Jail.Usable(); !ok {
		p.Skip = "jail unavailable: " + why
		return p
	}
	if ca, ok := b.(CaseAware); ok {
		p.Avail = ca.AvailableFor(t, c)
	} else {
		p.Avail = b.Available(t)
	}
	if !p.Avail.Build {
		p.Skip = "toolchain unavailable: " + p.Avail.Why
		return p
	}
	switch {
	case !t.CanRun(p.Board):
		p.RunSkip = fmt.Sprintf("platform cannot run: board %s is not runnable by target %s", p.Board, t.Name)
	case !p.Avail.Run:
		p.RunSkip = "toolchain unavailable: " + p.Avail.Why
	}
	return p
}

// Build implements eval.Toolchain.
func (d *Dispatcher) Build(ctx context.Context, c *cases.Case, code string) (result.LayerResult, eval.Artifact) {
	p := d.PlanFor(c)
	if p.Skip != "" {
		// A target without L1 by design (udev rules) is not a missing
		// toolchain; anything else is, when L1 is required.
		if d.opts.RequireBuild && (p.Target.Name == "" || p.Target.CanBuild()) {
			return ErrorLayer("L1 is required (--require-layers) but " + p.Skip), nil
		}
		return result.LayerResult{Status: result.StatusSkipped, Reason: p.Skip}, nil
	}
	lr, art := p.Backend.Build(ctx, Request{Case: c, Code: code, Target: p.Target, Board: p.Board,
		BuildTimeout: d.opts.BuildTimeout, RunTimeout: d.opts.RunTimeout, CanRun: p.RunSkip == "", Jobs: d.opts.BuildJobs, Jail: d.opts.Jail})
	if lr.Status == result.StatusSkipped && d.opts.RequireBuild {
		// A backend that finds out only while building that a tool of the
		// case is missing skips; a required L1 makes that an error too.
		if art != nil {
			_ = art.Close()
		}
		return ErrorLayer("L1 is required (--require-layers) but " + lr.Reason), nil
	}
	where := fmt.Sprintf("%s for %s (target %s)", p.Backend.Name(), p.Board, p.Target.Name)
	if lr.Status == result.StatusPassed && lr.Reason == "" {
		lr.Reason = "built by " + where
	}
	if art == nil {
		return lr, nil
	}
	if p.RunSkip != "" {
		if d.opts.RequireRun && p.Target.CanRun(p.Board) {
			return lr, skipRun{Artifact: art, lr: ErrorLayer("L2 is required (--require-layers) but " + p.RunSkip)}
		}
		return lr, skipRun{Artifact: art, lr: result.LayerResult{Status: result.StatusSkipped, Reason: p.RunSkip}}
	}
	return lr, labelledRun{Artifact: art, where: where}
}

// labelledRun says on a passing L2 where it ran.
type labelledRun struct {
	eval.Artifact
	where string
}

func (l labelledRun) Run(ctx context.Context) result.LayerResult {
	lr := l.Artifact.Run(ctx)
	if lr.Status == result.StatusPassed && lr.Reason == "" {
		lr.Reason = "ran " + l.where
	}
	return lr
}

// skipRun keeps a build's cleanup but answers L2 with a fixed outcome.
type skipRun struct {
	eval.Artifact
	lr result.LayerResult
}

func (s skipRun) Run(context.Context) result.LayerResult { return s.lr }

// SemihostingRefusal is the L2 result of a firmware run asked for without a
// jail: QEMU's semihosting gives the firmware the host's files and a shell
// (SYS_SYSTEM), so it runs only confined, whatever --allow-unjailed says.
// It is nil when the jail confines.
func SemihostingRefusal(j *sandbox.Jail) *result.LayerResult {
	if j.MayRunSemihosting() {
		return nil
	}
	lr := result.LayerResult{Status: result.StatusSkipped, Reason: "jail unavailable: QEMU with semihosting runs only in a jail (bubblewrap or a dedicated uid), never unconfined"}
	return &lr
}

// ErrorLayer is a layer result with status error: the layer could not give
// a verdict for a reason of ours, never the code's.
func ErrorLayer(msg string) result.LayerResult {
	return result.LayerResult{Status: result.StatusError, Error: result.Ptr(msg)}
}

// BuildOnly is the Artifact of a target without L2: it keeps the build until
// Close and answers Run with a skip that says why.
type BuildOnly struct {
	Workspace *sandbox.Workspace
	// Why completes "platform cannot run: ".
	Why string
}

// Run reports the skip.
func (b *BuildOnly) Run(context.Context) result.LayerResult {
	return result.LayerResult{Status: result.StatusSkipped, Reason: "platform cannot run: " + b.Why}
}

// Close removes the workspace.
func (b *BuildOnly) Close() error { return b.Workspace.Close() }

// ExpectedOutput reads checks/expected_output.txt: its non-empty lines, each
// a keyword the run's output must contain. A case without the file has none.
func ExpectedOutput(c *cases.Case) ([]string, error) {
	if c.ExpectedOutputPath == "" {
		return nil, nil
	}
	data, err := cases.ReadFile(c.ExpectedOutputPath)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", c.ExpectedOutputPath, err)
	}
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out, nil
}

// crashMarkers are output lines that mean the program faulted, whatever the
// expected lines say.
func crashMarkers() []string {
	return []string{
		">>> ZEPHYR FATAL ERROR", "Segmentation fault", "Kernel panic", "HardFault", "Hard fault",
		"AddressSanitizer", "Guru Meditation Error", "*** stack smashing detected ***", "Aborted (core dumped)",
		"qemu: fatal", "Assertion failed",
	}
}

// RunOutcome is what a run left for judging.
type RunOutcome struct {
	// Output is everything the run printed (standard output only when
	// Separate).
	Output []byte
	// Stderr is standard error when Separate.
	Stderr []byte
	// Separate tells that standard error was kept apart.
	Separate bool
	// ExitCode is the program's exit code when it ended by itself.
	ExitCode int
	// Exited is true when the program ended before the run timeout.
	Exited bool
	// Stopped is true when the run was ended early because a scenario's
	// expectations were met.
	Stopped bool
	// Signal names a signal that killed it (not our timeout).
	Signal string
	// Limit names the jail limit that stopped it (workspace disk use).
	Limit string
	// Timeout is the limit the run had, for messages.
	Timeout time.Duration
}

// OutcomeOf turns a sandbox result into a RunOutcome.
func OutcomeOf(res sandbox.Result, timeout time.Duration, separate bool) RunOutcome {
	out := RunOutcome{Output: res.Output, Stderr: res.Stderr, Separate: separate, Exited: !res.TimedOut && !res.Stopped,
		Stopped: res.Stopped, Limit: res.Limit, Timeout: timeout}
	if out.Exited {
		out.ExitCode, out.Signal = res.ExitCode, res.Signal
	}
	return out
}

// crashOf says why a run counts as a crash, or "": a fault marker in its
// output, a jail limit, a fatal signal. A non-zero exit is judged apart.
func crashOf(out RunOutcome) string {
	text := string(out.Output) + string(out.Stderr)
	for _, m := range crashMarkers() {
		if strings.Contains(text, m) {
			return fmt.Sprintf("output contains %q", m)
		}
	}
	switch {
	case out.Limit != "":
		return "stopped by the jail: " + out.Limit
	case out.Signal != "":
		return "killed by signal " + out.Signal
	}
	return ""
}

// judgeDefault returns the default run's check records, the seeds' L2
// verdict: the run is stopped at its timeout (normal for firmware), each
// expected line must appear in the output, and a crash, a fault, a non-zero
// exit or a fatal signal fails. Two records are returned:
// runtime_no_crash and, when lines are expected, runtime_expected_output. A
// run still going at its timeout without the expected output is reported as
// hung, and runtime_no_crash then fails too: a hang is not a clean run.
func judgeDefault(out RunOutcome, expected []string) []result.CheckDetail {
	text := string(out.Output) + string(out.Stderr)
	crash := crashOf(out)
	if crash == "" && out.Exited && out.ExitCode != 0 {
		crash = fmt.Sprintf("exited with status %d", out.ExitCode)
	}
	var missing []string
	for _, e := range expected {
		if !strings.Contains(text, e) {
			missing = append(missing, e)
		}
	}
	if crash == "" && !out.Exited && !out.Stopped && len(missing) > 0 {
		crash = "hung: still running at the run timeout"
		if out.Timeout > 0 {
			crash = fmt.Sprintf("hung: still running at the %s run timeout", out.Timeout)
		}
		crash += " without the expected output"
	}
	actualCrash := "no crash"
	if crash != "" {
		actualCrash = crash
	}
	details := []result.CheckDetail{{
		CheckName: "runtime_no_crash", Passed: crash == "", Expected: result.Ptr("runs without a fault, a fatal signal, a non-zero exit or a hang"),
		Actual: result.Ptr(actualCrash), CheckType: "runtime", Weight: 1,
	}}
	if len(expected) > 0 {
		actual := "all present"
		if len(missing) > 0 {
			actual = "missing: " + strings.Join(missing, " | ")
		}
		details = append(details, result.CheckDetail{
			CheckName: "runtime_expected_output", Passed: len(missing) == 0, Expected: result.Ptr(strings.Join(expected, " | ")),
			Actual: result.Ptr(actual), CheckType: "runtime", Weight: 1,
		})
	}
	return details
}

// layerOf is the L2 layer of a set of runtime records: failed when one
// failed, with their messages as the reason.
func layerOf(details []result.CheckDetail) result.LayerResult {
	lr := result.LayerResult{Status: result.StatusPassed, Details: details}
	var why []string
	for _, d := range details {
		if d.Failed() {
			switch d.CheckName {
			case "runtime_no_crash":
				why = append(why, *d.Actual)
			case "runtime_expected_output":
				why = append(why, "expected output "+*d.Actual)
			default:
				why = append(why, d.CheckName+": "+*d.Actual)
			}
		}
	}
	if len(why) > 0 {
		lr.Status = result.StatusFailed
		lr.Reason = strings.Join(why, "; ")
	}
	return lr
}

// TargetStatus says what this machine can do for one registry target.
type TargetStatus struct {
	Target   string `json:"target"`
	Backend  string `json:"backend"`
	Image    string `json:"image"`
	CanBuild bool   `json:"can_build"`
	CanRun   bool   `json:"can_run"`
	// Why explains every "no".
	Why string `json:"why,omitempty"`
}

// Jail is the jail every build and run of the dispatcher goes through.
func (d *Dispatcher) Jail() *sandbox.Jail { return d.opts.Jail }

// Doctor reports, for every target of the registry in order, whether this
// machine can build and run it, and why not.
func (d *Dispatcher) Doctor() []TargetStatus {
	var out []TargetStatus
	jailOK, jailWhy := d.opts.Jail.Usable()
	for _, t := range d.reg.Targets {
		st := TargetStatus{Target: t.Name, Backend: t.Backend, Image: t.Image}
		b, ok := d.backends[t.Backend]
		switch {
		case !t.CanBuild():
			st.Why = "no L1 for this target (checked statically only)"
		case !ok:
			st.Why = fmt.Sprintf("backend %q is not part of this build", t.Backend)
		case !jailOK:
			st.Why = "jail unavailable: " + jailWhy
		default:
			av := b.Available(t)
			st.CanBuild = av.Build
			st.CanRun = av.Build && av.Run && len(t.RunBoards) > 0
			switch {
			case !av.Build || (!av.Run && len(t.RunBoards) > 0):
				st.Why = av.Why
			case len(t.RunBoards) == 0:
				st.Why = "L1 only: no runnable board for this target"
				if av.Why != "" {
					// What was found (the kernel header series, say).
					st.Why += "; " + av.Why
				}
			}
		}
		out = append(out, st)
	}
	return out
}
