package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func parse(t *testing.T, name, text string) (Scenario, string) {
	t.Helper()
	s, ps := Parse(filepath.Join("case", "checks", "scenarios", name+".yaml"), []byte(text))
	if len(ps) > 0 {
		return s, ps[0].String()
	}
	return s, ""
}

func TestParseReadsEveryField(t *testing.T) {
	s, problem := parse(t, "rounding_01", `
description: rounds toward zero
requirement: "truncated toward zero (not rounded)"
args: ["-v", "in.txt"]
env: {MODE: fast}
stdin: "x\n"
files:
  in.txt: "48299\n"
  sub/dir/f: ""
timeout: 2s
runs_forever: true
stop_when_met: true
expect:
  exit_code: 0
  stdout:
    lines: ["temperature: 48.2 C"]
    patterns:
      - match: 'temperature: (?P<t>-?[0-9.]+) C'
        values: {t: {near: 48.2, tolerance: 0.01}, "1": {min: 0}}
        every: true
        count: 1
  stderr: {empty: true}
`)
	require.Empty(t, problem)
	require.Equal(t, "scenario_rounding_01", s.CheckName())
	require.Equal(t, []string{"-v", "in.txt"}, s.Args)
	require.Equal(t, []string{"MODE=fast"}, s.SortedEnv())
	require.Equal(t, []string{"in.txt", "sub/dir/f"}, s.SortedFiles())
	require.Equal(t, "x\n", string(s.Stdin))
	require.Equal(t, 2*time.Second, s.Timeout)
	require.True(t, s.RunsForever && s.StopWhenMet && s.NeedsSeparateStreams())
	require.Equal(t, "args", s.ProgramOnly())
	require.Len(t, s.Expect.Stdout.Patterns, 1)
	require.Equal(t, 0.01, s.Expect.Stdout.Patterns[0].Values["t"].Tolerance)
}

func TestParseProblemsNameTheLine(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"unknown_key", "description: d\nexpect:\n  exit_code: 0\n  stdot: {empty: true}\n", ":4: yaml: unmarshal errors:\n  line 4: field stdot not found"},
		{"bad_regex", "description: d\nexpect:\n  output:\n    patterns:\n      - match: '(['\n", ":4: expect.output: pattern 1"},
		{"unknown_group", "description: d\nexpect:\n  output:\n    patterns:\n      - match: 'a (b)'\n        values: {x: {equals: b}}\n", `values names group "x"`},
		{"escaping_file", "description: d\nfiles:\n  ../evil: x\nexpect: {exit_code: 0}\n", `:3: files: "../evil" must be a clean relative path`},
		{"absolute_file", "description: d\nfiles:\n  /etc/passwd: x\nexpect: {exit_code: 0}\n", "must be a clean relative path"},
		{"reserved_env", "description: d\nenv:\n  LD_PRELOAD: /x.so\nexpect: {exit_code: 0}\n", `:3: env: "LD_PRELOAD" may not be set`},
		{"long_timeout", "description: d\ntimeout: 10m\nexpect: {exit_code: 0}\n", ":2: timeout \"10m\""},
		{"no_expectation", "description: d\nstdin: x\nexpect: {}\n", "expect: name at least one"},
		{"no_description", "expect: {exit_code: 0}\n", "description: say what this run shows"},
		{"empty_line", "description: d\nexpect:\n  output: {lines: [\"  \"]}\n", "matches anything"},
		{"mixed_rules", "description: d\nexpect:\n  output:\n    patterns:\n      - match: '(x)'\n        values: {\"1\": {equals: x, min: 1}}\n", "do not mix"},
		{"Bad-Name", "description: d\nexpect: {exit_code: 0}\n", "scenario name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, problem := parse(t, tc.name, tc.text)
			require.Contains(t, problem, tc.want)
			require.Contains(t, problem, "[scenario]")
		})
	}
}

