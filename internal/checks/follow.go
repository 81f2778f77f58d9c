package checks

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cexpr"
	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// maxFollowDepth bounds how deep one evaluation follows values: a store's
// value naming another variable, a parameter's call sites, a call's returns.
const maxFollowDepth = 24

// maxFollowWork bounds the work (tokens scanned, expressions evaluated) of
// one evaluation.
const maxFollowWork = 4 << 20

// pollEvery is how many units of work pass between deadline polls.
const pollEvery = 4096

// follower evaluates the expressions of one file, following the values of
// variables, parameters, struct members and calls. It lives for one builtin
// call.
type follower struct {
	f *csyntax.File
	// floats allows floating-point values (c.eval); c.eval_int has none.
	floats bool
	// stop reports whether the call must end (its deadline).
	stop func() bool
	work int
	// done is set once the work bound or the deadline was hit: every answer
	// after it is unknown.
	done bool
	// active guards against recursion (a function returning itself, a
	// parameter passed around a recursive chain).
	active map[string]bool
	cache  map[string]numResult
}

// numResult is a cached answer.
type numResult struct {
	n  cexpr.Num
	ok bool
}

// newFollower returns a follower of f; stop may be nil.
func newFollower(f *csyntax.File, floats bool, stop func() bool) *follower {
	return &follower{f: f, floats: floats, stop: stop, active: map[string]bool{}, cache: map[string]numResult{}}
}

// spend counts n units of work and reports whether the evaluation may go on.
func (fw *follower) spend(n int) bool {
	if fw.done {
		return false
	}
	before := fw.work / pollEvery
	fw.work += n
	if fw.work > maxFollowWork || fw.f.Interrupted() {
		fw.done = true
	} else if fw.work/pollEvery != before && fw.stop != nil && fw.stop() {
		fw.done = true
	}
	return !fw.done
}

// binding gives the variable a store's right side refers to its value at
// the store (v = v + 1; v |= 3).
type binding struct {
	path []string
	val  absVal
}

// Eval is the value of expr in function fn (file scope when "") at line
// (the end of fn when line <= 0).
func (fw *follower) Eval(expr, fn string, line int) (cexpr.Num, bool) {
	n, ok := fw.evalText(expr, fn, line, 0, nil)
	if ok && n.Float && !fw.floats {
		return cexpr.Num{}, false
	}
	return n, ok
}

// env is the constant environment of fn (c.eval_int's, the same as
// constEnv's), built once per file and function: the file's with fn's const
// locals, and sizeof of fn's own objects.
func (fw *follower) env(fn string) cexpr.Env {
	base := fw.f.Memo("c.eval_int env ", func() any { return constEnv(fw.f, "") }).(cexpr.Env)
	if fn == "" {
		return base
	}
	locals := fw.constLocals()[fn]
	return fw.f.Memo("c.eval_int env "+fn, func() any {
		env := cexpr.Env{Objects: base.Objects, Functions: base.Functions, Types: base.Types}
		if len(locals) > 0 {
			env.Objects = maps.Clone(base.Objects)
			for _, d := range locals {
				env.Objects[d.Name] = d.Init
			}
		}
		env.Sizeof = objectSizes(fw.f, fn, env)
		return env
	}).(cexpr.Env)
}

// constLocals maps function names to their const locals with an
// initializer (those constEnv adds), built once per file.
func (fw *follower) constLocals() map[string][]csyntax.Declaration {
	return fw.f.Memo("c.follow const locals", func() any {
		out := map[string][]csyntax.Declaration{}
		for fn, ds := range fw.locals() {
			for _, d := range ds {
				if d.Init != "" && !d.Pointer && !d.Array && slices.Contains(d.Qualifiers, "const") {
					out[fn] = append(out[fn], d)
				}
			}
		}
		return out
	}).(map[string][]csyntax.Declaration)
}

// locals maps function names to their local declarations, built once per
// file.
func (fw *follower) locals() map[string][]csyntax.Declaration {
	return fw.f.Memo("c.follow locals", func() any {
		out := map[string][]csyntax.Declaration{}
		for _, d := range fw.f.Declarations("") {
			if d.Scope != csyntax.GlobalScope {
				out[d.Scope] = append(out[d.Scope], d)
			}
		}
		return out
	}).(map[string][]csyntax.Declaration)
}

// constant evaluates text with env alone.
func (fw *follower) constant(text string, env cexpr.Env) (cexpr.Num, error) {
	if fw.floats {
		return cexpr.EvalNum(text, env)
	}
	v, err := cexpr.EvalValue(text, env)
	return cexpr.IntNum(v), err
}

