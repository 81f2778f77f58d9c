package ctext

import (
	"sort"
	"sync"

	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// Match is one place in a file: a byte offset and its 1-based line.
type Match struct {
	Offset int
	Line   int
}

// Source is one C file prepared for repeated queries. It computes the
// stripped texts once and its token stream lazily, so callers asking many
// questions about the same code pay for the lexing once. A Source is safe
// for concurrent use and must not be copied.
type Source struct {
	code       string
	codeOnly   string
	stripped   string
	lineStarts []int

	tokOnce sync.Once
	toks    []token // tokens outside preprocessor directives
	ppToks  []token // tokens on preprocessor directive lines
	match   []int   // for toks: index of the matching bracket, or -1
	nest    []int   // for toks: number of enclosing brackets of any kind
	braces  []int   // for toks: number of enclosing braces

	// defs are the definitions csyntax found, when given (hasDefs).
	defs    []csyntax.Definition
	hasDefs bool

	funcOnce sync.Once
	funcs    []funcDef
	defHeads map[int]bool // tokens that start a definition's name or wrapper
}

// NewSource prepares code for queries.
func NewSource(code string) *Source {
	codeOnly, stripped := stripBoth(code)
	starts := []int{0}
	for i := 0; i < len(code); i++ {
		if code[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &Source{code: code, codeOnly: codeOnly, stripped: stripped, lineStarts: starts}
}

// NewSourceWith prepares code for queries with the function definitions
// csyntax found in it (csyntax.File.Definitions of the same code), so that
// the body helpers answer from the caller's parse instead of parsing again.
func NewSourceWith(code string, defs []csyntax.Definition) *Source {
	s := NewSource(code)
	s.defs, s.hasDefs = defs, true
	return s
}

// HasDefinitions reports whether the Source was prepared with the
// definitions of a caller's parse (NewSourceWith).
func (s *Source) HasDefinitions() bool { return s.hasDefs }

// Code returns the original text.
func (s *Source) Code() string { return s.code }

// CodeOnly returns the text with comments replaced by spaces.
func (s *Source) CodeOnly() string { return s.codeOnly }

// Stripped returns the text with comments and literal contents replaced by
// spaces.
func (s *Source) Stripped() string { return s.stripped }

// Line returns the 1-based line of byte offset off (clamped to the text).
func (s *Source) Line(off int) int {
	return sort.Search(len(s.lineStarts), func(i int) bool { return s.lineStarts[i] > off })
}

// APICalls returns every use of name as a call with HasAPICall semantics
// (definitions and prototypes included), in source order.
func (s *Source) APICalls(name string) []Match {
	return s.matches(callMatches(s.stripped, name, 0, len(s.stripped), 0))
}

func (s *Source) matches(spans []span) []Match {
	if len(spans) == 0 {
		return nil
	}
	out := make([]Match, len(spans))
	for i, m := range spans {
		out[i] = Match{Offset: m.start, Line: s.Line(m.start)}
	}
	return out
}

// tokKind classifies a token.
type tokKind uint8

const (
	tokIdent tokKind = iota + 1
	tokNumber
	tokString
	tokChar
	tokPunct
)

// token is a lexeme of the stripped text.
type token struct {
	start, end int
	kind       tokKind
}

// punctLen returns the length of the punctuator starting at t[i]; the
// multi-byte punctuators of C are kept together.
func punctLen(t string, i int) int {
	if len(t)-i >= 3 {
		switch t[i : i+3] {
		case "<<=", ">>=", "...":
			return 3
		}
	}
	if len(t)-i >= 2 {
		switch t[i : i+2] {
		case "->", "++", "--", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>",
			"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##":
			return 2
		}
	}
	return 1
}

// tokenize splits stripped C text into tokens. Literal contents are already
// blank, so a literal token runs from its quote to the next same quote on
// the same line.
func tokenize(t string, emit func(token)) {
	n := len(t)
	i := 0
	for i < n {
		c := t[i]
		switch {
		case isSpace(c):
			i++
		case isIdentStart(c):
			j := i + 1
			for j < n && isIdent(t[j]) {
				j++
			}
			emit(token{i, j, tokIdent})
			i = j
		case isDigit(c) || (c == '.' && i+1 < n && isDigit(t[i+1])):
			j := ppNumberEnd(t, i)
			emit(token{i, j, tokNumber})
			i = j
		case c == '"' || c == '\'':
			j := i + 1
			for j < n && t[j] != c && t[j] != '\n' {
				j++
			}
			if j < n && t[j] == c {
				j++
			}
			k := tokString
			if c == '\'' {
				k = tokChar
			}
			emit(token{i, j, k})
			i = j
		default:
			l := punctLen(t, i)
			emit(token{i, i + l, tokPunct})
			i += l
		}
	}
}

// directiveSpans returns the byte ranges of preprocessor directive lines
// (first non-blank byte '#', continued by backslash-newline) in stripped
// text.
func directiveSpans(t string) []span {
	var out []span
	n := len(t)
	i := 0
	for i < n {
		j := i
		for j < n && (t[j] == ' ' || t[j] == '\t' || t[j] == '\v' || t[j] == '\f') {
			j++
		}
		end := lineEnd(t, i)
		if j < n && t[j] == '#' {
			for {
				p := end - 1
				if p >= i && t[p] == '\r' {
					p--
				}
				if end >= n || p < i || t[p] != '\\' {
					break
				}
				end = lineEnd(t, end+1)
			}
			out = append(out, span{j, end})
		}
		i = end + 1
	}
	return out
}

// lineEnd returns the offset of the newline ending the line containing i,
// or len(t).
func lineEnd(t string, i int) int {
	for j := i; j < len(t); j++ {
		if t[j] == '\n' {
			return j
		}
	}
	return len(t)
}

// lex fills the token tables once.
func (s *Source) lex() {
	s.tokOnce.Do(func() {
		dirs := directiveSpans(s.stripped)
		d := 0
		tokenize(s.stripped, func(tk token) {
			for d < len(dirs) && dirs[d].end <= tk.start {
				d++
			}
			if d < len(dirs) && dirs[d].start <= tk.start {
				s.ppToks = append(s.ppToks, tk)
				return
			}
			s.toks = append(s.toks, tk)
		})
		s.pairBrackets()
	})
}

// text returns the text of token i of the non-directive stream.
func (s *Source) text(i int) string {
	if i < 0 || i >= len(s.toks) {
		return ""
	}
	return s.stripped[s.toks[i].start:s.toks[i].end]
}

// is reports whether token i has text want.
func (s *Source) is(i int, want string) bool { return s.text(i) == want }

// isIdentTok reports whether token i is an identifier.
func (s *Source) isIdentTok(i int) bool {
	return i >= 0 && i < len(s.toks) && s.toks[i].kind == tokIdent
}

type openBracket struct {
	idx         int
	closer      byte
	transparent bool
}

// pairBrackets matches (), [] and {} over the non-directive tokens and
// records nesting depths. A closer without a matching opener is ignored;
// openers left open when a different closer arrives are abandoned. The braces
// of extern "C" { ... } do not count as nesting.
func (s *Source) pairBrackets() {
	n := len(s.toks)
	s.match = make([]int, n)
	s.nest = make([]int, n)
	s.braces = make([]int, n)
	var stack []openBracket
	nest, braces := 0, 0
	for i := range s.toks {
		s.match[i] = -1
		s.nest[i] = nest
		s.braces[i] = braces
		if s.toks[i].kind != tokPunct || s.toks[i].end-s.toks[i].start != 1 {
			continue
		}
		switch c := s.stripped[s.toks[i].start]; c {
		case '(', '[', '{':
			closer := byte(')')
			if c == '[' {
				closer = ']'
			} else if c == '{' {
				closer = '}'
			}
			transparent := c == '{' && i >= 2 && s.toks[i-1].kind == tokString && s.is(i-2, "extern")
			stack = append(stack, openBracket{idx: i, closer: closer, transparent: transparent})
			if !transparent {
				nest++
				if c == '{' {
					braces++
				}
			}
		case ')', ']', '}':
			k := len(stack) - 1
			for k >= 0 && stack[k].closer != c {
				k--
			}
			if k < 0 {
				continue
			}
			for len(stack) > k {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if !top.transparent {
					nest--
					if top.closer == '}' {
						braces--
					}
				}
				if len(stack) == k {
					s.match[top.idx] = i
					s.match[i] = top.idx
				}
			}
			s.nest[i] = nest
			s.braces[i] = braces
		}
	}
}

// tokAt returns the index of the non-directive token starting at byte
// offset off, or -1.
func (s *Source) tokAt(off int) int {
	i := sort.Search(len(s.toks), func(i int) bool { return s.toks[i].start >= off })
	if i < len(s.toks) && s.toks[i].start == off {
		return i
	}
	return -1
}

// ppTokAt returns the index of the directive token starting at byte offset
// off, or -1.
func (s *Source) ppTokAt(off int) int {
	i := sort.Search(len(s.ppToks), func(i int) bool { return s.ppToks[i].start >= off })
	if i < len(s.ppToks) && s.ppToks[i].start == off {
		return i
	}
	return -1
}

// tokIndexFrom returns the index of the first non-directive token starting
// at or after off.
func (s *Source) tokIndexFrom(off int) int {
	return sort.Search(len(s.toks), func(i int) bool { return s.toks[i].start >= off })
}
