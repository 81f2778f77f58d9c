// Package cexpr evaluates C integer constant expressions the way check files
// need them: a register value, a reload count or a timeout written with
// macros, enum constants, const variables, casts and arithmetic
// (`CORE_CLOCK_HZ / TICK_RATE_HZ - 1U`, `BIT(3) | BIT(0)`, `(uint16_t)~0`).
package cexpr

import (
	"errors"
	"fmt"
	"maps"
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
	// Types maps a typedef name to the type it stands for ("uint32_t",
	// "unsigned long"), for casts; BuiltinTypes are known without one.
	Types map[string]string
	// Sizeof answers sizeof of an operand that is not a type the evaluator
	// knows: a declared object ("buf", "buf[0]", "*table"), as its text
	// as the tokens joined by one space. nil, or false: not constant.
	Sizeof func(operand string) (int64, bool)
}

// BuiltinTypes are the integer typedefs casts may name without the code
// defining them: the C standard's and POSIX's (ILP32 targets), and the
// SDKs' of data/sdk_macros.yaml (TickType_t, esp_err_t, __u32, ...).
func BuiltinTypes() map[string]string {
	return withSDK(map[string]string{
		"uint_fast8_t": "uint32_t", "uint_fast16_t": "uint32_t", "uint_fast32_t": "uint32_t",
		"int_fast8_t": "int32_t", "int_fast16_t": "int32_t", "int_fast32_t": "int32_t",
		"uint_least8_t": "uint8_t", "uint_least16_t": "uint16_t", "uint_least32_t": "uint32_t",
		"uintmax_t": "uint64_t", "intmax_t": "int64_t",
		"ssize_t": "int", "off_t": "long", "time_t": "int64_t",
	}, embeddedSDK().Types)
}

// maxDepth bounds macro expansion, so self-referring macros stop.
const maxDepth = 32

// maxWork bounds the text one evaluation lexes, macro expansions included,
// so that macros whose expansion grows at every level (a macro repeating its
// argument, applied to itself) stop early instead of running for hours.
const maxWork = 1 << 20

// errTooLarge is the error of an evaluation over maxWork.
var errTooLarge = fmt.Errorf("macro expansion too large (more than %d bytes)", maxWork)

// Builtins are the function-like macros known without a definition in the
// code: the SDKs' of data/sdk_macros.yaml (BIT, BIT64, KB, MB, GENMASK, the
// devicetree size and frequency helpers DT_SIZE_K/M, DT_FREQ_K/M).
func Builtins() map[string]FuncMacro {
	return maps.Clone(embeddedSDK().Functions)
}

// BuiltinObjects are the object-like constants known without a definition:
// the C standard's (the <stdint.h> limits, true, false, NULL, EXIT_SUCCESS,
// EXIT_FAILURE), and the SDKs' of data/sdk_macros.yaml (time-unit
// constants of Zephyr and Linux, status constants of FreeRTOS, STM32 HAL,
// ESP-IDF and PSA).
func BuiltinObjects() map[string]string {
	return withSDK(map[string]string{
		"UINT8_MAX": "255", "UINT16_MAX": "65535", "UINT32_MAX": "4294967295U", "INT8_MAX": "127",
		"INT16_MAX": "32767", "INT32_MAX": "2147483647", "INT32_MIN": "(-2147483647 - 1)",
		"true": "1", "false": "0", "NULL": "0", "EXIT_SUCCESS": "0", "EXIT_FAILURE": "1",
	}, embeddedSDK().Objects)
}

// Value is an integer with its C type: Width 32 or 64 bits, signed or not.
// Bits holds the value's bits, masked to Width.
type Value struct {
	Bits     uint64
	Width    int
	Unsigned bool
}

// Int64 is the value as a signed number (an unsigned 64-bit value above
// 2^63-1 wraps; Unsigned says to read Bits instead).
func (v Value) Int64() int64 {
	if v.Unsigned || v.Width == 64 {
		return int64(v.Bits)
	}
	return int64(int32(uint32(v.Bits)))
}

// mk builds a value of the given type from the low bits of x.
func mk(x uint64, width int, unsigned bool) Value {
	if width < 64 {
		x &= 1<<uint(width) - 1
	}
	return Value{Bits: x, Width: width, Unsigned: unsigned}
}

// intValue is the C int of a truth value or a small count.
func intValue(x int64) Value { return mk(uint64(x), 32, false) }

