package udev

import "strings"

// Rules is a parsed rules file.
type Rules []Rule

// splitKey splits "ATTRS{idVendor}" into key and attribute; key names are
// compared case-insensitively, attributes exactly.
func splitKey(key string) (string, string) {
	key = strings.TrimSpace(key)
	name, attr := key, ""
	if i := strings.IndexByte(key, '{'); i >= 0 && strings.HasSuffix(key, "}") {
		name, attr = key[:i], key[i+1:len(key)-1]
	}
	return strings.ToUpper(name), attr
}

// find reports whether some pair has the given key (and attribute), an
// operator accepted by ops and, when value is not empty, exactly that
// value.
func (rs Rules) find(key, value string, ops func(string) bool) bool {
	name, attr := splitKey(key)
	for _, r := range rs {
		for _, p := range r.Pairs {
			if p.Key == name && p.Attr == attr && ops(p.Op) && (value == "" || p.Value == value) {
				return true
			}
		}
	}
	return false
}

// Matches reports whether some rule compares key with == and, when value
// is not empty, with exactly that value.
func (rs Rules) Matches(key, value string) bool {
	return rs.find(key, value, func(op string) bool { return op == "==" })
}

// Assigns reports whether some rule assigns key with =, += or := and, when
// value is not empty, exactly that value.
func (rs Rules) Assigns(key, value string) bool {
	return rs.find(key, value, func(op string) bool { return op == "=" || op == "+=" || op == ":=" })
}

// RuleMatches reports whether some rule in text matches key (e.g.
// "SUBSYSTEM" or "ATTRS{idVendor}") with == and, when value is not empty,
// that exact value. Values are compared literally: a glob such as "tty*" or
// an alternative "a|b" in the rule only equals the same text. Key names
// are case-insensitive; attributes are case-sensitive. Lines with parse
// errors still contribute the pairs that could be read.
func RuleMatches(text, key, value string) bool {
	rs, _ := Parse(text)
	return rs.Matches(key, value)
}

// RuleAssigns reports whether some rule in text assigns key with =, += or
// := and, when value is not empty, that exact value (compared literally).
func RuleAssigns(text, key, value string) bool {
	rs, _ := Parse(text)
	return rs.Assigns(key, value)
}

// KeyMisuse is a pair written with an operator its key does not support.
type KeyMisuse struct {
	Line int
	Pair Pair
}

// MatchKeysUsedAsAssign returns the pairs that write a match-only key
// (ACTION, DEVPATH, KERNEL, KERNELS, SUBSYSTEM, SUBSYSTEMS, DRIVER, DRIVERS,
// ATTRS, TAGS, TEST, PROGRAM, RESULT, CONST) with an assignment operator
// (=, +=, -=, :=), the classic SUBSYSTEM="tty" bug, in file order.
func MatchKeysUsedAsAssign(text string) []KeyMisuse {
	rs, _ := Parse(text)
	var out []KeyMisuse
	for _, r := range rs {
		for _, p := range r.Pairs {
			if matchOnlyKey(p.Key) && IsAssignOp(p.Op) {
				out = append(out, KeyMisuse{Line: r.Line, Pair: p})
			}
		}
	}
	return out
}
