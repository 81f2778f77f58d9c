package checks

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/embedeval/embedeval-go/internal/cexpr"
	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// addrMask keeps an address within the 32-bit target's address space.
const addrMask = 0xFFFFFFFF

// addressBuiltin is c.address(code, lvalue, function=None, line=None): the
// absolute address the lvalue designates on a 32-bit target, or None.
func addressBuiltin(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code, lvalue string
	var function, line starlark.Value = starlark.None, starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "lvalue", &lvalue, "function?", &function, "line?", &line); err != nil {
		return nil, err
	}
	fn := ""
	if function != starlark.None {
		s, ok := starlark.AsString(function)
		if !ok {
			return nil, fmt.Errorf("%s: function must be a string or None, got %s", b.Name(), function.Type())
		}
		fn = s
	}
	at := 0
	if line != starlark.None {
		if err := starlark.AsInt(line, &at); err != nil {
			return nil, fmt.Errorf("%s: line must be an int or None: %w", b.Name(), err)
		}
		at = max(at, 1)
	}
	st := stateOf(th)
	f, err := st.parsed(code)
	if err != nil {
		return nil, err
	}
	if f == nil || strings.TrimSpace(lvalue) == "" {
		return starlark.None, nil
	}
	a := newAddresser(f, stopOf(st))
	if _, ok := a.fw.definitions()[fn]; fn != "" && !ok {
		return starlark.None, nil
	}
	addr, ok := a.address(lvalue, fn, at)
	if f.Interrupted() || st.poll() != nil {
		return nil, st.timeLimit()
	}
	if !ok {
		return starlark.None, nil
	}
	return starlark.MakeUint64(addr), nil
}

// addresser computes the addresses of lvalues of one file for one call.
type addresser struct {
	fw *follower
	tt *typeTable
	// active guards against following a pointer through itself.
	active map[string]bool
}

// newAddresser returns an addresser of f; stop may be nil.
func newAddresser(f *csyntax.File, stop func() bool) *addresser {
	fw := newFollower(f, false, stop)
	return &addresser{fw: fw, tt: fileTypes(f, fw.env("")), active: map[string]bool{}}
}

// address is the address of the lvalue text in fn at line.
func (a *addresser) address(text, fn string, line int) (uint64, bool) {
	v, ok := a.eval(text, fn, line, 0)
	if !ok || v.kind != vLval {
		return 0, false
	}
	return v.addr, true
}

// valKind is the kind of an evaluated operand.
type valKind uint8

const (
	vInt  valKind = iota // an integer n
	vPtr                 // a pointer to addr whose pointee is t (nil: unknown)
	vLval                // the object of type t at addr
)

// aval is an evaluated operand.
type aval struct {
	kind valKind
	n    cexpr.Num
	addr uint64
	t    *cType
}

// eval evaluates text (its macros expanded) in fn at line.
func (a *addresser) eval(text, fn string, line, depth int) (aval, bool) {
	if depth > maxFollowDepth || !a.fw.spend(1+len(text)/16) {
		return aval{}, false
	}
	expanded, err := expandText(fileMacros(a.fw.f), text)
	if err != nil {
		return aval{}, false
	}
	p := &addrParser{a: a, toks: tokenizeExpr(expanded), fn: fn, line: line, depth: depth}
	if !a.fw.spend(len(p.toks)) {
		return aval{}, false
	}
	v, ok := p.binary(0)
	if !ok || p.i != len(p.toks) {
		return aval{}, false
	}
	return v, true
}

// addrParser evaluates the tokens of one expression.
type addrParser struct {
	a        *addresser
	toks     []ctok
	i        int
	fn       string
	line     int
	depth    int
	nestings int
}

func (p *addrParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].text
	}
	return ""
}