// Eval evaluates expr with C's integer rules on a 32-bit target (ILP32: int,
// long and pointers are 32 bits, long long 64): literals take the first type
// that holds them, the usual arithmetic conversions pick each operation's
// type, unsigned arithmetic wraps, a signed right shift is arithmetic, casts
// to 8- and 16-bit types truncate (then promote to int). The error says what
// is not constant: an unknown identifier, a call, sizeof, a division by zero.
func Eval(expr string, env Env) (int64, error) {
	v, err := EvalValue(expr, env)
	return v.Int64(), err
}

// EvalValue is Eval keeping the value's C type.
func EvalValue(expr string, env Env) (Value, error) {
	work := 0
	n, err := eval(expr, env, 0, &work, false)
	return n.Int, err
}

// EvalNum is EvalValue allowing floating point: literals ("1.5f", "1e-3",
// ".5"), arithmetic with C's usual conversions (an integer meeting a float
// becomes float, float meeting double becomes double), and casts to and from
// float and double (an integer cast truncates toward zero; a value out of the
// integer type's range is not constant).
func EvalNum(expr string, env Env) (Num, error) {
	work := 0
	return eval(expr, env, 0, &work, true)
}

// eval evaluates expr at macro depth depth; work counts the bytes lexed so
// far by the whole evaluation; floats allows floating-point values.
func eval(expr string, env Env, depth int, work *int, floats bool) (Num, error) {
	if depth > maxDepth {
		return Num{}, errors.New("macro expansion too deep (recursive macro?)")
	}
	if *work += len(expr) + 1; *work > maxWork {
		return Num{}, errTooLarge
	}
	toks, err := lex(expr, floats)
	if err != nil {
		return Num{}, err
	}
	p := &parser{toks: toks, env: env, depth: depth, work: work, floats: floats}
	v, err := p.ternary()
	if err != nil {
		return Num{}, err
	}
	if p.pos < len(p.toks) {
		return Num{}, fmt.Errorf("unexpected %q", p.toks[p.pos].text)
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
	val  Num
}

var ops = []string{"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "(", ")", "?", ":", ",", "[", "]"}

// lex splits s into tokens; floats allows floating-point literals.
func lex(s string, floats bool) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\':
			i++
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return nil, errors.New("unterminated comment")
			}
			i += end + 4
		case c >= '0' && c <= '9' || floats && c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := numberEnd(s, i, floats)
			v, err := literal(s[i:j], floats)
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
			out = append(out, token{kind: tNum, text: s[i : i+j+2], val: Num{Int: intValue(int64(lit[0]))}})
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

// number parses a C integer literal and gives it the first type that holds
// it (C11 6.4.4.1, ILP32): decimal int, long, long long; octal and hex also
// their unsigned forms; a u suffix only unsigned ones, l/ll the longer ones.
func number(lit string) (Value, error) {
	body := strings.TrimRight(lit, "uUlL")
	suffix := strings.ToLower(lit[len(body):])
	if strings.ContainsAny(body, ".") {
		return Value{}, fmt.Errorf("%s is not an integer", lit)
	}
	s, base := body, 10
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
		return Value{}, fmt.Errorf("bad integer literal %s", lit)
	}
	unsignedOK := base != 10 || strings.Contains(suffix, "u")
	signedOK := !strings.Contains(suffix, "u")
	minWidth := 32
	if strings.Count(suffix, "l") == 2 {
		minWidth = 64
	}
	for _, w := range []int{32, 64} {
		if w < minWidth {
			continue
		}
		if signedOK && u <= 1<<uint(w-1)-1 {
			return mk(u, w, false), nil
		}
		if unsignedOK && (w == 64 || u <= 1<<uint(w)-1) {
			return mk(u, w, true), nil
		}
	}
	return mk(u, 64, true), nil
}

type parser struct {
	toks   []token
	pos    int
	env    Env
	depth  int
	work   *int
	floats bool
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

func (p *parser) ternary() (Num, error) {
	c, err := p.binary(0)
	if err != nil || !p.accept("?") {
		return c, err
	}
	a, err := p.ternary()
	if err != nil {
		return Num{}, err
	}
	if !p.accept(":") {
		return Num{}, errors.New("missing : of ?:")
	}
	b, err := p.ternary()
	if err != nil {
		return Num{}, err
	}
	a, b = convertNum(a, b)
	if c.truth() {
		return a, nil
	}
	return b, nil
}

// levels are the binary operators from the loosest to the tightest.
var levels = [][]string{{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}}

func (p *parser) binary(level int) (Num, error) {
	if level == len(levels) {
		return p.unary()
	}
	left, err := p.binary(level + 1)
	if err != nil {
		return Num{}, err
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
			return Num{}, err
		}
		if left, err = applyNum(op, left, right); err != nil {
			return Num{}, err
		}
	}
}

