package toolchain

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/scenario"
)

// RunFunc runs a built program or firmware once. sc is nil for the default
// run (no input, the run timeout); otherwise the backend gives the run the
// scenario's inputs, keeps standard error apart when
// sc.NeedsSeparateStreams(), stops it when sc.StopWhenMet and sc.Met say
// so, and uses sc.Timeout when set. A non-nil layer result means the run
// could not happen for a reason of ours (it becomes L2's result).
type RunFunc func(ctx context.Context, sc *scenario.Scenario) (RunOutcome, *result.LayerResult)

// RunPlan is what L2 runs for a case: the default run, judged against
// checks/expected_output.txt, and the scenarios of checks/scenarios/.
type RunPlan struct {
	Expected  []string
	Scenarios []scenario.Scenario
	// Firmware is set for emulated boards: runs never end by themselves
	// and scenarios may give only standard input (the UART).
	Firmware bool
}

// LoadRunPlan reads the case's expected output and scenarios. A problem in
// a scenario file is an error naming the file and line (validate reports
// the same before any run).
func LoadRunPlan(c *cases.Case, firmware bool) (RunPlan, error) {
	expected, err := ExpectedOutput(c)
	if err != nil {
		return RunPlan{}, err
	}
	scs, problems := scenario.Load(c.Dir)
	if len(problems) > 0 {
		return RunPlan{}, fmt.Errorf("%s", problems[0].String())
	}
	if firmware {
		for _, s := range scs {
			if f := s.ProgramOnly(); f != "" {
				return RunPlan{}, fmt.Errorf("%s: %s is for programs; a firmware scenario gives only stdin (the UART) and judges expect.output and expect.exit_code [%s]", s.Path, f, scenario.Rule)
			}
		}
	}
	return RunPlan{Expected: expected, Scenarios: scs, Firmware: firmware}, nil
}

// defaultRun reports whether the plan has the default run: when the case
// has expected lines, or no scenario to run instead.
func (p RunPlan) defaultRun() bool { return len(p.Expected) > 0 || len(p.Scenarios) == 0 }

// runKey identifies runs that would be the same: a scenario without inputs
// of its own reuses the default run's outcome (or another such scenario's)
// instead of booting the firmware again.
func runKey(sc *scenario.Scenario) string {
	if sc == nil {
		return "default"
	}
	if sc.StopWhenMet {
		return "" // its own run, stopped on its own expectations
	}
	if sc.Stdin != nil || len(sc.Args) > 0 || len(sc.Env) > 0 || len(sc.Files) > 0 || sc.Timeout != 0 || sc.NeedsSeparateStreams() {
		return ""
	}
	return "default"
}

// Run executes the plan with run and judges every run: the default run's
// runtime_no_crash and runtime_expected_output records, then one
// scenario_<name> record per scenario. L2 fails when any record fails.
func (p RunPlan) Run(ctx context.Context, run RunFunc) result.LayerResult {
	outcomes := map[string]RunOutcome{}
	do := func(sc *scenario.Scenario) (RunOutcome, *result.LayerResult) {
		key := runKey(sc)
		if o, ok := outcomes[key]; ok && key != "" {
			return o, nil
		}
		o, fail := run(ctx, sc)
		if fail == nil && key != "" {
			outcomes[key] = o
		}
		return o, fail
	}
	var details []result.CheckDetail
	if p.defaultRun() {
		o, fail := do(nil)
		if fail != nil {
			return *fail
		}
		details = append(details, judgeDefault(o, p.Expected)...)
	}
	for i := range p.Scenarios {
		sc := &p.Scenarios[i]
		o, fail := do(sc)
		if fail != nil {
			return *fail
		}
		details = append(details, sc.Judge(scenario.Outcome{
			Output: append(append([]byte(nil), o.Output...), o.Stderr...), Stdout: o.Output, Stderr: o.Stderr, Separate: o.Separate,
			Firmware: p.Firmware, Exited: o.Exited, ExitCode: o.ExitCode, Signal: o.Signal, Stopped: o.Stopped,
			Timeout: o.Timeout, Crash: crashOf(RunOutcome{Output: o.Output, Stderr: o.Stderr, Limit: o.Limit}),
		}))
	}
	return layerOf(details)
}

