package csyntax

import (
	"fmt"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// polarity of a condition: which truth value means the call failed.
type polarity int

const (
	polUnknown   polarity = iota // either branch may be the failure branch
	polFailTrue                  // condition true means failure (ret < 0, ret != OK)
	polFailFalse                 // condition true means success (ret == 0, ret >= 0)
)

// failureValue reports whether a constant compared with == denotes failure
// (t is its first token): NULL, false, a negative value or a failure
// constant of the vocabulary.
func (j *errJudge) failureValue(t string) bool {
	switch {
	case t == "NULL", t == "false", strings.HasPrefix(t, "-"):
		return true
	}
	return j.voc.FailureValue(t)
}

// polarity classifies the test of the expression at e (a call or a
// variable) inside a condition from the tokens around it: the comparison
// that follows it (e < 0, e == NULL), or what comes before it: a
// comparison (NULL == e), an error test (IS_ERR(e)), a hint (likely(e) <
// 0), or the parenthesized assignment that stores it ((ret = f()) < 0).
func (j *errJudge) polarity(e loc) polarity {
	if p, ok := j.polarityAfter(e); ok {
		return p
	}
	return j.polarityBefore(e)
}

// polarityAfter is polarity from the comparison after e; ok is false when
// none decides.
func (j *errJudge) polarityAfter(e loc) (p polarity, ok bool) {
	op, right := j.nextOperator(e)
	if right == nil {
		return polUnknown, false
	}
	val := j.firstLeaf(right)
	switch op {
	case "<", "<=":
		if val == "0" {
			return polFailTrue, true
		}
	case "!=":
		if j.failureValue(val) {
			return polFailFalse, true
		}
		return polFailTrue, true
	case "==":
		if j.failureValue(val) {
			return polFailTrue, true
		}
		return polFailFalse, true
	case ">=", ">":
		return polFailFalse, true
	}
	return polUnknown, false
}

// nextOperator returns the binary operator right after the expression at e
// and its right operand, or nil when a binary operator does not follow.
func (j *errJudge) nextOperator(e loc) (string, *ts.Node) {
	k := j.k
	for cur := e; len(cur) >= 2; cur = cur.up() {
		pn, n := cur.up().node(), cur.node()
		if pn.KindId() == k.binary && same(field(pn, k.fLeft), n) {
			return j.opText(pn), field(pn, k.fRight)
		}
		if pn.EndByte() != n.EndByte() {
			break
		}
	}
	return "", nil
}

// leftmostUp climbs from e while the node is the first token of its parent.
func leftmostUp(e loc) loc {
	for len(e) >= 2 && e.up().node().StartByte() == e.node().StartByte() {
		e = e.up()
	}
	return e
}

// polarityBefore is polarity from what comes right before e.
func (j *errJudge) polarityBefore(e loc) polarity {
	k := j.k
	cur := leftmostUp(e)
	par := cur.up()
	if par == nil {
		return polUnknown
	}
	pn, n := par.node(), cur.node()
	switch pn.KindId() {
	case k.binary:
		if !same(field(pn, k.fRight), n) {
			break
		}
		var before string
		if l := j.lastLeaf(field(pn, k.fLeft)); l != nil {
			before = j.f.text(l)
		}
		switch j.opText(pn) {
		case "!=":
			if j.failureValue(before) {
				return polFailFalse
			}
			return polFailTrue
		case "==":
			if j.failureValue(before) {
				return polFailTrue
			}
			return polFailFalse
		}
	case k.argList:
		call := par.up()
		if call == nil || call.node().KindId() != k.call || !j.firstArg(pn, n) {
			break
		}
		switch fn := j.calleeWord(call.node()); {
		case j.voc.ErrorTest(fn):
			return polFailTrue
		case j.voc.Hint(fn) && pn.NamedChildCount() == 1:
			// likely(e) < 0: the comparison after the hint.
			p, _ := j.polarityAfter(call)
			return p
		}
	case k.assign:
		l := field(pn, k.fLeft)
		if !same(field(pn, k.fRight), n) || j.opText(pn) != "=" || l == nil || l.KindId() != k.identifier {
			break
		}
		// (ret = f()) < 0: the test is of the parenthesized group.
		g := leftmostUp(par)
		if gp := g.up(); gp != nil && (gp.node().KindId() == k.paren || gp.node().KindId() == k.argList) && j.firstArg(gp.node(), g.node()) {
			return j.polarity(gp)
		}
	}
	return polUnknown
}

// firstArg reports whether n is the first argument in args.
func (j *errJudge) firstArg(args, n *ts.Node) bool {
	for i := uint(0); i < args.NamedChildCount(); i++ {
		if c := args.NamedChild(i); c.KindId() != j.k.comment {
			return same(c, n)
		}
	}
	return false
}

// leaves reports whether the subtree at x holds return, goto, a no-return
// call or an endless loop (while (1), for (;;)); with TestedOnly every
// branch counts.
func (j *errJudge) leaves(x loc) bool {
	if j.tested {
		return true
	}
	if x == nil {
		return false
	}
	k := j.k
	return j.any(x, func(p loc) bool {
		n := p.node()
		switch n.KindId() {
		case k.kwReturn, k.kwGoto:
			return true
		case k.call:
			return j.noReturn(n)
		case k.whileStmt:
			return j.constantTrue(field(n, k.fCondition))
		case k.forStmt:
			return field(n, k.fInitializer) == nil && field(n, k.fCondition) == nil && field(n, k.fUpdate) == nil
		}
		return false
	})
}

// noReturn reports whether call leaves for good: a no-return call of the
// vocabulary, or, with rules.Halting, a function that never returns.
// Member calls (dev->stop()) are judged only by the vocabulary.
func (j *errJudge) noReturn(call *ts.Node) bool {
	w := j.calleeWord(call)
	if w == "" {
		return false
	}
	if j.voc.NoReturn(w) {
		return true
	}
	fn := field(call, j.k.fFunction)
	return j.halts != nil && fn.KindId() == j.k.identifier && j.f.NeverReturns(w, j.halts) == Yes
}

// constantTrue reports whether a loop condition is (1) or (true).
func (j *errJudge) constantTrue(cond *ts.Node) bool {
	if cond == nil || cond.KindId() != j.k.paren || cond.NamedChildCount() != 1 {
		return false
	}
	t := j.f.text(cond.NamedChild(0))
	return t == "1" || t == "true"
}

// isLoop reports whether id is a for, while or do statement.
func (k *nodeKinds) isLoop(id uint16) bool {
	return id == k.forStmt || id == k.whileStmt || id == k.doStmt
}

// inLoop reports whether x is inside the body of a loop of its function.
func (j *errJudge) inLoop(x loc) bool {
	k := j.k
	for i := len(x) - 2; i >= 0; i-- {
		switch id := x[i].KindId(); {
		case k.isLoop(id):
			if same(field(&x[i], k.fBody), &x[i+1]) {
				return true
			}
		case id == k.fnDef:
			return false
		}
	}
	return false
}

// exitsIteration reports whether the subtree at x holds a continue, or a
// break that is not of a loop or switch inside x: in a loop, both abandon
// the failed iteration.
func (j *errJudge) exitsIteration(x loc) bool {
	k := j.k
	base := len(x)
	return j.any(x, func(p loc) bool {
		switch p.node().KindId() {
		case k.continueStmt:
			return true
		case k.breakStmt:
			for i := base - 1; i < len(p)-1; i++ {
				if id := p[i].KindId(); k.isLoop(id) || id == k.switchStmt {
					return false
				}
			}
			return true
		}
		return false
	})
}

// judgeBranches decides the if statement at x whose condition tests the
// result (what: "result" or the variable) with polarity pol.
func (j *errJudge) judgeBranches(x loc, pol polarity, what string) (bool, string) {
	if j.tested {
		return true, fmt.Sprintf("%s is tested by an if", what)
	}
	k := j.k
	then, els := fieldLoc(x, k.fConsequence), j.elseBody(x)
	inLoop := j.inLoop(x)
	branchLeaves := func(b loc) bool { return j.leaves(b) || (b != nil && inLoop && j.exitsIteration(b)) }
	thenLeaves := branchLeaves(then)
	elseLeaves := els != nil && branchLeaves(els)
	ok := false
	switch pol {
	case polFailTrue:
		ok = thenLeaves
	case polFailFalse:
		ok = elseLeaves
		switch {
		case els != nil:
		case thenLeaves:
			// if (ok) { ...; return 0; } followed by the failure path.
			ok = j.failurePathLeaves(x, j.leaves)
		case then != nil:
			// Single exit: if (ok) { ...; rc = 0; } return rc; — the failure
			// path returns the status the success branch would have set.
			for _, v := range j.assignedNames(then) {
				if j.failurePathLeaves(x, func(s loc) bool { return j.returns(s, v) }) {
					ok = true
					break
				}
			}
		}
	default:
		ok = thenLeaves || elseLeaves
	}
	if ok {
		return true, fmt.Sprintf("%s is tested by an if and the failure path leaves", what)
	}
	return false, fmt.Sprintf("%s is tested by an if but the failure path does not return or goto", what)
}

// returns reports whether the statement at s returns an expression that
// names v.
func (j *errJudge) returns(s loc, v string) bool {
	s = j.unlabeled(s)
	return s.node().KindId() == j.k.returnStmt && j.mentions(s, v)
}

// failurePathLeaves looks at the two statements after the if at x for one
// that pred accepts. When the if ends a loop body, the failed iteration
// goes on to the next and then out of the loop: the statements after the
// loop count (for (...) { if (try() == OK) return 1; } return 0;).
func (j *errJudge) failurePathLeaves(x loc, pred func(loc) bool) bool {
	for depth := 0; depth < 4; depth++ {
		pos := j.after(x)
		for i := 0; i < 2 && pos.stmt != nil; i++ {
			if pred(pos.stmt) {
				return true
			}
			pos = j.after(pos.stmt)
		}
		if pos.stmt != nil || pos.end == nil {
			return false
		}
		loop := j.loopOf(pos.end)
		if loop == nil {
			return false
		}
		// The if ends the loop body: continue after the loop statement.
		x = loop
	}
	return false
}

// loopOf returns the loop whose body is the body at end, nil when it is no
// loop's.
func (j *errJudge) loopOf(end loc) loc {
	par := end.up()
	if par == nil || !j.k.isLoop(par.node().KindId()) || !same(field(par.node(), j.k.fBody), end.node()) {
		return nil
	}
	return par
}

// judgeSwitch judges the switch at x on the result: the failure is handled
// when some branch leaves.
func (j *errJudge) judgeSwitch(x loc, what string) (bool, string) {
	if j.leaves(fieldLoc(x, j.k.fBody)) {
		return true, fmt.Sprintf("%s is dispatched by a switch whose branches leave", what)
	}
	return false, fmt.Sprintf("%s is dispatched by a switch but no branch returns or goto", what)
}
