package checks

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// The guards below bound what one Starlark operation may build. The
// interpreter's own operators and built-ins allocate as much as asked (a
// repeat, a join, a replace, a format, a copy), so check files are
// instrumented (see instrument.go) to call these guards instead: each
// computes the size of the result from its operands, refuses it over the
// size or memory limit, counts it, and then runs the original operation,
// which keeps its exact semantics and error messages.

// binaryOps are the operators whose result may be larger than their
// operands (or a copy of them), with the hidden builtin each is rewritten to.
var binaryOps = map[syntax.Token]string{
	syntax.PLUS: "$+", syntax.STAR: "$*", syntax.PERCENT: "$%", syntax.PIPE: "$|",
	syntax.AMP: "$&", syntax.CIRCUMFLEX: "$^", syntax.MINUS: "$-", syntax.LTLT: "$<<",
}

// hiddenBuiltins are the names instrumented code calls. They start with '$',
// which no identifier can, so a check file can neither call nor shadow them.
func hiddenBuiltins() starlark.StringDict {
	d := starlark.StringDict{
		"$index":  starlark.NewBuiltin("$index", indexGuard),
		"$slice":  starlark.NewBuiltin("$slice", sliceGuard),
		"$attr":   starlark.NewBuiltin("$attr", attrGuard),
		"$spread": starlark.NewBuiltin("$spread", spreadGuard),
		"$none":   starlark.None,
	}
	for op, name := range binaryOps {
		d[name] = starlark.NewBuiltin(name, binaryGuard(op))
		d[name+"="] = starlark.NewBuiltin(name+"=", augmentedGuard(op))
	}
	return d
}

// binaryGuard is x op y.
func binaryGuard(op syntax.Token) builtinFunc {
	return func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		x, y := args[0], args[1]
		if err := stateOf(th).preBinary(op, x, y, false); err != nil {
			return nil, err
		}
		return starlark.Binary(op, x, y)
	}
}

// augmentedGuard checks x op= y and returns y: the statement then runs as
// written, in place for a list += or a dict |=.
func augmentedGuard(op syntax.Token) builtinFunc {
	return func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		if err := stateOf(th).preBinary(op, args[0], args[1], true); err != nil {
			return nil, err
		}
		return args[1], nil
	}
}

// preBinary checks and counts the result of x op y (x op= y when inPlace)
// before it is computed. Operand types the operator rejects pass: the
// operation itself then reports them.
func (st *callState) preBinary(op syntax.Token, x, y starlark.Value, inPlace bool) error {
	switch op {
	case syntax.PLUS:
		switch x := x.(type) {
		case starlark.String:
			if y, ok := y.(starlark.String); ok {
				return st.newBytes("string", int64(len(x))+int64(len(y)))
			}
		case starlark.Bytes:
			if y, ok := y.(starlark.Bytes); ok {
				return st.newBytes("bytes", int64(len(x))+int64(len(y)))
			}
		case *starlark.List:
			if inPlace {
				if n, ok := seqLen(y, st.maxElems()); ok {
					return st.grow("list", int64(x.Len())+n, n)
				}
			} else if y, ok := y.(*starlark.List); ok {
				return st.newElems("list", int64(x.Len()+y.Len()))
			}
		case starlark.Tuple:
			if y, ok := y.(starlark.Tuple); ok {
				return st.newElems("tuple", int64(len(x)+len(y)))
			}
		case starlark.Int:
			if y, ok := y.(starlark.Int); ok {
				return checkIntBits(max(intBits(x), intBits(y)) + 1)
			}
		}
	case syntax.STAR:
		if xi, ok := x.(starlark.Int); ok {
			if yi, ok := y.(starlark.Int); ok {
				return checkIntBits(intBits(xi) + intBits(yi))
			}
			x, y = y, x
		}
		n, ok := y.(starlark.Int)
		if !ok {
			return nil
		}
		count, err := starlark.AsInt32(n)
		if err != nil || count <= 0 {
			return nil
		}
		switch x := x.(type) {
		case starlark.String:
			return st.newBytes("string", int64(len(x))*int64(count))
		case starlark.Bytes:
			return st.newBytes("bytes", int64(len(x))*int64(count))
		case *starlark.List:
			return st.newElems("list", int64(x.Len())*int64(count))
		case starlark.Tuple:
			return st.newElems("tuple", int64(len(x))*int64(count))
		}
	case syntax.PERCENT:
		if f, ok := x.(starlark.String); ok {
			return st.newBytes("string", percentSize(string(f), y, st.maxBytes()))
		}
	case syntax.PIPE, syntax.AMP, syntax.CIRCUMFLEX, syntax.MINUS:
		switch x := x.(type) {
		case *starlark.Dict:
			if y, ok := y.(*starlark.Dict); ok && op == syntax.PIPE {
				if inPlace {
					return st.grow("dict", int64(x.Len()+y.Len()), int64(y.Len()))
				}
				return st.newElems("dict", int64(x.Len()+y.Len()))
			}
		case *starlark.Set:
			if y, ok := y.(*starlark.Set); ok {
				return st.newElems("set", int64(x.Len()+y.Len()))
			}
		case starlark.Int:
			if y, ok := y.(starlark.Int); ok {
				return checkIntBits(max(intBits(x), intBits(y)) + 1)
			}
		}
	case syntax.LTLT:
		if xi, ok := x.(starlark.Int); ok {
			if shift, err := starlark.AsInt32(y); err == nil && shift > 0 {
				return checkIntBits(intBits(xi) + shift)
			}
		}
	}
	return nil
}

