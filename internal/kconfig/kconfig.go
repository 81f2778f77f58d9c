// Package kconfig reads Kconfig fragments in the prj.conf / defconfig style:
// one "CONFIG_<NAME>=<value>" assignment per line, "# CONFIG_<NAME> is not
// set" for a disabled symbol, other "#" comments and blank lines. It records
// what each line assigns and what is wrong with each line, the way Zephyr's
// Kconfig tooling would complain, but never fails: checks decide what a
// problem means.
//
// It owns reading fragment text only; it knows no Kconfig symbol definitions,
// so it cannot tell whether a symbol exists or whether a value fits its type.
package kconfig

import (
	"fmt"
	"sort"
	"strings"
)

// Prefix is the prefix every symbol in a fragment carries.
const Prefix = "CONFIG_"

// Value kinds, inferred from the written value.
const (
	KindBool     = "bool"     // y or n
	KindTristate = "tristate" // m
	KindInt      = "int"      // decimal, optionally negative
	KindHex      = "hex"      // 0x...
	KindString   = "string"   // "quoted"
)

// Fragment is a parsed Kconfig fragment.
type Fragment struct {
	// Assignments are the readable assignments in source order.
	Assignments []Assignment
	// Problems are the lines that are wrong, in source order.
	Problems []Problem
}

// Assignment is one symbol assignment.
type Assignment struct {
	// Symbol is the full symbol name including the CONFIG_ prefix.
	Symbol string
	// Value is the assigned value; strings are unquoted and unescaped.
	Value string
	// Kind is one of KindBool, KindTristate, KindInt, KindHex, KindString.
	Kind string
	// Line is the 1-based line number.
	Line int
}

// Problem is something wrong on one line.
type Problem struct {
	// Line is the 1-based line number.
	Line int
	// Message says what was expected and what was found, without the line.
	Message string
	// Text is the line as written (without its line ending).
	Text string
}

// Parse reads a fragment. Lines with "\r\n" endings are accepted.
func Parse(text string) Fragment {
	var f Fragment
	for i, line := range strings.Split(text, "\n") {
		f.parseLine(i+1, strings.TrimSuffix(line, "\r"))
	}
	return f
}

func (f *Fragment) problem(line int, text, format string, args ...any) {
	f.Problems = append(f.Problems, Problem{Line: line, Message: fmt.Sprintf(format, args...), Text: text})
}

func (f *Fragment) parseLine(n int, line string) {
	trimmed := strings.TrimSpace(line)
	if trimmed == "" {
		return
	}
	if strings.HasPrefix(trimmed, "#") {
		if sym, ok := notSet(trimmed); ok {
			f.Assignments = append(f.Assignments, Assignment{Symbol: sym, Value: "n", Kind: KindBool, Line: n})
		}
		return
	}
	eq := strings.IndexByte(line, '=')
	if eq < 0 {
		f.problem(n, line, "expected CONFIG_<NAME>=<value>, found %q", trimmed)
		return
	}
	if line != strings.TrimLeft(line, " \t") {
		f.problem(n, line, "leading whitespace before %q", trimmed)
	}
	name, value := strings.TrimLeft(line[:eq], " \t"), line[eq+1:]
	if strings.TrimSpace(name) != name || strings.TrimLeft(value, " \t") != value {
		f.problem(n, line, "space around '=' in %q (Kconfig expects CONFIG_<NAME>=<value>)", trimmed)
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	switch {
	case name == "":
		f.problem(n, line, "expected CONFIG_<NAME>=<value>, found %q", trimmed)
		return
	case !strings.HasPrefix(name, Prefix):
		f.problem(n, line, "symbol %q does not start with %s", name, Prefix)
		return
	case !validName(name[len(Prefix):]):
		f.problem(n, line, "invalid symbol name %q (letters, digits and '_' only)", name)
		return
	case value == "":
		f.problem(n, line, "empty value for %s", name)
		return
	}
	a := Assignment{Symbol: name, Line: n}
	switch {
	case value[0] == '"':
		s, rest, ok := unquote(value)
		if !ok {
			f.problem(n, line, "unterminated string for %s: %s", name, value)
			return
		}
		if strings.TrimSpace(rest) != "" {
			f.problem(n, line, "unexpected text %q after the string value of %s", strings.TrimSpace(rest), name)
			return
		}
		a.Value, a.Kind = s, KindString
	case value == "y" || value == "n":
		a.Value, a.Kind = value, KindBool
	case value == "m":
		a.Value, a.Kind = value, KindTristate
	case isHex(value):
		a.Value, a.Kind = value, KindHex
	case isInt(value):
		a.Value, a.Kind = value, KindInt
	default:
		f.problem(n, line, "invalid value %q for %s (expected y, n, m, a number, 0x<hex> or a quoted string)", value, name)
		return
	}
	f.Assignments = append(f.Assignments, a)
}

// notSet recognizes "# CONFIG_FOO is not set".
func notSet(comment string) (string, bool) {
	rest := strings.TrimSpace(strings.TrimPrefix(comment, "#"))
	sym, tail, ok := strings.Cut(rest, " ")
	if !ok || !strings.HasPrefix(sym, Prefix) || !validName(sym[len(Prefix):]) {
		return "", false
	}
	return sym, strings.TrimSpace(tail) == "is not set"
}

// unquote reads a double-quoted string with \" and \\ escapes at the start of
// s, returning its value and the text after the closing quote.
func unquote(s string) (value, rest string, ok bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '"':
			return b.String(), s[i+1:], true
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", false
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

func isHex(s string) bool {
	if len(s) < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return false
	}
	for i := 2; i < len(s); i++ {
		c := s[i]
		if !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) {
			return false
		}
	}
	return true
}

func isInt(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// normalize adds the CONFIG_ prefix when it is missing.
func normalize(symbol string) string {
	if strings.HasPrefix(symbol, Prefix) {
		return symbol
	}
	return Prefix + symbol
}

// Assignment returns the last assignment of symbol (with or without the
// CONFIG_ prefix); the last one wins, as in Kconfig.
func (f Fragment) Assignment(symbol string) (Assignment, bool) {
	symbol = normalize(symbol)
	for i := len(f.Assignments) - 1; i >= 0; i-- {
		if f.Assignments[i].Symbol == symbol {
			return f.Assignments[i], true
		}
	}
	return Assignment{}, false
}

// Value returns the value last assigned to symbol (with or without the
// CONFIG_ prefix); "# CONFIG_X is not set" counts as "n".
func (f Fragment) Value(symbol string) (string, bool) {
	a, ok := f.Assignment(symbol)
	return a.Value, ok
}

// Enabled reports whether symbol's last value is y or m.
func (f Fragment) Enabled(symbol string) bool {
	v, ok := f.Value(symbol)
	return ok && (v == "y" || v == "m")
}

// Duplicates returns the symbols assigned more than once, sorted.
func (f Fragment) Duplicates() []string {
	count := map[string]int{}
	for _, a := range f.Assignments {
		count[a.Symbol]++
	}
	var out []string
	for s, c := range count {
		if c > 1 {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
