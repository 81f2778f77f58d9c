package csyntax

import (
	"sort"
	"strings"
)

// Assignment is one store of a value into a target: an assignment
// expression (any of = += -= *= /= %= &= |= ^= <<= >>=), a declaration's
// initializer, or a designated initializer (.field = value).
type Assignment struct {
	// Target is the left side as written, whitespace removed
	// ("TIM2->ARR", "cfg.Init.Period", ".Period" for a designator).
	Target string
	// Op is the operator: "=", "|=", ...; a declaration or designator is "=".
	Op string
	// Value is the right side's source text.
	Value string
	// Line is the 1-based line of the store.
	Line int
	// Function is the enclosing function's name, "" at file scope.
	Function string
}

// Assignments returns the stores into target in source order. target
// matches a left side written the same way (whitespace ignored:
// "SYST->LOAD", "*(volatile uint32_t *)0xE000E014"), and, when it is a plain
// name, also a member of that name reached by "." or "->" and a designated
// initializer ".name = value", so that "Period" finds htim.Init.Period = ...,
// cfg->Period |= ... and { .Period = ... }.
func (f *File) Assignments(target string) []Assignment {
	want := squeeze(target)
	plain := isIdentifier(want)
	match := func(left string) bool {
		if left == want {
			return true
		}
		return plain && (strings.HasSuffix(left, "."+want) || strings.HasSuffix(left, "->"+want))
	}
	var out []Assignment
	add := func(left, op, value string, line int) {
		if match(left) {
			out = append(out, Assignment{Target: left, Op: op, Value: strings.TrimSpace(value), Line: line, Function: f.functionAt(line)})
		}
	}
	if ms, err := f.Query(`(assignment_expression left: (_) @left operator: _ @op right: (_) @right)`); err == nil {
		for _, m := range ms {
			l, o, r := m.Captures["left"], m.Captures["op"], m.Captures["right"]
			if len(l) == 1 && len(o) == 1 && len(r) == 1 {
				add(squeeze(l[0].Text), o[0].Text, r[0].Text, l[0].Line)
			}
		}
	}
	if ms, err := f.Query(`(init_declarator declarator: (_) @left value: (_) @right)`); err == nil {
		for _, m := range ms {
			l, r := m.Captures["left"], m.Captures["right"]
			if len(l) == 1 && len(r) == 1 {
				name := strings.TrimLeft(squeeze(l[0].Text), "*")
				if i := strings.IndexByte(name, '['); i >= 0 {
					name = name[:i]
				}
				add(name, "=", r[0].Text, l[0].Line)
			}
		}
	}
	if plain {
		if ms, err := f.Query(`(initializer_pair designator: (field_designator (field_identifier) @field) value: (_) @value)`); err == nil {
			for _, m := range ms {
				fd, v := m.Captures["field"], m.Captures["value"]
				if len(fd) == 1 && len(v) == 1 && fd[0].Text == want {
					out = append(out, Assignment{Target: "." + want, Op: "=", Value: strings.TrimSpace(v[0].Text), Line: fd[0].Line, Function: f.functionAt(fd[0].Line)})
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// functionAt names the function definition spanning line, or "".
func (f *File) functionAt(line int) string {
	for _, fn := range f.Functions() {
		if line >= fn.Line && line <= fn.EndLine {
			return fn.Name
		}
	}
	return ""
}

// squeeze removes every whitespace character.
func squeeze(s string) string {
	return strings.Join(strings.Fields(s), "")
}

func isIdentifier(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