func b2i(b bool) Value {
	if b {
		return intValue(1)
	}
	return intValue(0)
}

// convert applies the usual arithmetic conversions: the wider type wins;
// at equal width, unsigned wins.
func convert(a, b Value) (Value, Value) {
	w, u := a.Width, a.Unsigned
	switch {
	case b.Width > w:
		w, u = b.Width, b.Unsigned
	case b.Width == w:
		u = u || b.Unsigned
	}
	return mk(uint64(a.Int64()), w, u), mk(uint64(b.Int64()), w, u)
}

// signed is the value read as a signed number of its width.
func (v Value) signed() int64 {
	if v.Width == 64 {
		return int64(v.Bits)
	}
	return int64(int32(uint32(v.Bits)))
}

func apply(op string, a, b Value) (Value, error) {
	switch op {
	case "||":
		return b2i(a.Bits != 0 || b.Bits != 0), nil
	case "&&":
		return b2i(a.Bits != 0 && b.Bits != 0), nil
	case "<<", ">>":
		n := b.Int64()
		if b.Unsigned {
			n = int64(b.Bits)
		}
		if n < 0 || n >= int64(a.Width) {
			return Value{}, fmt.Errorf("shift by %d of a %d-bit value", n, a.Width)
		}
		if op == "<<" {
			return mk(a.Bits<<uint(n), a.Width, a.Unsigned), nil
		}
		if a.Unsigned {
			return mk(a.Bits>>uint(n), a.Width, true), nil
		}
		return mk(uint64(a.signed()>>uint(n)), a.Width, false), nil
	}
	a, b = convert(a, b)
	w, u := a.Width, a.Unsigned
	less := func() bool {
		if u {
			return a.Bits < b.Bits
		}
		return a.signed() < b.signed()
	}
	switch op {
	case "|":
		return mk(a.Bits|b.Bits, w, u), nil
	case "^":
		return mk(a.Bits^b.Bits, w, u), nil
	case "&":
		return mk(a.Bits&b.Bits, w, u), nil
	case "==":
		return b2i(a.Bits == b.Bits), nil
	case "!=":
		return b2i(a.Bits != b.Bits), nil
	case "<":
		return b2i(less()), nil
	case "<=":
		return b2i(less() || a.Bits == b.Bits), nil
	case ">":
		return b2i(!less() && a.Bits != b.Bits), nil
	case ">=":
		return b2i(!less()), nil
	case "+":
		return mk(a.Bits+b.Bits, w, u), nil
	case "-":
		return mk(a.Bits-b.Bits, w, u), nil
	case "*":
		return mk(a.Bits*b.Bits, w, u), nil
	case "/", "%":
		if b.Bits == 0 {
			return Value{}, errors.New("division by zero")
		}
		if u {
			if op == "/" {
				return mk(a.Bits/b.Bits, w, u), nil
			}
			return mk(a.Bits%b.Bits, w, u), nil
		}
		if op == "/" {
			return mk(uint64(a.signed()/b.signed()), w, u), nil
		}
		return mk(uint64(a.signed()%b.signed()), w, u), nil
	}
	return Value{}, fmt.Errorf("unknown operator %s", op)
}

func (p *parser) unary() (Num, error) {
	switch {
	case p.accept("-"):
		v, err := p.unary()
		return v.neg(), err
	case p.accept("+"):
		return p.unary()
	case p.accept("~"):
		v, err := p.unary()
		if err == nil && v.Float {
			return Num{}, errors.New("~ of a floating-point value")
		}
		return Num{Int: mk(^v.Int.Bits, v.Int.Width, v.Int.Unsigned)}, err
	case p.accept("!"):
		v, err := p.unary()
		return Num{Int: b2i(!v.truth())}, err
	}
	if p.peek() == "(" {
		if t, n, ok := p.castAt(p.pos); ok {
			p.pos = n
			v, err := p.unary()
			if err != nil {
				return Num{}, err
			}
			return castNum(v, t)
		}
	}
	return p.primary()
}

