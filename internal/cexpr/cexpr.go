// Package cexpr evaluates C integer constant expressions the way check files
// need them: a register value, a reload count or a timeout written with
// macros, enum constants, const variables, casts and arithmetic
// (`CORE_CLOCK_HZ / TICK_RATE_HZ - 1U`, `BIT(3) | BIT(0)`, `(uint16_t)~0`).
package cexpr

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// FuncMacro is a function-like macro: #define NAME(params) body.
type FuncMacro struct {
	Params []string
	Body   string
}

// Env resolves the identifiers of an expression.
type Env struct {
	// Objects maps a name to the text it stands for: object-like macros,
	// enum constants and const variables.
	Objects map[string]string
	// Functions maps a name to a function-like macro.
	Functions map[string]FuncMacro
}

// maxDepth bounds macro expansion, so self-referring macros stop.
const maxDepth = 32

// Builtins are the function-like macros known without a definition in the
// code (Zephyr and Linux spellings): BIT, BIT64, KB, MB, GENMASK, and the
// devicetree size and frequency helpers DT_SIZE_K/M, DT_FREQ_K/M.
func Builtins() map[string]FuncMacro {
	return map[string]FuncMacro{
		"BIT":     {Params: []string{"n"}, Body: "(1UL << (n))"},
		"BIT64":   {Params: []string{"n"}, Body: "(1ULL << (n))"},
		"KB":      {Params: []string{"x"}, Body: "((x) << 10)"},
		"MB":      {Params: []string{"x"}, Body: "((x) << 20)"},
		"GENMASK": {Params: []string{"h", "l"}, Body: "(((~0UL) << (l)) & (~0UL >> (63 - (h))))"},
		// Zephyr's devicetree helpers (dts/common/mem.h, freq.h).
		"DT_SIZE_K": {Params: []string{"x"}, Body: "((x) * 1024)"},
		"DT_SIZE_M": {Params: []string{"x"}, Body: "((x) * 1024 * 1024)"},
		"DT_FREQ_K": {Params: []string{"x"}, Body: "((x) * 1000)"},
		"DT_FREQ_M": {Params: []string{"x"}, Body: "((x) * 1000 * 1000)"},
	}
}

// BuiltinObjects are the object-like constants known without a definition:
// the <stdint.h> limits and the time-unit constants of Zephyr and Linux.
func BuiltinObjects() map[string]string {
	return map[string]string{
		"UINT8_MAX": "255", "UINT16_MAX": "65535", "UINT32_MAX": "4294967295", "INT8_MAX": "127",
		"INT16_MAX": "32767", "INT32_MAX": "2147483647", "INT32_MIN": "(-2147483647 - 1)",
		"MSEC_PER_SEC": "1000", "USEC_PER_MSEC": "1000", "USEC_PER_SEC": "1000000",
		"NSEC_PER_USEC": "1000", "NSEC_PER_MSEC": "1000000", "NSEC_PER_SEC": "1000000000",
		"true": "1", "false": "0", "NULL": "0",
	}
}

// Eval evaluates expr in 64-bit signed arithmetic. Casts to 8-, 16- and
// 32-bit types truncate (and sign-extend for signed ones). The error says
// what is not constant: an unknown identifier, a call, sizeof, a division
// by zero.
func Eval(expr string, env Env) (int64, error) {
	return eval(expr, env, 0)
}

func eval(expr string, env Env, depth int) (int64, error) {
	if depth > maxDepth {
		return 0, errors.New("macro expansion too deep (recursive macro?)")
	}
	toks, err := lex(expr)
	if err != nil {
		return 0, err
	}
	p := &parser{toks: toks, env: env, depth: depth}
	v, err := p.ternary()
	if err != nil {
		return 0, err
	}
	if p.pos < len(p.toks) {
		return 0, fmt.Errorf("unexpected %q", p.toks[p.pos].text)
	}
	return v, nil
}

type tokKind int

const (
	tNum tokKind = iota
	tIdent
	tOp
)

type token struct {
	kind tokKind
	text string
	val  int64
}

