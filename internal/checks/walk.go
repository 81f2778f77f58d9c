package checks

import (
	"math"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cexpr"
	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// funcInfo is what following values needs of one function definition,
// built once per file and function from csyntax's statement tree.
type funcInfo struct {
	fn     csyntax.Function
	params map[string]int
	locals map[string]csyntax.Declaration
	// root is the body's statement tree; nil when csyntax has none.
	root *csyntax.Stmt
	// returns are the return statements in source order.
	returns []*csyntax.Stmt
	// ops are every op of the body, in source order.
	ops []csyntax.Op
	// gotos is set when the body has a goto or a label, or a statement the
	// parser could not read that holds a control keyword: the walk's
	// paths are then not all the body's.
	gotos bool
	// broken is set when the body has such an unreadable statement: its
	// return statements may not all be known.
	broken bool
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
		return buildFuncInfo(fn, fw.locals()[name], fw.f.Body(name))
	}).(*funcInfo)
}

// buildFuncInfo indexes the body tree of fn; locals are its local
// declarations.
func buildFuncInfo(fn csyntax.Function, locals []csyntax.Declaration, body *csyntax.Stmt) *funcInfo {
	fi := &funcInfo{fn: fn, params: map[string]int{}, locals: map[string]csyntax.Declaration{}, root: body}
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
	stack := []*csyntax.Stmt{body}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s == nil {
			continue
		}
		switch s.Kind {
		case csyntax.StmtReturn:
			fi.returns = append(fi.returns, s)
		case csyntax.StmtGoto, csyntax.StmtLabel:
			fi.gotos = true
		case csyntax.StmtError:
			fi.gotos = fi.gotos || s.Jumps
			fi.broken = fi.broken || s.Jumps
		}
		fi.ops = append(fi.ops, s.Init...)
		fi.ops = append(fi.ops, s.Ops...)
		fi.ops = append(fi.ops, s.Post...)
		for i := len(s.Kids) - 1; i >= 0; i-- {
			stack = append(stack, s.Kids[i])
		}
	}
	return fi
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
func (w *walker) seq(stmts []*csyntax.Stmt, in absVal, entry *absVal) flow {
	out := flow{st: in}
	for _, s := range stmts {
		if s == nil {
			continue
		}
		if s.Line >= w.stop {
			out.reached = true
			return out
		}
		var r flow
		if s.Kind == csyntax.StmtCase && entry != nil {
			r = w.seq(s.Kids, join(*entry, out.st), nil)
		} else {
			r = w.stmt(s, out.st)
		}
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
func (w *walker) stmt(s *csyntax.Stmt, in absVal) flow {
	if !w.fw.spend(1) {
		return flow{st: unknown, reached: true}
	}
	if s == nil {
		return flow{st: in}
	}
	inside := s.Line < w.stop && w.stop <= s.EndLine
	switch s.Kind {
	case csyntax.StmtSeq, csyntax.StmtLabel:
		r := w.seq(s.Kids, in, nil)
		r.reached = r.reached || inside
		return r
	case csyntax.StmtEffect, csyntax.StmtError:
		if inside {
			return flow{st: in, reached: true}
		}
		return flow{st: w.ops(s.Ops, in)}
	case csyntax.StmtReturn:
		if inside {
			return flow{st: in, reached: true}
		}
		if w.returns != nil && in.kind != aDead {
			*w.returns = append(*w.returns, w.ops(s.Ops, in))
		}
		return flow{st: absVal{kind: aDead}}
	case csyntax.StmtBreak:
		return flow{st: absVal{kind: aDead}, breaks: []absVal{in}}
	case csyntax.StmtContinue:
		return flow{st: absVal{kind: aDead}, conts: []absVal{in}}
	case csyntax.StmtCase:
		return flow{st: unknown}
	case csyntax.StmtIf:
		return w.ifStmt(s, in)
	case csyntax.StmtLoop:
		return w.loop(s, in, inside)
	case csyntax.StmtDo:
		return w.doLoop(s, in, inside)
	case csyntax.StmtSwitch:
		r := w.switchStmt(s, in)
		r.reached = r.reached || inside
		return r
	case csyntax.StmtAlt:
		return w.alt(s, in)
	}
	return flow{st: in}
}

// ifStmt walks if/else: the branches' values join unless the point is in one.
func (w *walker) ifStmt(s *csyntax.Stmt, in absVal) flow {
	st := w.ops(s.Ops, in)
	then := w.stmt(s.Kids[0], st)
	if then.reached {
		return then
	}
	els := flow{st: st}
	if len(s.Kids) > 1 && s.Kids[1] != nil {
		if els = w.stmt(s.Kids[1], st); els.reached {
			return els
		}
	}
	return flow{st: join(then.st, els.st), breaks: append(then.breaks, els.breaks...), conts: append(then.conts, els.conts...)}
}

// alt walks the branches of an #if: the point in one gives its value
// joined with the value before (the branch may be compiled out); otherwise
// the branches' values join, with the value before unless one branch is
// always compiled.
func (w *walker) alt(s *csyntax.Stmt, in absVal) flow {
	var out flow
	first := true
	for _, k := range s.Kids {
		r := w.stmt(k, in)
		if r.reached {
			r.st = join(in, r.st)
			return r
		}
		if first {
			out.st, first = r.st, false
		} else {
			out.st = join(out.st, r.st)
		}
		out.breaks = append(out.breaks, r.breaks...)
		out.conts = append(out.conts, r.conts...)
	}
	if first {
		out.st = in
	} else if !s.Forever {
		out.st = join(in, out.st)
	}
	return out
}

// maxIterations bounds the passes over a loop body before its value at the
// loop's head is taken as unknown.
const maxIterations = 4

// loop walks while, for and loop macros: the value at the head is the join
// over the iterations; the value after the loop joins the exits.
func (w *walker) loop(s *csyntax.Stmt, in absVal, inside bool) flow {
	return w.iterate(s, w.ops(s.Init, in), inside, true)
}

// doLoop walks do { } while (...): the body runs at least once.
func (w *walker) doLoop(s *csyntax.Stmt, in absVal, inside bool) flow {
	return w.iterate(s, in, inside, false)
}

// iterate passes over a loop body from start until the value at its head
// stops changing (at most maxIterations passes; otherwise the head is
// unknown). testFirst is a while/for loop, whose condition (s.Ops) runs
// before each pass and whose false condition leaves with the value it saw;
// a do loop tests s.Post after the body and leaves with the value after it.
func (w *walker) iterate(s *csyntax.Stmt, start absVal, inside, testFirst bool) flow {
	head := start
	var exits []absVal
	stop := w.stop
	w.stop = math.MaxInt
	converged := false
	entry := func(h absVal) absVal {
		if testFirst {
			return w.ops(s.Ops, h)
		}
		return h
	}
	for i := 0; i < maxIterations && !converged; i++ {
		e := entry(head)
		r := w.stmt(s.Kids[0], e)
		back := w.ops(s.Post, joinAll(r.st, r.conts...))
		exits = append(exits, r.breaks...)
		leave, base := back, start
		if testFirst {
			leave, base = e, head
		}
		if !s.Forever {
			exits = append(exits, leave)
		}
		next := join(base, back)
		converged = next == head
		head = next
	}
	w.stop = stop
	if !converged {
		head = unknown
	}
	if inside {
		r := w.stmt(s.Kids[0], entry(head))
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

// switchStmt walks a switch: each case label joins the value at the switch
// with the one falling through; the value after joins the breaks, the end,
// and without a default the value at the switch.
func (w *walker) switchStmt(s *csyntax.Stmt, in absVal) flow {
	st := w.ops(s.Ops, in)
	r := w.seq(s.Kids, absVal{kind: aDead}, &st)
	if r.reached {
		return r
	}
	out := joinAll(r.st, r.breaks...)
	if !s.Forever {
		out = join(out, st)
	}
	return flow{st: out, conts: r.conts}
}

// ops applies the stores to the walker's path among list to the value in.
// A store evaluated on some paths only joins with the value before it.
func (w *walker) ops(list []csyntax.Op, in absVal) absVal {
	st := in
	if st.kind == aDead || len(list) == 0 || !w.fw.spend(len(list)) {
		return st
	}
	for _, o := range list {
		e, ok := storeOf(o, w.path)
		if !ok {
			continue
		}
		w.sawStore = true
		before := st
		st = w.apply(e, st)
		if o.Conditional {
			st = join(before, st)
		}
		if st.kind == aUnknown {
			break
		}
	}
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
		text, ok := designated(e.rhs, w.path[len(e.written):])
		if !ok {
			return unknown
		}
		return w.value(text, e.line, st)
	case e.prefix:
		return unknown
	case e.op == "=":
		return w.value(e.rhs, e.line, st)
	case e.op == "++" || e.op == "--":
		return w.compound(e.op[:1], "1", e.line, st)
	}
	return w.compound(strings.TrimSuffix(e.op, "="), e.rhs, e.line, st)
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
	rhs     string
	line    int
}

// storeOf reads the op o as a store into path or a prefix of it: an
// assignment, increment or initialised declaration whose target is the
// name or member chain, its address taken ("&cfg", "&buf[0]"), or its
// declaration without initializer. A store through a pointer ("*p = 1")
// or into an element ("a[i] = 1") is none.
func storeOf(o csyntax.Op, path []string) (storeEvent, bool) {
	e := storeEvent{line: o.Line, rhs: o.Value}
	if !strings.HasPrefix(o.Name, path[0]) || len(o.Name) > len(path[0]) && isWordByte(o.Name[len(path[0])]) {
		return e, false
	}
	switch o.Kind {
	case csyntax.OpStore:
		e.op = o.Operator
	case csyntax.OpAddress:
		e.op = "&"
	case csyntax.OpDeclare:
		e.op = "decl"
	default:
		return e, false
	}
	toks := tokenizeExpr(o.Name)
	written, j := readChain(toks, 0)
	if o.Kind == csyntax.OpStore && j != len(toks) || len(written) > len(path) || !samePath(written, path[:len(written)]) {
		return e, false
	}
	e.written, e.prefix = written, len(written) < len(path)
	return e, true
}