// evalText evaluates expr in fn at line: a constant expression as it is;
// otherwise with its macros expanded and the variables, members and calls
// it names replaced by their values.
func (fw *follower) evalText(expr, fn string, line, depth int, self *binding) (cexpr.Num, bool) {
	if depth > maxFollowDepth || !fw.spend(1+len(expr)/16) || strings.TrimSpace(expr) == "" {
		return cexpr.Num{}, false
	}
	env := fw.env(fn)
	if self == nil {
		if n, err := fw.constant(expr, env); err == nil {
			return n, true
		}
	}
	expanded, err := expandText(fileMacros(fw.f), expr)
	if err != nil {
		return cexpr.Num{}, false
	}
	text, ok := fw.substitute(tokenizeExpr(expanded), env, fn, line, depth, self)
	if !ok {
		return cexpr.Num{}, false
	}
	n, err := fw.constant(text, env)
	return n, err == nil
}

// substitute replaces the names of toks that are not constants by their
// values; ok is false when one has none.
func (fw *follower) substitute(toks []ctok, env cexpr.Env, fn string, line, depth int, self *binding) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(toks); {
		t := toks[i]
		_, isConst := env.Objects[t.text]
		if isConst && i+1 < len(toks) && (toks[i+1].text == "." || toks[i+1].text == "->") {
			isConst = false // a member of a const struct: followed like any variable's
		}
		if !t.ident || isConst && (self == nil || self.path[0] != t.text) || i > 0 && (toks[i-1].text == "." || toks[i-1].text == "->") {
			b.WriteString(t.text + " ")
			i++
			continue
		}
		if t.text == "sizeof" {
			return "", false
		}
		path, j := readChain(toks, i)
		var n cexpr.Num
		var ok bool
		switch {
		case j < len(toks) && toks[j].text == "(":
			if len(path) != 1 || j+1 >= len(toks) || toks[j+1].text != ")" {
				return "", false
			}
			n, ok = fw.returnValue(path[0], depth+1)
			j += 2
		default:
			n, ok = fw.resolve(path, fn, line, depth, self)
		}
		if !ok {
			if len(path) > 1 || fw.isVariable(path[0], fn) {
				return "", false
			}
			// A type name of a cast, or an unknown name cexpr rejects.
			b.WriteString(t.text + " ")
			i++
			continue
		}
		lit, ok := render(n)
		if !ok {
			return "", false
		}
		b.WriteString(lit + " ")
		i = j
	}
	return b.String(), true
}

// readChain reads a name and its members ("h.Init.BaudRate", "cfg->baud")
// from toks[i]: the names and the index after them.
func readChain(toks []ctok, i int) ([]string, int) {
	path := []string{toks[i].text}
	j := i + 1
	for j+1 < len(toks) && (toks[j].text == "." || toks[j].text == "->") && toks[j+1].ident {
		path = append(path, toks[j+1].text)
		j += 2
	}
	return path, j
}

// render is a C literal of n that cexpr reads back with the same type.
func render(n cexpr.Num) (string, bool) {
	if n.Float {
		if math.IsInf(n.F, 0) || math.IsNaN(n.F) {
			return "", false
		}
		s := strconv.FormatFloat(n.F, 'e', -1, 64)
		if n.F32 {
			s += "f"
		}
		return "(" + s + ")", true
	}
	v := n.Int
	switch {
	case v.Unsigned && v.Width == 64:
		return fmt.Sprintf("%dULL", v.Bits), true
	case v.Unsigned:
		return fmt.Sprintf("%dU", v.Bits), true
	case v.Width == 64 && v.Int64() < 0:
		return fmt.Sprintf("(-%dLL - 1)", -(v.Int64() + 1)), true
	case v.Width == 64:
		return fmt.Sprintf("((long long)%d)", v.Int64()), true
	case v.Int64() < 0:
		return fmt.Sprintf("(-%d - 1)", -(v.Int64() + 1)), true
	}
	return fmt.Sprintf("%d", v.Int64()), true
}

// isVariable reports whether name is a parameter or local of fn or a
// file-scope variable.
func (fw *follower) isVariable(name, fn string) bool {
	if fi := fw.funcInfo(fn); fi != nil && fi.has(name) {
		return true
	}
	_, ok := fw.globals()[name]
	return ok
}

