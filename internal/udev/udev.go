// Package udev reads udev rules text (man 7 udev) well enough for checks:
// it splits rules into key-operator-value pairs with line numbers and
// answers which keys a rule matches or assigns. It does not evaluate rules
// against devices and does not expand substitutions or glob patterns.
package udev

import (
	"fmt"
	"strings"
)

// Pair is one key-operator-value triple of a rule.
type Pair struct {
	// Key is the key name as written, e.g. "SUBSYSTEM" or "ATTRS".
	Key string
	// Attr is the text between the braces of ATTR{...}, ATTRS{...},
	// ENV{...} and the like, "" when the key has none.
	Attr string
	// Op is one of ==, !=, =, +=, -=, :=.
	Op string
	// Value is the value without its quotes; \" inside quotes becomes ",
	// and e"..." values have their C escapes decoded.
	Value string
}

// KeyString returns the key as written in rules: KEY or KEY{attr}.
func (p Pair) KeyString() string {
	if p.Attr == "" {
		return p.Key
	}
	return p.Key + "{" + p.Attr + "}"
}

// Rule is one logical rule line.
type Rule struct {
	// Line is the 1-based line on which the rule starts (a rule may be
	// continued over several lines with a trailing backslash).
	Line  int
	Pairs []Pair
}

// ParseError is a problem found on one line. Parsing goes on after it.
type ParseError struct {
	Line int
	Msg  string
}

