package ctext

import "github.com/embedeval/embedeval-go/internal/csyntax"

// callSite is a call of a name located in the token stream.
type callSite struct {
	span
	first int // token of the name's first byte (non-directive stream), -1 in directives
	paren int // token of the "(" after the name, -1 in directives
}

// callSites returns the calls of name, excluding definitions, prototypes
// and the macro name of #define lines.
func (s *Source) callSites(name string) []callSite {
	s.lex()
	s.functions()
	var out []callSite
	for _, m := range callMatches(s.stripped, name, 0, len(s.stripped), 0) {
		first := s.tokAt(m.start)
		if first < 0 {
			// On a directive line: "#define name(...)" defines the macro;
			// any other mention is a call inside a macro body or condition.
			k := s.ppTokAt(m.start)
			if k > 0 {
				p := s.ppToks[k-1]
				if s.stripped[p.start:p.end] == "define" {
					continue
				}
			}
			out = append(out, callSite{span: m, first: -1, paren: -1})
			continue
		}
		paren := s.tokIndexFrom(m.end)
		if !s.is(paren, "(") {
			continue
		}
		if s.isDeclarationCall(first, paren) {
			continue
		}
		out = append(out, callSite{span: m, first: first, paren: paren})
	}
	return out
}

// isDeclarationCall reports whether name(...) starting at token first with
// its "(" at token paren declares or defines a function instead of calling
// it: a type-ish identifier before the name (skipping "*"), or the name
// (or wrapper macro) of a definition in the function index.
func (s *Source) isDeclarationCall(first, paren int) bool {
	if s.defHeads[first] {
		return true
	}
	k := first - 1
	for k >= 0 && s.is(k, "*") {
		k--
	}
	return s.isIdentTok(k) && !csyntax.ExprKeyword(s.text(k))
}

// CallSites returns the call sites of name, in source order, excluding its
// definition and prototypes: a name preceded by a type-ish identifier
// ("void foo(", "static int *foo(") or, at file scope, followed by a body
// ("foo(a) {") is not a call. Calls inside macro bodies on #define lines
// count; the macro name of "#define foo(x)" does not.
func (s *Source) CallSites(name string) []Match {
	sites := s.callSites(name)
	spans := make([]span, len(sites))
	for i, c := range sites {
		spans[i] = c.span
	}
	return s.matches(spans)
}
