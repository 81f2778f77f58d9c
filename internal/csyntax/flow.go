package csyntax

import (
	"sort"
	"strconv"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// This file turns function bodies into a small statement tree (flowNode)
// that halt.go evaluates: the control structure of each statement and the
// calls it makes unconditionally, with nothing else.

// maxFlowDepth bounds the nesting of statements the flow tree follows;
// deeper statements count as unreadable.
const maxFlowDepth = 1000

// flowKind is the kind of a flowNode.
type flowKind uint8

const (
	flowSeq      flowKind = iota // kids in order (a block, a case's statements)
	flowEffect                   // evaluates calls, then falls through
	flowIf                       // calls (the condition); kids: then, else (nil: none)
	flowLoop                     // while, for, loop macro: calls, then the condition is tested first; kids: body
	flowDo                       // do-while: kids: body; post: the condition's calls
	flowSwitch                   // calls; kids: flowCase entries and stray statements
	flowCase                     // a case or default label and its statements
	flowLabel                    // label: kids[0] (nil: none)
	flowReturn                   // calls (the returned expression), then returns
	flowGoto                     // goto label
	flowBreak                    // break
	flowContinue                 // continue
	flowError                    // a statement the parser could not read
	flowAlt                      // #if branches: kids are the alternatives
)

// flowNode is one statement of a flow tree.
type flowNode struct {
	kind  flowKind
	calls []callRef
	kids  []*flowNode
	// post are the calls of a do-while condition; in a values build
	// (flowBuilder.values) also a for loop's update clause.
	post []callRef
	// init are the refs of a for loop's initializer in a values build,
	// where calls holds only the condition's.
	init []callRef
	// first and last are the 1-based lines the statement spans.
	first, last int
	// forever marks a loop whose condition is always true, a switch with
	// a default label, and an #if with an #else.
	forever bool
	// labels marks a subtree that holds a label (which a goto may reach
	// even when nothing else does).
	labels bool
	// jumps marks an unreadable statement that holds a control keyword.
	jumps bool
	label string // flowLabel, flowGoto
	line  int    // the statement's line (flowIf, flowLoop, flowDo, flowSwitch, flowReturn, flowLabel, flowGoto, flowBreak, flowContinue)
	// cond is the condition's text without its parentheses (flowIf,
	// flowLoop, flowDo, flowSwitch) or the returned expression (flowReturn).
	cond string
}

// callRef is one call a statement makes unconditionally, or (store) one
// store it makes. A statement's refs are in evaluation order: a call after
// its arguments' calls, a store after its value's.
type callRef struct {
	name string // the callee's name; "" for a call through an expression; a store's target
	// pointer marks a call through an expression (dev->api->f(),
	// (*cb)(), table[i]()).
	pointer bool
	// bare marks an identifier used alone as a statement (CODE_UNREACHABLE;).
	bare bool
	// store marks an assignment, compound assignment, increment or
	// initialised declaration: name is the target's text, op the operator
	// ("=", "|=", "++"), value the stored expression's text.
	store     bool
	op, value string
	// use marks a read or write (write) of a file-scope variable: name is
	// the variable.
	use, write bool
	// asm marks an inline assembly statement: value is its template.
	asm bool
	// maybe marks a ref in an operand that may not be evaluated (the right
	// of && and ||, a branch of ?:).
	maybe bool
	// The values build (flowBuilder.values) adds two more: addr marks the
	// address taken of name (the operand's text, "&cfg.baud"), decl a
	// declarator without initializer (name the declared name).
	addr, decl bool

	args []string // a call's argument texts
	line int      // 1-based line
	end  uint     // byte offset of the expression's end (evaluation order)
}

// flowFunc is one function definition with its flow tree.
type flowFunc struct {
	name     string
	line     int
	body     *flowNode
	noreturn bool            // declared noreturn
	vars     map[string]bool // parameters and locals
	labels   map[string]bool // labels defined in the body
	targets  map[string]bool // labels some goto names
	callees  []string        // distinct names called (not through expressions)
	params   []string        // the named parameters, in order
	unnamed  bool            // some parameter has no name (void, or a prototype-style one)
	succ     []*flowFunc     // definitions of callees
	// opt and pes: some path of the body returns when the calls the
	// analysis cannot judge return (opt), or even when they never do (pes).
	opt, pes bool
}

// flowBuilder builds the flow trees of one file.
type flowBuilder struct {
	f       *File
	k       *nodeKinds
	globals map[string]bool // file-scope variables, whose uses calls records
	asms    []Asm           // the file's inline assembly, in source order
	fn      *flowFunc       // the function being built
	// cur lists the children of nodes with many: indexing them one by one
	// (NamedChild) costs time linear in the index.
	cur *ts.TreeCursor
	// values makes the build the one body.go exports: refs also record
	// taken addresses, declarators without initializer and conditionally
	// evaluated stores; a for loop keeps its initializer in init and its
	// update in post; store and return texts leave comments out.
	values bool
}

// named returns n's named children.
func (b *flowBuilder) named(n *ts.Node) []ts.Node {
	cnt := n.NamedChildCount()
	if cnt > 8 {
		return n.NamedChildren(b.cur)
	}
	out := make([]ts.Node, 0, cnt)
	for i := uint(0); i < cnt; i++ {
		out = append(out, *n.NamedChild(i))
	}
	return out
}

// field is n's child in field id, or nil.
func field(n *ts.Node, id uint16) *ts.Node {
	if n == nil {
		return nil
	}
	return n.ChildByFieldId(id)
}

// fieldChild is one child of a node with its field id (0: none).
type fieldChild struct {
	node  ts.Node
	field uint16
}

// children returns n's children with their field ids.
func (b *flowBuilder) children(n *ts.Node) []fieldChild {
	b.cur.Reset(*n)
	if !b.cur.GotoFirstChild() {
		return nil
	}
	var out []fieldChild
	for {
		out = append(out, fieldChild{node: *b.cur.Node(), field: b.cur.FieldId()})
		if !b.cur.GotoNextSibling() {
			return out
		}
	}
}

// function builds the flow tree of a function_definition node.
func (b *flowBuilder) function(n *ts.Node, fe *funcEntry) *flowFunc {
	k := b.k
	body := field(n, k.fBody)
	if body == nil {
		return nil
	}
	fn := &flowFunc{name: fe.Name, line: fe.Line, vars: map[string]bool{}, labels: map[string]bool{}, targets: map[string]bool{}}
	for _, p := range fe.Params {
		if p.Name != "" {
			fn.vars[p.Name] = true
			fn.params = append(fn.params, p.Name)
		} else {
			fn.unnamed = true
		}
	}
	head := b.f.code[n.StartByte():body.StartByte()]
	if ps := field(b.funcDeclarator(field(n, k.fDeclarator)), k.fParameters); ps != nil {
		head = b.f.code[n.StartByte():ps.StartByte()] + " " + b.f.code[ps.EndByte():body.StartByte()]
	}
	fn.noreturn = hasNoreturnWord(head)
	for _, a := range fe.Attributes {
		fn.noreturn = fn.noreturn || hasNoreturnWord(a)
	}
	b.fn = fn
	fn.body = b.build(body, 0)
	seen := map[string]bool{}
	stack := []*flowNode{fn.body}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, cs := range [][]callRef{x.calls, x.post} {
			for _, c := range cs {
				if !c.pointer && !c.bare && !c.store && !c.use && !c.asm && !c.maybe && !seen[c.name] {
					seen[c.name] = true
					fn.callees = append(fn.callees, c.name)
				}
			}
		}
		for _, kid := range x.kids {
			if kid != nil {
				stack = append(stack, kid)
			}
		}
	}
	return fn
}

