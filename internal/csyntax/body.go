package csyntax

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// This file exports the statement trees flow.go builds, in the variant
// that following values needs (flowBuilder.values): a read-only view for
// the checks' value walker, so that it reads bodies through this package's
// tree-sitter trees rather than a parser of its own.

// StmtKind is the kind of a Stmt.
type StmtKind uint8

const (
	// StmtSeq runs Kids in order: a block, a #else branch.
	StmtSeq StmtKind = iota
	// StmtEffect evaluates Ops, then falls through: an expression or a
	// declaration.
	StmtEffect
	// StmtIf evaluates Ops (the condition Cond), then runs Kids[0] or
	// Kids[1] (nil when there is no else).
	StmtIf
	// StmtLoop is while, for or a loop macro: Init once (a for's
	// initializer), then Ops (the condition Cond) before each pass over
	// Kids[0], Post (a for's update) after each; Forever when the condition
	// is always true.
	StmtLoop
	// StmtDo is do { Kids[0] } while (Cond): Post are the condition's ops.
	StmtDo
	// StmtSwitch evaluates Ops (the controlling expression Cond); Kids are
	// its StmtCase entries and stray statements; Forever when a default
	// label is among them.
	StmtSwitch
	// StmtCase is a case or default label with its statements, Kids.
	StmtCase
	// StmtLabel is Label: Kids[0] (nil: a label without statement).
	StmtLabel
	// StmtReturn evaluates Ops and returns Cond, the returned expression.
	StmtReturn
	// StmtGoto jumps to Label.
	StmtGoto
	// StmtBreak leaves the enclosing loop or switch.
	StmtBreak
	// StmtContinue starts the enclosing loop's next pass.
	StmtContinue
	// StmtError is a statement the parser could not read; Jumps when it
	// holds a control keyword (or nests too deeply to follow).
	StmtError
	// StmtAlt holds the branches of an #if in a body as Kids; Forever when
	// one of them is always compiled (an #else).
	StmtAlt
)

// stmtKind maps a flow kind to its statement kind.
func stmtKind(k flowKind) StmtKind {
	switch k {
	case flowEffect:
		return StmtEffect
	case flowIf:
		return StmtIf
	case flowLoop:
		return StmtLoop
	case flowDo:
		return StmtDo
	case flowSwitch:
		return StmtSwitch
	case flowCase:
		return StmtCase
	case flowLabel:
		return StmtLabel
	case flowReturn:
		return StmtReturn
	case flowGoto:
		return StmtGoto
	case flowBreak:
		return StmtBreak
	case flowContinue:
		return StmtContinue
	case flowError:
		return StmtError
	case flowAlt:
		return StmtAlt
	}
	return StmtSeq
}

// OpKind is the kind of an Op.
type OpKind uint8

const (
	// OpCall is a call: Name the callee ("" and Pointer set for a call
	// through an expression), Args the argument texts.
	OpCall OpKind = iota
	// OpStore is an assignment, compound assignment, increment, decrement
	// or initialised declarator: Name the target's text ("cfg.baud",
	// "*p", "a[i]"), Operator ("=", "|=", "++"), Value the stored text.
	OpStore
	// OpUse is a read (or, Write set, a write) of the file-scope variable
	// Name.
	OpUse
	// OpAsm is an inline assembly statement: Value is its template.
	OpAsm
	// OpAddress takes the address of Name, the operand's text ("&cfg"
	// gives "cfg", "&buf[2]" gives "buf[2]").
	OpAddress
	// OpDeclare declares Name without an initializer.
	OpDeclare
	// OpName is an identifier alone as a statement (CODE_UNREACHABLE;).
	OpName
)

// Op is one thing a statement does, in evaluation order: a call after the
// calls of its arguments, a store after its value's. Texts have their
// whitespace collapsed and (stores, returns) their comments left out.
type Op struct {
	Kind     OpKind
	Name     string
	Args     []string
	Operator string
	Value    string
	Line     int
	// Pointer marks a call through an expression, Write a use that writes.
	Pointer, Write bool
	// Conditional marks an op evaluated on some paths only: in the right
	// operand of && or ||, or a branch of ?:.
	Conditional bool
}

// Stmt is one statement of a function body (see StmtKind for what each
// kind's fields hold). The tree is shared: callers must not change it.
type Stmt struct {
	Kind StmtKind
	// Init, Ops and Post are the statement's ops; see StmtKind.
	Init, Ops, Post []Op
	Kids            []*Stmt
	// Forever: see StmtLoop, StmtSwitch, StmtAlt.
	Forever bool
	// Jumps: see StmtError.
	Jumps bool
	// Label is the label of a StmtLabel or StmtGoto.
	Label string
	// Cond is the condition of a StmtIf, StmtLoop, StmtDo or StmtSwitch
	// without its parentheses, or the returned expression of a StmtReturn.
	Cond string
	// Line and EndLine are the 1-based first and last lines the statement
	// spans.
	Line, EndLine int
}

// valueBodies are the statement trees of a file's definitions in the
// values build, each built on first request.
type valueBodies struct {
	k       *nodeKinds
	globals map[string]bool
	asms    []Asm
	// defs are the indexes in the file's function index of each name's
	// definitions, in source order.
	defs  map[string][]int
	stmts map[string]*Stmt
}

// Body is the statement tree of the body of the file's first definition of
// function, built once per file and function; nil when the file defines no
// such function or is closed.
func (f *File) Body(function string) *Stmt {
	vb := f.valueBodies()
	if vb == nil {
		return nil
	}
	if s, ok := vb.stmts[function]; ok {
		return s
	}
	s := f.buildBody(vb, function)
	vb.stmts[function] = s
	return s
}

