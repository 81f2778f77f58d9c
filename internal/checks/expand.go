package checks

import (
	"errors"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cexpr"
	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// maxExpandBytes bounds the text one macro expansion produces.
const maxExpandBytes = 64 << 10

// maxExpandDepth bounds the nesting of macro expansions.
const maxExpandDepth = 64

// errExpandTooLarge is the error of an expansion over its bounds.
var errExpandTooLarge = errors.New("macro expansion too large or too deep")

// macroTable holds the macros an expansion may use.
type macroTable struct {
	objects   map[string][]ctok
	functions map[string]cexpr.FuncMacro
}

// fileMacros is the macro table of f (its #defines, the last definition of
// a name winning, over cexpr's builtins), built once per file.
func fileMacros(f *csyntax.File) *macroTable {
	return f.Memo("c.expand macros", func() any {
		t := &macroTable{objects: map[string][]ctok{}, functions: map[string]cexpr.FuncMacro{}}
		for name, body := range cexpr.BuiltinObjects() {
			if name != "true" && name != "false" && name != "NULL" {
				t.objects[name] = tokenizeExpr(body)
			}
		}
		for name, m := range cexpr.Builtins() {
			t.functions[name] = m
		}
		lines := strings.Split(f.Source(), "\n")
		for _, m := range f.Macros() {
			delete(t.objects, m.Name)
			delete(t.functions, m.Name)
			if m.FunctionLike && !wellFormed(lines, m) {
				continue
			}
			if m.FunctionLike {
				t.functions[m.Name] = cexpr.FuncMacro{Params: m.Params, Body: m.Value}
			} else {
				t.objects[m.Name] = tokenizeExpr(m.Value)
			}
		}
		return t
	}).(*macroTable)
}

// wellFormed reports whether the #define line of the function-like macro m
// closes its parameter list with identifiers only: tree-sitter recovers
// "#define BROKEN(x (x + 1)" as a macro with an empty body, which must not
// be expanded.
func wellFormed(lines []string, m csyntax.Macro) bool {
	if m.Line < 1 || m.Line > len(lines) {
		return false
	}
	line := lines[m.Line-1]
	i := strings.Index(line, m.Name+"(")
	if i < 0 {
		return false
	}
	params, _, closed := strings.Cut(line[i+len(m.Name)+1:], ")")
	if !closed {
		return false
	}
	for _, p := range strings.Split(params, ",") {
		p = strings.TrimSpace(p)
		for j := 0; j < len(p); j++ {
			if !isWordByte(p[j]) && p != "..." {
				return false
			}
		}
	}
	return true
}

// expander expands the macros of one text.
type expander struct {
	macros *macroTable
	// size counts the bytes produced, over all levels.
	size int
}

// expandText expands the macros of expr: object-like and function-like
// macros, a macro not being expanded again inside its own expansion.
func expandText(macros *macroTable, expr string) (string, error) {
	e := &expander{macros: macros}
	out, err := e.expand(tokenizeExpr(expr), map[string]bool{}, 0)
	if err != nil {
		return "", err
	}
	return spaceToks(out), nil
}

// expand expands toks with the macros of hidden left alone.
func (e *expander) expand(toks []ctok, hidden map[string]bool, depth int) ([]ctok, error) {
	if depth > maxExpandDepth {
		return nil, errExpandTooLarge
	}
	var out []ctok
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if e.size += len(t.text) + 1; e.size > maxExpandBytes {
			return nil, errExpandTooLarge
		}
		if !t.ident || hidden[t.text] || i > 0 && (toks[i-1].text == "." || toks[i-1].text == "->") {
			out = append(out, t)
			continue
		}
		if body, ok := e.macros.objects[t.text]; ok {
			sub, err := e.expand(body, with(hidden, t.text), depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
			continue
		}
		m, ok := e.macros.functions[t.text]
		if !ok || i+1 >= len(toks) || toks[i+1].text != "(" {
			out = append(out, t)
			continue
		}
		args, end, closed := macroCallArgs(toks, i+1)
		if !closed || !argsFit(m, args) {
			out = append(out, t)
			continue
		}
		sub, err := e.call(t.text, m, args, hidden, depth)
		if err != nil {
			return nil, err
		}
		out = append(out, sub...)
		i = end
	}
	return out, nil
}

// call expands one use of the function-like macro m: the arguments are
// expanded, put in place of the parameters (# and ## applied), and the
// result expanded again with name hidden.
func (e *expander) call(name string, m cexpr.FuncMacro, args [][]ctok, hidden map[string]bool, depth int) ([]ctok, error) {
	args = variadic(m, args)
	expanded := make([][]ctok, len(args))
	for k, a := range args {
		x, err := e.expand(a, hidden, depth+1)
		if err != nil {
			return nil, err
		}
		expanded[k] = x
	}
	body := tokenizeExpr(m.Body)
	var sub []ctok
	for j := 0; j < len(body); j++ {
		b := body[j]
		switch {
		case b.text == "#" && j+1 < len(body) && paramIndex(m, body[j+1].text) >= 0:
			sub = append(sub, ctok{text: `"` + strings.ReplaceAll(spaceToks(args[paramIndex(m, body[j+1].text)]), `"`, `\"`) + `"`, str: true})
			j++
		case b.text == "##" && len(sub) > 0 && j+1 < len(body):
			next := []ctok{body[j+1]}
			if k := paramIndex(m, body[j+1].text); k >= 0 {
				next = args[k]
			}
			j++
			if len(next) == 0 {
				continue
			}
			last := sub[len(sub)-1]
			sub[len(sub)-1] = retoken(last.text + next[0].text)
			sub = append(sub, next[1:]...)
		case paramIndex(m, b.text) >= 0 && b.ident:
			k := paramIndex(m, b.text)
			if j+1 < len(body) && body[j+1].text == "##" {
				sub = append(sub, args[k]...)
			} else {
				sub = append(sub, expanded[k]...)
			}
		default:
			sub = append(sub, b)
		}
		if e.size += len(b.text); e.size > maxExpandBytes {
			return nil, errExpandTooLarge
		}
	}
	return e.expand(sub, with(hidden, name), depth+1)
}

// variadic gathers the arguments of a variadic macro's "..." into one.
func variadic(m cexpr.FuncMacro, args [][]ctok) [][]ctok {
	n := len(m.Params)
	if n == 0 || m.Params[n-1] != "..." {
		return args
	}
	if len(args) < n {
		return append(args, nil)
	}
	var rest []ctok
	for k, a := range args[n-1:] {
		if k > 0 {
			rest = append(rest, ctok{text: ","})
		}
		rest = append(rest, a...)
	}
	return append(args[:n-1:n-1], rest)
}

// retoken is the single token of a pasted text (or an opaque token).
func retoken(text string) ctok {
	if ts := tokenizeExpr(text); len(ts) == 1 {
		return ts[0]
	}
	return ctok{text: text}
}

// paramIndex is the index of name among m's parameters, -1 when it is not one;
// __VA_ARGS__ names the variadic parameter.
func paramIndex(m cexpr.FuncMacro, name string) int {
	for k, p := range m.Params {
		if p == name || p == "..." && name == "__VA_ARGS__" {
			return k
		}
	}
	return -1
}

// argsFit reports whether a macro use has as many arguments as m takes (a
// variadic macro taking the extra ones into its last).
func argsFit(m cexpr.FuncMacro, args [][]ctok) bool {
	n := len(m.Params)
	if n > 0 && m.Params[n-1] == "..." {
		return len(args) >= n-1
	}
	return len(args) == n || n == 0 && len(args) == 1 && len(args[0]) == 0
}

// macroCallArgs reads the arguments of a macro use whose "(" is toks[open]:
// the arguments' tokens, the index of the closing ")", and whether it closes.
func macroCallArgs(toks []ctok, open int) ([][]ctok, int, bool) {
	var args [][]ctok
	var cur []ctok
	level := 0
	for i := open + 1; i < len(toks); i++ {
		t := toks[i]
		switch t.text {
		case "(", "[", "{":
			level++
		case ")", "]", "}":
			if level == 0 && t.text == ")" {
				return append(args, cur), i, true
			}
			level--
		case ",":
			if level == 0 {
				args = append(args, cur)
				cur = nil
				continue
			}
		}
		cur = append(cur, t)
	}
	return nil, 0, false
}

// with is hidden with name added (a copy).
func with(hidden map[string]bool, name string) map[string]bool {
	out := make(map[string]bool, len(hidden)+1)
	for k := range hidden {
		out[k] = true
	}
	out[name] = true
	return out
}

// spaceToks joins tokens with single spaces, none inside brackets, before a
// comma, around member access, after a unary operator, or between a name and
// its call's "(".
func spaceToks(toks []ctok) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && needsSpace(toks, i) {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	return b.String()
}

// needsSpace reports whether a space goes before toks[i].
func needsSpace(toks []ctok, i int) bool {
	prev, cur := toks[i-1].text, toks[i].text
	switch {
	case cur == ")" || cur == "]" || cur == "," || cur == ";" || cur == "." || cur == "->" || cur == "++" && toks[i-1].ident:
		return false
	case prev == "(" || prev == "[" || prev == "." || prev == "->" || prev == "~" || prev == "!":
		return false
	case prev == "-" || prev == "+" || prev == "*" || prev == "&":
		return !unaryAt(toks, i-1)
	case cur == "(" || cur == "[":
		return !(toks[i-1].ident || prev == ")" || prev == "]") || isCKeyword(prev)
	}
	return true
}

// unaryAt reports whether the operator toks[i] is unary (it starts the text
// or follows an operator or an opening bracket).
func unaryAt(toks []ctok, i int) bool {
	if i == 0 {
		return true
	}
	p := toks[i-1]
	return !(p.ident && !isCKeyword(p.text) || p.num || p.str || p.text == ")" || p.text == "]")
}

// isCKeyword reports whether word is a C keyword that precedes expressions.
func isCKeyword(word string) bool {
	switch word {
	case "return", "sizeof", "case", "if", "while", "for", "switch", "else", "do", "goto":
		return true
	}
	return false
}
