// Package diag defines positioned diagnostics: a problem found in an input file,
// with the file, line and column where it was found and a short rule name. Every
// package that reads outside input reports through it, so messages look the same
// everywhere and can become GitHub annotations unchanged.
package diag

import (
	"fmt"
	"sort"
	"strings"
)

// Severity says whether a problem makes a command fail.
type Severity string

const (
	// Error problems make validation fail.
	Error Severity = "error"
	// Warning problems are reported but do not change the exit code.
	Warning Severity = "warning"
)

// Problem is one finding in one file. Line and Col are 1-based; zero means unknown.
type Problem struct {
	File     string   `json:"file"`
	Line     int      `json:"line,omitempty"`
	Col      int      `json:"col,omitempty"`
	Severity Severity `json:"severity"`
	Rule     string   `json:"rule"`
	Message  string   `json:"message"`
}

// String renders the problem as "file:line:col: message [rule]", leaving out the
// parts that are unknown, and prefixing warnings with "warning: ".
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
		if p.Col > 0 {
			fmt.Fprintf(&b, ":%d", p.Col)
		}
	}
	b.WriteString(": ")
	if p.Severity == Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(p.Message)
	if p.Rule != "" {
		fmt.Fprintf(&b, " [%s]", p.Rule)
	}
	return b.String()
}

// Errorf builds an error-severity problem.
func Errorf(file string, line, col int, rule, format string, args ...any) Problem {
	return Problem{File: file, Line: line, Col: col, Severity: Error, Rule: rule, Message: fmt.Sprintf(format, args...)}
}

// Warnf builds a warning-severity problem.
func Warnf(file string, line, col int, rule, format string, args ...any) Problem {
	return Problem{File: file, Line: line, Col: col, Severity: Warning, Rule: rule, Message: fmt.Sprintf(format, args...)}
}

// HasErrors reports whether any problem has error severity.
func HasErrors(ps []Problem) bool {
	for _, p := range ps {
		if p.Severity == Error {
			return true
		}
	}
	return false
}

// Sort orders problems by file, line, column, then message, for deterministic output.
func Sort(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Message < b.Message
	})
}

// AsError is an error that carries one problem; errors.As finds it.
type AsError struct{ Problem Problem }

// Error implements error.
func (e *AsError) Error() string { return e.Problem.String() }
