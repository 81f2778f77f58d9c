// Package scenario reads a case's L2 scenario runs, checks/scenarios/*.yaml:
// each file is one more run of the built program or firmware with its own
// inputs (arguments, environment, files, standard input or bytes fed to the
// emulated UART) and its own expected output (exact lines, substrings,
// patterns whose captured values are compared exactly or within a numeric
// tolerance, the exit status). Judge compares a finished run with one. The
// package knows nothing about toolchains: the backends run, it judges.
package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/diag"
)

// Dir is the scenario folder inside a case.
const Dir = "checks/scenarios"

// Rule is the diagnostic rule of problems in scenario files.
const Rule = "scenario"

// Bounds on what a scenario file may ask for: case files come from strangers.
const (
	// MaxScenarios is the most scenario files one case may hold.
	MaxScenarios = 32
	// MaxFileBytes bounds one scenario file.
	MaxFileBytes = 256 << 10
	// MaxInputBytes bounds a scenario's stdin plus its input files.
	MaxInputBytes = 1 << 20
	// MaxTimeout is the longest run a scenario may ask for.
	MaxTimeout = 60 * time.Second
)

// CheckPrefix begins the check name of every scenario run
// ("scenario_<name>"): an L2 check, judged only where L2 runs.
const CheckPrefix = "scenario_"

// Scenario is one run with its inputs and expected output.
type Scenario struct {
	// Name is the file's name without .yaml; the L2 check record is
	// "scenario_<Name>".
	Name string
	// Path is the scenario file.
	Path string
	// Description says what the run shows, for reports.
	Description string
	// Requirement quotes the prompt text the run enforces (validate holds
	// it against prompt.md and context/ like a check record's).
	Requirement string
	// Args are the program's arguments (programs only, not firmware).
	Args []string
	// Env is added to the run's allowlisted environment (programs only).
	Env map[string]string
	// Stdin is the program's standard input, or the bytes fed to the
	// firmware's console UART; nil means none.
	Stdin []byte
	// StdinAfter, when set, holds Stdin back until the output contains
	// this text (a "ready" banner the prompt asks for), so the input tests
	// the behaviour the prompt states, not what happens to bytes that
	// arrive during start-up.
	StdinAfter string
	// Files are written, relative to the run's working directory, before
	// the run (programs only); keys are clean relative slash paths.
	Files map[string][]byte
	// Timeout is the run's limit; zero means the evaluator's run timeout.
	Timeout time.Duration
	// RunsForever says a program is expected to keep running: reaching the
	// timeout is then not a hang. Firmware always runs forever.
	RunsForever bool
	// StopWhenMet ends a run as soon as every positive expectation is met
	// instead of at the timeout (firmware and RunsForever programs).
	StopWhenMet bool
	// Expect is what the run must show.
	Expect Expect
}

// Expect is a scenario's expected outcome.
type Expect struct {
	// ExitCode, when set, is the exit status a program must end with; for
	// firmware, the status it must end the run with itself (semihosting
	// SYS_EXIT), so a firmware that keeps running fails.
	ExitCode *int
	// Output is judged on everything the run printed (standard output and
	// standard error together; the UART for firmware).
	Output Stream
	// Stdout and Stderr are judged on one stream each (programs only).
	Stdout, Stderr Stream
}

// Stream is what one output stream must and must not contain.
type Stream struct {
	// Lines must each appear as a whole line (white space at the ends
	// ignored), in this order, other lines allowed between them.
	Lines []string
	// Contains must each appear somewhere.
	Contains []string
	// Absent must not appear anywhere.
	Absent []string
	// Empty requires the stream to hold nothing but white space.
	Empty bool
	// Patterns must each match a line, with their captured values.
	Patterns []Pattern
	set      bool
}

// Pattern is a regular expression (RE2) matched against each line, and
// the values its capture groups must hold.
type Pattern struct {
	// Source is the expression as written.
	Source string
	re     *regexp.Regexp
	// Values maps a capture group (its name, or its number as text) to its
	// rule.
	Values map[string]Value
	// Every requires every matching line to satisfy Values; by default one
	// matching line that satisfies them is enough.
	Every bool
	// Count, when set, is how many lines must match.
	Count *int
}