func (st *callState) maxBytes() int64 { return int64(st.rt.limits.MaxValueBytes) }
func (st *callState) maxElems() int64 { return st.maxBytes() / elemBytes }

// percentSize bounds the length of format % arg: the format plus the text of
// every argument a conversion may print. A mapping's value counts once per
// %(key) naming it, the mapping itself once if a conversion has no key.
func percentSize(format string, arg starlark.Value, limit int64) int64 {
	repr := strings.Contains(format, "%r")
	size := func(v starlark.Value) int64 {
		if _, ok := v.(starlark.Float); ok {
			return 320 // %f of the largest float
		}
		return textSize(v, repr, limit)
	}
	n := int64(len(format))
	positional := 0
	var keys []string
	for i := 0; i+1 < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		switch format[i+1] {
		case '%':
			i++
		case '(':
			if j := strings.IndexByte(format[i+2:], ')'); j >= 0 {
				keys = append(keys, format[i+2:i+2+j])
				i += 2 + j
			}
		default:
			positional++
		}
	}
	if m, ok := arg.(starlark.Mapping); ok {
		for _, k := range keys {
			if v, found, _ := m.Get(starlark.String(k)); found {
				if n += size(v); n > limit {
					return n
				}
			}
		}
		if positional > 0 {
			n += size(arg)
		}
		return n
	}
	if t, ok := arg.(starlark.Tuple); ok {
		for _, x := range t {
			if n += size(x); n > limit {
				return n
			}
		}
		return n
	}
	return n + size(arg)
}

// indexGuard is x[k]. A missing dict key is reported with a bounded repr:
// the interpreter prints the whole key, however large.
func indexGuard(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, y := args[0], args[1]
	switch x := x.(type) {
	case starlark.Mapping:
		z, found, err := x.Get(y)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("key %s not in %s", shortRepr(y), x.Type())
		}
		return z, nil
	case starlark.Indexable:
		n := x.Len()
		i, err := starlark.AsInt32(y)
		if err != nil {
			return nil, fmt.Errorf("%s index: %s", x.Type(), err)
		}
		orig := i
		if i < 0 {
			i += n
		}
		if i < 0 || i >= n {
			if n == 0 {
				return nil, fmt.Errorf("index %d out of range: empty %s", orig, x.Type())
			}
			return nil, fmt.Errorf("%s index %d out of range [%d:%d]", x.Type(), orig, -n, n-1)
		}
		return x.Index(i), nil
	}
	return nil, fmt.Errorf("unhandled index operation %s[%s]", x.Type(), y.Type())
}

// shortRepr is v's repr for a message, or a description when it would be
// long.
func shortRepr(v starlark.Value) string {
	const most = 200
	if textSize(v, true, most) <= most {
		return v.String()
	}
	if l, ok := v.(interface{ Len() int }); ok {
		return fmt.Sprintf("(a %s of length %d)", v.Type(), l.Len())
	}
	return fmt.Sprintf("(a long %s)", v.Type())
}

