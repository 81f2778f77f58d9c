package csyntax

import (
	"sort"
	"strings"
)

// ISRViolation is a call to a forbidden API inside an interrupt handler.
type ISRViolation struct {
	// Function is the handler, API the forbidden callee, Line the call's
	// 1-based line.
	Function string
	API      string
	Line     int
}

// ISRForbiddenCalls returns the calls to forbidden APIs inside the bodies
// of the definitions ISRDefinitions returns, sorted by line, then API. A
// nil forbidden list means v.Forbidden(); names are trimmed and a trailing
// "(" is ignored. Every call of Calls inside a body counts, calls in the
// arguments of other calls and macros included; a member call
// (dev->free(...), ops.down(...)) is not a call of the member's name. Two
// rules of v are conditional whenever the API is listed: a call with a
// timeout argument (k_sem_take, k_msgq_put, ...; v.NoWaitArg) is forbidden
// only when that argument, without enclosing parentheses, is not exactly
// v.NoWait() (K_NO_WAIT); an allocator of v.BlockingAllocOnly (kmalloc,
// kzalloc, ...) only when an argument holds the token v.BlockingFlag()
// (GFP_KERNEL).
func (f *File) ISRForbiddenCalls(forbidden []string, v InterruptVocabulary) []ISRViolation {
	if v == nil {
		return nil
	}
	if forbidden == nil {
		forbidden = v.Forbidden()
	}
	want := map[string]bool{}
	for _, api := range forbidden {
		if api = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(api), "(")); api != "" {
			want[api] = true
		}
	}
	if len(want) == 0 {
		return nil
	}
	calls := f.LocatedCalls()
	var out []ISRViolation
	for _, d := range f.ISRDefinitions(v) {
		lo, hi := f.bodyRange(d)
		for _, c := range callsIn(calls, lo, hi) {
			if want[c.Name] && forbiddenHere(c.Name, c.Args, v) {
				out = append(out, ISRViolation{Function: d.Name, API: c.Name, Line: c.Line})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].API < out[j].API
	})
	return out
}

// forbiddenHere decides the conditional rules of v for a call of api with
// args; an API without a condition is always forbidden.
func forbiddenHere(api string, args []string, v InterruptVocabulary) bool {
	if i, ok := v.NoWaitArg(api); ok {
		if i >= len(args) {
			return true
		}
		return strings.TrimSpace(strings.Trim(args[i], "() \t\r\n")) != v.NoWait()
	}
	if v.BlockingAllocOnly(api) {
		for _, a := range args {
			if hasToken(a, v.BlockingFlag()) {
				return true
			}
		}
		return false
	}
	return true
}