// Value is a rule on one captured value.
type Value struct {
	// Equals compares the text exactly.
	Equals *string
	// Near compares the value as a number within Tolerance.
	Near      *float64
	Tolerance float64
	// Min and Max bound the value as a number, both included.
	Min, Max *float64
	// SumOf names other groups of the same match whose numbers must add
	// up to this value (a total printed beside its parts).
	SumOf []string
}

// rawScenario is the file's YAML shape.
type rawScenario struct {
	Description string            `yaml:"description"`
	Requirement string            `yaml:"requirement"`
	Args        []string          `yaml:"args"`
	Env         map[string]string `yaml:"env"`
	Stdin       *string           `yaml:"stdin"`
	StdinAfter  string            `yaml:"stdin_after"`
	Files       map[string]string `yaml:"files"`
	Timeout     string            `yaml:"timeout"`
	RunsForever bool              `yaml:"runs_forever"`
	StopWhenMet bool              `yaml:"stop_when_met"`
	Expect      rawExpect         `yaml:"expect"`
}

type rawExpect struct {
	ExitCode *int       `yaml:"exit_code"`
	Output   *rawStream `yaml:"output"`
	Stdout   *rawStream `yaml:"stdout"`
	Stderr   *rawStream `yaml:"stderr"`
}

type rawStream struct {
	Lines    []string     `yaml:"lines"`
	Contains []string     `yaml:"contains"`
	Absent   []string     `yaml:"absent"`
	Empty    bool         `yaml:"empty"`
	Patterns []rawPattern `yaml:"patterns"`
}

type rawPattern struct {
	Match  string              `yaml:"match"`
	Values map[string]rawValue `yaml:"values"`
	Every  bool                `yaml:"every"`
	Count  *int                `yaml:"count"`
}

type rawValue struct {
	Equals    *string  `yaml:"equals"`
	Near      *float64 `yaml:"near"`
	Tolerance *float64 `yaml:"tolerance"`
	Min       *float64 `yaml:"min"`
	Max       *float64 `yaml:"max"`
	SumOf     []string `yaml:"sum_of"`
}