// sliceGuard is x[lo:hi:step], counting the copy it makes.
func sliceGuard(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	st := stateOf(th)
	v, err := starlark.Call(th, st.rt.helpers["slice"], args, nil)
	if err != nil {
		return nil, err
	}
	step := args[3]
	if one, ok := step.(starlark.Int); ok {
		if n, ok := one.Int64(); ok && n == 1 {
			step = starlark.None
		}
	}
	switch v := v.(type) {
	case starlark.String:
		if step != starlark.None {
			return v, st.newBytes("string", int64(len(v)))
		}
	case starlark.Bytes:
		if step != starlark.None {
			return v, st.newBytes("bytes", int64(len(v)))
		}
	case starlark.Tuple:
		if step != starlark.None {
			return v, st.newElems("tuple", int64(len(v)))
		}
	case *starlark.List:
		return v, st.newElems("list", int64(v.Len()))
	}
	return v, nil
}

// spreadGuard counts the argument tuple or dict f(*x) or f(**x) builds, and
// returns x.
func spreadGuard(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	st := stateOf(th)
	if n, ok := seqLen(args[0], st.maxElems()); ok {
		if err := st.newElems("argument list", n); err != nil {
			return nil, err
		}
	}
	return args[0], nil
}

// attrGuard is x.name for the method names that have a guard.
func attrGuard(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	st := stateOf(th)
	x, name := args[0], string(args[1].(starlark.String))
	if m := st.rt.guardedMethod(x, name); m != nil {
		return m, nil
	}
	// Not a guarded method of x: the plain attribute, with the
	// interpreter's own error (and spelling hint) when there is none.
	return starlark.Call(th, st.rt.helpers["get_"+name], starlark.Tuple{x}, nil)
}