// Error implements error.
func (e ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// IsMatchOp reports whether op compares (== or !=).
func IsMatchOp(op string) bool { return op == "==" || op == "!=" }

// IsAssignOp reports whether op assigns (=, +=, -=, :=).
func IsAssignOp(op string) bool { return op == "=" || op == "+=" || op == "-=" || op == ":=" }

// keyInfo describes what udev allows for a key.
type keyInfo struct {
	match, assign bool
	attr          int // 0 no attribute, 1 optional, 2 required
}

// lookupKey returns udev's rules for key name k, following man 7 udev.
func lookupKey(k string) (keyInfo, bool) {
	switch k {
	case "ACTION", "DEVPATH", "KERNEL", "KERNELS", "SUBSYSTEM", "SUBSYSTEMS", "DRIVER", "DRIVERS",
		"TAGS", "PROGRAM", "RESULT":
		return keyInfo{match: true}, true
	case "ATTRS", "CONST":
		return keyInfo{match: true, attr: 2}, true
	case "TEST":
		return keyInfo{match: true, attr: 1}, true
	case "NAME", "SYMLINK", "TAG":
		return keyInfo{match: true, assign: true}, true
	case "ATTR", "SYSCTL", "ENV":
		return keyInfo{match: true, assign: true, attr: 2}, true
	case "OWNER", "GROUP", "MODE", "LABEL", "GOTO", "OPTIONS":
		return keyInfo{assign: true}, true
	case "SECLABEL":
		return keyInfo{assign: true, attr: 2}, true
	case "RUN":
		return keyInfo{assign: true, attr: 1}, true
	case "IMPORT":
		// IMPORT{type} is written with = but acts as a match on success.
		return keyInfo{match: true, assign: true, attr: 2}, true
	}
	return keyInfo{}, false
}

// matchOnlyKey reports whether k may only be compared, never assigned.
func matchOnlyKey(k string) bool {
	info, ok := lookupKey(k)
	return ok && info.match && !info.assign
}

// logicalLine is a rule line after joining continuations.
type logicalLine struct {
	line int
	text string
}

// joinLines splits text into logical lines: a line ending in a backslash
// continues on the next line, and lines whose first non-blank byte is '#'
// are comments.
func joinLines(text string) []logicalLine {
	raw := strings.Split(text, "\n")
	var out []logicalLine
	for i := 0; i < len(raw); i++ {
		start := i
		l := strings.TrimRight(raw[i], "\r")
		var b strings.Builder
		for strings.HasSuffix(l, "\\") && i+1 < len(raw) {
			b.WriteString(l[:len(l)-1])
			i++
			l = strings.TrimRight(raw[i], "\r")
		}
		if strings.HasSuffix(l, "\\") {
			l = l[:len(l)-1]
		}
		b.WriteString(l)
		s := strings.TrimSpace(b.String())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		out = append(out, logicalLine{line: start + 1, text: b.String()})
	}
	return out
}

// Parse splits udev rules text into rules. Separators between pairs are
// commas and/or whitespace. Problems (missing operator, unterminated
// quote, unknown key, an attribute a key needs or cannot take, an unquoted
// value, an operator the key does not support) are reported as
// ParseErrors (a match-only key written with an assignment operator is one
// too); pairs that could be read are kept, and a line that cannot be
// read further stops at the problem.
func Parse(text string) (Rules, []ParseError) {
	var rules Rules
	var errs []ParseError
	for _, ll := range joinLines(text) {
		r := Rule{Line: ll.line}
		s := ll.text
		i := 0
		fail := func(format string, args ...any) {
			errs = append(errs, ParseError{Line: ll.line, Msg: fmt.Sprintf(format, args...)})
		}
		for {
			for i < len(s) && (s[i] == ',' || s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if i >= len(s) {
				break
			}
			p, next, msg, keep := parsePair(s, i)
			if msg != "" {
				fail("%s", msg)
				if !keep {
					break
				}
			}
			info, known := lookupKey(p.Key)
			switch {
			case !known:
				fail("unknown key %q", p.Key)
			case info.attr == 2 && p.Attr == "":
				fail("key %s needs an attribute, as in %s{name}", p.Key, p.Key)
			case info.attr == 0 && p.Attr != "":
				fail("key %s takes no attribute, found %s", p.Key, p.KeyString())
			case IsMatchOp(p.Op) && !info.match:
				fail("key %s cannot be compared with %s", p.Key, p.Op)
			case IsAssignOp(p.Op) && !info.assign:
				fail("key %s can only be compared (== or !=), found %s", p.Key, p.Op)
			}
			r.Pairs = append(r.Pairs, p)
			if next <= i {
				break
			}
			i = next
		}
		if len(r.Pairs) > 0 {
			rules = append(rules, r)
		}
	}
	return rules, errs
}

// parsePair reads KEY[{attr}]OP"value" at s[i:] and returns the pair, the
// offset after it, a message when it cannot be read cleanly and whether
// the pair is still usable. An unquoted value (up to the next comma or
// blank) and an unterminated quoted value are usable but reported, as udev
// rejects them.
func parsePair(s string, i int) (Pair, int, string, bool) {
	var p Pair
	j := i
	for j < len(s) && (isUpper(s[j]) || s[j] == '_' || (s[j] >= '0' && s[j] <= '9')) {
		j++
	}
	if j == i {
		return p, j, fmt.Sprintf("expected a key at %q", clip(s[i:])), false
	}
	p.Key = s[i:j]
	if j < len(s) && s[j] == '{' {
		k := strings.IndexByte(s[j:], '}')
		if k < 0 {
			return p, j, fmt.Sprintf("unterminated attribute after %s{", p.Key), false
		}
		p.Attr = s[j+1 : j+k]
		j += k + 1
	}
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	for _, op := range []string{"==", "!=", "+=", "-=", ":=", "="} {
		if strings.HasPrefix(s[j:], op) {
			p.Op = op
			j += len(op)
			break
		}
	}
	if p.Op == "" {
		return p, j, fmt.Sprintf("expected an operator after %s, found %q", p.KeyString(), clip(s[j:])), false
	}
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	escapes := false
	if strings.HasPrefix(s[j:], `e"`) {
		escapes = true
		j++
	}
	if j >= len(s) || s[j] != '"' {
		k := j
		for k < len(s) && s[k] != ',' && s[k] != ' ' && s[k] != '\t' {
			k++
		}
		p.Value = s[j:k]
		return p, k, fmt.Sprintf("value of %s is not quoted", p.KeyString()), true
	}
	var b strings.Builder
	k := j + 1
	for ; k < len(s); k++ {
		c := s[k]
		if c == '"' {
			p.Value = b.String()
			return p, k + 1, "", true
		}
		if c == '\\' && k+1 < len(s) {
			if escapes {
				b.WriteByte(unescape(s[k+1]))
				k++
				continue
			}
			if s[k+1] == '"' {
				b.WriteByte('"')
				k++
				continue
			}
		}
		b.WriteByte(c)
	}
	p.Value = b.String()
	return p, k, fmt.Sprintf("unterminated quoted value of %s", p.KeyString()), true
}

// unescape decodes the byte after a backslash in an e"..." value.
func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'a':
		return '\a'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'v':
		return '\v'
	}
	return c
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// clip shortens s for messages.
func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "..."
	}
	return s
}