// namePattern is what a scenario's file name may be: it becomes part of a
// check name.
var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_]{0,47}$`)

// envNamePattern is what an environment variable a scenario sets may be
// called.
var envNamePattern = regexp.MustCompile(`^[A-Z_][A-Z0-9_]{0,63}$`)

// reservedEnv are variables a scenario may not set: the run's own.
var reservedEnv = map[string]bool{"PATH": true, "HOME": true, "TMPDIR": true, "LD_PRELOAD": true, "LD_LIBRARY_PATH": true}

// Load reads every scenario of the case in caseDir, sorted by name. A case
// without checks/scenarios has none. The problems name the file and, where
// known, the line; a scenario with a problem is left out.
func Load(caseDir string) ([]Scenario, []diag.Problem) {
	dir := filepath.Join(caseDir, filepath.FromSlash(Dir))
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []diag.Problem{diag.Errorf(dir, 0, 0, Rule, "read the scenario folder: %v", err)}
	}
	var out []Scenario
	var problems []diag.Problem
	n := 0
	for _, e := range entries {
		file := filepath.Join(dir, e.Name())
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			problems = append(problems, diag.Errorf(file, 0, 0, Rule, "only <name>.yaml files belong in %s", Dir))
			continue
		}
		if n++; n > MaxScenarios {
			problems = append(problems, diag.Errorf(file, 0, 0, Rule, "more than %d scenarios in one case", MaxScenarios))
			break
		}
		data, err := cases.ReadFile(file)
		if err != nil {
			problems = append(problems, diag.Errorf(file, 0, 0, Rule, "read: %v", err))
			continue
		}
		s, ps := Parse(file, data)
		problems = append(problems, ps...)
		if len(ps) == 0 {
			out = append(out, s)
		}
	}
	return out, problems
}

// Parse reads one scenario file's content; file names it in problems and
// gives the scenario its name.
func Parse(file string, data []byte) (Scenario, []diag.Problem) {
	name := strings.TrimSuffix(filepath.Base(file), ".yaml")
	s := Scenario{Name: name, Path: file}
	fail := func(line int, format string, args ...any) (Scenario, []diag.Problem) {
		return Scenario{}, []diag.Problem{diag.Errorf(file, line, 0, Rule, format, args...)}
	}
	if !namePattern.MatchString(name) {
		return fail(0, "scenario name %q: use lower-case letters, digits and _ (at most 48), starting with a letter or digit", name)
	}
	if len(data) > MaxFileBytes {
		return fail(0, "%d bytes, more than the %d a scenario file may have", len(data), MaxFileBytes)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return fail(yamlLine(err), "%v", err)
	}
	var raw rawScenario
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil {
		return fail(yamlLine(err), "%v", err)
	}
	line := func(keys ...string) int { return lineOf(&root, keys...) }

	s.Description = strings.TrimSpace(raw.Description)
	s.Requirement = strings.TrimSpace(raw.Requirement)
	s.Args = raw.Args
	s.RunsForever, s.StopWhenMet = raw.RunsForever, raw.StopWhenMet
	if s.Description == "" {
		return fail(1, "description: say what this run shows")
	}
	total := 0
	if raw.Stdin != nil {
		s.Stdin = []byte(*raw.Stdin)
		total += len(s.Stdin)
	}
	if raw.StdinAfter != "" {
		if raw.Stdin == nil {
			return fail(line("stdin_after"), "stdin_after: there is no stdin to hold back")
		}
		s.StdinAfter = raw.StdinAfter
	}
	for k, v := range raw.Env {
		if !envNamePattern.MatchString(k) || reservedEnv[k] || strings.HasPrefix(k, "GITHUB_") {
			return fail(line("env", k), "env: %q may not be set by a scenario (upper-case names, not PATH, HOME, TMPDIR, LD_* or GITHUB_*)", k)
		}
		if strings.ContainsRune(v, 0) {
			return fail(line("env", k), "env %s: a value may not hold a NUL byte", k)
		}
	}
	s.Env = raw.Env
	if len(raw.Files) > 0 {
		s.Files = map[string][]byte{}
	}
	for p, content := range raw.Files {
		if !cleanRelative(p) {
			return fail(line("files", p), "files: %q must be a clean relative path inside the run's directory (no .., no leading /)", p)
		}
		s.Files[p] = []byte(content)
		total += len(content)
	}
	if total > MaxInputBytes {
		return fail(line("files"), "stdin and files hold %d bytes, more than %d", total, MaxInputBytes)
	}
	if raw.Timeout != "" {
		d, err := time.ParseDuration(raw.Timeout)
		if err != nil || d <= 0 || d > MaxTimeout {
			return fail(line("timeout"), "timeout %q: want a duration such as 5s, at most %s", raw.Timeout, MaxTimeout)
		}
		s.Timeout = d
	}
	s.Expect.ExitCode = raw.Expect.ExitCode
	for _, st := range []struct {
		key string
		raw *rawStream
		out *Stream
	}{{"output", raw.Expect.Output, &s.Expect.Output}, {"stdout", raw.Expect.Stdout, &s.Expect.Stdout}, {"stderr", raw.Expect.Stderr, &s.Expect.Stderr}} {
		if st.raw == nil {
			continue
		}
		stream, msg, keys := buildStream(*st.raw)
		if msg != "" {
			return fail(line(append([]string{"expect", st.key}, keys...)...), "expect.%s: %s", st.key, msg)
		}
		*st.out = stream
	}
	if s.Expect.ExitCode == nil && !s.Expect.Output.set && !s.Expect.Stdout.set && !s.Expect.Stderr.set {
		return fail(line("expect"), "expect: name at least one of exit_code, output, stdout, stderr")
	}
	return s, nil
}

// buildStream checks one stream's expectations; on a problem it returns
// the message and the YAML keys leading to it.
func buildStream(r rawStream) (Stream, string, []string) {
	st := Stream{Lines: r.Lines, Contains: r.Contains, Absent: r.Absent, Empty: r.Empty, set: true}
	for _, group := range [][]string{r.Lines, r.Contains, r.Absent} {
		for _, t := range group {
			if strings.TrimSpace(t) == "" {
				return st, "an empty line, substring or absent text matches anything; drop it", nil
			}
		}
	}
	if r.Empty && (len(r.Lines) > 0 || len(r.Contains) > 0 || len(r.Patterns) > 0) {
		return st, "empty contradicts lines, contains and patterns", []string{"empty"}
	}
	for i, rp := range r.Patterns {
		keys := []string{"patterns"}
		re, err := regexp.Compile(rp.Match)
		if err != nil || rp.Match == "" {
			return st, fmt.Sprintf("pattern %d: %q is not a regular expression (RE2): %v", i+1, rp.Match, err), keys
		}
		p := Pattern{Source: rp.Match, re: re, Every: rp.Every, Count: rp.Count}
		if rp.Count != nil && *rp.Count < 0 {
			return st, fmt.Sprintf("pattern %d: count must not be negative", i+1), keys
		}
		groups := map[string]bool{}
		for j, n := range re.SubexpNames() {
			if j > 0 {
				groups[strconv.Itoa(j)] = true
				if n != "" {
					groups[n] = true
				}
			}
		}
		for g, rv := range rp.Values {
			if !groups[g] {
				return st, fmt.Sprintf("pattern %d: values names group %q, which %q does not have", i+1, g, rp.Match), keys
			}
			v := Value{Equals: rv.Equals, Near: rv.Near, Min: rv.Min, Max: rv.Max, SumOf: rv.SumOf}
			for _, part := range rv.SumOf {
				if !groups[part] {
					return st, fmt.Sprintf("pattern %d, value %s: sum_of names group %q, which %q does not have", i+1, g, part, rp.Match), keys
				}
			}
			if rv.Tolerance != nil {
				if rv.Near == nil || *rv.Tolerance < 0 {
					return st, fmt.Sprintf("pattern %d, value %s: tolerance needs near and must not be negative", i+1, g), keys
				}
				v.Tolerance = *rv.Tolerance
			}
			if v.Equals == nil && v.Near == nil && v.Min == nil && v.Max == nil && len(v.SumOf) == 0 {
				return st, fmt.Sprintf("pattern %d, value %s: give equals, near (with tolerance), min, max or sum_of", i+1, g), keys
			}
			if v.Equals != nil && (v.Near != nil || v.Min != nil || v.Max != nil || len(v.SumOf) > 0) {
				return st, fmt.Sprintf("pattern %d, value %s: equals compares text; do not mix it with numeric rules", i+1, g), keys
			}
			if p.Values == nil {
				p.Values = map[string]Value{}
			}
			p.Values[g] = v
		}
		st.Patterns = append(st.Patterns, p)
	}
	return st, "", nil
}

// cleanRelative reports whether p is a relative slash path that stays in
// its directory.
func cleanRelative(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.ContainsRune(p, 0) {
		return false
	}
	c := path.Clean(p)
	return c == p && c != "." && c != ".." && !strings.HasPrefix(c, "../")
}

// yamlLinePattern finds "line N" in a yaml.v3 error.
var yamlLinePattern = regexp.MustCompile(`line (\d+)`)

// yamlLine returns the first line a yaml.v3 error names, or 0.
func yamlLine(err error) int {
	m := yamlLinePattern.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// lineOf returns the line of the deepest of keys found in the document.
func lineOf(root *yaml.Node, keys ...string) int {
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := n.Line
	for _, k := range keys {
		if n.Kind != yaml.MappingNode {
			break
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				line, n, found = n.Content[i].Line, n.Content[i+1], true
				break
			}
		}
		if !found {
			break
		}
	}
	return line
}

// SortedEnv returns the scenario's environment as KEY=value, sorted.
func (s Scenario) SortedEnv() []string {
	out := make([]string, 0, len(s.Env))
	for k, v := range s.Env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// SortedFiles returns the input files' paths, sorted.
func (s Scenario) SortedFiles() []string {
	out := make([]string, 0, len(s.Files))
	for p := range s.Files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ProgramOnly names the first input or expectation that only a program
// (not firmware) can have, or "".
func (s Scenario) ProgramOnly() string {
	switch {
	case len(s.Args) > 0:
		return "args"
	case len(s.Env) > 0:
		return "env"
	case len(s.Files) > 0:
		return "files"
	case s.Expect.Stdout.set:
		return "expect.stdout"
	case s.Expect.Stderr.set:
		return "expect.stderr"
	}
	return ""
}

// CheckName is the L2 check record of the scenario.
func (s Scenario) CheckName() string { return CheckPrefix + s.Name }
