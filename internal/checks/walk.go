package checks

import (
	"math"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cexpr"
	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// funcInfo is what following values needs of one function definition,
// built once per file and function.
type funcInfo struct {
	fn     csyntax.Function
	params map[string]int
	locals map[string]csyntax.Declaration
	toks   []ctok
	root   *stmt
	// returns are the return statements in source order.
	returns []*stmt
	// deep is set when the body nests too deeply to analyse; gotos when it
	// has a goto or a label.
	deep, gotos bool
}

// has reports whether name is a parameter or local of the function.
func (fi *funcInfo) has(name string) bool {
	if _, ok := fi.params[name]; ok {
		return true
	}
	_, ok := fi.locals[name]
	return ok
}

// funcInfo is the analysis of the file's function name, nil when the file
// defines none.
func (fw *follower) funcInfo(name string) *funcInfo {
	if name == "" {
		return nil
	}
	return fw.f.Memo("c.follow func "+name, func() any {
		fn, ok := fw.definitions()[name]
		if !ok {
			return (*funcInfo)(nil)
		}
		return buildFuncInfo(fn, fw.locals()[name])
	}).(*funcInfo)
}

// buildFuncInfo tokenizes and parses fn's body; locals are its local
// declarations.
func buildFuncInfo(fn csyntax.Function, locals []csyntax.Declaration) *funcInfo {
	fi := &funcInfo{fn: fn, params: map[string]int{}, locals: map[string]csyntax.Declaration{}}
	for i, p := range fn.Params {
		if p.Name != "" {
			fi.params[p.Name] = i
		}
	}
	for _, d := range locals {
		if _, ok := fi.locals[d.Name]; !ok {
			fi.locals[d.Name] = d
		}
	}
	fi.toks = tokenize(fn.Body, fn.EndLine-strings.Count(fn.Body, "\n"))
	root, p := parseBody(fi.toks)
	fi.root, fi.deep, fi.gotos = root, p.deep, p.gotos
	fi.returns = collectReturns(root, nil, 0)
	return fi
}

// collectReturns appends the return statements under s.
func collectReturns(s *stmt, out []*stmt, depth int) []*stmt {
	if s == nil || depth > maxNesting {
		return out
	}
	if s.kind == sReturn {
		return append(out, s)
	}
	for _, k := range s.kids {
		out = collectReturns(k, out, depth+1)
	}
	return out
}

// definitions maps the names of the file's functions to their first
// definition.
func (fw *follower) definitions() map[string]csyntax.Function {
	return fw.f.Memo("c.follow definitions", func() any {
		out := map[string]csyntax.Function{}
		for _, fn := range fw.f.Functions() {
			if _, ok := out[fn.Name]; !ok {
				out[fn.Name] = fn
			}
		}
		return out
	}).(map[string]csyntax.Function)
}

// globals maps the names of file-scope variables to their first declaration
// with an initializer (else their first declaration).
func (fw *follower) globals() map[string]csyntax.Declaration {
	return fw.f.Memo("c.follow globals", func() any {
		out := map[string]csyntax.Declaration{}
		for _, d := range fw.f.Declarations(csyntax.GlobalScope) {
			if prev, ok := out[d.Name]; !ok || prev.Init == "" && d.Init != "" {
				out[d.Name] = d
			}
		}
		return out
	}).(map[string]csyntax.Declaration)
}

// callSites maps callee names to their calls.
func (fw *follower) callSites() map[string][]csyntax.Call {
	return fw.f.Memo("c.follow calls", func() any {
		out := map[string][]csyntax.Call{}
		for _, c := range fw.f.Calls("") {
			out[c.Name] = append(out[c.Name], c)
		}
		return out
	}).(map[string][]csyntax.Call)
}

// addressTaken holds the names the file uses other than by calling them or
// declaring them as functions: a function among them may be called through
// a pointer with arguments no call site shows.
func (fw *follower) addressTaken() map[string]bool {
	return fw.f.Memo("c.follow address taken", func() any {
		out := map[string]bool{}
		toks := tokenize(fw.f.Source(), 1)
		for i, t := range toks {
			if t.ident && (i+1 >= len(toks) || toks[i+1].text != "(") {
				out[t.text] = true
			}
		}
		return out
	}).(map[string]bool)
}

// functionsNaming are the functions whose body names the global name and
// that do not declare their own variable of that name.
func (fw *follower) functionsNaming(name string) []*funcInfo {
	var out []*funcInfo
	for _, fn := range fw.f.Functions() {
		if !fw.spend(1) {
			return out
		}
		if !strings.Contains(fn.Body, name) {
			continue
		}
		if fi := fw.funcInfo(fn.Name); fi != nil && fi.fn.Line == fn.Line && !fi.has(name) {
			out = append(out, fi)
		}
	}
	return out
}

// absKind is what is known of a variable's value at a point of a function.
type absKind uint8

const (
	aEntry   absKind = iota // the value it had on entry (a parameter's argument)
	aKnown                  // the value n
	aUnknown                // no single value
	aDead                   // the point is not reached (after a return)
)

// absVal is a variable's value at a point.
type absVal struct {
	kind absKind
	n    cexpr.Num
}

var unknown = absVal{kind: aUnknown}

// join is the value at a point two paths reach.
func join(a, b absVal) absVal {
	switch {
	case a.kind == aDead:
		return b
	case b.kind == aDead || a == b:
		return a
	}
	return unknown
}

// joinAll joins a with vs.
func joinAll(a absVal, vs ...absVal) absVal {
	for _, v := range vs {
		a = join(a, v)
	}
	return a
}

// flow is the result of walking a statement.
type flow struct {
	st            absVal
	breaks, conts []absVal
	reached       bool
}

// walker computes the value of one path at one line of a function.
type walker struct {
	fw    *follower
	fi    *funcInfo
	path  []string
	stop  int
	depth int
	// returns collects the values at the returns when the point is the
	// function's end.
	returns  *[]absVal
	sawStore bool
}

// seq walks statements in order up to the stop line. entry is the value
// at the start of the enclosing switch, joined in at each case label.
func (w *walker) seq(stmts []*stmt, in absVal, entry *absVal) flow {
	out := flow{st: in}
	for _, s := range stmts {
		if s.line >= w.stop {
			out.reached = true
			return out
		}
		if s.kind == sCase && entry != nil {
			out.st = join(*entry, out.st)
			continue
		}
		r := w.stmt(s, out.st)
		out.breaks = append(out.breaks, r.breaks...)
		out.conts = append(out.conts, r.conts...)
		out.st = r.st
		if r.reached {
			out.reached = true
			return out
		}
	}
	return out
}

// stmt walks one statement from the value in.
func (w *walker) stmt(s *stmt, in absVal) flow {
	if !w.fw.spend(1) {
		return flow{st: unknown, reached: true}
	}
	inside := s.line < w.stop && w.stop <= s.end
	switch s.kind {
	case sBlock:
		r := w.seq(s.kids, in, nil)
		r.reached = r.reached || inside
		return r
	case sSimple:
		if inside {
			return flow{st: in, reached: true}
		}
		return flow{st: w.stores(s.toks, in)}
	case sReturn:
		if inside {
			return flow{st: in, reached: true}
		}
		if w.returns != nil && in.kind != aDead {
			*w.returns = append(*w.returns, w.stores(s.toks, in))
		}
		return flow{st: absVal{kind: aDead}}
	case sBreak:
		return flow{st: absVal{kind: aDead}, breaks: []absVal{in}}
	case sContinue:
		return flow{st: absVal{kind: aDead}, conts: []absVal{in}}
	case sCase:
		return flow{st: unknown}
	case sIf:
		return w.ifStmt(s, in)
	case sLoop:
		return w.loop(s, in, inside)
	case sDo:
		return w.doLoop(s, in, inside)
	case sSwitch:
		r := w.switchStmt(s, in)
		r.reached = r.reached || inside
		return r
	}
	return flow{st: in}
}

// ifStmt walks if/else: the branches' values join unless the point is in one.
func (w *walker) ifStmt(s *stmt, in absVal) flow {
	st := w.stores(s.toks, in)
	then := w.stmt(s.kids[0], st)
	if then.reached {
		return then
	}
	els := flow{st: st}
	if len(s.kids) > 1 {
		if els = w.stmt(s.kids[1], st); els.reached {
			return els
		}
	}
	return flow{st: join(then.st, els.st), breaks: append(then.breaks, els.breaks...), conts: append(then.conts, els.conts...)}
}

// maxIterations bounds the passes over a loop body before its value at the
// loop's head is taken as unknown.
const maxIterations = 4

// loop walks while, for and loop macros: the value at the head is the join
// over the iterations; the value after the loop joins the exits.
func (w *walker) loop(s *stmt, in absVal, inside bool) flow {
	head := w.stores(s.init, in)
	var exits []absVal
	stop := w.stop
	w.stop = math.MaxInt
	converged := false
	for i := 0; i < maxIterations && !converged; i++ {
		h := w.stores(s.toks, head)
		r := w.stmt(s.kids[0], h)
		back := w.stores(s.update, joinAll(r.st, r.conts...))
		exits = append(exits, r.breaks...)
		if !s.forever {
			exits = append(exits, h)
		}
		next := join(head, back)
		converged = next == head
		head = next
	}
	w.stop = stop
	if !converged {
		head = unknown
	}
	if inside {
		r := w.stmt(s.kids[0], w.stores(s.toks, head))
		r.reached = true
		return r
	}
	return flow{st: exitValue(exits, converged)}
}

// exitValue is the value after a loop.
func exitValue(exits []absVal, converged bool) absVal {
	if !converged {
		return unknown
	}
	if len(exits) == 0 {
		return absVal{kind: aDead}
	}
	return joinAll(exits[0], exits[1:]...)
}

// doLoop walks do { } while (...): the body runs at least once.
func (w *walker) doLoop(s *stmt, in absVal, inside bool) flow {
	head := in
	var exits []absVal
	stop := w.stop
	w.stop = math.MaxInt
	converged := false
	for i := 0; i < maxIterations && !converged; i++ {
		r := w.stmt(s.kids[0], head)
		c := w.stores(s.toks, joinAll(r.st, r.conts...))
		exits = append(exits, r.breaks...)
		if !alwaysTrue(s.toks) {
			exits = append(exits, c)
		}
		next := join(in, c)
		converged = next == head
		head = next
	}
	w.stop = stop
	if !converged {
		head = unknown
	}
	if inside {
		r := w.stmt(s.kids[0], head)
		r.reached = true
		return r
	}
	return flow{st: exitValue(exits, converged)}
}

// switchStmt walks a switch: each case label joins the value at the switch
// with the one falling through; the value after joins the breaks, the end,
// and without a default the value at the switch.
func (w *walker) switchStmt(s *stmt, in absVal) flow {
	st := w.stores(s.toks, in)
	body := []*stmt{s.kids[0]}
	if s.kids[0].kind == sBlock {
		body = s.kids[0].kids
	}
	r := w.seq(body, absVal{kind: aDead}, &st)
	if r.reached {
		return r
	}
	out := joinAll(r.st, r.breaks...)
	hasDefault := false
	for _, b := range body {
		hasDefault = hasDefault || b.kind == sCase && len(b.toks) > 0 && b.toks[0].text == "default"
	}
	if !hasDefault {
		out = join(out, st)
	}
	return flow{st: out, conts: r.conts}
}

// stores applies the stores to the walker's path in toks to the value in.
func (w *walker) stores(toks []ctok, in absVal) absVal {
	st := in
	if st.kind == aDead || len(toks) == 0 || !w.fw.spend(len(toks)) {
		return st
	}
	storeEvents(toks, w.path, func(e storeEvent) bool {
		w.sawStore = true
		before := st
		st = w.apply(e, st)
		if e.pp {
			st = join(before, st)
		}
		return st.kind != aUnknown
	})
	return st
}

// apply is the value after the store e.
func (w *walker) apply(e storeEvent, st absVal) absVal {
	switch {
	case e.op == "decl":
		return unknown
	case e.op == "&":
		if e.prefix {
			return st // a struct passed by address: callees are trusted
		}
		return unknown
	case e.prefix && e.op == "=" && isInitializer(e.rhs):
		text, ok := designated(joinToks(e.rhs), w.path[len(e.written):])
		if !ok {
			return unknown
		}
		return w.value(text, e.line, st)
	case e.prefix:
		return unknown
	case e.op == "=":
		return w.value(joinToks(e.rhs), e.line, st)
	case e.op == "++" || e.op == "--":
		return w.compound(e.op[:1], "1", e.line, st)
	}
	return w.compound(strings.TrimSuffix(e.op, "="), joinToks(e.rhs), e.line, st)
}

// value is the value stored by "= text" at line, converted to the
// variable's type.
func (w *walker) value(text string, line int, st absVal) absVal {
	n, ok := w.fw.evalText(text, w.fi.fn.Name, line, w.depth+1, &binding{path: w.path, val: st})
	if !ok {
		return unknown
	}
	return absVal{kind: aKnown, n: w.fw.castTo(w.varType(), n)}
}

// compound is the value after "op= text" at line.
func (w *walker) compound(op, text string, line int, st absVal) absVal {
	if st.kind != aKnown {
		return unknown
	}
	cur, ok := render(st.n)
	if !ok {
		return unknown
	}
	return w.value(cur+" "+op+" ("+text+")", line, st)
}

// varType is the declared type of the walker's variable ("" for a member).
func (w *walker) varType() string {
	if len(w.path) > 1 {
		return ""
	}
	if i, ok := w.fi.params[w.path[0]]; ok {
		return w.fi.fn.Params[i].Type
	}
	if d, ok := w.fi.locals[w.path[0]]; ok {
		return declType(d)
	}
	return ""
}

// storeEvent is one store into a path, or into a prefix of it (prefix set;
// written holds the names stored into).
type storeEvent struct {
	// op is the assignment operator, "++" or "--", "&" when the address is
	// taken, "decl" for a declaration without an initializer.
	op      string
	written []string
	prefix  bool
	rhs     []ctok
	line    int
	pp      bool
}

// storeEvents calls visit for the stores into path (or a prefix of it) in
// toks, in order, until visit returns false.
func storeEvents(toks []ctok, path []string, visit func(storeEvent) bool) {
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.ident || t.text != path[0] || i > 0 && (toks[i-1].text == "." || toks[i-1].text == "->") {
			continue
		}
		written, j := readChain(toks, i)
		if len(written) > len(path) || !samePath(written, path[:len(written)]) {
			continue
		}
		e, ok := storeAt(toks, i, j, written)
		if !ok {
			continue
		}
		e.prefix = len(written) < len(path)
		if !visit(e) {
			return
		}
	}
}

