package csyntax

import (
	"fmt"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// calleeWord is the last identifier of a call's callee: "f" for f(x),
// dev->f(x) and s.f(x); "" for a call through (*cb) or table[i].
func (j *errJudge) calleeWord(call *ts.Node) string {
	fn := field(call, j.k.fFunction)
	if fn == nil {
		return ""
	}
	switch fn.KindId() {
	case j.k.identifier:
		return j.f.text(fn)
	case j.k.fieldExpr:
		if fl := field(fn, j.k.fField); fl != nil {
			return j.f.text(fl)
		}
	}
	return ""
}

// firstLeaf and lastLeaf return the text of the first and last token of n
// (comments left out), "" when there is none.
func (j *errJudge) firstLeaf(n *ts.Node) string {
	for d := 0; n != nil && d < maxPathDepth; d++ {
		if n.ChildCount() == 0 {
			return j.f.text(n)
		}
		var next *ts.Node
		for i := uint(0); i < n.ChildCount(); i++ {
			if c := n.Child(i); c.KindId() != j.k.comment {
				next = c
				break
			}
		}
		n = next
	}
	return ""
}

func (j *errJudge) lastLeaf(n *ts.Node) *ts.Node {
	for d := 0; n != nil && d < maxPathDepth; d++ {
		if n.ChildCount() == 0 {
			return n
		}
		var next *ts.Node
		for i := n.ChildCount(); i > 0; i-- {
			if c := n.Child(i - 1); c.KindId() != j.k.comment && !c.IsMissing() {
				next = c
				break
			}
		}
		n = next
	}
	return nil
}

// judgeCall classifies one call site: the constructs around the call up to
// its statement, innermost first, then the statement.
func (j *errJudge) judgeCall(s callSite, name string) (bool, string) {
	k := j.k
	e := s.expr
	if s.deep {
		return false, fmt.Sprintf("result of %s is not tested", name)
	}
	if call := e.node(); call.KindId() == k.call {
		if args := field(call, k.fArguments); args == nil || args.ChildCount() == 0 || args.Child(args.ChildCount()-1).IsMissing() {
			return false, "the call is not closed"
		}
	}
	opens := 0
	var target loc // the variable the call is stored in: "v = call(...)"
	array := false // target is an array element
	stmt := loc(nil)
	for i := len(e) - 2; i >= 0 && stmt == nil; i-- {
		par, ch := &e[i], &e[i+1]
		switch par.KindId() {
		case k.argList:
			opens++
			if i > 0 && e[i-1].KindId() == k.call {
				switch w := j.calleeWord(&e[i-1]); {
				case w == "":
				case j.voc.CheckMacro(w):
					return true, fmt.Sprintf("result checked by %s", w)
				case j.tested && j.voc.NoticeMacro(w):
					return true, fmt.Sprintf("result noticed by %s", w)
				}
			}
		case k.paren:
			if i > 0 && same(field(&e[i-1], k.fCondition), par) {
				switch g := &e[i-1]; g.KindId() {
				case k.ifStmt:
					return j.judgeBranches(e[:i], j.polarity(e), "result")
				case k.switchStmt:
					return j.judgeSwitch(e[:i], "result")
				case k.whileStmt, k.doStmt:
					return j.loopCondition("while")
				}
			}
			opens++
		case k.subscript:
			if !same(field(par, k.fArgument), ch) {
				opens++
			}
		case k.forStmt:
			if !same(field(par, k.fBody), ch) {
				return j.loopCondition("for")
			}
			stmt = e[:i+2]
		case k.sizeOf, k.initList, k.compoundLit:
			opens++
		case k.assign:
			if target == nil && same(field(par, k.fRight), ch) && ch.StartByte() == e.node().StartByte() && j.opText(par) == "=" {
				target, array = j.storedIn(e[:i+1], field(par, k.fLeft))
			}
		case k.initDecl:
			if target == nil && same(field(par, k.fValue), ch) && ch.StartByte() == e.node().StartByte() {
				target, array = j.storedIn(e[:i+1], field(par, k.fDeclarator))
			}
		case k.declaration:
			if i > 0 && e[i-1].KindId() == k.forStmt {
				return j.loopCondition("for")
			}
			stmt = e[:i+1]
		case k.binary, k.unary, k.cast, k.conditional, k.comma, k.fieldExpr, k.pointerExpr,
			k.update, k.call, k.initPair, k.typeDesc:
		default:
			// A statement, or the edge of what the parser could read.
			stmt = e[:i+2]
			if isStatementKind(k, par.KindId()) {
				stmt = e[:i+1]
			}
		}
	}
	if stmt == nil {
		stmt = e[:1]
	}
	st := stmt.node()
	if st.KindId() == k.returnStmt {
		return true, "result propagated by return"
	}
	if opens == 0 && target != nil {
		v := j.f.text(target.node())
		declared := !array && st.StartByte() != target.node().StartByte()
		return j.judgeAssigned(v, stmt, declared)
	}
	if opens == 0 && st.StartByte() == e.node().StartByte() {
		return false, "return value ignored"
	}
	if len(e) >= 2 {
		if c := e.up(); c.node().KindId() == k.cast && c.node().StartByte() == st.StartByte() && j.isVoidCast(c.node()) && len(c) >= 2 && same(c.up().node(), st) {
			return false, "return value discarded with (void)"
		}
	}
	return false, fmt.Sprintf("result of %s is not tested", name)
}

// loopCondition is the verdict on a call in a while or for condition.
func (j *errJudge) loopCondition(kw string) (bool, string) {
	if j.tested {
		return true, fmt.Sprintf("result tested by a %s condition", kw)
	}
	return false, fmt.Sprintf("result only used as a %s condition", kw)
}

// isVoidCast reports whether cast is "(void)x".
func (j *errJudge) isVoidCast(cast *ts.Node) bool {
	t := field(cast, j.k.fType)
	return t != nil && strings.TrimSpace(j.f.text(t)) == "void"
}

// opText is the operator of a binary or assignment expression.
func (j *errJudge) opText(n *ts.Node) string {
	if op := field(n, j.k.fOperator); op != nil {
		return j.f.text(op)
	}
	return ""
}

// storedIn returns the variable a value is stored in through the left side
// (or declarator) lhs of the assignment at a: the last name of lhs
// ("ret", "s.ret", "*p"), or the array of an element ("fds[i]": array).
func (j *errJudge) storedIn(a loc, lhs *ts.Node) (loc, bool) {
	if lhs == nil {
		return nil, false
	}
	last := j.lastLeaf(lhs)
	if last == nil {
		return nil, false
	}
	if id := last.KindId(); id == j.k.identifier || id == j.k.fieldIdent {
		return a.child(*last), false
	}
	if j.f.text(last) != "]" {
		return nil, false
	}
	// An array element: the name before the subscript.
	sub := lhs
	for d := 0; d < maxPathDepth && sub != nil; d++ {
		if sub.KindId() == j.k.subscript || sub.KindId() == j.k.arrayDecl {
			arr := field(sub, j.k.fArgument)
			if sub.KindId() == j.k.arrayDecl {
				arr = field(sub, j.k.fDeclarator)
			}
			if arr != nil && arr.KindId() == j.k.identifier {
				return a.child(*arr), true
			}
			return nil, false
		}
		if sub.NamedChildCount() == 0 {
			break
		}
		sub = sub.NamedChild(sub.NamedChildCount() - 1)
	}
	return nil, false
}

// isStatementKind reports whether id is a statement the call's walk stops
// at.
func isStatementKind(k *nodeKinds, id uint16) bool {
	switch id {
	case k.exprStmt, k.returnStmt, k.declaration, k.ifStmt, k.whileStmt, k.doStmt, k.forStmt,
		k.switchStmt, k.gotoStmt:
		return true
	}
	return false
}