func TestLoadSortsAndReportsEachFile(t *testing.T) {
	dir := t.TempDir()
	sd := filepath.Join(dir, filepath.FromSlash(Dir))
	require.NoError(t, os.MkdirAll(sd, 0o755))
	for name, text := range map[string]string{
		"b.yaml":    "description: b\nexpect: {exit_code: 0}\n",
		"a.yaml":    "description: a\nexpect: {exit_code: 1}\n",
		"bad.yaml":  "description: [\n",
		"notes.txt": "x",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(sd, name), []byte(text), 0o644))
	}
	scs, ps := Load(dir)
	require.Len(t, scs, 2)
	require.Equal(t, "a", scs[0].Name)
	require.Equal(t, "b", scs[1].Name)
	require.Len(t, ps, 2)
	var msgs []string
	for _, p := range ps {
		msgs = append(msgs, p.String())
	}
	joined := strings.Join(msgs, "\n")
	require.Contains(t, joined, "bad.yaml:")
	require.Contains(t, joined, "notes.txt: only <name>.yaml files")

	none, ps := Load(t.TempDir())
	require.Empty(t, none)
	require.Empty(t, ps, "a case without scenarios has none and no problem")
}

func judge(t *testing.T, text string, o Outcome) (bool, string) {
	t.Helper()
	s, problem := parse(t, "s", text)
	require.Empty(t, problem)
	d := s.Judge(o)
	require.Equal(t, "scenario_s", d.CheckName)
	require.Equal(t, "runtime", d.CheckType)
	return d.Passed, *d.Actual
}

func TestJudgeStreamsAndExitStatus(t *testing.T) {
	spec := "description: d\nexpect:\n  exit_code: 1\n  stdout: {empty: true}\n  stderr: {contains: [thermal_zone0/temp]}\n"
	ok, why := judge(t, spec, Outcome{Separate: true, Stderr: []byte("thermal_zone0/temp: out of range\n"), Exited: true, ExitCode: 1})
	require.True(t, ok, why)
	ok, why = judge(t, spec, Outcome{Separate: true, Stdout: []byte("temperature: 125.0 C\n"), Exited: true, ExitCode: 0})
	require.False(t, ok)
	require.Equal(t, `stdout: want nothing, got "temperature: 125.0 C\n"; stderr: "thermal_zone0/temp" not printed; exit status 0, want 1`, why)
}

func TestJudgeLinesInOrderAndAbsent(t *testing.T) {
	spec := "description: d\nexpect:\n  output:\n    lines: [boot, ready]\n    absent: [ERROR]\n"
	ok, _ := judge(t, spec, Outcome{Output: []byte("  boot \r\nnoise\nready\n"), Exited: true})
	require.True(t, ok, "whole lines with their ends trimmed, other lines between")
	ok, why := judge(t, spec, Outcome{Output: []byte("ready\nboot\n"), Exited: true})
	require.False(t, ok)
	require.Equal(t, `output: no line "ready" (in order)`, why)
	ok, why = judge(t, spec, Outcome{Output: []byte("boot\nready!\n"), Exited: true})
	require.False(t, ok, "a line must match whole: %s", why)
	ok, why = judge(t, spec, Outcome{Output: []byte("boot\nready\nERROR 3\n"), Exited: true})
	require.False(t, ok)
	require.Equal(t, `output: "ERROR" printed, must not be`, why)
}

func TestJudgePatternValues(t *testing.T) {
	spec := "description: d\nexpect:\n  output:\n    patterns:\n      - match: 'elapsed (?P<ms>\\S+) ms'\n        values: {ms: {near: 100, tolerance: 2}}\n"
	ok, _ := judge(t, spec, Outcome{Output: []byte("elapsed 101 ms\n"), Firmware: true, Timeout: time.Second})
	require.True(t, ok, "a firmware run stopped at its timeout with its output is fine")
	ok, why := judge(t, spec, Outcome{Output: []byte("elapsed 103 ms\n"), Exited: true})
	require.False(t, ok)
	require.Equal(t, `output: /elapsed (?P<ms>\S+) ms/: line "elapsed 103 ms": ms is 103, want 100 ± 2`, why)
	ok, why = judge(t, spec, Outcome{Output: []byte("elapsed abc ms\n"), Exited: true})
	require.False(t, ok)
	require.Contains(t, why, `ms is "abc", not a number`)
	ok, _ = judge(t, spec, Outcome{Output: []byte("elapsed 90 ms\nelapsed 0x64 ms\n"), Exited: true})
	require.True(t, ok, "one matching line that satisfies the rule is enough; hexadecimal reads as a number")

	every := "description: d\nexpect:\n  output:\n    patterns:\n      - match: 'sample (\\d+): (\\d+)'\n        values: {\"2\": {min: 1700, max: 1750}}\n        every: true\n        count: 3\n"
	ok, why = judge(t, every, Outcome{Output: []byte("sample 1: 1723\nsample 2: 1723\nsample 3: 1723\n"), Exited: true})
	require.True(t, ok, why)
	ok, why = judge(t, every, Outcome{Output: []byte("sample 1: 1723\nsample 2: 17230\nsample 3: 1723\n"), Exited: true})
	require.False(t, ok)
	require.Contains(t, why, "group 2 is 17230, want at most 1750")
	ok, why = judge(t, every, Outcome{Output: []byte("sample 1: 1723\n"), Exited: true})
	require.False(t, ok)
	require.Contains(t, why, "matches 1 lines, want 3")
}

