package toolchain

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/scenario"
)

func scenarioCase(t *testing.T, expected string, scenarios map[string]string) *cases.Case {
	t.Helper()
	dir := t.TempDir()
	c := &cases.Case{Entry: cases.Entry{Dir: dir}}
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "checks", "scenarios"), 0o755))
	if expected != "" {
		c.ExpectedOutputPath = filepath.Join(dir, "checks", "expected_output.txt")
		require.NoError(t, os.WriteFile(c.ExpectedOutputPath, []byte(expected), 0o644))
	}
	for name, text := range scenarios {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "checks", "scenarios", name+".yaml"), []byte(text), 0o644))
	}
	return c
}

// TestRunPlanSharesRuns proves which runs boot the firmware: the default
// run once, scenarios without inputs of their own on its outcome, and each
// scenario with stdin, a timeout or an early stop on a run of its own.
func TestRunPlanSharesRuns(t *testing.T) {
	c := scenarioCase(t, "ready\n", map[string]string{
		"a_output_only": "description: a\nexpect: {output: {lines: [ready]}}\n",
		"b_output_only": "description: b\nexpect: {output: {absent: [panic]}}\n",
		"c_uart":        "description: c\nstdin: \"x\\n\"\nexpect: {output: {contains: [\"got x\"]}}\n",
		"d_early":       "description: d\nstop_when_met: true\nexpect: {output: {lines: [ready]}}\n",
	})
	plan, err := LoadRunPlan(c, true)
	require.NoError(t, err)
	var runs []string
	lr := plan.Run(context.Background(), func(_ context.Context, sc *scenario.Scenario) (RunOutcome, *result.LayerResult) {
		name, out := "default", "ready\n"
		if sc != nil {
			name = sc.Name
			if sc.Stdin != nil {
				out += "got " + string(sc.Stdin)
			}
		}
		runs = append(runs, name)
		return RunOutcome{Output: []byte(out), Timeout: time.Second}, nil
	})
	require.Equal(t, []string{"default", "c_uart", "d_early"}, runs)
	require.Equal(t, result.StatusPassed, lr.Status, lr.Reason)
	var names []string
	for _, d := range lr.Details {
		names = append(names, d.CheckName)
	}
	require.Equal(t, []string{"runtime_no_crash", "runtime_expected_output", "scenario_a_output_only", "scenario_b_output_only", "scenario_c_uart", "scenario_d_early"}, names)
}

func TestRunPlanWithoutExpectedOutputRunsOnlyScenarios(t *testing.T) {
	c := scenarioCase(t, "", map[string]string{"only": "description: o\nexpect: {exit_code: 0}\n"})
	plan, err := LoadRunPlan(c, false)
	require.NoError(t, err)
	calls := 0
	lr := plan.Run(context.Background(), func(_ context.Context, sc *scenario.Scenario) (RunOutcome, *result.LayerResult) {
		calls++
		require.NotNil(t, sc, "no default run: the case has no expected_output.txt")
		return RunOutcome{Exited: true, ExitCode: 2}, nil
	})
	require.Equal(t, 1, calls)
	require.Equal(t, result.StatusFailed, lr.Status)
	require.Equal(t, "scenario_only: exit status 2, want 0", lr.Reason)

	// An error of ours stops L2 with that error.
	lr = plan.Run(context.Background(), func(context.Context, *scenario.Scenario) (RunOutcome, *result.LayerResult) {
		e := ErrorLayer("qemu-system-arm: cancelled")
		return RunOutcome{}, &e
	})
	require.Equal(t, result.StatusError, lr.Status)
}

func TestLoadRunPlanRefusesProgramInputsForFirmware(t *testing.T) {
	c := scenarioCase(t, "", map[string]string{"args": "description: a\nargs: [x]\nexpect: {output: {contains: [x]}}\n"})
	_, err := LoadRunPlan(c, true)
	require.ErrorContains(t, err, "args.yaml: args is for programs")
	_, err = LoadRunPlan(c, false)
	require.NoError(t, err)

	bad := scenarioCase(t, "", map[string]string{"bad": "description: d\nexpect:\n  output: {nope: 1}\n"})
	_, err = LoadRunPlan(bad, false)
	require.ErrorContains(t, err, "bad.yaml:3:")
}

func TestQEMUStartFailure(t *testing.T) {
	refused := sandbox.Result{ExitCode: 1, Output: []byte("qemu-system-arm: unsupported machine type\nUse -machine help to list supported machines\n")}
	require.True(t, QEMUStartFailure(refused))
	for name, res := range map[string]sandbox.Result{
		"firmware spoke first": {ExitCode: 1, Output: []byte("boot\nqemu-system-arm: something\n")},
		"clean exit":           {ExitCode: 0, Output: refused.Output},
		"timed out":            {ExitCode: 1, TimedOut: true, Output: refused.Output},
		"killed":               {ExitCode: -1, Signal: "killed", Output: refused.Output},
	} {
		require.False(t, QEMUStartFailure(res), name)
	}
}
