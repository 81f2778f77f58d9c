package csyntax

import (
	"slices"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// HaltingCalls is a vocabulary of functions and macros that never return:
// an SDK's reset, panic and exit calls; with WithStatus it also names the
// SDK's status constants, which the typestate walks (Released,
// NotWhileHeld, ...) read to tell a failed acquisition from a successful
// one. It is immutable; nil is the empty vocabulary.
type HaltingCalls struct {
	names  map[string]bool
	status StatusVocabulary
	key    string
}

// StatusVocabulary names an SDK's status constants (data/error_conventions.yaml,
// which *errconv.Conventions reads): the values a call returns on success
// (ESP_OK, HAL_OK, pdTRUE, PSA_SUCCESS) and, compared with ==, on failure
// (pdFALSE, ESP_FAIL, HAL_ERROR). C's own spellings (0, NULL, -1, true,
// false, EXIT_SUCCESS) are known without it.
type StatusVocabulary interface {
	SuccessValue(name string) bool
	FailureValue(name string) bool
}

// WithStatus returns a copy of h that also knows the status constants of v.
// They do not change which calls never return, so flow tables are shared
// with h.
func (h *HaltingCalls) WithStatus(v StatusVocabulary) *HaltingCalls {
	c := HaltingCalls{names: map[string]bool{}}
	if h != nil {
		c = *h
	}
	c.status = v
	return &c
}

func (h *HaltingCalls) successValue(name string) bool {
	return h != nil && h.status != nil && h.status.SuccessValue(name)
}

func (h *HaltingCalls) failureValue(name string) bool {
	return h != nil && h.status != nil && h.status.FailureValue(name)
}

// NewHaltingCalls returns the vocabulary of the given names.
func NewHaltingCalls(names ...string) *HaltingCalls {
	h := &HaltingCalls{names: map[string]bool{}}
	for _, n := range names {
		if n != "" {
			h.names[n] = true
		}
	}
	sorted := make([]string, 0, len(h.names))
	for n := range h.names {
		sorted = append(sorted, n)
	}
	slices.Sort(sorted)
	h.key = strings.Join(sorted, ",")
	return h
}

// Contains reports whether name is in the vocabulary.
func (h *HaltingCalls) Contains(name string) bool { return h != nil && h.names[name] }

func (h *HaltingCalls) memoKey() string {
	if h == nil {
		return "csyntax.flow:"
	}
	return "csyntax.flow:" + h.key
}

// Tristate is an answer that may be unknown.
type Tristate int8

const (
	// Unknown means the code does not tell.
	Unknown Tristate = iota
	// No is a definite no.
	No
	// Yes is a definite yes.
	Yes
)

func (t Tristate) String() string {
	switch t {
	case Yes:
		return "yes"
	case No:
		return "no"
	}
	return "unknown"
}

// Exits is a set of ways a branch ends.
type Exits uint8

const (
	// ExitReturn: a path returns from the function.
	ExitReturn Exits = 1 << iota
	// ExitGoto: a path jumps to a label outside the branch.
	ExitGoto
	// ExitBreak: a path breaks out of the enclosing loop or switch.
	ExitBreak
	// ExitContinue: a path continues the enclosing loop.
	ExitContinue
	// ExitHalt: a path never comes back (a call that never returns, an
	// endless loop).
	ExitHalt
	// ExitUnknown: a path falls through unless a call the analysis cannot
	// judge (through a function pointer, an unreadable statement) never
	// returns.
	ExitUnknown
	// ExitFallsThrough: a path reaches the end of the branch and goes on
	// after the if.
	ExitFallsThrough
)

// Names returns the names of the exits in a fixed order: return, goto,
// break, continue, halt, unknown, falls_through.
func (e Exits) Names() []string {
	out := []string{}
	for i, n := range [...]string{"return", "goto", "break", "continue", "halt", "unknown", "falls_through"} {
		if e&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// Branch is how the branches of one if statement end.
type Branch struct {
	// Function is the enclosing function.
	Function string
	// Line is the 1-based line of the if.
	Line int
	// Condition is the condition's text without its parentheses,
	// whitespace collapsed.
	Condition string
	// Then are the exits of the then-branch, Else those of the else-branch
	// (an else-if chain counts as one statement) when HasElse.
	Then, Else Exits
	HasElse    bool
}

// NeverReturns reports whether calling function never returns to the caller.
// A function defined in the file never returns when it is declared so
// (_Noreturn, noreturn, __attribute__((noreturn)), [[noreturn]],
// __NO_RETURN, FUNC_NORETURN, __noreturn, on its definition or a
// prototype), or when every path of its body ends in an endless loop (one
// with a constant condition and no break, return or goto out of it) or in a
// call that never returns: one of calls, or a function of the file that
// never returns (followed to any depth; recursion without a way out never
// returns). Calls through function pointers, and calls to functions whose
// answer is Unknown, may or may not return: the answer is Unknown when it
// depends on them. Other functions the file does not define are assumed to
// return. A function the file does not define is Yes when calls lists it or
// a prototype declares it noreturn, Unknown otherwise. A definition in the
// file takes precedence over calls.
func (f *File) NeverReturns(function string, calls *HaltingCalls) Tristate {
	t := f.flow(calls)
	if t == nil || f.Interrupted() {
		return Unknown
	}
	return t.halts(function)
}

// BranchExits judges the if statements of function ("": every function)
// whose condition contains condition (whitespace ignored; "": any) and that
// start on line (0: any), in source order: how each path of the then- and
// else-branch ends. Calls are judged as by NeverReturns. A goto to a label
// inside the branch is followed; break and continue are reported as such,
// whether or not the if is inside a loop.
func (f *File) BranchExits(function, condition string, line int, calls *HaltingCalls) []Branch {
	t := f.flow(calls)
	if t == nil {
		return nil
	}
	want := squeeze(condition)
	var out []Branch
	for _, fn := range t.funcs {
		if function != "" && fn.name != function {
			continue
		}
		stack := []*flowNode{fn.body}
		for len(stack) > 0 && !f.expired() {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n.kind == flowIf && (line == 0 || n.line == line) && strings.Contains(squeeze(n.cond), want) {
				b := Branch{Function: fn.name, Line: n.line, Condition: n.cond, Then: t.branchExits(fn, n.kids[0])}
				if n.kids[1] != nil {
					b.HasElse = true
					b.Else = t.branchExits(fn, n.kids[1])
				}
				out = append(out, b)
			}
			for i := len(n.kids) - 1; i >= 0; i-- {
				if n.kids[i] != nil {
					stack = append(stack, n.kids[i])
				}
			}
		}
	}
	if f.Interrupted() {
		return nil
	}
	return out
}

// flowTable is the flow analysis of one file for one vocabulary.
type flowTable struct {
	f        *File
	calls    *HaltingCalls
	funcs    []*flowFunc
	byName   map[string][]*flowFunc
	noreturn map[string]bool // declared noreturn by a prototype or definition
	globals  map[string]bool // file-scope variables
}

// flow returns the file's flow analysis for calls, built once per
// vocabulary; nil when the file is closed.
func (f *File) flow(calls *HaltingCalls) *flowTable {
	if f.functions() == nil {
		return nil
	}
	return f.Memo(calls.memoKey(), func() any { return f.buildFlow(calls) }).(*flowTable)
}

// buildFlow builds the flow trees of every definition and solves which
// functions return.
func (f *File) buildFlow(calls *HaltingCalls) *flowTable {
	ix := f.functions()
	t := &flowTable{f: f, calls: calls, byName: map[string][]*flowFunc{}, noreturn: map[string]bool{}, globals: map[string]bool{}}
	for _, d := range f.Declarations(GlobalScope) {
		t.globals[d.Name] = true
	}
	byEnd := make(map[uint]*funcEntry, len(ix.funcs))
	for i := range ix.funcs {
		byEnd[ix.funcs[i].end] = &ix.funcs[i]
	}
	cur := f.tree.Walk()
	defer cur.Close()
	b := &flowBuilder{f: f, k: newNodeKinds(f.lang), cur: cur, globals: t.globals, asms: f.Asms()}
	t.scan(b, f.tree.RootNode(), byEnd)
	for _, fn := range t.funcs {
		if fn.noreturn {
			t.noreturn[fn.name] = true
		}
	}
	t.solve()
	return t
}

// scan collects the definitions and noreturn prototypes among the
// file-scope children of container, recursing into the containers
// scanFileScope enters.
func (t *flowTable) scan(b *flowBuilder, container *ts.Node, byEnd map[uint]*funcEntry) {
	c := container.Walk()
	defer c.Close()
	if !c.GotoFirstChild() {
		return
	}
	lower := scopeStart(container)
	for !t.f.expired() {
		n := c.Node()
		switch id := n.KindId(); {
		case id == b.k.fnDef:
			if fe, ok := byEnd[n.EndByte()]; ok {
				if fn := b.function(n, fe); fn != nil {
					t.funcs = append(t.funcs, fn)
					t.byName[fn.name] = append(t.byName[fn.name], fn)
				}
			}
		case id == b.k.declaration:
			t.prototypes(b, n, lower)
		case b.f.kinds.isContainer(id):
			t.scan(b, n, byEnd)
		}
		lower = n.EndByte()
		if !c.GotoNextSibling() {
			return
		}
	}
}

// prototypes records the functions a file-scope declaration declares
// noreturn; lower is where the masked decorators in front of it may start.
func (t *flowTable) prototypes(b *flowBuilder, n *ts.Node, lower uint) {
	for _, c := range b.children(n) {
		if c.field != b.k.fDeclarator {
			continue
		}
		fd := b.funcDeclarator(&c.node)
		name, ps := field(fd, b.k.fDeclarator), field(fd, b.k.fParameters)
		if name == nil || name.KindId() != b.k.identifier || ps == nil {
			continue
		}
		if hasNoreturnWord(t.f.code[lower:ps.StartByte()] + " " + t.f.code[ps.EndByte():n.EndByte()]) {
			t.noreturn[t.f.text(name)] = true
		}
	}
}

// solve computes which definitions may return, as the least fixed point
// over the call graph: every definition starts as never returning, and is
// evaluated again whenever a function it calls changes its answer, callees
// first. Each answer changes at most twice, which bounds the work.
func (t *flowTable) solve() {
	callers := map[string][]*flowFunc{}
	for _, fn := range t.funcs {
		for _, name := range fn.callees {
			callers[name] = append(callers[name], fn)
			fn.succ = append(fn.succ, t.byName[name]...)
		}
	}
	queue := t.postOrder()
	queued := make(map[*flowFunc]bool, len(queue))
	for _, fn := range queue {
		queued[fn] = true
	}
	for len(queue) > 0 && !t.f.expired() {
		fn := queue[0]
		queue = queue[1:]
		queued[fn] = false
		before := t.halts(fn.name)
		t.evalFunc(fn)
		if t.halts(fn.name) == before {
			continue
		}
		for _, c := range callers[fn.name] {
			if !queued[c] {
				queued[c] = true
				queue = append(queue, c)
			}
		}
	}
}

// postOrder lists the definitions callees first (depth first, without
// recursion).
func (t *flowTable) postOrder() []*flowFunc {
	type frame struct {
		fn *flowFunc
		i  int
	}
	visited := make(map[*flowFunc]bool, len(t.funcs))
	out := make([]*flowFunc, 0, len(t.funcs))
	for _, root := range t.funcs {
		if visited[root] {
			continue
		}
		visited[root] = true
		stack := []frame{{fn: root}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.i < len(top.fn.succ) {
				next := top.fn.succ[top.i]
				top.i++
				if !visited[next] {
					visited[next] = true
					stack = append(stack, frame{fn: next})
				}
				continue
			}
			out = append(out, top.fn)
			stack = stack[:len(stack)-1]
		}
	}
	return out
}

// halts is the answer of NeverReturns for name with the current state of
// the fixed point.
func (t *flowTable) halts(name string) Tristate {
	if t.noreturn[name] {
		return Yes
	}
	defs := t.byName[name]
	if len(defs) == 0 {
		if t.calls.Contains(name) {
			return Yes
		}
		return Unknown
	}
	opt, pes := false, false
	for _, d := range defs {
		opt, pes = opt || d.opt, pes || d.pes
	}
	switch {
	case !opt:
		return Yes
	case pes:
		return No
	}
	return Unknown
}

// evalFunc evaluates a definition's body and records whether it may return.
func (t *flowTable) evalFunc(fn *flowFunc) {
	o := (&evalCtx{t: t, fn: fn, region: fn.labels}).eval(fn.body, sure)
	for _, k := range []kind{kFall, kReturn, kGoto, kBreak, kContinue} {
		fn.opt = fn.opt || o[k] != 0
		fn.pes = fn.pes || o[k]&sure != 0
	}
}

// branchExits evaluates one branch of an if.
func (t *flowTable) branchExits(fn *flowFunc, n *flowNode) Exits {
	region := map[string]bool{}
	stack := []*flowNode{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !x.labels {
			continue
		}
		if x.kind == flowLabel {
			region[x.label] = true
		}
		for _, k := range x.kids {
			if k != nil {
				stack = append(stack, k)
			}
		}
	}
	o := (&evalCtx{t: t, fn: fn, region: region}).eval(n, sure)
	var e Exits
	for _, m := range [...]struct {
		k    kind
		exit Exits
	}{{kReturn, ExitReturn}, {kGoto, ExitGoto}, {kBreak, ExitBreak}, {kContinue, ExitContinue}, {kHalt, ExitHalt}} {
		if o[m.k] != 0 {
			e |= m.exit
		}
	}
	switch {
	case o[kFall]&sure != 0:
		e |= ExitFallsThrough
	case o[kFall] != 0:
		e |= ExitUnknown
	}
	return e
}

// pathSet says which paths reach a point: some path free of calls the
// analysis cannot judge (sure), or only paths through such calls (maybe),
// or none (0).
type pathSet uint8

const (
	sure pathSet = 1 << iota
	maybe
)

// join is the union of two path sets.
func (p pathSet) join(q pathSet) pathSet {
	if r := p | q; r&sure == 0 {
		return r
	}
	return sure
}

// uncertain is p after a call that may not return.
func (p pathSet) uncertain() pathSet {
	if p != 0 {
		return maybe
	}
	return 0
}

// kind is a way control leaves a statement.
type kind uint8

const (
	kFall     kind = iota // on to the next statement
	kReturn               // return from the function
	kGoto                 // goto a label outside the region analysed
	kGotoIn               // goto a label inside it (followed at the label)
	kBreak                // break
	kContinue             // continue
	kHalt                 // never comes back
	nKinds
)

// outcome is, for each kind, the paths that leave that way.
type outcome [nKinds]pathSet

func (o *outcome) add(k kind, p pathSet) { o[k] = o[k].join(p) }

func (o *outcome) merge(r outcome) {
	for k := range r {
		o[k] = o[k].join(r[k])
	}
}

func (o *outcome) empty() bool { return *o == outcome{} }

// callClass is what a call does to the path that makes it.
type callClass uint8

const (
	callReturns callClass = iota
	callHalts
	callUncertain
)

// evalCtx evaluates the flow trees of one function.
type evalCtx struct {
	t  *flowTable
	fn *flowFunc
	// region are the labels whose gotos stay inside the analysed statement.
	region map[string]bool
}

// classify judges a call made by the function being evaluated.
func (c *evalCtx) classify(r callRef) callClass {
	t := c.t
	switch {
	case r.store || r.use || r.asm || r.maybe:
		return callReturns
	case r.pointer:
		return callUncertain
	case t.noreturn[r.name]:
		return callHalts
	case r.bare:
		if len(t.byName[r.name]) == 0 && t.calls.Contains(r.name) {
			return callHalts
		}
		return callReturns
	case c.fn.vars[r.name]:
		return callUncertain
	case len(t.byName[r.name]) > 0:
		switch t.halts(r.name) {
		case Yes:
			return callHalts
		case No:
			return callReturns
		}
		return callUncertain
	case t.calls.Contains(r.name):
		return callHalts
	case t.globals[r.name]:
		return callUncertain
	}
	return callReturns
}

// effect applies calls to the paths in: a call that never returns ends
// them (recorded as a halt in o), one that may not return makes them
// uncertain. It returns the paths that go on.
func (c *evalCtx) effect(calls []callRef, in pathSet, o *outcome) pathSet {
	if in == 0 {
		return 0
	}
	uncertain := false
	for _, r := range calls {
		switch c.classify(r) {
		case callHalts:
			o.add(kHalt, in)
			return 0
		case callUncertain:
			uncertain = true
		}
	}
	if uncertain {
		return in.uncertain()
	}
	return in
}

// eval returns how the paths in that enter n leave it.
func (c *evalCtx) eval(n *flowNode, in pathSet) (o outcome) {
	if n == nil {
		o[kFall] = in
		return o
	}
	if (in == 0 && !n.labels) || c.t.f.expired() {
		return o
	}
	switch n.kind {
	case flowSeq, flowCase:
		cur := in
		for _, k := range n.kids {
			r := c.eval(k, cur)
			cur, r[kFall] = r[kFall], 0
			o.merge(r)
		}
		o[kFall] = cur
	case flowEffect:
		o.add(kFall, c.effect(n.calls, in, &o))
	case flowError:
		cont := c.effect(n.calls, in, &o)
		if n.jumps {
			cont = cont.uncertain()
		}
		o.add(kFall, cont)
	case flowIf:
		cont := c.effect(n.calls, in, &o)
		o.merge(c.eval(n.kids[0], cont))
		o.merge(c.eval(n.kids[1], cont))
	case flowLoop:
		cont := c.effect(n.calls, in, &o)
		loop := loopExits(c.eval(n.kids[0], cont))
		if !n.forever {
			loop.add(kFall, cont)
		} else if loop.empty() {
			loop.add(kHalt, cont)
		}
		o.merge(loop)
	case flowDo:
		body := c.eval(n.kids[0], in)
		back := body[kFall].join(body[kContinue])
		loop := loopExits(body)
		cont := c.effect(n.post, back, &loop)
		if !n.forever {
			loop.add(kFall, cont)
		} else if loop.empty() {
			loop.add(kHalt, in)
		}
		o.merge(loop)
	case flowSwitch:
		cont := c.effect(n.calls, in, &o)
		cur := pathSet(0)
		for _, k := range n.kids {
			if k.kind == flowCase {
				cur = cur.join(cont)
			}
			r := c.eval(k, cur)
			cur, r[kFall] = r[kFall], 0
			r[kFall], r[kBreak] = r[kBreak], 0
			o.merge(r)
		}
		o.add(kFall, cur)
		if !n.forever {
			o.add(kFall, cont)
		}
	case flowLabel:
		if c.fn.targets[n.label] {
			in = in.join(sure)
		}
		return c.eval(n.kids[0], in)
	case flowReturn:
		o.add(kReturn, c.effect(n.calls, in, &o))
	case flowGoto:
		if c.region[n.label] {
			o.add(kGotoIn, in)
		} else {
			o.add(kGoto, in)
		}
	case flowBreak:
		o.add(kBreak, in)
	case flowContinue:
		o.add(kContinue, in)
	case flowAlt:
		for _, k := range n.kids {
			o.merge(c.eval(k, in))
		}
		if !n.forever {
			o.add(kFall, in)
		}
	}
	return o
}

// loopExits turns the exits of a loop body into those of the loop: break
// leaves the loop, continue and the end of the body go round again.
func loopExits(body outcome) outcome {
	out := body
	out[kFall], out[kBreak], out[kContinue] = body[kBreak], 0, 0
	return out
}