// methodPre checks and counts the result of a method call before it runs.
type methodPre func(st *callState, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error

// methodGuards are the guarded methods of the built-in types, by type name.
func methodGuards() map[string]map[string]methodPre {
	asIs := func(kind string) methodPre {
		return func(st *callState, recv starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) error {
			return st.newBytes(kind, int64(len(recv.(starlark.String))))
		}
	}
	return map[string]map[string]methodPre{
		"string": {
			"capitalize": asIs("string"), "lower": asIs("string"), "upper": asIs("string"), "title": asIs("string"),
			"join":    stringJoinPre,
			"replace": stringReplacePre,
			"format":  stringFormatPre,
			"split":   stringSplitPre, "rsplit": stringSplitPre,
			"splitlines": func(st *callState, recv starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) error {
				return st.newElems("list", int64(strings.Count(string(recv.(starlark.String)), "\n"))+1)
			},
		},
		"list": {
			"extend": func(st *callState, recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) error {
				if len(args) == 1 {
					if n, ok := seqLen(args[0], st.maxElems()); ok {
						return st.grow("list", int64(recv.(*starlark.List).Len())+n, n)
					}
				}
				return nil
			},
		},
		"dict": {
			"items": dictListPre, "keys": dictListPre, "values": dictListPre,
			"update": func(st *callState, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error {
				n := int64(len(kwargs))
				if len(args) == 1 {
					m, _ := seqLen(args[0], st.maxElems())
					n += m
				}
				return st.grow("dict", int64(recv.(*starlark.Dict).Len())+n, n)
			},
		},
		"set": {
			"union": setPre, "intersection": setPre, "difference": setPre, "symmetric_difference": setPre, "update": setPre,
		},
	}
}

func dictListPre(st *callState, recv starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) error {
	return st.newElems("list", int64(recv.(*starlark.Dict).Len()))
}

func setPre(st *callState, recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) error {
	n := int64(recv.(*starlark.Set).Len())
	for _, a := range args {
		m, _ := seqLen(a, st.maxElems())
		n += m
	}
	return st.newElems("set", n)
}

func stringJoinPre(st *callState, recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) error {
	if len(args) != 1 {
		return nil
	}
	it, ok := args[0].(starlark.Iterable)
	if !ok {
		return nil
	}
	sep, limit := int64(len(recv.(starlark.String))), st.maxBytes()
	iter := it.Iterate()
	defer iter.Done()
	var n int64
	var x starlark.Value
	for i := 0; iter.Next(&x); i++ {
		s, ok := starlark.AsString(x)
		if !ok {
			return nil // join reports it
		}
		if i > 0 {
			n += sep
		}
		if n += int64(len(s)); n > limit {
			n = limit + 1 // more than the limit; counting stops here
			break
		}
	}
	return st.newBytes("string", n)
}

func stringReplacePre(st *callState, recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) error {
	s := string(recv.(starlark.String))
	if len(args) < 2 {
		return nil
	}
	old, ok1 := starlark.AsString(args[0])
	repl, ok2 := starlark.AsString(args[1])
	if !ok1 || !ok2 || len(repl) <= len(old) {
		return nil
	}
	var k int64
	if old == "" {
		k = int64(utf8.RuneCountInString(s)) + 1
	} else {
		k = int64(strings.Count(s, old))
	}
	if len(args) > 2 {
		if c, err := starlark.AsInt32(args[2]); err == nil && c >= 0 {
			k = min(k, int64(c))
		}
	}
	return st.newBytes("string", int64(len(s))+k*int64(len(repl)-len(old)))
}

func stringFormatPre(st *callState, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error {
	format := string(recv.(starlark.String))
	fields := int64(strings.Count(format, "{"))
	if fields == 0 {
		return nil
	}
	repr, limit := strings.Contains(format, "!r"), st.maxBytes()
	var most int64
	for _, a := range args {
		most = max(most, textSize(a, repr, limit))
	}
	for _, kv := range kwargs {
		most = max(most, textSize(kv[1], repr, limit))
	}
	return st.newBytes("string", int64(len(format))+fields*most)
}

func stringSplitPre(st *callState, recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) error {
	s := string(recv.(starlark.String))
	var n int64
	if len(args) > 0 && args[0] != starlark.None {
		sep, ok := starlark.AsString(args[0])
		if !ok || sep == "" {
			return nil // split reports it
		}
		n = int64(strings.Count(s, sep)) + 1
	} else {
		inField := false
		for _, r := range s {
			if space := unicode.IsSpace(r); !space && !inField {
				n++
				inField = true
			} else if space {
				inField = false
			}
		}
	}
	if len(args) > 1 {
		if m, err := starlark.AsInt32(args[1]); err == nil && m >= 0 {
			n = min(n, int64(m)+1)
		}
	}
	return st.newElems("list", n)
}

// guardedNames lists the method names that have a guard, sorted.
func guardedNames(guards map[string]map[string]methodPre) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range guards {
		for name := range m {
			if !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// guardedMethod returns x's method name wrapped by its guard, or nil when
// x's type has no guard for name.
func (r *Runtime) guardedMethod(x starlark.Value, name string) starlark.Value {
	pre, ok := r.methods[x.Type()][name]
	if !ok {
		return nil
	}
	recv, ok := x.(starlark.HasAttrs)
	if !ok {
		return nil
	}
	m, err := recv.Attr(name)
	orig, isBuiltin := m.(*starlark.Builtin)
	if err != nil || !isBuiltin {
		return nil
	}
	return starlark.NewBuiltin(name, func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := pre(stateOf(th), x, args, kwargs); err != nil {
			return nil, err
		}
		return orig.CallInternal(th, args, kwargs)
	}).BindReceiver(x)
}

// helperSource defines the Starlark functions the guards call to run an
// operation with the interpreter's exact semantics and messages. It is
// compiled without instrumentation.
func helperSource(names []string) string {
	var b strings.Builder
	b.WriteString("def slice(x, lo, hi, step):\n    return x[lo:hi:step]\n")
	for _, n := range names {
		fmt.Fprintf(&b, "def get_%s(x):\n    return x.%s\n", n, n)
	}
	return b.String()
}

// shadowedBuiltins replace the universal built-ins that build a value as
// large as their argument asks, or run that long: each checks, then calls
// the original.
func shadowedBuiltins() starlark.StringDict {
	elems := func(kind string) func(*callState, starlark.Tuple, []starlark.Tuple) error {
		return func(st *callState, args starlark.Tuple, _ []starlark.Tuple) error {
			if len(args) > 0 {
				if n, ok := seqLen(args[0], st.maxElems()); ok {
					return st.newElems(kind, n)
				}
			}
			return nil
		}
	}
	scan := func(st *callState, args starlark.Tuple, _ []starlark.Tuple) error {
		if len(args) == 1 {
			if n, ok := seqLen(args[0], st.maxElems()); ok {
				return st.grow("sequence", n, 0)
			}
		}
		return nil
	}
	pre := map[string]func(*callState, starlark.Tuple, []starlark.Tuple) error{
		"list": elems("list"), "tuple": elems("tuple"), "set": elems("set"), "sorted": elems("list"),
		"reversed": elems("list"), "all": scan, "any": scan, "max": scan, "min": scan,
		"enumerate": func(st *callState, args starlark.Tuple, kwargs []starlark.Tuple) error {
			if err := elems("list")(st, args, kwargs); err != nil || len(args) == 0 {
				return err
			}
			n, _ := seqLen(args[0], st.maxElems())
			return st.alloc(2 * n * elemBytes) // the pairs
		},
		"zip": func(st *callState, args starlark.Tuple, _ []starlark.Tuple) error {
			n := int64(-1)
			for _, a := range args {
				if m, ok := seqLen(a, st.maxElems()); ok && (n < 0 || m < n) {
					n = m
				}
			}
			if n <= 0 {
				return nil
			}
			if err := st.newElems("list", n); err != nil {
				return err
			}
			return st.alloc(n * int64(len(args)) * elemBytes)
		},
		"dict": func(st *callState, args starlark.Tuple, kwargs []starlark.Tuple) error {
			n := int64(len(kwargs))
			if len(args) > 0 {
				m, _ := seqLen(args[0], st.maxElems())
				n += m
			}
			return st.newElems("dict", n)
		},
		"repr": func(st *callState, args starlark.Tuple, _ []starlark.Tuple) error {
			if len(args) != 1 {
				return nil
			}
			return st.newBytes("string", textSize(args[0], true, st.maxBytes()))
		},
		"str": func(st *callState, args starlark.Tuple, _ []starlark.Tuple) error {
			if len(args) != 1 {
				return nil
			}
			if _, ok := args[0].(starlark.String); ok {
				return nil // str(s) is s
			}
			return st.newBytes("string", textSize(args[0], false, st.maxBytes()))
		},
		"bytes": func(st *callState, args starlark.Tuple, _ []starlark.Tuple) error {
			if len(args) != 1 {
				return nil
			}
			if s, ok := args[0].(starlark.String); ok {
				return st.newBytes("bytes", int64(len(s)))
			}
			if n, ok := seqLen(args[0], st.maxBytes()); ok {
				return st.newBytes("bytes", n)
			}
			return nil
		},
		"fail": func(st *callState, args starlark.Tuple, _ []starlark.Tuple) error {
			n := int64(len("fail: ") + len(args))
			for _, a := range args {
				if n += textSize(a, false, st.maxBytes()); n > st.maxBytes() {
					break
				}
			}
			return st.newBytes("message", n)
		},
		"int": func(_ *callState, args starlark.Tuple, _ []starlark.Tuple) error {
			// Converting a long string takes time quadratic in its length.
			if len(args) > 0 {
				if s, ok := starlark.AsString(args[0]); ok && len(s) > maxIntBits+16 {
					return &limitError{msg: fmt.Sprintf("exceeded the size limit of %d bits per integer (int of a string of %d characters)", maxIntBits, len(s))}
				}
			}
			return nil
		},
	}
	d := starlark.StringDict{}
	for name, check := range pre {
		orig := starlark.Universe[name].(*starlark.Builtin)
		d[name] = starlark.NewBuiltin(name, func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			st := stateOf(th)
			if err := st.poll(); err != nil {
				return nil, err
			}
			if err := check(st, args, kwargs); err != nil {
				return nil, err
			}
			v, err := orig.CallInternal(th, args, kwargs)
			if i, ok := v.(starlark.Int); ok && err == nil && name == "int" {
				err = checkIntBits(intBits(i))
			}
			return v, err
		})
	}
	d["print"] = starlark.NewBuiltin("print", func(_ *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		// The output is discarded: do not build it.
		sep := " "
		if err := starlark.UnpackArgs("print", nil, kwargs, "sep?", &sep); err != nil {
			return nil, err
		}
		return starlark.None, nil
	})
	getattr := starlark.Universe["getattr"].(*starlark.Builtin)
	d["getattr"] = starlark.NewBuiltin("getattr", func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) >= 2 && len(kwargs) == 0 {
			if name, ok := args[1].(starlark.String); ok {
				if m := stateOf(th).rt.guardedMethod(args[0], string(name)); m != nil {
					return m, nil
				}
			}
		}
		return getattr.CallInternal(th, args, kwargs)
	})
	return d
}
