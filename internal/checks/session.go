package checks

import (
	"regexp"

	"go.starlark.net/starlark"

	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// parseCacheSize bounds the syntax trees one session keeps: the code under
// evaluation plus its mutants.
const parseCacheSize = 64

// Session is the per-goroutine state of check calls: the syntax trees parsed so
// far (each distinct code string is parsed at most once while it stays in the
// cache) and compiled regular expressions. Not safe for concurrent use; Close
// frees the trees.
type Session struct {
	rt      *Runtime
	parses  *csyntax.ParseCache
	regexps map[reKey]*regexp.Regexp
}

// NewSession starts a session for one goroutine.
func (r *Runtime) NewSession() *Session {
	return &Session{rt: r, parses: csyntax.NewParseCache(parseCacheSize), regexps: map[reKey]*regexp.Regexp{}}
}

// Close releases the session's syntax trees.
func (s *Session) Close() { s.parses.Close() }

// Parses returns how many times the session ran the C parser.
func (s *Session) Parses() int { return s.parses.Parses() }

// parse returns the syntax tree of code, parsing it only on first use.
func (s *Session) parse(code string) (*csyntax.File, error) { return s.parses.Get(code) }

// sessionOf returns the session of a thread started by Runtime.call, which
// always sets one.
func sessionOf(th *starlark.Thread) *Session {
	return th.Local(sessionKey).(*Session)
}