var ops = []string{"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "(", ")", "?", ":", ","}

func lex(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\':
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (isIdentByte(s[j]) || s[j] == '.') {
				j++
			}
			v, err := number(s[i:j])
			if err != nil {
				return nil, err
			}
			out = append(out, token{kind: tNum, text: s[i:j], val: v})
			i = j
		case isIdentByte(c):
			j := i
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			out = append(out, token{kind: tIdent, text: s[i:j]})
			i = j
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated character literal")
			}
			lit, err := strconv.Unquote(s[i : i+j+2])
			if err != nil || len(lit) != 1 {
				return nil, fmt.Errorf("unsupported character literal %s", s[i:i+j+2])
			}
			out = append(out, token{kind: tNum, text: s[i : i+j+2], val: int64(lit[0])})
			i += j + 2
		default:
			matched := false
			for _, op := range ops {
				if strings.HasPrefix(s[i:], op) {
					out = append(out, token{kind: tOp, text: op})
					i += len(op)
					matched = true
					break
				}
			}
			if !matched {
				return nil, fmt.Errorf("unexpected character %q", c)
			}
		}
	}
	return out, nil
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// number parses a C integer literal with its suffixes.
func number(lit string) (int64, error) {
	s := strings.TrimRight(lit, "uUlL")
	if strings.ContainsAny(s, ".") {
		return 0, fmt.Errorf("%s is not an integer", lit)
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	u, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return 0, fmt.Errorf("bad integer literal %s", lit)
	}
	return int64(u), nil
}

type parser struct {
	toks  []token
	pos   int
	env   Env
	depth int
}

func (p *parser) peek() string {
	if p.pos < len(p.toks) && p.toks[p.pos].kind == tOp {
		return p.toks[p.pos].text
	}
	return ""
}

func (p *parser) accept(op string) bool {
	if p.peek() == op {
		p.pos++
		return true
	}
	return false
}

func (p *parser) ternary() (int64, error) {
	c, err := p.binary(0)
	if err != nil || !p.accept("?") {
		return c, err
	}
	a, err := p.ternary()
	if err != nil {
		return 0, err
	}
	if !p.accept(":") {
		return 0, errors.New("missing : of ?:")
	}
	b, err := p.ternary()
	if err != nil {
		return 0, err
	}
	if c != 0 {
		return a, nil
	}
	return b, nil
}

// levels are the binary operators from the loosest to the tightest.
var levels = [][]string{{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}}

func (p *parser) binary(level int) (int64, error) {
	if level == len(levels) {
		return p.unary()
	}
	left, err := p.binary(level + 1)
	if err != nil {
		return 0, err
	}
	for {
		op := ""
		for _, o := range levels[level] {
			if p.peek() == o {
				op = o
			}
		}
		if op == "" {
			return left, nil
		}
		p.pos++
		right, err := p.binary(level + 1)
		if err != nil {
			return 0, err
		}
		if left, err = apply(op, left, right); err != nil {
			return 0, err
		}
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func apply(op string, a, b int64) (int64, error) {
	switch op {
	case "||":
		return b2i(a != 0 || b != 0), nil
	case "&&":
		return b2i(a != 0 && b != 0), nil
	case "|":
		return a | b, nil
	case "^":
		return a ^ b, nil
	case "&":
		return a & b, nil
	case "==":
		return b2i(a == b), nil
	case "!=":
		return b2i(a != b), nil
	case "<":
		return b2i(a < b), nil
	case "<=":
		return b2i(a <= b), nil
	case ">":
		return b2i(a > b), nil
	case ">=":
		return b2i(a >= b), nil
	case "<<", ">>":
		if b < 0 || b > 63 {
			return 0, fmt.Errorf("shift by %d", b)
		}
		if op == "<<" {
			return a << uint(b), nil
		}
		return int64(uint64(a) >> uint(b)), nil
	case "+":
		return a + b, nil
	case "-":
		return a - b, nil
	case "*":
		return a * b, nil
	case "/", "%":
		if b == 0 {
			return 0, errors.New("division by zero")
		}
		if op == "/" {
			return a / b, nil
		}
		return a % b, nil
	}
	return 0, fmt.Errorf("unknown operator %s", op)
}

func (p *parser) unary() (int64, error) {
	switch {
	case p.accept("-"):
		v, err := p.unary()
		return -v, err
	case p.accept("+"):
		return p.unary()
	case p.accept("~"):
		v, err := p.unary()
		return ^v, err
	case p.accept("!"):
		v, err := p.unary()
		return b2i(v == 0), err
	}
	if p.peek() == "(" {
		if width, signed, n, ok := p.castAt(p.pos); ok {
			p.pos = n
			v, err := p.unary()
			if err != nil {
				return 0, err
			}
			return truncate(v, width, signed), nil
		}
	}
	return p.primary()
}

// typeWords are the words a cast's type name may consist of.
func typeWidth(words []string) (width int, signed bool, ok bool) {
	width, signed = 64, true
	for _, w := range words {
		switch w {
		case "const", "volatile", "long", "int", "signed", "*":
		case "unsigned":
			signed = false
		case "char":
			width = 8
		case "short":
			width = 16
		case "uint8_t", "int8_t", "uint16_t", "int16_t", "uint32_t", "int32_t", "uint64_t", "int64_t":
			signed = w[0] == 'i'
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(w, "u"), "int"), "_t"))
			width = n
		case "size_t", "uintptr_t", "intptr_t", "bool", "_Bool", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64":
			switch w {
			case "u8", "s8":
				width = 8
			case "u16", "s16":
				width = 16
			case "u32", "s32":
				width = 32
			}
			signed = w[0] == 's' || w == "intptr_t"
		default:
			return 0, false, false
		}
	}
	if len(words) > 0 && (words[len(words)-1] == "int" || words[len(words)-1] == "unsigned") && width == 64 && !contains(words, "long") {
		width = 32
	}
	if contains(words, "*") {
		width, signed = 64, false
	}
	return width, signed, len(words) > 0
}

