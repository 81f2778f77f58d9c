// Package mdescape makes data safe to place in the Markdown this project
// writes (reports, the results pull request body, job summaries, the case
// catalogue) as GitHub renders it: as GitHub-flavoured Markdown and then as
// HTML with mentions, issue references and math.
//
// Text is the one escaper for inline text and table cells; Code puts a value
// in a code span when that is safe and falls back to Text otherwise; HTML
// escapes text inside raw HTML (a "<summary>"); URL vets a link
// destination; Plain only cleans text (controls, invalid UTF-8) for an
// output that escapes its own markup, such as the SVG charts; Unescape
// reverses Text for readers of the files.
// Ordinary identifiers (case ids, check names, model names, numbers,
// percentages) come out of Text byte-identical, so reports of ordinary
// input do not change; only characters that Markdown or GitHub would
// interpret are rewritten, and every rewrite renders as the original
// character.
package mdescape

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// breaker is written between "@" and a user name, "#" and an issue number,
// or "GH-" and a number: a zero-width space, as an entity so that it is
// visible in the Markdown source. Rendered text keeps its meaning, but
// GitHub no longer sees a mention or a reference (its filters need the
// name or number right after the sigil).
const breaker = "&#8203;"

// Entities Text writes (and only these: every other "&" that could start
// an entity is itself written as "&amp;").
const (
	entAmp    = "&amp;"
	entLt     = "&lt;"
	entGt     = "&gt;"
	entDollar = "&#36;"
	// entQuot and entApos are written by HTML only.
	entQuot = "&quot;"
	entApos = "&#39;"
)