// funcDeclarator finds the function declarator under pointer and
// parenthesized wrappers, or nil.
func (b *flowBuilder) funcDeclarator(d *ts.Node) *ts.Node {
	for d != nil {
		switch d.KindId() {
		case b.k.fnDecl:
			return d
		case b.k.ptrDecl:
			d = field(d, b.k.fDeclarator)
		case b.k.parenDecl, b.k.attrDecl:
			d = d.NamedChild(0)
		default:
			return nil
		}
	}
	return nil
}

// build converts one statement node and records the lines it spans.
func (b *flowBuilder) build(n *ts.Node, depth int) *flowNode {
	out := b.buildNode(n, depth)
	if out.first == 0 {
		out.first, out.last = int(n.StartPosition().Row)+1, int(n.EndPosition().Row)+1
	}
	return out
}

// buildNode converts one statement node.
func (b *flowBuilder) buildNode(n *ts.Node, depth int) *flowNode {
	k := b.k
	if depth > maxFlowDepth || b.f.expired() {
		return &flowNode{kind: flowError, jumps: true}
	}
	depth++
	var out *flowNode
	switch n.KindId() {
	case k.compound, k.caseStmt:
		out = b.seq(n, depth, nil)
	case k.exprStmt:
		if kids := b.named(n); len(kids) == 1 && kids[0].KindId() == k.identifier {
			return &flowNode{kind: flowEffect, calls: []callRef{{name: b.f.text(&kids[0]), bare: true,
				line: int(kids[0].StartPosition().Row) + 1, end: kids[0].EndByte()}}}
		}
		out = &flowNode{kind: flowEffect, calls: b.calls(n)}
	case k.declaration:
		b.locals(n)
		out = &flowNode{kind: flowEffect, calls: b.calls(n)}
	case k.ifStmt:
		cond := field(n, k.fCondition)
		out = &flowNode{kind: flowIf, calls: b.calls(cond), line: int(n.StartPosition().Row) + 1, kids: []*flowNode{{kind: flowSeq}, nil},
			cond: b.condText(cond)}
		if c := field(n, k.fConsequence); c != nil {
			out.kids[0] = b.build(c, depth)
		}
		if alt := field(n, k.fAlternative); alt != nil {
			out.kids[1] = &flowNode{kind: flowSeq}
			if s := b.lastStatement(alt); s != nil {
				out.kids[1] = b.build(s, depth)
			}
		}
	case k.whileStmt:
		cond := field(n, k.fCondition)
		out = &flowNode{kind: flowLoop, calls: b.calls(cond), forever: b.alwaysTrue(cond), kids: []*flowNode{b.body(n, depth)},
			line: int(n.StartPosition().Row) + 1, cond: b.condText(cond)}
	case k.forStmt:
		var calls []callRef
		if init := field(n, k.fInitializer); init != nil {
			if init.KindId() == k.declaration {
				b.locals(init)
			}
			calls = b.calls(init)
		}
		cond := field(n, k.fCondition)
		var init, post []callRef
		if b.values {
			init, calls, post = calls, nil, b.calls(field(n, k.fUpdate))
		}
		out = &flowNode{kind: flowLoop, calls: append(calls, b.calls(cond)...), forever: cond == nil || b.alwaysTrue(cond),
			kids: []*flowNode{b.body(n, depth)}, line: int(n.StartPosition().Row) + 1, cond: b.condText(cond),
			init: init, post: post}
	case k.doStmt:
		cond := field(n, k.fCondition)
		out = &flowNode{kind: flowDo, post: b.calls(cond), forever: b.alwaysTrue(cond), kids: []*flowNode{b.body(n, depth)},
			line: int(n.StartPosition().Row) + 1, cond: b.condText(cond)}
	case k.switchStmt:
		out = &flowNode{kind: flowSwitch, calls: b.calls(field(n, k.fCondition)), line: int(n.StartPosition().Row) + 1,
			cond: b.condText(field(n, k.fCondition))}
		if body := field(n, k.fBody); body != nil {
			for _, c := range b.named(body) {
				switch c.KindId() {
				case k.comment:
				case k.caseStmt:
					value := field(&c, k.fValue)
					out.forever = out.forever || value == nil
					s := b.seq(&c, depth, value)
					s.kind = flowCase
					s.first, s.last = int(c.StartPosition().Row)+1, int(c.EndPosition().Row)+1
					out.kids = append(out.kids, s)
				default:
					out.kids = append(out.kids, b.build(&c, depth))
				}
			}
		}
	case k.labeled:
		out = &flowNode{kind: flowLabel, labels: true, kids: []*flowNode{nil}, line: int(n.StartPosition().Row) + 1}
		label := field(n, k.fLabel)
		if label != nil {
			out.label = b.f.text(label)
			b.fn.labels[out.label] = true
		}
		if s := b.lastStatement(n); s != nil && (label == nil || s.StartByte() != label.StartByte()) {
			out.kids[0] = b.build(s, depth)
		}
	case k.returnStmt:
		out = &flowNode{kind: flowReturn, calls: b.calls(n), line: int(n.StartPosition().Row) + 1}
		if v := b.lastStatement(n); v != nil {
			out.cond = b.exprText(v)
		}
	case k.gotoStmt:
		out = &flowNode{kind: flowGoto, line: int(n.StartPosition().Row) + 1}
		if label := field(n, k.fLabel); label != nil {
			out.label = b.f.text(label)
			b.fn.targets[out.label] = true
		}
	case k.breakStmt:
		out = &flowNode{kind: flowBreak, line: int(n.StartPosition().Row) + 1}
	case k.continueStmt:
		out = &flowNode{kind: flowContinue, line: int(n.StartPosition().Row) + 1}
	case k.ppIf, k.ppIfdef, k.ppElif, k.ppElifdef, k.ppElse:
		out = b.preproc(n, depth)
	case k.attributed:
		if s := b.lastStatement(n); s != nil && s.KindId() != k.attributed {
			return b.build(s, depth)
		}
		out = &flowNode{kind: flowEffect}
	case k.errorNode:
		out = &flowNode{kind: flowError, calls: b.calls(n), jumps: b.hasJump(n)}
	default:
		out = &flowNode{kind: flowEffect, calls: b.calls(n)}
	}
	for _, c := range out.kids {
		if c != nil && c.labels {
			out.labels = true
		}
	}
	return out
}

