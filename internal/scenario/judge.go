package scenario

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/embedeval/embedeval-go/internal/result"
)

// Outcome is a finished run of a scenario, as the backend saw it.
type Outcome struct {
	// Output is everything the run printed: standard output and standard
	// error (interleaved when they were not kept apart), or the UART.
	Output []byte
	// Stdout and Stderr are the separate streams of a program run that
	// kept them apart (Separate); otherwise empty.
	Stdout, Stderr []byte
	// Separate tells that Stdout and Stderr were kept apart.
	Separate bool
	// Firmware is set for an emulated board: it never exits by itself.
	Firmware bool
	// Exited is set when the program ended by itself; ExitCode and Signal
	// are then its status.
	Exited   bool
	ExitCode int
	Signal   string
	// Stopped is set when the run was ended because every positive
	// expectation was met (StopWhenMet).
	Stopped bool
	// Timeout is the limit the run had.
	Timeout time.Duration
	// Crash, when set, says why the run counts as a crash (a fault marker
	// in the output, a jail limit); the caller decides.
	Crash string
}

// NeedsSeparateStreams reports whether the scenario judges standard output
// or standard error on their own.
func (s Scenario) NeedsSeparateStreams() bool { return s.Expect.Stdout.set || s.Expect.Stderr.set }

// Met reports whether output (what a run printed so far) already meets
// every positive expectation of the scenario's output and stdout streams:
// the Until predicate of a StopWhenMet run. Absent texts, exit status and
// whole-run counts are judged afterwards on the full output.
func (s Scenario) Met(output []byte) bool {
	text := string(output)
	for _, st := range []Stream{s.Expect.Output, s.Expect.Stdout} {
		if !st.set {
			continue
		}
		if len(st.missingLines(text)) > 0 || len(st.missingContains(text)) > 0 {
			return false
		}
		for _, p := range st.Patterns {
			if p.Count != nil {
				return false
			}
			if _, ok := p.judge(text); !ok {
				return false
			}
		}
	}
	return s.Expect.Output.set || s.Expect.Stdout.set
}

// Judge compares a finished run with the scenario and returns its L2
// check record. A run stopped at its timeout without what the scenario
// asks for is reported as hung, never as a clean run.
func (s Scenario) Judge(o Outcome) result.CheckDetail {
	var fails []string
	if o.Crash != "" {
		fails = append(fails, "crashed: "+o.Crash)
	}
	if o.Exited && o.Signal != "" {
		fails = append(fails, "killed by signal "+o.Signal)
	}
	var unmet []string
	if o.Separate {
		unmet = append(unmet, s.Expect.Stdout.judge("stdout", string(o.Stdout))...)
		unmet = append(unmet, s.Expect.Stderr.judge("stderr", string(o.Stderr))...)
	}
	unmet = append(unmet, s.Expect.Output.judge("output", string(o.Output))...)
	timedOut := !o.Exited && !o.Stopped
	switch {
	case timedOut && !o.Firmware && !s.RunsForever:
		fails = append(fails, fmt.Sprintf("hung: still running at the %s run timeout (the program must exit by itself)", o.Timeout))
	case timedOut && len(unmet) > 0:
		fails = append(fails, fmt.Sprintf("hung: still running at the %s run timeout without the expected output", o.Timeout))
	case timedOut && s.Expect.ExitCode != nil:
		fails = append(fails, fmt.Sprintf("hung: still running at the %s run timeout, want it to end with status %d", o.Timeout, *s.Expect.ExitCode))
	}
	fails = append(fails, unmet...)
	if s.Expect.ExitCode != nil && o.Exited && o.Signal == "" && o.ExitCode != *s.Expect.ExitCode {
		fails = append(fails, fmt.Sprintf("exit status %d, want %d", o.ExitCode, *s.Expect.ExitCode))
	}
	d := result.CheckDetail{
		CheckName: s.CheckName(), Passed: len(fails) == 0, Expected: result.Ptr(s.Description),
		Actual: result.Ptr("as expected"), CheckType: "runtime", Weight: 1,
	}
	if len(fails) > 0 {
		d.Actual = result.Ptr(clip(strings.Join(fails, "; "), 1000))
	}
	if s.Requirement != "" {
		d.Requirement = result.Ptr(s.Requirement)
	}
	return d
}

// lines splits text into lines without their surrounding white space.
func lines(text string) []string {
	raw := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	out := make([]string, len(raw))
	for i, l := range raw {
		out[i] = strings.TrimSpace(l)
	}
	return out
}

// judge returns what the stream text fails of st, each prefixed with the
// stream's name; nothing for a stream without expectations.
func (st Stream) judge(name, text string) []string {
	if !st.set {
		return nil
	}
	var out []string
	add := func(format string, args ...any) { out = append(out, name+": "+fmt.Sprintf(format, args...)) }
	if st.Empty && strings.TrimSpace(text) != "" {
		add("want nothing, got %s", quote(text))
	}
	for _, l := range st.missingLines(text) {
		add("no line %s (in order)", quote(l))
	}
	for _, c := range st.missingContains(text) {
		add("%s not printed", quote(c))
	}
	for _, a := range st.Absent {
		if strings.Contains(text, a) {
			add("%s printed, must not be", quote(a))
		}
	}
	for _, p := range st.Patterns {
		if why, ok := p.judge(text); !ok {
			add("%s", why)
		}
	}
	return out
}

