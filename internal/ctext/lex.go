package ctext

import "strings"

// RegionKind tells what a Region of C source text holds.
type RegionKind uint8

const (
	// RegionComment is a // or /* */ comment, delimiters included.
	RegionComment RegionKind = iota + 1
	// RegionString is the text between the quotes of a string literal.
	RegionString
	// RegionChar is the text between the quotes of a character literal.
	RegionChar
)

// Region is the half-open byte range [Start, End) of a comment or of the
// contents of a literal. Literal regions exclude the quotes; an empty
// string or character literal yields no region.
type Region struct {
	Kind  RegionKind
	Start int
	End   int
}

// scan walks code once and calls emit for each comment and literal content,
// in source order.
//
// The lexer follows C translation phases closely enough for checks:
// a // comment continues onto the next line when the line ends in a
// backslash (optionally followed by \r); string and character literals honour
// backslash escapes and end at an unescaped newline when unterminated; an
// unterminated /* comment runs to the end of the input; encoding prefixes
// (L, u, u8, U) are ordinary identifier bytes before the quote; C23 digit
// separators (1'000) are part of the number, not a character literal; the
// preprocessor is just text.
func scan(code string, emit func(Region)) {
	n := len(code)
	i := 0
	for i < n {
		c := code[i]
		switch {
		case c == '/' && i+1 < n && code[i+1] == '/':
			end := lineCommentEnd(code, i+2)
			emit(Region{Kind: RegionComment, Start: i, End: end})
			i = end
		case c == '/' && i+1 < n && code[i+1] == '*':
			end := n
			if k := strings.Index(code[i+2:], "*/"); k >= 0 {
				end = i + 2 + k + 2
			}
			emit(Region{Kind: RegionComment, Start: i, End: end})
			i = end
		case c == '"' || c == '\'':
			end, closed := literalEnd(code, i+1, c)
			if end > i+1 {
				kind := RegionString
				if c == '\'' {
					kind = RegionChar
				}
				emit(Region{Kind: kind, Start: i + 1, End: end})
			}
			i = end
			if closed {
				i++
			}
		case isIdentStart(c):
			i++
			for i < n && isIdent(code[i]) {
				i++
			}
		case isDigit(c) || (c == '.' && i+1 < n && isDigit(code[i+1])):
			i = ppNumberEnd(code, i)
		default:
			i++
		}
	}
}

// lineCommentEnd returns the offset of the newline that ends a // comment
// whose text starts at start, following backslash-newline continuations.
func lineCommentEnd(code string, start int) int {
	j := start
	for {
		k := strings.IndexByte(code[j:], '\n')
		if k < 0 {
			return len(code)
		}
		p := j + k
		prev := p - 1
		if prev >= start && code[prev] == '\r' {
			prev--
		}
		if prev >= start && code[prev] == '\\' {
			j = p + 1
			continue
		}
		return p
	}
}

// literalEnd returns the offset of the closing quote q of a literal whose
// contents start at start, and whether the quote was found. An unterminated
// literal ends before an unescaped newline or at the end of the input.
func literalEnd(code string, start int, q byte) (int, bool) {
	n := len(code)
	j := start
	for j < n {
		switch code[j] {
		case '\\':
			if j+2 < n && code[j+1] == '\r' && code[j+2] == '\n' {
				j += 3
			} else {
				j += 2
			}
		case q:
			return j, true
		case '\n':
			return j, false
		default:
			j++
		}
	}
	return n, false
}

// ppNumberEnd returns the end of the preprocessing number starting at i.
func ppNumberEnd(code string, i int) int {
	n := len(code)
	j := i + 1
	for j < n {
		b := code[j]
		switch {
		case (b == 'e' || b == 'E' || b == 'p' || b == 'P') && j+1 < n && (code[j+1] == '+' || code[j+1] == '-'):
			j += 2
		case isIdent(b) || b == '.':
			j++
		case b == '\'' && j+1 < n && isIdent(code[j+1]):
			j += 2
		default:
			return j
		}
	}
	return n
}

// StripComments replaces every comment by spaces. Newlines and carriage
// returns are kept, so the result has the same length, line numbers and byte
// offsets as code.
func StripComments(code string) string {
	return strip(code, true, false)
}

// StripStringLiterals replaces the contents of string and character literals
// (between the quotes) by spaces, keeping the quotes, newlines and carriage
// returns; the result has the same length as code. Comments are left as they
// are.
func StripStringLiterals(code string) string {
	return strip(code, false, true)
}

func strip(code string, comments, literals bool) string {
	b := []byte(code)
	scan(code, func(r Region) {
		if (r.Kind == RegionComment && comments) || (r.Kind != RegionComment && literals) {
			blank(b, r.Start, r.End)
		}
	})
	return string(b)
}

// stripBoth returns the comment-stripped text of code (StripComments) and
// its fully stripped text (comments and literal contents blanked, the
// "stripped" scope) from a single lexer pass.
func stripBoth(code string) (codeOnly, stripped string) {
	a := []byte(code)
	b := []byte(code)
	scan(code, func(r Region) {
		if r.Kind == RegionComment {
			blank(a, r.Start, r.End)
		}
		blank(b, r.Start, r.End)
	})
	return string(a), string(b)
}

// blank overwrites b[s:e] with spaces, keeping line breaks.
func blank(b []byte, s, e int) {
	for k := s; k < e; k++ {
		if c := b[k]; c != '\n' && c != '\r' {
			b[k] = ' '
		}
	}
}

func isIdent(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
