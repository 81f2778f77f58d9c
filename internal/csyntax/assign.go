package csyntax

import (
	"sort"
	"strings"
)

// Assignment is one store of a value into a target: an assignment
// expression (any of = += -= *= /= %= &= |= ^= <<= >>=), an increment or
// decrement (++ or --, Value ""), a declaration's initializer, or a
// designated initializer (.field = value).
type Assignment struct {
	// Target is the left side as written, whitespace removed but for one
	// space between words ("TIM2->ARR", "cfg.Init.Period", ".Period" for a
	// designator, "*(volatile uint32_t*)0x40000008").
	Target string
	// Op is the operator: "=", "|=", "++", "--", ...; a declaration or
	// designator is "=".
	Op string
	// Value is the right side's source text.
	Value string
	// Line is the 1-based line of the store.
	Line int
	// Function is the enclosing function's name, "" at file scope.
	Function string
}

// Assignments returns the stores into target in source order. target
// matches a left side written the same way (whitespace between words
// counts as one space, other whitespace is ignored:
// "SYST->LOAD", "*(volatile uint32_t *)0xE000E014"), and, when it is a plain
// name, also a member of that name reached by "." or "->" and a designated
// initializer ".name = value", so that "Period" finds htim.Init.Period = ...,
// cfg->Period |= ... and { .Period = ... }. An empty target returns every
// store of the file.
func (f *File) Assignments(target string) []Assignment {
	want := squeeze(target)
	plain := isIdentifier(want)
	all := want == ""
	match := func(left string) bool {
		if all || left == want {
			return true
		}
		return plain && (strings.HasSuffix(left, "."+want) || strings.HasSuffix(left, "->"+want))
	}
	var out []Assignment
	var starts []int
	add := func(left, op, value string, line, start int) {
		if !f.expired() && match(left) {
			out = append(out, Assignment{Target: left, Op: op, Value: strings.TrimSpace(value), Line: line, Function: f.functionAt(line)})
			starts = append(starts, start)
		}
	}
	if ms, err := f.Query(`(assignment_expression left: (_) @left operator: _ @op right: (_) @right)`); err == nil {
		for _, m := range ms {
			l, o, r := m.Captures["left"], m.Captures["op"], m.Captures["right"]
			if len(l) == 1 && len(o) == 1 && len(r) == 1 {
				add(squeeze(l[0].Text), o[0].Text, r[0].Text, l[0].Line, l[0].Start)
			}
		}
	}
	for _, pattern := range []string{`(update_expression argument: (_) @arg operator: _ @op)`, `(update_expression operator: _ @op argument: (_) @arg)`} {
		ms, err := f.Query(pattern)
		if err != nil {
			continue
		}
		for _, m := range ms {
			a, o := m.Captures["arg"], m.Captures["op"]
			if len(a) == 1 && len(o) == 1 {
				add(squeeze(a[0].Text), o[0].Text, "", a[0].Line, min(a[0].Start, o[0].Start))
			}
		}
	}
	if ms, err := f.Query(`(init_declarator declarator: (_) @left value: (_) @right)`); err == nil {
		for _, m := range ms {
			l, r := m.Captures["left"], m.Captures["right"]
			if len(l) == 1 && len(r) == 1 {
				add(declaredName(l[0].Text), "=", r[0].Text, l[0].Line, l[0].Start)
			}
		}
	}
	if plain || all {
		// A designator chain (.Init.Period = 999) names the last field.
		if ms, err := f.Query(`(initializer_pair value: (_) @value) @pair`); err == nil {
			for _, m := range ms {
				pr, v := m.Captures["pair"], m.Captures["value"]
				if len(pr) != 1 || len(v) != 1 {
					continue
				}
				left := squeeze(strings.TrimSuffix(strings.TrimSpace(pr[0].Text[:max(0, len(pr[0].Text)-len(v[0].Text))]), "="))
				if (all && strings.HasPrefix(left, ".")) || (!all && strings.HasSuffix(left, "."+want)) {
					out = append(out, Assignment{Target: left, Op: "=", Value: strings.TrimSpace(v[0].Text), Line: pr[0].Line, Function: f.functionAt(pr[0].Line)})
					starts = append(starts, pr[0].Start)
				}
			}
		}
	}
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return starts[order[i]] < starts[order[j]] })
	sorted := make([]Assignment, len(out))
	for i, k := range order {
		sorted[i] = out[k]
	}
	return sorted
}

// declaredName is the variable a declarator declares: "*const p" and
// "buf[8]" declare p and buf.
func declaredName(declarator string) string {
	fields := strings.Fields(strings.NewReplacer("*", " ", "(", " ", ")", " ").Replace(declarator))
	for _, w := range fields {
		switch w {
		case "const", "volatile", "restrict", "__restrict":
			continue
		}
		if i := strings.IndexByte(w, '['); i >= 0 {
			w = w[:i]
		}
		return w
	}
	return ""
}

// functionAt names the function definition spanning line, or "".
func (f *File) functionAt(line int) string {
	ix := f.functions()
	if ix == nil {
		return ""
	}
	for _, fn := range ix.funcs {
		if line >= fn.Line && line <= fn.EndLine {
			return fn.Name
		}
	}
	return ""
}

// squeeze removes whitespace, except one space between two words that
// would otherwise run together: "*(volatile uint32_t *) 0x40" becomes
// "*(volatile uint32_t*)0x40", still valid C for the value helpers.
func squeeze(s string) string {
	fields := strings.Fields(s)
	var b strings.Builder
	for i, f := range fields {
		if i > 0 && wordByte(fields[i-1][len(fields[i-1])-1]) && wordByte(f[0]) {
			b.WriteByte(' ')
		}
		b.WriteString(f)
	}
	return b.String()
}

// wordByte reports whether c can be part of an identifier or a number.
func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
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
