package ctext

import (
	"fmt"
	"strings"
)

// Scope selects which parts of a file a text search looks at.
type Scope string

const (
	// ScopeStripped removes comments and the contents of string and
	// character literals. It is the default and the safest scope.
	ScopeStripped Scope = "stripped"
	// ScopeCodeOnly removes comments but keeps string literals, for matches
	// such as #include "x.h".
	ScopeCodeOnly Scope = "code_only"
	// ScopeRaw keeps the text as is, for files that are not C (Kconfig,
	// udev rules, bitbake recipes).
	ScopeRaw Scope = "raw"
)

// ParseScope returns the Scope named s. An empty string is not a scope;
// callers that want a default pass ScopeStripped themselves.
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case ScopeStripped, ScopeCodeOnly, ScopeRaw:
		return Scope(s), nil
	}
	return "", fmt.Errorf("unknown scope %q (want stripped, code_only or raw)", s)
}

// Scoped returns this source's text in a scope (computed once). An unknown
// scope is treated as ScopeStripped (the safest choice); validate names with
// ParseScope first.
func (s *Source) Scoped(scope Scope) string {
	switch scope {
	case ScopeRaw:
		return s.code
	case ScopeCodeOnly:
		return s.codeOnly
	default:
		return s.stripped
	}
}

// ScopedContains reports whether needle occurs as a plain substring of the
// source's text in scope. As with Python's "in", an empty needle is always
// contained.
func (s *Source) ScopedContains(needle string, scope Scope) bool {
	return strings.Contains(s.Scoped(scope), needle)
}