// condText is a condition's text without its parentheses, whitespace
// collapsed; "" for nil.
func (b *flowBuilder) condText(cond *ts.Node) string {
	if cond == nil {
		return ""
	}
	t := strings.TrimSpace(b.f.text(cond))
	if cond.KindId() == b.k.paren || (strings.HasPrefix(t, "(") && closing(t) == len(t)-1) {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	return collapse(t)
}

// body builds the body of a loop.
func (b *flowBuilder) body(n *ts.Node, depth int) *flowNode {
	if s := field(n, b.k.fBody); s != nil {
		return b.build(s, depth)
	}
	return &flowNode{kind: flowSeq}
}

// seq builds the statements among n's named children, in order, leaving
// out skip (a case's value). A loop macro without a semicolon followed by
// a block ("SYS_SLIST_FOR_EACH_NODE(list, node) { ... }") is read as a loop
// whose body may run any number of times.
func (b *flowBuilder) seq(n *ts.Node, depth int, skip *ts.Node) *flowNode {
	k := b.k
	out := &flowNode{kind: flowSeq}
	kids := b.named(n)
	for i := 0; i < len(kids) && !b.f.expired(); i++ {
		c := &kids[i]
		if c.KindId() == k.comment || (skip != nil && c.Id() == skip.Id()) {
			continue
		}
		if i+1 < len(kids) && kids[i+1].KindId() == k.compound {
			if args, ok := b.loopMacro(c); ok {
				body := b.build(&kids[i+1], depth)
				if n := b.lockBlock(c, args, body); n != nil {
					out.kids = append(out.kids, n)
					i++
					continue
				}
				out.kids = append(out.kids, &flowNode{kind: flowLoop, calls: b.calls(args), kids: []*flowNode{body}, labels: body.labels,
					first: int(c.StartPosition().Row) + 1, last: body.last, line: int(c.StartPosition().Row) + 1,
					cond: collapse(strings.TrimSuffix(strings.TrimSpace(b.f.text(c)), ";"))})
				i++
				continue
			}
		}
		out.kids = append(out.kids, b.build(c, depth))
	}
	for _, c := range out.kids {
		out.labels = out.labels || c.labels
	}
	return out
}

// lockBlockMacros are the macros that run a block with a lock held, by the
// lock and unlock calls their expansion makes: Zephyr's K_SPINLOCK(lck) is
// a for statement that calls k_spin_lock(lck) before the block and
// k_spin_unlock(lck, key) after it (K_SPINLOCK_BREAK, a continue, too).
func lockBlockMacros() map[string][2]string {
	return map[string][2]string{"K_SPINLOCK": {"k_spin_lock", "k_spin_unlock"}}
}

// lockBlock reads "K_SPINLOCK(&l) { body }" (the header c, its arguments
// args) as its expansion does: a lock call, the body (a loop, so that
// continue reaches the unlock; a return inside leaves with the lock held),
// an unlock call. nil when c is not a lock block macro.
func (b *flowBuilder) lockBlock(c, args *ts.Node, body *flowNode) *flowNode {
	call := field(c.Child(0), b.k.fFunction)
	calls, ok := lockBlockMacros()[b.f.text(call)]
	if !ok {
		return nil
	}
	line := int(c.StartPosition().Row) + 1
	lockArgs := b.argTexts(args)
	lock := &flowNode{kind: flowEffect, line: line, first: line, last: line,
		calls: append(b.calls(args), callRef{name: calls[0], args: lockArgs, line: line, end: args.EndByte()})}
	loop := &flowNode{kind: flowLoop, kids: []*flowNode{body}, labels: body.labels, first: line, last: body.last, line: line,
		cond: collapse(strings.TrimSpace(b.f.text(c)))}
	unlock := &flowNode{kind: flowEffect, line: body.last, first: body.last, last: body.last,
		calls: []callRef{{name: calls[1], args: append(lockArgs, "<key>"), line: body.last, end: args.EndByte()}}}
	return &flowNode{kind: flowSeq, kids: []*flowNode{lock, loop, unlock}, labels: body.labels, first: line, last: body.last}
}

// loopMacro reports whether n is an expression statement holding a lone
// call to a name whose semicolon is missing, the shape of a loop macro's
// header, and returns the call's arguments.
func (b *flowBuilder) loopMacro(n *ts.Node) (args *ts.Node, ok bool) {
	if n.KindId() != b.k.exprStmt {
		return nil, false
	}
	cnt := n.ChildCount()
	if cnt != 2 || !n.Child(cnt-1).IsMissing() {
		return nil, false
	}
	c := n.Child(0)
	if c.KindId() != b.k.call {
		return nil, false
	}
	if fn := field(c, b.k.fFunction); fn == nil || fn.KindId() != b.k.identifier {
		return nil, false
	}
	return field(c, b.k.fArguments), true
}

// preproc builds #if/#ifdef/#elif/#else in a body as alternatives: the
// statements of this branch, or what the alternative field holds (nothing:
// the whole block may be compiled out).
func (b *flowBuilder) preproc(n *ts.Node, depth int) *flowNode {
	k := b.k
	body := &flowNode{kind: flowSeq, first: int(n.StartPosition().Row) + 1, last: int(n.StartPosition().Row) + 1}
	var alt *ts.Node
	for _, c := range b.children(n) {
		switch {
		case c.field == k.fAlternative:
			alt = &c.node
		case c.field != 0:
		case c.node.IsNamed() && c.node.KindId() != k.comment:
			body.kids = append(body.kids, b.build(&c.node, depth))
		}
	}
	for _, kid := range body.kids {
		body.labels = body.labels || kid.labels
		body.last = kid.last
	}
	if n.KindId() == k.ppElse {
		return body
	}
	out := &flowNode{kind: flowAlt, kids: []*flowNode{body}, labels: body.labels}
	if alt != nil {
		out.forever = true
		out.kids = append(out.kids, b.build(alt, depth))
	}
	return out
}

// lastStatement is n's last named child that is not a comment, or nil.
func (b *flowBuilder) lastStatement(n *ts.Node) *ts.Node {
	kids := b.named(n)
	for i := len(kids) - 1; i >= 0; i-- {
		if kids[i].KindId() != b.k.comment {
			return &kids[i]
		}
	}
	return nil
}

// locals records the names a declaration declares.
func (b *flowBuilder) locals(n *ts.Node) {
	for _, c := range b.children(n) {
		if c.field == b.k.fDeclarator {
			if s := b.f.shape(&c.node); s.name != nil {
				b.fn.vars[b.f.text(s.name)] = true
			}
		}
	}
}

// calls returns the calls an expression makes, with its stores and its uses
// of file-scope variables (use refs), in evaluation order: those in the
// right operand of && and ||, and in the branches of ?:, are marked maybe
// (they may not run); the operands of sizeof are left out. The walk keeps its own stack, so deeply nested expressions
// cannot exhaust the goroutine's.
func (b *flowBuilder) calls(n *ts.Node) []callRef {
	if n == nil {
		return nil
	}
	k := b.k
	type item struct {
		node   *ts.Node
		target bool // inside the target of a store
		maybe  bool // in an operand that may not be evaluated
	}
	var out []callRef
	stack := []item{{node: n}}
	var it item
	push := func(x *ts.Node, target bool) { stack = append(stack, item{x, target, it.maybe}) }
	pushMaybe := func(x *ts.Node) { stack = append(stack, item{x, it.target, true}) }
	for len(stack) > 0 && !b.f.expired() {
		it = stack[len(stack)-1]
		x := it.node
		stack = stack[:len(stack)-1]
		if b.values {
			out = b.valueRefs(x, it.maybe, out)
		}
		switch x.KindId() {
		case k.call:
			fn := field(x, k.fFunction)
			args := field(x, k.fArguments)
			ref := callRef{line: int(x.StartPosition().Row) + 1, end: x.EndByte(), args: b.argTexts(args), maybe: it.maybe}
			switch {
			case fn == nil:
			case fn.KindId() == k.identifier:
				ref.name = b.f.text(fn)
				out = append(out, ref)
			default:
				ref.pointer = true
				out = append(out, ref)
				push(fn, false)
			}
			if args != nil {
				push(args, false)
			}
			continue
		case k.assign, k.update, k.initDecl:
			if r, ok := b.storeRef(x); ok {
				r.maybe = it.maybe
				out = append(out, r)
			}
			target := field(x, k.fLeft)
			if x.KindId() == k.update {
				target = field(x, k.fArgument)
			}
			if target != nil {
				for _, c := range b.named(x) {
					if c.Id() != target.Id() {
						push(&c, it.target)
					}
				}
				push(target, true)
				continue
			}
		case k.identifier:
			if name := b.f.text(x); b.globals[name] {
				out = append(out, callRef{use: true, name: name, write: it.target, maybe: it.maybe, line: int(x.StartPosition().Row) + 1, end: x.EndByte()})
			}
			continue
		case k.binary:
			if op := field(x, k.fOperator); op != nil {
				if s := op.Kind(); s == "&&" || s == "||" {
					if r := field(x, k.fRight); r != nil {
						pushMaybe(r)
					}
					if l := field(x, k.fLeft); l != nil {
						push(l, it.target)
					}
					continue
				}
			}
		case k.conditional:
			for _, branch := range []*ts.Node{field(x, k.fConsequence), field(x, k.fAlternative)} {
				if branch != nil {
					pushMaybe(branch)
				}
			}
			if c := field(x, k.fCondition); c != nil {
				push(c, it.target)
			}
			continue
		case k.sizeOf, k.alignOf, k.offsetOf, k.compound, k.comment:
			continue
		}
		kids := b.named(x)
		for i := range kids {
			push(&kids[i], it.target)
		}
	}
	out = append(out, b.asmRefs(n)...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].end != out[j].end {
			return out[i].end < out[j].end
		}
		return !out[i].store && out[j].store // "x = f()": the call, then the store
	})
	return out
}

