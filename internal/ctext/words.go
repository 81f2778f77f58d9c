package ctext

import "strings"

// span is a half-open byte range.
type span struct{ start, end int }

// wordMatches returns up to limit (all when limit <= 0) non-overlapping
// matches of word in text with word-boundary semantics: an end of word that
// is an identifier byte must not touch another identifier byte in text. Runs
// of whitespace inside word match one or more whitespace bytes in text, so
// "struct device" also matches "struct\n\tdevice". A word without any
// non-space byte matches nothing.
func wordMatches(text, word string, limit int) []span {
	fields := strings.Fields(word)
	if len(fields) == 0 {
		return nil
	}
	first, last := fields[0], fields[len(fields)-1]
	needStartBoundary := isIdent(first[0])
	needEndBoundary := isIdent(last[len(last)-1])
	var out []span
	pos := 0
	for pos < len(text) {
		k := strings.Index(text[pos:], first)
		if k < 0 {
			break
		}
		s := pos + k
		e, ok := s+len(first), true
		for _, f := range fields[1:] {
			j := e
			for j < len(text) && isSpace(text[j]) {
				j++
			}
			if j == e || !strings.HasPrefix(text[j:], f) {
				ok = false
				break
			}
			e = j + len(f)
		}
		if ok && needStartBoundary && s > 0 && isIdent(text[s-1]) {
			ok = false
		}
		if ok && needEndBoundary && e < len(text) && isIdent(text[e]) {
			ok = false
		}
		if !ok {
			pos = s + 1
			continue
		}
		out = append(out, span{s, e})
		if limit > 0 && len(out) >= limit {
			break
		}
		pos = e
	}
	return out
}

// HasWord reports whether word occurs in the stripped text (comments and
// literal contents removed) with word boundaries. Identifier bytes are
// [A-Za-z0-9_]; a boundary is required only at an end of word that is an
// identifier byte, so "->" or "K_FOREVER)" work too. Whitespace inside word
// matches any run of whitespace. An empty word matches nothing.
func (s *Source) HasWord(word string) bool {
	return len(wordMatches(s.stripped, word, 1)) > 0
}

// normalizeCallName trims whitespace and one trailing "(" so that "foo" and
// "foo(" name the same call.
func normalizeCallName(name string) string {
	name = strings.TrimSpace(name)
	name = strings.TrimSuffix(name, "(")
	return strings.TrimSpace(name)
}

// callMatches returns the spans of name (word boundaries) followed by
// optional whitespace and "(" in the already stripped text, limited to
// [lo, hi).
func callMatches(stripped, name string, lo, hi, limit int) []span {
	name = normalizeCallName(name)
	if name == "" || lo >= hi {
		return nil
	}
	sub := stripped[lo:hi]
	var out []span
	for _, m := range wordMatches(sub, name, 0) {
		j := m.end
		for j < len(sub) && isSpace(sub[j]) {
			j++
		}
		if j < len(sub) && sub[j] == '(' {
			out = append(out, span{lo + m.start, lo + m.end})
			if limit > 0 && len(out) >= limit {
				break
			}
		}
	}
	return out
}

// HasAPICall reports whether name is used as a call in the stripped text:
// a word boundary before name, optional whitespace (newlines included), then
// "(". A trailing "(" in name is ignored. It does not match "my_foo(" for
// foo, nor a mention without parentheses such as "int foo;", but it does
// match the definition "void foo(void) {" and prototypes; CallSites
// excludes those.
func (s *Source) HasAPICall(name string) bool {
	return len(callMatches(s.stripped, name, 0, len(s.stripped), 1)) > 0
}