// binaryLevels are C's binary operators by increasing precedence.
var binaryLevels = [][]string{{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="},
	{"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}}

// binary parses the operators of binaryLevels[level:].
func (p *addrParser) binary(level int) (aval, bool) {
	if level == len(binaryLevels) {
		return p.unary()
	}
	x, ok := p.binary(level + 1)
	for ok {
		op := p.peek()
		found := false
		for _, o := range binaryLevels[level] {
			found = found || o == op
		}
		if !found {
			return x, true
		}
		p.i++
		y, good := p.binary(level + 1)
		if !good {
			return aval{}, false
		}
		x, ok = p.a.combine(op, x, y)
	}
	return aval{}, false
}

// rvalue is v used as a value: an array decays to a pointer to its first
// element; reading any other object (a register) is not constant.
func (a *addresser) rvalue(v aval) (aval, bool) {
	if v.kind != vLval {
		return v, true
	}
	if t := a.tt.resolve(v.t); t != nil && t.kind == tyArray {
		return aval{kind: vPtr, addr: v.addr, t: t.elem}, true
	}
	return aval{}, false
}

// intOp applies a C operator to integers with cexpr's rules.
func intOp(op string, x, y cexpr.Num) (cexpr.Num, bool) {
	lx, ok1 := render(x)
	ly, ok2 := render(y)
	if !ok1 || !ok2 {
		return cexpr.Num{}, false
	}
	v, err := cexpr.EvalValue("("+lx+") "+op+" ("+ly+")", cexpr.Env{})
	return cexpr.IntNum(v), err == nil
}

// signedOf is n as a signed offset.
func signedOf(n cexpr.Num) int64 {
	if n.Int.Unsigned && n.Int.Width == 32 {
		return int64(n.Int.Bits)
	}
	return n.Int.Int64()
}

// combine applies a binary operator: integer arithmetic, and pointer
// plus or minus an integer scaled by the pointee's size.
func (a *addresser) combine(op string, x, y aval) (aval, bool) {
	x, ok1 := a.rvalue(x)
	y, ok2 := a.rvalue(y)
	if !ok1 || !ok2 {
		return aval{}, false
	}
	switch {
	case x.kind == vInt && y.kind == vInt:
		n, ok := intOp(op, x.n, y.n)
		return aval{kind: vInt, n: n}, ok
	case op == "+" && x.kind == vInt && y.kind == vPtr:
		return a.offset(y, x.n, 1)
	case (op == "+" || op == "-") && x.kind == vPtr && y.kind == vInt:
		sign := int64(1)
		if op == "-" {
			sign = -1
		}
		return a.offset(x, y.n, sign)
	}
	return aval{}, false
}

// offset is the pointer p moved by sign*n elements.
func (a *addresser) offset(p aval, n cexpr.Num, sign int64) (aval, bool) {
	size, _, ok := a.tt.sizeOf(p.t)
	if !ok {
		return aval{}, false
	}
	p.addr = uint64(int64(p.addr)+sign*signedOf(n)*size) & addrMask
	return p, true
}

// unary parses a unary expression: * & - ~ ! + casts sizeof and postfix.
func (p *addrParser) unary() (aval, bool) {
	if p.nestings++; p.nestings > 256 {
		return aval{}, false
	}
	switch op := p.peek(); op {
	case "*":
		p.i++
		v, ok := p.unary()
		if !ok {
			return aval{}, false
		}
		return p.a.deref(v)
	case "&":
		p.i++
		v, ok := p.unary()
		if !ok || v.kind != vLval {
			return aval{}, false
		}
		return aval{kind: vPtr, addr: v.addr, t: v.t}, true
	case "-", "~", "!", "+":
		p.i++
		v, ok := p.unary()
		if ok {
			v, ok = p.a.rvalue(v)
		}
		if !ok || v.kind != vInt {
			return aval{}, false
		}
		lit, ok := render(v.n)
		if !ok {
			return aval{}, false
		}
		r, err := cexpr.EvalValue(op+"("+lit+")", cexpr.Env{})
		return aval{kind: vInt, n: cexpr.IntNum(r)}, err == nil
	case "sizeof":
		p.i++
		if p.peek() != "(" {
			return aval{}, false
		}
		inner, end, ok := p.castAt(p.i)
		if !ok {
			return aval{}, false
		}
		t, ok := p.a.tt.typeName(inner)
		size, _, known := p.a.tt.sizeOf(t)
		if !ok || !known {
			return aval{}, false
		}
		p.i = end
		return aval{kind: vInt, n: cexpr.IntNum(cexpr.Value{Bits: uint64(size), Width: 32, Unsigned: true})}, true
	case "(":
		if inner, end, ok := p.castAt(p.i); ok {
			p.i = end
			v, good := p.unary()
			if !good {
				return aval{}, false
			}
			return p.a.cast(inner, v)
		}
	}
	return p.postfix()
}

// castAt reports whether the parenthesis at toks[i] opens a cast: the
// type name's tokens and the index after ")".
func (p *addrParser) castAt(i int) ([]ctok, int, bool) {
	j := i + 1
	for ; j < len(p.toks) && p.toks[j].text != ")"; j++ {
		if !p.toks[j].ident && p.toks[j].text != "*" {
			return nil, 0, false
		}
	}
	if j >= len(p.toks) || j == i+1 {
		return nil, 0, false
	}
	inner := p.toks[i+1 : j]
	first := ""
	for _, t := range inner {
		if t.ident && !isQualifier(t.text) {
			first = t.text
			break
		}
	}
	switch {
	case first == "":
		return nil, 0, false
	case scalarWords[first], first == "struct", first == "union", first == "enum", namedScalar(first) != nil:
	default:
		if _, ok := p.a.tt.typedefs[first]; ok {
			break
		}
		// An unknown name: a type unless it is a variable or a constant,
		// or a lone name before a binary operator.
		if p.a.fw.isVariable(first, p.fn) {
			return nil, 0, false
		}
		if _, ok := p.a.fw.env(p.fn).Objects[first]; ok {
			return nil, 0, false
		}
		if len(inner) == 1 && (j+1 >= len(p.toks) || !(p.toks[j+1].ident || p.toks[j+1].num || p.toks[j+1].text == "(")) {
			return nil, 0, false
		}
	}
	return inner, j + 1, true
}

// cast converts v to the type named by inner.
func (a *addresser) cast(inner []ctok, v aval) (aval, bool) {
	t, ok := a.tt.typeName(inner)
	if !ok {
		return aval{}, false
	}
	if v, ok = a.rvalue(v); !ok {
		return aval{}, false
	}
	if t != nil && t.kind == tyPointer {
		switch v.kind {
		case vInt:
			return aval{kind: vPtr, addr: v.n.Int.Bits & addrMask, t: t.elem}, true
		case vPtr:
			return aval{kind: vPtr, addr: v.addr, t: t.elem}, true
		}
		return aval{}, false
	}
	if t == nil || t.kind != tyScalar {
		return aval{}, false
	}
	n := v.n
	if v.kind == vPtr {
		n = cexpr.IntNum(cexpr.Value{Bits: v.addr, Width: 32, Unsigned: true})
	}
	lit, ok := render(n)
	if !ok {
		return aval{}, false
	}
	r, err := cexpr.EvalValue("("+spaceToks(inner)+")"+lit, a.fw.env(""))
	return aval{kind: vInt, n: cexpr.IntNum(r)}, err == nil
}

// deref is the object v points to.
func (a *addresser) deref(v aval) (aval, bool) {
	v, ok := a.rvalue(v)
	if !ok || v.kind != vPtr || a.tt.resolve(v.t) == nil {
		return aval{}, false
	}
	return aval{kind: vLval, addr: v.addr, t: v.t}, true
}

// postfix parses a primary expression and its [index], .member and
// ->member suffixes.
func (p *addrParser) postfix() (aval, bool) {
	v, ok := p.primary()
	for ok {
		switch p.peek() {
		case "[":
			p.i++
			idx, good := p.binary(0)
			if !good || p.peek() != "]" {
				return aval{}, false
			}
			p.i++
			if idx, good = p.a.rvalue(idx); !good || idx.kind != vInt {
				return aval{}, false
			}
			base, good := p.a.rvalue(v)
			if !good || base.kind != vPtr {
				return aval{}, false
			}
			if base, good = p.a.offset(base, idx.n, 1); !good {
				return aval{}, false
			}
			v, ok = p.a.deref(base)
		case ".", "->":
			arrow := p.peek() == "->"
			p.i++
			if p.i >= len(p.toks) || !p.toks[p.i].ident {
				return aval{}, false
			}
			name := p.toks[p.i].text
			p.i++
			if arrow {
				if v, ok = p.a.deref(v); !ok {
					return aval{}, false
				}
			}
			if v.kind != vLval {
				return aval{}, false
			}
			off, t, found := p.a.tt.member(v.t, name)
			if !found {
				return aval{}, false
			}
			v = aval{kind: vLval, addr: (v.addr + uint64(off)) & addrMask, t: t}
		case "(", "++", "--":
			return aval{}, false
		default:
			return v, true
		}
	}
	return aval{}, false
}

// primary parses a number, a parenthesized expression or a name.
func (p *addrParser) primary() (aval, bool) {
	if p.i >= len(p.toks) {
		return aval{}, false
	}
	t := p.toks[p.i]
	p.i++
	switch {
	case t.num:
		v, err := cexpr.EvalValue(t.text, cexpr.Env{})
		return aval{kind: vInt, n: cexpr.IntNum(v)}, err == nil
	case t.text == "(":
		v, ok := p.binary(0)
		if !ok || p.peek() != ")" {
			return aval{}, false
		}
		p.i++
		return v, true
	case t.ident:
		return p.name(t.text)
	}
	return aval{}, false
}

// name evaluates a name: a pointer variable's followed value, an integer
// variable's or constant's c.eval_int value, or a struct variable's
// integer member.
func (p *addrParser) name(name string) (aval, bool) {
	a := p.a
	if !a.fw.isVariable(name, p.fn) {
		n, ok := a.fw.Eval(name, p.fn, p.line)
		return aval{kind: vInt, n: n}, ok
	}
	t, known := a.varType(name, p.fn)
	rt := a.tt.resolve(t)
	switch {
	case known && rt != nil && rt.kind == tyPointer:
		addr, ok := a.pointerValue(name, p.fn, p.line, p.depth)
		return aval{kind: vPtr, addr: addr, t: rt.elem}, ok
	case known && rt != nil && rt.kind == tyScalar:
		n, ok := a.fw.Eval(name, p.fn, p.line)
		return aval{kind: vInt, n: n}, ok
	}
	// A member chain of a struct variable read as an integer.
	path, j := readChain(p.toks, p.i-1)
	if len(path) < 2 {
		return aval{}, false
	}
	n, ok := a.fw.Eval(strings.Join(chainText(p.toks[p.i-1:j]), ""), p.fn, p.line)
	p.i = j
	return aval{kind: vInt, n: n}, ok
}

// chainText is the texts of toks.
func chainText(toks []ctok) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.text
	}
	return out
}

// varType is the declared type of the variable name seen from fn; known
// is false when its declarator is not read exactly (a pointer to pointer, a
// function pointer).
func (a *addresser) varType(name, fn string) (*cType, bool) {
	if fi := a.fw.funcInfo(fn); fi != nil {
		if idx, ok := fi.params[name]; ok {
			t, ok := a.tt.typeName(tokenizeExpr(fi.fn.Params[idx].Type))
			if ok && t != nil && t.kind == tyArray {
				t = pointerType(t.elem) // an array parameter is a pointer
			}
			return t, ok
		}
		if d, ok := fi.locals[name]; ok {
			return a.declType(d)
		}
	}
	d, ok := a.fw.globals()[name]
	if !ok {
		return nil, false
	}
	return a.declType(d)
}

// declType is the type of a declared variable: its base type, or a pointer
// to it when its declarator has exactly one '*'; arrays are not read.
func (a *addresser) declType(d csyntax.Declaration) (*cType, bool) {
	base, ok := a.tt.typeName(tokenizeExpr(d.Type))
	if !ok || d.Array {
		return nil, false
	}
	if !d.Pointer {
		return base, true
	}
	if a.stars(d) != 1 {
		return nil, false
	}
	return pointerType(base), true
}

// stars counts the '*' before the declared name on its line; -1 when the
// name is not found there or is a function pointer.
func (a *addresser) stars(d csyntax.Declaration) int {
	lines := a.fw.f.Memo("c.address lines", func() any { return strings.Split(a.fw.f.Source(), "\n") }).([]string)
	if d.Line < 1 || d.Line > len(lines) {
		return -1
	}
	toks := tokenizeExpr(lines[d.Line-1])
	for k, t := range toks {
		if !t.ident || t.text != d.Name {
			continue
		}
		n := 0
		j := k - 1
		for ; j >= 0 && (toks[j].text == "*" || isQualifier(toks[j].text)); j-- {
			if toks[j].text == "*" {
				n++
			}
		}
		if n == 0 || j >= 0 && toks[j].text == "(" {
			continue
		}
		return n
	}
	return -1
}

// pointerValue is the value of the pointer variable name seen from fn at
// line: the one address all its stores (initializer included) give, or for
// a parameter the one address all its call sites pass. When stores disagree
// and c.eval_int's following reads each of them as the same number, the
// value at the line is followed as c.eval_int does.
func (a *addresser) pointerValue(name, fn string, line, depth int) (uint64, bool) {
	key := fn + "|" + name
	if a.active[key] || depth >= maxFollowDepth {
		return 0, false
	}
	a.active[key] = true
	defer delete(a.active, key)
	var stores []ptrStore
	var fis []*funcInfo
	fi := a.fw.funcInfo(fn)
	switch {
	case fi != nil && fi.has(name):
		fis = []*funcInfo{fi}
	default:
		d := a.fw.globals()[name]
		if d.Init != "" {
			stores = append(stores, ptrStore{d.Init, "", d.Line})
		}
		fis = a.fw.functionsNaming(name)
		fi = nil
	}
	for _, g := range fis {
		for _, o := range g.ops {
			e, ok := storeOf(o, []string{name})
			switch {
			case !ok || e.op == "decl":
			case e.op == "=" && !e.prefix:
				stores = append(stores, ptrStore{e.rhs, g.fn.Name, e.line})
			default:
				return 0, false
			}
		}
	}
	if fi != nil {
		if idx, ok := fi.params[name]; ok {
			if len(stores) > 0 {
				return 0, false
			}
			return a.paramPointer(fi, idx, depth)
		}
	}
	if len(stores) == 0 {
		return 0, false
	}
	vals := make([]uint64, len(stores))
	for k, s := range stores {
		addr, ok := a.pointerOf(s.text, s.fn, s.line, depth)
		if !ok {
			return 0, false
		}
		vals[k] = addr
		if k > 0 && vals[k] != vals[0] {
			return a.followPointer(name, fn, line, stores[k:], vals[k:])
		}
	}
	return vals[0], true
}

// followPointer is the value of a pointer whose stores disagree, followed
// as c.eval_int does when it reads each store as its address.
func (a *addresser) followPointer(name, fn string, line int, stores []ptrStore, vals []uint64) (uint64, bool) {
	for k, s := range stores {
		n, ok := a.fw.Eval(s.text, s.fn, s.line)
		if !ok || n.Int.Bits&addrMask != vals[k] {
			return 0, false
		}
	}
	n, ok := a.fw.Eval(name, fn, line)
	return n.Int.Bits & addrMask, ok
}

// paramPointer is the address every call site of fi passes as its pointer
// parameter idx.
func (a *addresser) paramPointer(fi *funcInfo, idx, depth int) (uint64, bool) {
	if a.fw.addressTaken()[fi.fn.Name] {
		return 0, false
	}
	sites := a.fw.callSites()[fi.fn.Name]
	if len(sites) == 0 {
		return 0, false
	}
	var first uint64
	for k, c := range sites {
		if len(c.Args) != len(fi.fn.Params) {
			return 0, false
		}
		addr, ok := a.pointerOf(c.Args[idx], c.Function, c.Line, depth)
		if !ok {
			return 0, false
		}
		if k == 0 {
			first = addr
		} else if addr != first {
			return 0, false
		}
	}
	return first, true
}

// ptrStore is one value stored into a pointer variable: its text, and the
// function ("" at file scope) and line where it is evaluated.
type ptrStore struct {
	text, fn string
	line     int
}

// pointerOf is the address the pointer-valued text gives in fn at line (an
// integer converted to a pointer included).
func (a *addresser) pointerOf(text, fn string, line, depth int) (uint64, bool) {
	v, ok := a.eval(text, fn, line, depth+1)
	if ok {
		v, ok = a.rvalue(v)
	}
	switch {
	case !ok:
		return 0, false
	case v.kind == vPtr:
		return v.addr, true
	}
	return v.n.Int.Bits & addrMask, true
}