// asmRefs returns the inline assembly statements that start inside n.
func (b *flowBuilder) asmRefs(n *ts.Node) []callRef {
	lo, hi := int(n.StartByte()), int(n.EndByte())
	i := sort.Search(len(b.asms), func(i int) bool { return b.asms[i].start >= lo })
	var out []callRef
	for ; i < len(b.asms) && b.asms[i].start < hi; i++ {
		a := &b.asms[i]
		out = append(out, callRef{asm: true, name: "asm", value: a.Template, line: a.Line, end: uint(a.start) + 1})
	}
	return out
}

// argTexts returns the texts of an argument list's arguments.
func (b *flowBuilder) argTexts(args *ts.Node) []string {
	if args == nil {
		return nil
	}
	kids := b.named(args)
	out := make([]string, 0, len(kids))
	for i := range kids {
		if kids[i].KindId() != b.k.comment {
			out = append(out, collapse(b.f.text(&kids[i])))
		}
	}
	return out
}

// storeRef reads an assignment, update or init declarator as a store.
func (b *flowBuilder) storeRef(x *ts.Node) (callRef, bool) {
	k := b.k
	r := callRef{store: true, line: int(x.StartPosition().Row) + 1, end: x.EndByte()}
	switch x.KindId() {
	case k.assign:
		left, right := field(x, k.fLeft), field(x, k.fRight)
		op := field(x, k.fOperator)
		if left == nil || right == nil || op == nil {
			return r, false
		}
		r.name, r.op, r.value = b.exprText(left), op.Kind(), b.exprText(right)
	case k.update:
		arg, op := field(x, k.fArgument), field(x, k.fOperator)
		if arg == nil || op == nil {
			return r, false
		}
		r.name, r.op = b.exprText(arg), op.Kind()
	case k.initDecl:
		d, v := field(x, k.fDeclarator), field(x, k.fValue)
		if d == nil || v == nil {
			return r, false
		}
		s := b.f.shape(d)
		if s.name == nil {
			return r, false
		}
		r.name, r.op, r.value = b.f.text(s.name), "=", b.exprText(v)
	}
	return r, r.name != ""
}