// resolve is the value of the variable or member path in fn at line.
func (fw *follower) resolve(path []string, fn string, line, depth int, self *binding) (cexpr.Num, bool) {
	if self != nil && samePath(path, self.path) && self.val.kind != aEntry {
		return self.val.n, self.val.kind == aKnown
	}
	key := fmt.Sprintf("v|%s|%s|%d", fn, strings.Join(path, "."), line)
	if r, ok := fw.cache[key]; ok {
		return r.n, r.ok
	}
	if fw.active[key] {
		return cexpr.Num{}, false
	}
	fw.active[key] = true
	var n cexpr.Num
	var ok bool
	if fi := fw.funcInfo(fn); fi != nil && fi.has(path[0]) {
		n, ok = fw.local(fi, path, line, depth)
	} else if _, global := fw.globals()[path[0]]; global {
		n, ok = fw.global(path, depth)
	}
	delete(fw.active, key)
	if !fw.done {
		fw.cache[key] = numResult{n, ok}
	}
	return n, ok
}

func samePath(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// local is the value of a parameter's or local's path in fi at line (the
// end of the function when line <= 0): the stores before it, and for a
// parameter not stored, the arguments of its call sites.
func (fw *follower) local(fi *funcInfo, path []string, line, depth int) (cexpr.Num, bool) {
	if fi.root == nil {
		return cexpr.Num{}, false
	}
	w := &walker{fw: fw, fi: fi, path: path, stop: line, depth: depth}
	if line <= 0 {
		w.stop = math.MaxInt
		w.returns = &[]absVal{}
	}
	st := w.stmt(fi.root, absVal{kind: aEntry}).st
	if w.returns != nil {
		st = joinAll(st, *w.returns...)
	}
	if fi.gotos && w.sawStore {
		return cexpr.Num{}, false
	}
	switch {
	case st.kind == aKnown:
		return st.n, true
	case st.kind == aEntry && len(path) == 1:
		if idx, ok := fi.params[path[0]]; ok {
			return fw.paramValue(fi, idx, depth)
		}
	}
	return cexpr.Num{}, false
}

// paramValue is the argument every call site of fi passes as its parameter
// idx, evaluated in the caller at the call; unknown when there is no site,
// the sites disagree, or the function is also used as a value (a callback).
func (fw *follower) paramValue(fi *funcInfo, idx, depth int) (cexpr.Num, bool) {
	key := fmt.Sprintf("p|%s|%d", fi.fn.Name, idx)
	if fw.active[key] || depth >= maxFollowDepth || fw.addressTaken()[fi.fn.Name] {
		return cexpr.Num{}, false
	}
	fw.active[key] = true
	defer delete(fw.active, key)
	sites := fw.callSites()[fi.fn.Name]
	vals := make([]cexpr.Num, 0, len(sites))
	for _, c := range sites {
		if len(c.Args) != len(fi.fn.Params) {
			return cexpr.Num{}, false
		}
		n, ok := fw.evalText(c.Args[idx], c.Function, c.Line, depth+1, nil)
		if !ok {
			return cexpr.Num{}, false
		}
		vals = append(vals, fw.castTo(fi.fn.Params[idx].Type, n))
	}
	return agree(vals)
}

// agree is the one value of vals; false when vals is empty or they differ.
func agree(vals []cexpr.Num) (cexpr.Num, bool) {
	if len(vals) == 0 {
		return cexpr.Num{}, false
	}
	for _, v := range vals[1:] {
		if v != vals[0] {
			return cexpr.Num{}, false
		}
	}
	return vals[0], true
}

// returnValue is the value of a call of the file's function name without
// arguments: every return gives the same value.
func (fw *follower) returnValue(name string, depth int) (cexpr.Num, bool) {
	key := "r|" + name
	if r, ok := fw.cache[key]; ok {
		return r.n, r.ok
	}
	fi := fw.funcInfo(name)
	if fi == nil || fi.root == nil || fi.broken || len(fi.fn.Params) > 0 || len(fi.returns) == 0 || fw.active[key] {
		return cexpr.Num{}, false
	}
	fw.active[key] = true
	vals := make([]cexpr.Num, 0, len(fi.returns))
	ok := true
	for _, r := range fi.returns {
		n, good := fw.evalText(r.Cond, name, r.Line, depth+1, nil)
		if !good {
			ok = false
			break
		}
		vals = append(vals, fw.castTo(fi.fn.ReturnType, n))
	}
	delete(fw.active, key)
	n, agreed := agree(vals)
	ok = ok && agreed
	if !fw.done {
		fw.cache[key] = numResult{n, ok}
	}
	return n, ok
}

// global is the value of a file-scope variable's path: its initializer and
// every store to it in the file's functions agree on one value.
func (fw *follower) global(path []string, depth int) (cexpr.Num, bool) {
	d := fw.globals()[path[0]]
	var vals []cexpr.Num
	add := func(text, fn string, line int) bool {
		n, ok := fw.evalText(text, fn, line, depth+1, nil)
		if ok {
			vals = append(vals, n)
		}
		return ok
	}
	if d.Init != "" {
		text, ok := d.Init, !d.Array
		if len(path) > 1 {
			text, ok = designated(d.Init, path[1:])
		}
		if !ok || !add(text, "", d.Line) {
			return cexpr.Num{}, false
		}
	}
	for _, fi := range fw.functionsNaming(path[0]) {
		if !fw.spend(len(fi.ops)) {
			return cexpr.Num{}, false
		}
		for _, o := range fi.ops {
			e, store := storeOf(o, path)
			if !store {
				continue
			}
			ok := true
			switch {
			case e.op == "=" && !e.prefix:
				ok = add(e.rhs, fi.fn.Name, e.line)
			case e.op == "=" && isInitializer(e.rhs):
				text, found := designated(e.rhs, path[len(e.written):])
				ok = found && add(text, fi.fn.Name, e.line)
			case e.op == "&" && e.prefix && len(path) > 1, e.op == "decl" && e.prefix:
			default:
				ok = false
			}
			if !ok {
				return cexpr.Num{}, false
			}
		}
	}
	for i := range vals {
		vals[i] = fw.castTo(declType(d), vals[i])
	}
	return agree(vals)
}

// declType is the type a declaration gives its variable ("" for an array).
func declType(d csyntax.Declaration) string {
	switch {
	case d.Array:
		return ""
	case d.Pointer:
		return d.Type + " *"
	}
	return d.Type
}

// castTo converts n to the C type typ as an assignment does; n as it is
// when the type is not a known arithmetic one.
func (fw *follower) castTo(typ string, n cexpr.Num) cexpr.Num {
	typ = strings.TrimSpace(strings.NewReplacer("const ", "", "volatile ", "").Replace(typ + " "))
	if typ == "" || strings.ContainsAny(typ, "[(") {
		return n
	}
	lit, ok := render(n)
	if !ok {
		return n
	}
	if v, err := cexpr.EvalNum("("+typ+")"+lit, cexpr.Env{}); err == nil {
		return v
	}
	return n
}

// designated is the value text a designated initializer
// "{ .a = 1, .b = { .c = 2 } }" gives the member path ("c" of "b"); false
// when it names none (positional initializers are not mapped to members).
func designated(init string, path []string) (string, bool) {
	s := strings.TrimSpace(init)
	if i := strings.Index(s, "{"); i > 0 && strings.HasPrefix(s, "(") {
		s = s[i:] // a compound literal (struct cfg){ ... }
	}
	if len(path) == 0 || !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return "", false
	}
	text, found := "", false
	items := csyntax.SplitArgs(s[1 : len(s)-1])
	// Members an initializer list does not name are zero (C11 6.7.9 §21),
	// when no positional item leaves the mapping to members in doubt: "{}",
	// "{0}", or designators only.
	zeroRest := true
	for i, item := range items {
		item = strings.TrimSpace(item)
		if !strings.HasPrefix(item, ".") && !(len(items) == 1 && i == 0 && (item == "0" || item == "")) {
			zeroRest = false
		}
	}
	if zeroRest {
		text, found = "0", true
	}
	for _, item := range items {
		name, value, ok := strings.Cut(item, "=")
		name = strings.TrimSpace(name)
		if !ok || !strings.HasPrefix(name, ".") {
			continue
		}
		desig := strings.Split(strings.ReplaceAll(name[1:], " ", ""), ".")
		switch {
		case samePath(desig, path):
			text, found = strings.TrimSpace(value), true
		case len(desig) < len(path) && samePath(desig, path[:len(desig)]):
			if t, ok := designated(value, path[len(desig):]); ok {
				text, found = t, true
			}
		}
	}
	return text, found
}

// isInitializer reports whether text is a brace initializer or a compound
// literal.
func isInitializer(text string) bool {
	toks := tokenizeExpr(text)
	if len(toks) == 0 {
		return false
	}
	if toks[0].text == "{" {
		return true
	}
	for i, t := range toks {
		if t.text == ")" {
			return toks[0].text == "(" && i+1 < len(toks) && toks[i+1].text == "{"
		}
	}
	return false
}