// storeAt reads the store, if any, into the chain toks[i:j].
func storeAt(toks []ctok, i, j int, written []string) (storeEvent, bool) {
	e := storeEvent{written: written, line: toks[i].line, pp: toks[i].pp}
	prev, next := "", ""
	if i > 0 {
		prev = toks[i-1].text
	}
	if j < len(toks) {
		next = toks[j].text
	}
	if prev == "*" && unaryAt(toks, i-1) {
		return e, false // *p = ...: a store through p, not into it
	}
	switch {
	case prev == "&" && unaryAt(toks, i-1):
		e.op = "&"
	case prev == "++" || prev == "--":
		e.op = prev
	case next == "++" || next == "--":
		e.op = next
	case isAssignOp(next):
		e.op, e.rhs = next, rhsAt(toks, j+1)
	case (next == ";" || next == "," || next == "[" || next == "") && declares(toks, i):
		e.op = "decl"
	default:
		return e, false
	}
	return e, true
}

// declares reports whether the name at toks[i] is declared there: a type
// name or "*" precedes it, and only names, "*" and earlier declarators
// ("int a[4], *v") come before it in the statement.
func declares(toks []ctok, i int) bool {
	if i == 0 {
		return false
	}
	for _, t := range toks[:i] {
		if !(t.ident && !isCKeyword(t.text) || t.num || t.text == "*" || t.text == "," || t.text == "[" || t.text == "]") {
			return false
		}
	}
	p := toks[i-1]
	return p.ident || p.text == "*" || p.text == ","
}

// isAssignOp reports whether op is an assignment operator.
func isAssignOp(op string) bool {
	switch op {
	case "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=":
		return true
	}
	return false
}

// rhsAt is the right side of an assignment starting at toks[i]: up to a
// top-level ",", ";" or an unbalanced closing bracket.
func rhsAt(toks []ctok, i int) []ctok {
	level := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].text {
		case "(", "[", "{":
			level++
		case ")", "]", "}":
			if level == 0 {
				return toks[i:j]
			}
			level--
		case ",", ";":
			if level == 0 {
				return toks[i:j]
			}
		}
	}
	return toks[i:]
}