// missingLines returns the expected lines not found in order.
func (st Stream) missingLines(text string) []string {
	got := lines(text)
	i := 0
	var missing []string
	for _, want := range st.Lines {
		want = strings.TrimSpace(want)
		j := i
		for j < len(got) && got[j] != want {
			j++
		}
		if j == len(got) {
			missing = append(missing, want)
			continue
		}
		i = j + 1
	}
	return missing
}

// missingContains returns the substrings not found.
func (st Stream) missingContains(text string) []string {
	var missing []string
	for _, c := range st.Contains {
		if !strings.Contains(text, c) {
			missing = append(missing, c)
		}
	}
	return missing
}

// judge matches the pattern against each line of text and says why it
// fails, if it does.
func (p Pattern) judge(text string) (string, bool) {
	matched, good := 0, 0
	firstBad := ""
	for _, l := range lines(text) {
		m := p.re.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		matched++
		if why := p.checkValues(m); why != "" {
			if firstBad == "" {
				firstBad = fmt.Sprintf("line %s: %s", quote(l), why)
			}
			continue
		}
		good++
	}
	switch {
	case p.Count != nil && matched != *p.Count:
		return fmt.Sprintf("/%s/ matches %d lines, want %d", p.Source, matched, *p.Count), false
	case matched == 0:
		return fmt.Sprintf("no line matches /%s/", p.Source), false
	case p.Every && good < matched:
		return fmt.Sprintf("/%s/: %s", p.Source, firstBad), false
	case good == 0:
		return fmt.Sprintf("/%s/: %s", p.Source, firstBad), false
	}
	return "", true
}

// checkValues holds a match's captures against the pattern's rules and
// says what is wrong, or "".
func (p Pattern) checkValues(m []string) string {
	names := p.re.SubexpNames()
	for _, g := range sortedKeys(p.Values) {
		v := p.Values[g]
		idx, err := strconv.Atoi(g)
		if err != nil {
			idx = p.re.SubexpIndex(g)
		}
		if idx <= 0 || idx >= len(m) {
			return fmt.Sprintf("no group %s", g)
		}
		label := g
		if names[idx] == "" {
			label = "group " + g
		}
		if why := v.check(m[idx]); why != "" {
			return label + " " + why
		}
		if len(v.SumOf) > 0 {
			if why := p.checkSum(m, v.SumOf, m[idx]); why != "" {
				return label + " " + why
			}
		}
	}
	return ""
}

// checkSum holds a captured total against the sum of the named groups of
// the same match.
func (p Pattern) checkSum(m []string, parts []string, got string) string {
	total, ok := number(got)
	if !ok {
		return fmt.Sprintf("is %s, not a number", quote(got))
	}
	sum := 0.0
	for _, part := range parts {
		idx, err := strconv.Atoi(part)
		if err != nil {
			idx = p.re.SubexpIndex(part)
		}
		if idx <= 0 || idx >= len(m) {
			return fmt.Sprintf("no group %s", part)
		}
		x, ok := number(m[idx])
		if !ok {
			return fmt.Sprintf("cannot add %s: %s is not a number", part, quote(m[idx]))
		}
		sum += x
	}
	if total != sum {
		return fmt.Sprintf("is %s, want the sum of %s = %s", got, strings.Join(parts, " + "), fmtNum(sum))
	}
	return ""
}

// check holds one captured text against the rule.
func (v Value) check(got string) string {
	if v.Equals != nil {
		if got != *v.Equals {
			return fmt.Sprintf("is %s, want %s", quote(got), quote(*v.Equals))
		}
		return ""
	}
	if v.Near == nil && v.Min == nil && v.Max == nil {
		return ""
	}
	x, ok := number(got)
	if !ok {
		return fmt.Sprintf("is %s, not a number", quote(got))
	}
	if v.Near != nil && (x < *v.Near-v.Tolerance || x > *v.Near+v.Tolerance) {
		if v.Tolerance == 0 {
			return fmt.Sprintf("is %s, want %s", got, fmtNum(*v.Near))
		}
		return fmt.Sprintf("is %s, want %s ± %s", got, fmtNum(*v.Near), fmtNum(v.Tolerance))
	}
	if v.Min != nil && x < *v.Min {
		return fmt.Sprintf("is %s, want at least %s", got, fmtNum(*v.Min))
	}
	if v.Max != nil && x > *v.Max {
		return fmt.Sprintf("is %s, want at most %s", got, fmtNum(*v.Max))
	}
	return ""
}

// number reads a decimal (or 0x hexadecimal) number.
func number(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f, true
	}
	if n, err := strconv.ParseInt(s, 0, 64); err == nil {
		return float64(n), true
	}
	return 0, false
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func sortedKeys(m map[string]Value) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// quote renders a text for a message: quoted, at most 120 bytes.
func quote(s string) string { return strconv.Quote(clip(s, 120)) }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