// cast converts v to an integer type of the width and signedness; types
// narrower than int are truncated and then promoted to int.
func cast(v Value, width int, signed bool) Value {
	if width < 32 {
		bits := v.Bits & (1<<uint(width) - 1)
		x := int64(bits)
		if signed && bits&(1<<uint(width-1)) != 0 {
			x -= 1 << uint(width)
		}
		return intValue(x)
	}
	return mk(uint64(v.Int64()), width, !signed)
}

// typeWidth reads a cast's type name: its width on ILP32 (int, long and
// pointers 32 bits, long long 64) and signedness.
func typeWidth(words []string) (width int, signed bool, ok bool) {
	width, signed = 32, true
	longs := 0
	for _, w := range words {
		switch w {
		case "const", "volatile", "int", "signed":
		case "long":
			longs++
		case "*":
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
			case "u8", "s8", "bool", "_Bool":
				width = 8
			case "u16", "s16":
				width = 16
			case "u64", "s64":
				width = 64
			}
			signed = w[0] == 's' || w == "intptr_t"
		default:
			return 0, false, false
		}
	}
	if longs >= 2 {
		width = 64
	}
	if contains(words, "*") {
		width, signed = 32, false
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

// sizeof evaluates "sizeof(type)", "sizeof(object)" or "sizeof object"
// (after the keyword) as a size_t. Types of a known size on every target of
// the corpus are evaluated (char, short, int, long long, the fixed-width
// integers, float, double, and typedefs of them); long and pointers, whose
// size differs between the 32-bit targets and 64-bit Linux, are not
// constant; an object's size comes from Env.Sizeof.
func (p *parser) sizeof() (Num, error) {
	var words []string
	if p.peek() == "(" {
		p.pos++
		depth := 1
		for p.pos < len(p.toks) {
			t := p.toks[p.pos]
			p.pos++
			if t.kind == tOp && (t.text == "(" || t.text == "[") {
				depth++
			} else if t.kind == tOp && (t.text == ")" || t.text == "]") {
				depth--
				if depth == 0 && t.text == ")" {
					break
				}
			}
			words = append(words, t.text)
		}
		if depth != 0 {
			return Num{}, errors.New("sizeof: missing )")
		}
	} else {
		for p.pos < len(p.toks) && p.toks[p.pos].text == "*" {
			words = append(words, "*")
			p.pos++
		}
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != tIdent {
			return Num{}, errors.New("sizeof: operand is not a name")
		}
		words = append(words, p.toks[p.pos].text)
		p.pos++
		for p.pos < len(p.toks) {
			switch t := p.toks[p.pos]; {
			case t.text == "[":
				depth := 0
				for p.pos < len(p.toks) {
					u := p.toks[p.pos]
					words = append(words, u.text)
					p.pos++
					if u.text == "[" {
						depth++
					} else if u.text == "]" {
						if depth--; depth == 0 {
							break
						}
					}
				}
				continue
			}
			break
		}
	}
	if n, ok := typeSize(p.resolveTypedefs(words)); ok {
		return Num{Int: mk(uint64(n), 32, true)}, nil
	}
	if p.env.Sizeof != nil {
		if n, ok := p.env.Sizeof(strings.Join(words, " ")); ok && n > 0 {
			return Num{Int: mk(uint64(n), 32, true)}, nil
		}
	}
	return Num{}, fmt.Errorf("sizeof(%s) is not known", strings.Join(words, " "))
}

// typeSize is the size in bytes of a type named by words, when it is the
// same on every target of the corpus (32-bit Cortex-M, Xtensa and 64-bit
// Linux): not long (4 or 8 bytes), not a pointer.
func typeSize(words []string) (int64, bool) {
	if len(words) == 0 || contains(words, "*") || contains(words, "size_t") || contains(words, "uintptr_t") || contains(words, "intptr_t") {
		return 0, false
	}
	var rest []string
	for _, w := range words {
		if w != "const" && w != "volatile" {
			rest = append(rest, w)
		}
	}
	switch strings.Join(rest, " ") {
	case "float":
		return 4, true
	case "double":
		return 8, true
	}
	longs := 0
	for _, w := range rest {
		if w == "long" {
			longs++
		}
	}
	if longs == 1 {
		return 0, false
	}
	width, _, ok := typeWidth(rest)
	if !ok {
		return 0, false
	}
	return int64(width / 8), true
}

// castAt reports whether a cast "(type)" starts at token i, and returns the
// type and the token after ")".
func (p *parser) castAt(i int) (ctype, int, bool) {
	var words []string
	j := i + 1
	for ; j < len(p.toks); j++ {
		t := p.toks[j]
		if t.kind == tOp && t.text == ")" {
			break
		}
		if t.kind == tOp && t.text != "*" {
			return ctype{}, 0, false
		}
		if t.kind == tNum {
			return ctype{}, 0, false
		}
		words = append(words, t.text)
	}
	if j >= len(p.toks) || j+1 >= len(p.toks) {
		return ctype{}, 0, false
	}
	single := j == i+2 && p.toks[i+1].kind == tIdent // "(name)"
	words = p.resolveTypedefs(words)
	if t, ok := floatType(words); ok && p.floats {
		return t, j + 1, true
	}
	width, signed, ok := typeWidth(words)
	if ok {
		return ctype{width: width, signed: signed}, j + 1, true
	}
	if single && p.unknownTypeCast(words[0], j+1) {
		return ctype{}, j + 1, true // width unknown: the value is kept
	}
	return ctype{}, 0, false
}

// resolveTypedefs replaces typedef names among words by the words of the
// types they stand for (the code's typedefs first, then BuiltinTypes),
// a few levels deep.
func (p *parser) resolveTypedefs(words []string) []string {
	builtin := BuiltinTypes()
	for depth := 0; depth < 8; depth++ {
		changed := false
		var out []string
		for _, w := range words {
			t, ok := p.env.Types[w]
			if !ok {
				t, ok = builtin[w]
			}
			if ok && t != w {
				out = append(out, strings.Fields(strings.NewReplacer("*", " * ").Replace(t))...)
				changed = true
				continue
			}
			out = append(out, w)
		}
		words = out
		if !changed {
			break
		}
	}
	return words
}

// unknownTypeCast reports "(name)operand" where name names nothing the
// expression can evaluate — no macro, constant or function-like macro —
// and is followed by the start of an operand: in C that is a cast to a type
// the code declares elsewhere.
func (p *parser) unknownTypeCast(name string, next int) bool {
	if next >= len(p.toks) {
		return false
	}
	switch name {
	case "float", "double", "void", "char", "short", "int", "long", "signed", "unsigned", "struct", "union", "enum", "sizeof", "const", "volatile":
		return false // C's own words: read by typeWidth and floatType or refused
	}
	if _, ok := p.env.Objects[name]; ok {
		return false
	}
	if _, ok := p.env.Functions[name]; ok {
		return false
	}
	t := p.toks[next]
	return t.kind == tNum || t.kind == tIdent || (t.kind == tOp && t.text == "(")
}

func (p *parser) primary() (Num, error) {
	if p.pos >= len(p.toks) {
		return Num{}, errors.New("expression ends early")
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
			return Num{}, err
		}
		if !p.accept(")") {
			return Num{}, errors.New("missing )")
		}
		return v, nil
	}
	return Num{}, fmt.Errorf("unexpected %q", t.text)
}