func contains(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// castAt reports whether a cast "(type)" starts at token i, and returns the
// type's width, signedness and the token after ")".
func (p *parser) castAt(i int) (int, bool, int, bool) {
	var words []string
	j := i + 1
	for ; j < len(p.toks); j++ {
		t := p.toks[j]
		if t.kind == tOp && t.text == ")" {
			break
		}
		if t.kind == tOp && t.text != "*" {
			return 0, false, 0, false
		}
		if t.kind == tNum {
			return 0, false, 0, false
		}
		words = append(words, t.text)
	}
	if j >= len(p.toks) || j+1 >= len(p.toks) {
		return 0, false, 0, false
	}
	width, signed, ok := typeWidth(words)
	if !ok {
		return 0, false, 0, false
	}
	return width, signed, j + 1, true
}

func truncate(v int64, width int, signed bool) int64 {
	if width >= 64 {
		return v
	}
	mask := int64(1)<<uint(width) - 1
	v &= mask
	if signed && v&(int64(1)<<uint(width-1)) != 0 {
		v -= int64(1) << uint(width)
	}
	return v
}

func (p *parser) primary() (int64, error) {
	if p.pos >= len(p.toks) {
		return 0, errors.New("expression ends early")
	}
	t := p.toks[p.pos]
	p.pos++
	switch t.kind {
	case tNum:
		return t.val, nil
	case tIdent:
		return p.identifier(t.text)
	}
	if t.text == "(" {
		v, err := p.ternary()
		if err != nil {
			return 0, err
		}
		if !p.accept(")") {
			return 0, errors.New("missing )")
		}
		return v, nil
	}
	return 0, fmt.Errorf("unexpected %q", t.text)
}

func (p *parser) identifier(name string) (int64, error) {
	if name == "sizeof" {
		return 0, errors.New("sizeof is not evaluated")
	}
	if p.peek() == "(" {
		m, ok := p.env.Functions[name]
		if !ok {
			m, ok = Builtins()[name]
		}
		if !ok {
			return 0, fmt.Errorf("%s(...) is a call, not a constant", name)
		}
		args, err := p.macroArgs()
		if err != nil {
			return 0, err
		}
		if len(args) != len(m.Params) {
			return 0, fmt.Errorf("%s takes %d arguments, got %d", name, len(m.Params), len(args))
		}
		return eval(substitute(m, args), p.env, p.depth+1)
	}
	text, ok := p.env.Objects[name]
	if !ok {
		text, ok = BuiltinObjects()[name]
	}
	if !ok {
		return 0, fmt.Errorf("%s is not a known constant", name)
	}
	return eval(text, p.env, p.depth+1)
}

// macroArgs reads "( a, b )" after a function-like macro name, as raw text.
func (p *parser) macroArgs() ([]string, error) {
	p.pos++ // (
	var args []string
	var cur []string
	depth := 0
	for p.pos < len(p.toks) {
		t := p.toks[p.pos]
		p.pos++
		switch {
		case t.kind == tOp && t.text == "(":
			depth++
		case t.kind == tOp && t.text == ")" && depth == 0:
			if len(cur) > 0 || len(args) > 0 {
				args = append(args, strings.Join(cur, " "))
			}
			return args, nil
		case t.kind == tOp && t.text == ")":
			depth--
		case t.kind == tOp && t.text == "," && depth == 0:
			args = append(args, strings.Join(cur, " "))
			cur = nil
			continue
		}
		cur = append(cur, t.text)
	}
	return nil, errors.New("macro arguments not closed")
}

// substitute replaces the parameters of m's body by the arguments.
func substitute(m FuncMacro, args []string) string {
	toks, err := lex(m.Body)
	if err != nil {
		return m.Body
	}
	var b strings.Builder
	for _, t := range toks {
		text := t.text
		if t.kind == tIdent {
			for i, param := range m.Params {
				if param == t.text {
					text = "(" + args[i] + ")"
				}
			}
		}
		b.WriteString(text)
		b.WriteByte(' ')
	}
	return b.String()
}
