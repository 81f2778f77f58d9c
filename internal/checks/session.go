package checks

import (
	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/ctext"
)

// parseCacheSize bounds the syntax trees one session keeps: the code under
// evaluation plus its mutants.
const parseCacheSize = 64

// sourceCacheSize bounds the lexed texts one session keeps, and
// sourceCacheBytes their total size.
const (
	sourceCacheSize  = 16
	sourceCacheBytes = 64 << 20
)

// Session is the per-goroutine state of check calls: the syntax trees parsed so
// far (each distinct code string is parsed at most once while it stays in the
// cache) and the lexed texts of the text helpers. Compiled patterns live in
// the Runtime, shared by all sessions. Not safe for concurrent use; Close
// frees the trees.
type Session struct {
	rt    *Runtime
	state *sessionState
}

// sessionState is what a session's calls share. A call that is abandoned
// (see Runtime.call) keeps its state; the session goes on with a new one.
type sessionState struct {
	parses  *csyntax.ParseCache
	sources map[string]*ctext.Source
	// sourceBytes is the total size of the texts in sources.
	sourceBytes int
}

// NewSession starts a session for one goroutine.
func (r *Runtime) NewSession() *Session {
	return &Session{rt: r, state: r.newSessionState()}
}

func (r *Runtime) newSessionState() *sessionState {
	parses := csyntax.NewParseCache(parseCacheSize)
	parses.ShareQueries(r.queries)
	return &sessionState{parses: parses, sources: map[string]*ctext.Source{}}
}

// Close releases the session's syntax trees.
func (s *Session) Close() { s.state.close() }

// detach gives the session new caches, leaving the current ones to an
// abandoned call.
func (s *Session) detach() { s.state = s.rt.newSessionState() }

func (st *sessionState) close() { st.parses.Close() }

// Parses returns how many times the session ran the C parser.
func (s *Session) Parses() int { return s.state.parses.Parses() }

// parse returns the syntax tree of code, parsing it only on first use.
func (st *sessionState) parse(code string) (*csyntax.File, error) { return st.parses.Get(code) }

// source returns code prepared for the text helpers: stripped once, lexed on
// first use, shared by every helper call on the same string.
func (st *sessionState) source(code string) *ctext.Source {
	if src, ok := st.sources[code]; ok {
		return src
	}
	if len(st.sources) >= sourceCacheSize || st.sourceBytes+len(code) > sourceCacheBytes {
		clear(st.sources)
		st.sourceBytes = 0
	}
	src := ctext.NewSource(code)
	st.sources[code] = src
	st.sourceBytes += len(code)
	return src
}