func (p *parser) identifier(name string) (Num, error) {
	if name == "sizeof" {
		return p.sizeof()
	}
	if p.peek() == "(" {
		m, ok := p.env.Functions[name]
		if !ok {
			m, ok = Builtins()[name]
		}
		if !ok {
			return Num{}, fmt.Errorf("%s(...) is a call, not a constant", name)
		}
		args, err := p.macroArgs()
		if err != nil {
			return Num{}, err
		}
		if len(args) != len(m.Params) {
			return Num{}, fmt.Errorf("%s takes %d arguments, got %d", name, len(m.Params), len(args))
		}
		text, ok := substitute(m, args, maxWork-*p.work)
		if !ok {
			return Num{}, errTooLarge
		}
		return eval(text, p.env, p.depth+1, p.work, p.floats)
	}
	text, ok := p.env.Objects[name]
	if !ok {
		text, ok = BuiltinObjects()[name]
	}
	if !ok {
		return Num{}, fmt.Errorf("%s is not a known constant", name)
	}
	return eval(text, p.env, p.depth+1, p.work, p.floats)
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

// substitute replaces the parameters of m's body by the arguments. ok is
// false when the result would be longer than limit bytes.
func substitute(m FuncMacro, args []string, limit int) (string, bool) {
	toks, err := lex(m.Body, true)
	if err != nil {
		return m.Body, len(m.Body) <= limit
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
		if b.Len()+len(text)+1 > limit {
			return "", false
		}
		b.WriteString(text)
		b.WriteByte(' ')
	}
	return b.String(), true
}
