package csyntax

import "sort"

// LocatedCall is a Call with the byte offset where it starts, for helpers
// that order calls against other positions of the same file (a body's
// braces, its return statements).
type LocatedCall struct {
	Call
	// Start is the byte offset of the call's first byte: its callee
	// ("dev" in "dev->api->x(...)"), or the declaration a macro call is
	// read from ("static K_THREAD_STACK_DEFINE(...)").
	Start int
}

// LocatedCalls returns the calls of Calls("") with their offsets, in the
// same (source) order: an enclosing call comes before the calls in its
// arguments.
func (f *File) LocatedCalls() []LocatedCall {
	ix := f.body()
	if ix == nil || len(ix.calls) == 0 {
		return nil
	}
	out := make([]LocatedCall, len(ix.calls))
	for i, c := range ix.calls {
		out[i] = LocatedCall{Call: c, Start: ix.callAt[i]}
	}
	return out
}

// callsIn returns the located calls (in source order, so by
// non-decreasing Start: the tree is walked in pre-order) that start in the
// byte range [lo, hi).
func callsIn(calls []LocatedCall, lo, hi int) []LocatedCall {
	i := sort.Search(len(calls), func(i int) bool { return calls[i].Start >= lo })
	j := i
	for j < len(calls) && calls[j].Start < hi {
		j++
	}
	return calls[i:j]
}

// bodyRange returns the byte range strictly inside d's braces; an
// unterminated body runs to the end of the source.
func (f *File) bodyRange(d Definition) (lo, hi int) {
	hi = len(f.code)
	if d.Close >= 0 {
		hi = d.Close
	}
	return d.Open + 1, hi
}