// StageScenario makes a fresh directory for a program's scenario run inside
// the workspace at wsDir and writes the scenario's input files there,
// refusing to follow any link; it returns the directory. The directory's
// name is random, so an earlier run's program cannot have prepared it.
func StageScenario(wsDir string, sc *scenario.Scenario) (string, error) {
	dir, err := os.MkdirTemp(wsDir, "scenario-"+sc.Name+"-")
	if err != nil {
		return "", fmt.Errorf("scenario %s: make its directory: %w", sc.Name, err)
	}
	for _, rel := range sc.SortedFiles() {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if !strings.HasPrefix(p, dir+string(filepath.Separator)) {
			return "", fmt.Errorf("scenario %s: file %q leaves its directory", sc.Name, rel)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", fmt.Errorf("scenario %s: file %s: %w", sc.Name, rel, err)
		}
		if err := writeNew(p, sc.Files[rel]); err != nil {
			return "", fmt.Errorf("scenario %s: file %s: %w", sc.Name, rel, err)
		}
	}
	return dir, nil
}

// writeNew creates p, which must not exist yet, and writes data to it.
func writeNew(p string, data []byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WithScenario returns spec with what a scenario gives every kind of run:
// its standard input (the console UART of a firmware), held back until the
// output shows stdin_after when the scenario sets it, its timeout when it
// sets one, and the early stop of a StopWhenMet scenario. A nil scenario
// (the default run) leaves spec as it is.
func WithScenario(spec sandbox.Spec, sc *scenario.Scenario) sandbox.Spec {
	if sc == nil {
		return spec
	}
	spec.Stdin = sc.Stdin
	if after := sc.StdinAfter; after != "" {
		spec.StdinWhen = func(out []byte) bool { return bytes.Contains(out, []byte(after)) }
	}
	if sc.Timeout > 0 {
		spec.Timeout = sc.Timeout
	}
	if sc.StopWhenMet {
		spec.Until = sc.Met
	}
	return spec
}

// RunQEMU runs a qemu-system-arm command line (spec) in the jail and
// returns its outcome. Cancellation and QEMU refusing to start the firmware
// (QEMUStartFailure) are errors of ours, never the firmware's.
func RunQEMU(ctx context.Context, jail *sandbox.Jail, spec sandbox.Spec) (RunOutcome, *result.LayerResult) {
	fail := func(lr result.LayerResult) (RunOutcome, *result.LayerResult) { return RunOutcome{}, &lr }
	res, err := jail.Run(ctx, spec)
	if err != nil {
		return fail(StartError("qemu-system-arm", err))
	}
	if res.Cancelled {
		return fail(ErrorLayer("qemu-system-arm: cancelled"))
	}
	if QEMUStartFailure(res) {
		return fail(ErrorLayer(fmt.Sprintf("qemu-system-arm did not start the firmware (exit %d): %s", res.ExitCode, strings.TrimSpace(string(res.Output)))))
	}
	return OutcomeOf(res, spec.Timeout, false), nil
}

// QEMUStartFailure reports whether a run that ended by itself with a
// non-zero status began with QEMU's own diagnostic ("qemu-system-arm:
// unsupported machine type", "could not load kernel"): QEMU refused to start
// the firmware, which is ours to fix, not the firmware's. (A firmware
// printing that very line first could pass its crash off as an error; it
// would gain nothing but a run left out of the score.)
func QEMUStartFailure(res sandbox.Result) bool {
	if res.TimedOut || res.Stopped || res.ExitCode == 0 || res.Signal != "" {
		return false
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(res.Output)), "\n")
	return strings.HasPrefix(first, "qemu-system-arm: ")
}