// Text returns s escaped for GitHub-flavoured Markdown inline text: a table
// cell, a list item, a heading or a paragraph line, at the start of a line
// or after other text. The result holds no line break, control character,
// "<", ">", unescaped "|" or backtick, no HTML or link syntax, no emphasis,
// strikethrough or math delimiter, no "@name" mention, no "#123" or "GH-123"
// reference, and no block marker (heading, list, quote, thematic break) at
// its start. In detail:
//
//   - control characters (C0, DEL, C1), Unicode line and paragraph
//     separators and bidirectional formatting characters become a space;
//     invalid UTF-8 becomes U+FFFD;
//   - backslash, "|", backtick, "*" and "~" are backslash-escaped; "_" is
//     escaped unless its run sits between two letters or digits (intraword
//     underscores, as in uses_k_msleep, cannot make emphasis);
//   - "<" and ">" become "&lt;" and "&gt;", "$" becomes "&#36;", and "&"
//     becomes "&amp;" when a letter or "#" follows (when it could start an
//     entity);
//   - "]" before "(", "[" or ":" is escaped, and so is the "[" of a
//     one-character box ("[ ]", "[x]") at the start, so no link, image,
//     reference or footnote definition or task-list box forms;
//   - "@" before a letter or digit, unless it follows a letter, digit or
//     "_", gets a zero-width space after it ("&#8203;"), as do "#" before a
//     digit and "GH-" before a digit;
//   - at the start (after blanks): "#" is escaped, and so are "-" or "+"
//     before a blank, the "." or ")" of "1." / "1)" before a blank or the
//     end, and the first "-" of a line of dashes; a "#" at the end is
//     escaped (it would close an ATX heading).
//
// Every escape renders as the character it replaces; Unescape inverts Text
// for text without control characters.
func Text(s string) string {
	if !needsWork(s) {
		return s
	}
	rs := []rune(strings.ToValidUTF8(s, "\uFFFD"))
	for i, r := range rs {
		if isControl(r) {
			rs[i] = ' '
		}
	}
	n := len(rs)
	at := func(i int) rune {
		if i < 0 || i >= n {
			return 0
		}
		return rs[i]
	}
	start := 0
	for start < n && (rs[start] == ' ' || rs[start] == '\t') {
		start++
	}
	// olPunct is the index of the "." or ")" of an ordered-list marker at
	// the start, or -1.
	olPunct := -1
	if d := start; d < n && isDigit(rs[d]) {
		for d < n && isDigit(rs[d]) {
			d++
		}
		if d-start <= 9 && (at(d) == '.' || at(d) == ')') && isBlank(at(d+1)) {
			olPunct = d
		}
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < n; i++ {
		r := rs[i]
		switch r {
		case '\\', '|', '`', '*', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '<':
			b.WriteString(entLt)
		case '>':
			b.WriteString(entGt)
		case '$':
			b.WriteString(entDollar)
		case '&':
			if next := at(i + 1); isASCIILetter(next) || next == '#' {
				b.WriteString(entAmp)
			} else {
				b.WriteByte('&')
			}
		case '_':
			j := i
			for j < n && rs[j] == '_' {
				j++
			}
			intraword := isAlnum(at(i-1)) && isAlnum(at(j))
			for ; i < j; i++ {
				if !intraword {
					b.WriteByte('\\')
				}
				b.WriteByte('_')
			}
			i--
		case '[':
			if i == start && at(i+2) == ']' {
				b.WriteByte('\\')
			}
			b.WriteByte('[')
		case ']':
			if next := at(i + 1); next == '(' || next == '[' || next == ':' {
				b.WriteByte('\\')
			}
			b.WriteByte(']')
		case '@':
			b.WriteByte('@')
			if breakAfter(rs, i) {
				b.WriteString(breaker)
			}
		case '#':
			if i == start || i == n-1 {
				b.WriteByte('\\')
			}
			b.WriteByte('#')
			if breakAfter(rs, i) {
				b.WriteString(breaker)
			}
		case '-', '+':
			if next := at(i + 1); i == start && (next == ' ' || next == '\t' || r == '-' && dashLine(rs[start:])) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
			if breakAfter(rs, i) {
				b.WriteString(breaker)
			}
		case '.', ')':
			if i == olPunct {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// needsWork reports whether Text could change s. Strings that start with
// an ASCII letter and hold only ASCII letters, digits, blanks and
// ".,/:%()" are left as they are (the common case: most check names, model
// names, categories); everything else takes the full path.
func needsWork(s string) bool {
	if s == "" {
		return false
	}
	if !isASCIILetter(rune(s[0])) {
		return true
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isASCIIAlnum(rune(c)) && strings.IndexByte(" .,/:%()", c) < 0 {
			return true
		}
	}
	return false
}

// dashLine reports whether rs (from the first non-blank) is a line of
// three or more "-" and blanks only: a thematic break or setext underline.
func dashLine(rs []rune) bool {
	dashes := 0
	for _, r := range rs {
		switch {
		case r == '-':
			dashes++
		case isBlank(r):
		default:
			return false
		}
	}
	return dashes >= 3
}

// Code returns s as a code span ("`s`") when it can be one safely and
// legibly anywhere, in a table cell too: s is not empty, holds no backtick,
// "|", backslash or control character, and neither starts nor ends with a
// blank. Inside a code span GitHub interprets nothing (no HTML, entities,
// links, mentions or references). Otherwise it returns Text(s), unformatted.
func Code(s string) string {
	if s == "" || !utf8.ValidString(s) || strings.ContainsAny(s, "`|\\") || strings.ContainsFunc(s, isControl) ||
		isBlank(rune(s[0])) || isBlank(rune(s[len(s)-1])) {
		return Text(s)
	}
	return "`" + s + "`"
}

// HTML returns s escaped as the text of an HTML element, or a quoted
// attribute value, inside a raw HTML block of the Markdown GitHub renders —
// the "<summary>" of a "<details>" block, for one. There Markdown is not
// interpreted, but entities are decoded and GitHub still turns "@name"
// into a mention and "#123" or "GH-123" into a reference. So: control
// characters (as in Text) become a space and invalid UTF-8 becomes U+FFFD,
// so the result holds no line break (a blank line would end the block);
// "&", "<", ">", `"`, "'" and "$" become "&amp;", "&lt;", "&gt;",
// "&quot;", "&#39;" and "&#36;"; and mentions and references get the
// zero-width space that Text writes ("&#8203;"). Ordinary identifiers come
// out unchanged.
func HTML(s string) string {
	if !needsWork(s) {
		return s
	}
	rs := []rune(Plain(s))
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i, r := range rs {
		switch r {
		case '&':
			b.WriteString(entAmp)
		case '<':
			b.WriteString(entLt)
		case '>':
			b.WriteString(entGt)
		case '"':
			b.WriteString(entQuot)
		case '\'':
			b.WriteString(entApos)
		case '$':
			b.WriteString(entDollar)
		default:
			b.WriteRune(r)
		}
		if breakAfter(rs, i) {
			b.WriteString(breaker)
		}
	}
	return b.String()
}

// Plain returns s as text for an output that escapes its own markup, such
// as the SVG text elements of internal/chart (gonum's vgsvg escapes "&",
// "<", ">" and quotes): invalid UTF-8 becomes U+FFFD, control characters
// (as in Text: C0, DEL, C1, line and paragraph separators, bidirectional
// formatting) become a space, and U+FFFE and U+FFFF, which XML does not
// allow, become U+FFFD. Everything else is left as it is; Plain adds no
// escape of its own, so its result must still be escaped for its context.
func Plain(s string) string {
	if !strings.ContainsFunc(s, notPlain) && utf8.ValidString(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case isControl(r):
			return ' '
		case r == 0xfffe, r == 0xffff:
			return utf8.RuneError
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// notPlain reports the runes Plain replaces.
func notPlain(r rune) bool { return isControl(r) || r == 0xfffe || r == 0xffff }

// breakAfter reports whether the zero-width breaker must follow rs[i] so
// that GitHub sees no mention or reference: an "@" that does not follow a
// word character and precedes an ASCII letter or digit, a "#" before a
// digit, or the "-" of "GH-" (any case, not inside a word) before a digit.
func breakAfter(rs []rune, i int) bool {
	at := func(k int) rune {
		if k < 0 || k >= len(rs) {
			return 0
		}
		return rs[k]
	}
	switch rs[i] {
	case '@':
		return !isWord(at(i-1)) && isASCIIAlnum(at(i+1))
	case '#':
		return isDigit(at(i + 1))
	case '-':
		return isDigit(at(i+1)) && (at(i-1) == 'H' || at(i-1) == 'h') && (at(i-2) == 'G' || at(i-2) == 'g') && !isWord(at(i-3))
	}
	return false
}

// URL returns raw as a safe Markdown link or image destination, or "" when
// it is not one: raw must be an absolute http or https URL with a host and
// without user information, or a path without a scheme or host (a file
// next to the Markdown, or in a dry run on this machine); "javascript:",
// "data:" and every other scheme are refused. Characters that would end
// the destination or the table cell, or start HTML ("(", ")", "<", ">",
// blanks, "|", backslash, backtick, quotes, brackets, braces), and
// non-ASCII bytes are percent-encoded.
func URL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case err != nil || raw == "" || u.User != nil || u.Opaque != "":
		return ""
	case u.Scheme == "" && u.Host != "":
		return ""
	case u.Scheme != "" && (u.Scheme != "https" && u.Scheme != "http" || u.Host == ""):
		return ""
	}
	s := u.String()
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("()<>|\\`\"'[]{}", c) >= 0 {
			b.WriteString("%")
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Unescape reverses Text: it removes the backslash of every escaped ASCII
// punctuation character, decodes the entities Text writes ("&amp;", "&lt;",
// "&gt;", "&#36;") and drops the zero-width breakers ("&#8203;"). For any s
// without control characters or invalid UTF-8, Unescape(Text(s)) == s. It
// is meant for readers of files this project wrote (a table cell, a
// heading); other input is decoded on the same rules.
func Unescape(s string) string {
	if !strings.ContainsAny(s, `\&`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i++
		case c == '&':
			switch rest := s[i:]; {
			case strings.HasPrefix(rest, entAmp):
				b.WriteByte('&')
				i += len(entAmp) - 1
			case strings.HasPrefix(rest, entLt):
				b.WriteByte('<')
				i += len(entLt) - 1
			case strings.HasPrefix(rest, entGt):
				b.WriteByte('>')
				i += len(entGt) - 1
			case strings.HasPrefix(rest, entDollar):
				b.WriteByte('$')
				i += len(entDollar) - 1
			case strings.HasPrefix(rest, breaker):
				i += len(breaker) - 1
			default:
				b.WriteByte(c)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isControl reports the characters Text turns into a space: C0 and C1
// controls, DEL, the Unicode line and paragraph separators and the
// bidirectional formatting characters (which can make text read
// differently from what it is).
func isControl(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029, r == 0x061c, r == 0x200e, r == 0x200f,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// isBlank is a space or tab, or 0 (the end of the text for Text's at).
func isBlank(r rune) bool { return r == ' ' || r == '\t' || r == 0 }

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func isASCIILetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

func isASCIIAlnum(r rune) bool { return isASCIILetter(r) || isDigit(r) }

// isWord is GitHub's word character for mentions: ASCII letter, digit, "_".
func isWord(r rune) bool { return isASCIIAlnum(r) || r == '_' }

// isAlnum is a letter or digit in the sense of CommonMark's flanking rules
// (not whitespace, not punctuation).
func isAlnum(r rune) bool { return r != 0 && (unicode.IsLetter(r) || unicode.IsDigit(r)) }

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
