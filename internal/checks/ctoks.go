// This file is a C lexer, not a front end: it splits expression and
// macro-body text into tokens for macro expansion (expand.go), for
// substituting values into expressions before cexpr evaluates them
// (follow.go), and for reading a store's target as a name and its members
// (walk.go); tokenize also lists the names a whole file uses outside calls
// (addressTaken). Statements and function bodies are read from csyntax's
// tree-sitter trees (csyntax.File.Body), never from these tokens.

package checks

import "strings"

// ctok is one C token of a function body or an expression.
type ctok struct {
	text string
	line int
	// ident is set for identifiers and keywords, num for numbers, str
	// for string and character literals.
	ident, num, str bool
}

// cPunct are C's punctuators, longest first.
var cPunct = []string{"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##"}

// tokenize splits C source text into tokens, the first line numbered line.
// Comments and preprocessor directives are skipped.
func tokenize(src string, line int) []ctok { return scan(src, line, true) }

// tokenizeExpr splits an expression or a macro body into tokens: "#" is
// an operator there, not a directive.
func tokenizeExpr(src string) []ctok { return scan(src, 0, false) }

// scan splits src into tokens; directives tells whether a "#" starting a
// line is a preprocessor directive.
func scan(src string, line int, directives bool) []ctok {
	var out []ctok
	bol := true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			bol = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\\':
			i++
			continue
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src) - i - 2
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += min(len(src), end+4)
			continue
		case c == '#' && bol && directives:
			j, lines := directive(src, i)
			line += lines
			i = j
			continue
		}
		bol = false
		t, j := scanToken(src, i)
		t.line = line
		out = append(out, t)
		i = j
	}
	return out
}

// directive returns the end of the preprocessor directive at src[i] (its
// continuation lines included, the final newline not) and the newlines it
// spans.
func directive(src string, i int) (end, lines int) {
	k := i + 1
	for k < len(src) && src[k] != '\n' {
		if src[k] == '\\' && k+1 < len(src) && src[k+1] == '\n' {
			lines++
			k++
		}
		k++
	}
	return k, lines
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// scanToken reads the token at src[i] and returns it with the offset after it.
func scanToken(src string, i int) (ctok, int) {
	c := src[i]
	switch {
	case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
		j := i
		for j < len(src) && (isWordByte(src[j]) || src[j] == '.' ||
			(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !strings.HasPrefix(src[i:], "0x")) {
			j++
		}
		return ctok{text: src[i:j], num: true}, j
	case isWordByte(c):
		j := i
		for j < len(src) && isWordByte(src[j]) {
			j++
		}
		return ctok{text: src[i:j], ident: true}, j
	case c == '"' || c == '\'':
		j := i + 1
		for j < len(src) && src[j] != c && src[j] != '\n' {
			if src[j] == '\\' {
				j++
			}
			j++
		}
		j = min(j+1, len(src))
		return ctok{text: src[i:j], str: true}, j
	}
	for _, p := range cPunct {
		if strings.HasPrefix(src[i:], p) {
			return ctok{text: p}, i + len(p)
		}
	}
	return ctok{text: src[i : i+1]}, i + 1
}
