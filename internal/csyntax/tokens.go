package csyntax

import "strings"

// cTokens splits a short piece of C source (a declaration, an argument, an
// attribute) into token texts for token-wise comparison: identifiers and
// numbers (runs of identifier bytes), string and character literals (one
// token each, quotes included) and single punctuation bytes. Comments and
// whitespace separate tokens and are dropped, so "__aligned( 4 )" and
// "__aligned(4)" give the same tokens.
func cTokens(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '\\':
			i++
		case strings.HasPrefix(text[i:], "//"):
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case strings.HasPrefix(text[i:], "/*"):
			if k := strings.Index(text[i+2:], "*/"); k >= 0 {
				i += k + 4
			} else {
				i = len(text)
			}
		case c == '"' || c == '\'':
			j := skipQuoted(text, i)
			out = append(out, text[i:j])
			i = j
		case isIdentPart(c):
			j := i + 1
			for j < len(text) && isIdentPart(text[j]) {
				j++
			}
			out = append(out, text[i:j])
			i = j
		default:
			out = append(out, text[i:i+1])
			i++
		}
	}
	return out
}

// hasToken reports whether the identifier word is one of text's tokens
// (outside comments and literals).
func hasToken(text, word string) bool {
	for _, t := range cTokens(text) {
		if t == word {
			return true
		}
	}
	return false
}

// containsRun reports whether want occurs as a contiguous run of hay; an
// empty want occurs nowhere.
func containsRun(hay, want []string) bool {
	if len(want) == 0 {
		return false
	}
outer:
	for i := 0; i+len(want) <= len(hay); i++ {
		for j, w := range want {
			if hay[i+j] != w {
				continue outer
			}
		}
		return true
	}
	return false
}