// hasJump reports whether an unreadable node holds a control keyword.
func (b *flowBuilder) hasJump(n *ts.Node) bool {
	stack := []*ts.Node{n}
	for len(stack) > 0 && !b.f.expired() {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x.Kind() {
		case "return", "goto", "break", "continue", "while", "for", "do", "if", "switch", "case", "default":
			return true
		}
		for _, c := range b.children(x) {
			stack = append(stack, &c.node)
		}
	}
	return false
}

// alwaysTrue reports whether a loop condition is a constant that is never
// zero: a non-zero integer literal, true, TRUE, pdTRUE or !0.
func (b *flowBuilder) alwaysTrue(n *ts.Node) bool {
	k := b.k
	for n != nil && n.KindId() == k.paren {
		var inner *ts.Node
		kids := b.named(n)
		for i := range kids {
			if kids[i].KindId() != k.comment {
				if inner != nil {
					return false
				}
				inner = &kids[i]
			}
		}
		n = inner
	}
	if n == nil {
		return false
	}
	switch n.KindId() {
	case k.trueLit:
		return true
	case k.identifier:
		switch b.f.text(n) {
		case "true", "TRUE", "pdTRUE":
			return true
		}
	case k.number:
		v, ok := intLiteral(b.f.text(n))
		return ok && v != 0
	case k.unary:
		op, arg := field(n, k.fOperator), field(n, k.fArgument)
		if op != nil && arg != nil && op.Kind() == "!" && arg.KindId() == k.number {
			v, ok := intLiteral(b.f.text(arg))
			return ok && v == 0
		}
	}
	return false
}

// intLiteral parses a C integer literal with its suffixes.
func intLiteral(s string) (uint64, bool) {
	s = strings.TrimRight(strings.ReplaceAll(s, "'", ""), "uUlL")
	v, err := strconv.ParseUint(s, 0, 64)
	return v, err == nil
}

// noreturnWord reports whether word declares a function noreturn: C11
// _Noreturn and <stdnoreturn.h> noreturn, __attribute__((noreturn)) and
// ((__noreturn__)), [[noreturn]], __declspec(noreturn), and the SDK macros
// (Linux __noreturn, CMSIS __NO_RETURN, Zephyr FUNC_NORETURN).
func noreturnWord(word string) bool {
	switch word {
	case "_Noreturn", "noreturn", "__noreturn__", "__noreturn", "__NO_RETURN", "FUNC_NORETURN", "NORETURN", "__NORETURN":
		return true
	}
	return false
}

// hasNoreturnWord reports whether text holds a noreturn spelling as a word.
func hasNoreturnWord(text string) bool {
	for i := 0; i < len(text); {
		if !isIdentStart(text[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && isIdentPart(text[j]) {
			j++
		}
		if noreturnWord(text[i:j]) {
			return true
		}
		i = j
	}
	return false
}
