package checks

import (
	"go.starlark.net/starlark"

	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/ctext"
)

// parseCacheSize bounds the syntax trees one session keeps: the code under
// evaluation plus its mutants.
const parseCacheSize = 64

// Session is the per-goroutine state of check calls: the syntax trees parsed so
// far (each distinct code string is parsed at most once while it stays in the
// cache) and the lexed texts of the text helpers. Compiled patterns live in
// the Runtime, shared by all sessions. Not safe for concurrent use; Close
// frees the trees.
type Session struct {
	rt      *Runtime
	parses  *csyntax.ParseCache
	sources map[string]*ctext.Source
}

// sourceCacheSize bounds the lexed texts one session keeps.
const sourceCacheSize = 16

// NewSession starts a session for one goroutine.
func (r *Runtime) NewSession() *Session {
	parses := csyntax.NewParseCache(parseCacheSize)
	parses.ShareQueries(r.queries)
	return &Session{rt: r, parses: parses, sources: map[string]*ctext.Source{}}
}

// Close releases the session's syntax trees.
func (s *Session) Close() { s.parses.Close() }

// Parses returns how many times the session ran the C parser.
func (s *Session) Parses() int { return s.parses.Parses() }

// parse returns the syntax tree of code, parsing it only on first use.
func (s *Session) parse(code string) (*csyntax.File, error) { return s.parses.Get(code) }

// source returns code prepared for the text helpers: stripped once, lexed on
// first use, shared by every helper call on the same string.
func (s *Session) source(code string) *ctext.Source {
	if src, ok := s.sources[code]; ok {
		return src
	}
	if len(s.sources) >= sourceCacheSize {
		clear(s.sources)
	}
	src := ctext.NewSource(code)
	s.sources[code] = src
	return src
}

// sessionOf returns the session of a thread started by Runtime.call, which
// always sets one.
func sessionOf(th *starlark.Thread) *Session {
	return th.Local(sessionKey).(*Session)
}