func TestJudgeReportsHangsNeverAsClean(t *testing.T) {
	program := "description: d\nexpect:\n  output: {lines: [done]}\n"
	ok, why := judge(t, program, Outcome{Output: []byte("done\n"), Timeout: 5 * time.Second})
	require.False(t, ok, "a program must exit by itself")
	require.Equal(t, "hung: still running at the 5s run timeout (the program must exit by itself)", why)

	daemon := "description: d\nruns_forever: true\nexpect:\n  output: {lines: [done]}\n"
	ok, _ = judge(t, daemon, Outcome{Output: []byte("done\n"), Timeout: 5 * time.Second})
	require.True(t, ok)
	ok, why = judge(t, daemon, Outcome{Output: []byte("booting\n"), Timeout: 5 * time.Second})
	require.False(t, ok)
	require.Equal(t, `hung: still running at the 5s run timeout without the expected output; output: no line "done" (in order)`, why)

	firmwareExit := "description: d\nexpect:\n  exit_code: 0\n  output: {lines: [done]}\n"
	ok, why = judge(t, firmwareExit, Outcome{Output: []byte("done\n"), Firmware: true, Timeout: 5 * time.Second})
	require.False(t, ok, "a firmware asked to end the run itself must not keep running")
	require.Equal(t, "hung: still running at the 5s run timeout, want it to end with status 0", why)
	ok, _ = judge(t, firmwareExit, Outcome{Output: []byte("done\n"), Firmware: true, Exited: true})
	require.True(t, ok)

	ok, why = judge(t, program, Outcome{Output: []byte("done\n"), Exited: true, Crash: `output contains "Segmentation fault"`})
	require.False(t, ok)
	require.Equal(t, `crashed: output contains "Segmentation fault"`, why)
	ok, why = judge(t, program, Outcome{Output: []byte("done\n"), Exited: true, Signal: "aborted"})
	require.False(t, ok)
	require.Equal(t, "killed by signal aborted", why)
}

func TestMetIsTheEarlyStop(t *testing.T) {
	s, problem := parse(t, "s", "description: d\nstop_when_met: true\nexpect:\n  output:\n    lines: [a, b]\n    patterns: [{match: 'n=(\\d+)', values: {\"1\": {equals: \"3\"}}}]\n")
	require.Empty(t, problem)
	require.False(t, s.Met([]byte("a\n")))
	require.False(t, s.Met([]byte("a\nb\nn=2\n")))
	require.True(t, s.Met([]byte("a\nn=2\nb\nn=3\n")))

	exitOnly, problem := parse(t, "e", "description: d\nexpect: {exit_code: 0}\n")
	require.Empty(t, problem)
	require.False(t, exitOnly.Met([]byte("anything")), "nothing to meet in the output: never stop early")
}

func TestJudgeSumOf(t *testing.T) {
	spec := "description: d\nexpect:\n  output:\n    patterns:\n      - match: '(?P<s>\\d+) samples in (?P<p>\\d+) periods, (?P<m>\\d+) missed'\n        values: {s: {equals: \"10\"}, p: {sum_of: [s, m]}}\n"
	ok, why := judge(t, spec, Outcome{Output: []byte("sampler: 10 samples in 13 periods, 3 missed\n"), Exited: true})
	require.True(t, ok, why)
	ok, why = judge(t, spec, Outcome{Output: []byte("sampler: 10 samples in 13 periods, 13 missed\n"), Exited: true})
	require.False(t, ok)
	require.Contains(t, why, "p is 13, want the sum of s + m = 23")
	_, problem := parse(t, "x", "description: d\nexpect:\n  output:\n    patterns:\n      - match: '(a)'\n        values: {\"1\": {sum_of: [z]}}\n")
	require.Contains(t, problem, `sum_of names group "z"`)
}