// valueBodies is what the file's value builds share, made once.
func (f *File) valueBodies() *valueBodies {
	ix := f.functions()
	if ix == nil {
		return nil
	}
	return f.Memo("csyntax.values", func() any {
		vb := &valueBodies{k: newNodeKinds(f.lang), globals: map[string]bool{}, asms: f.Asms(),
			defs: map[string][]int{}, stmts: map[string]*Stmt{}}
		for i := range ix.funcs {
			vb.defs[ix.funcs[i].Name] = append(vb.defs[ix.funcs[i].Name], i)
		}
		for _, d := range f.Declarations(GlobalScope) {
			vb.globals[d.Name] = true
		}
		return vb
	}).(*valueBodies)
}

// buildBody builds the values tree of the first definition of function
// that is a function_definition node, as the flow table's scan finds them.
func (f *File) buildBody(vb *valueBodies, function string) *Stmt {
	ix := f.functions()
	for _, i := range vb.defs[function] {
		fe := &ix.funcs[i]
		if fe.end == 0 {
			continue
		}
		n := f.tree.RootNode().DescendantForByteRange(fe.end-1, fe.end)
		for n != nil && (n.KindId() != vb.k.fnDef || n.EndByte() != fe.end) {
			n = n.Parent()
		}
		if n == nil {
			continue
		}
		cur := f.tree.Walk()
		b := &flowBuilder{f: f, k: vb.k, cur: cur, globals: vb.globals, asms: vb.asms, values: true}
		fn := b.function(n, fe)
		cur.Close()
		if fn != nil {
			return exportStmt(fn.body)
		}
	}
	return nil
}

// exportStmt converts a flow tree; nil stays nil.
func exportStmt(n *flowNode) *Stmt {
	if n == nil {
		return nil
	}
	s := &Stmt{Kind: stmtKind(n.kind), Init: exportOps(n.init), Ops: exportOps(n.calls), Post: exportOps(n.post),
		Forever: n.forever, Jumps: n.jumps, Label: n.label, Cond: n.cond, Line: n.first, EndLine: n.last}
	if len(n.kids) > 0 {
		s.Kids = make([]*Stmt, len(n.kids))
		for i, k := range n.kids {
			s.Kids[i] = exportStmt(k)
		}
	}
	return s
}

// exportOps converts refs.
func exportOps(refs []callRef) []Op {
	if len(refs) == 0 {
		return nil
	}
	out := make([]Op, len(refs))
	for i, r := range refs {
		o := Op{Name: r.name, Line: r.line, Conditional: r.maybe}
		switch {
		case r.store:
			o.Kind, o.Operator, o.Value = OpStore, r.op, r.value
		case r.use:
			o.Kind, o.Write = OpUse, r.write
		case r.asm:
			o.Kind, o.Value = OpAsm, r.value
		case r.addr:
			o.Kind = OpAddress
		case r.decl:
			o.Kind = OpDeclare
		case r.bare:
			o.Kind = OpName
		default:
			o.Kind, o.Args, o.Pointer = OpCall, r.args, r.pointer
		}
		out[i] = o
	}
	return out
}

// valueRefs appends the refs only the values build records at x: a taken
// address, the declarators of a declaration that have no initializer.
func (b *flowBuilder) valueRefs(x *ts.Node, cond bool, out []callRef) []callRef {
	k := b.k
	switch x.KindId() {
	case k.pointerExpr:
		op, arg := field(x, k.fOperator), field(x, k.fArgument)
		if op != nil && arg != nil && op.Kind() == "&" {
			out = append(out, callRef{addr: true, name: b.exprText(arg), maybe: cond,
				line: int(x.StartPosition().Row) + 1, end: x.EndByte()})
		}
	case k.declaration:
		for _, c := range b.children(x) {
			if c.field != k.fDeclarator || c.node.KindId() == k.initDecl {
				continue
			}
			if s := b.f.shape(&c.node); s.name != nil && !s.prototype {
				out = append(out, callRef{decl: true, name: b.f.text(s.name), maybe: cond,
					line: int(c.node.StartPosition().Row) + 1, end: c.node.EndByte()})
			}
		}
	}
	return out
}

// exprText is n's text with its whitespace collapsed; in the values build
// also without comments (a "//" comment would swallow the rest of the
// collapsed line).
func (b *flowBuilder) exprText(n *ts.Node) string {
	text := b.f.text(n)
	if !b.values || !strings.Contains(text, "/") {
		return collapse(text)
	}
	var cuts [][2]uint
	stack := []ts.Node{*n}
	for len(stack) > 0 && !b.f.expired() {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.KindId() == b.k.comment {
			cuts = append(cuts, [2]uint{x.StartByte(), x.EndByte()})
			continue
		}
		stack = append(stack, b.named(&x)...)
	}
	if len(cuts) == 0 {
		return collapse(text)
	}
	var sb strings.Builder
	at := n.StartByte()
	for _, c := range sortedCuts(cuts) {
		if c[0] >= at {
			sb.WriteString(b.f.code[at:c[0]])
			sb.WriteByte(' ')
			at = c[1]
		}
	}
	sb.WriteString(b.f.code[at:n.EndByte()])
	return collapse(sb.String())
}

// sortedCuts sorts byte ranges by their start.
func sortedCuts(cuts [][2]uint) [][2]uint {
	for i := 1; i < len(cuts); i++ {
		for j := i; j > 0 && cuts[j][0] < cuts[j-1][0]; j-- {
			cuts[j], cuts[j-1] = cuts[j-1], cuts[j]
		}
	}
	return cuts
}
