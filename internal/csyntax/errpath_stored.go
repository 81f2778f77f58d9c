package csyntax

import (
	"fmt"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// maxIfChain bounds the else-if chain judgeIfChain follows.
const maxIfChain = 64

// judgeAssigned follows a result stored in variable v by the statement at
// stmt: the check must come within the next three statements (at most two
// unrelated ones in between that do not assign v or take its address).
//
// declared says the statement declares v: then v does not outlive its
// block, and the check is not looked for after it.
func (j *errJudge) judgeAssigned(v string, stmt loc, declared bool) (bool, string) {
	k := j.k
	if last := j.lastChild(stmt.node()); last == nil || last.IsMissing() || j.f.text(last) != ";" {
		return false, fmt.Sprintf("result stored in %s but not checked", v)
	}
	pos := j.after(stmt)
	for intervening := 0; ; intervening++ {
		if j.f.expired() || (pos.stmt == nil && pos.end == nil) {
			return false, fmt.Sprintf("result stored in %s but not checked", v)
		}
		if intervening > 2 {
			return false, fmt.Sprintf("%s is not checked within the next 3 statements", v)
		}
		if pos.stmt == nil {
			switch kind, next := j.ownerOf(pos.end); {
			case kind == bodyDo:
				// A retry loop: do { v = call(...); } while (v < 0 && errno == EINTR);
				// the check may follow the loop.
				pos = j.after(next)
				intervening--
			case kind == bodyIf && !declared, kind == bodyBare && !declared:
				// The end of an if or else body, or of a bare block: the check
				// may follow it (if (on) { err = write(...); } return err;).
				pos = j.after(next)
			default:
				return false, fmt.Sprintf("result stored in %s but not checked", v)
			}
			continue
		}
		s := j.unlabeled(pos.stmt)
		n := s.node()
		switch n.KindId() {
		case k.ifStmt:
			if j.findTested(fieldLoc(s, k.fCondition), v) != nil {
				ok, why := j.judgeIfChain(s, v)
				// if (ret == 0) { ... } else { log } return ret; hands the
				// failure to the caller after the if (also when the if ends
				// the body of an enclosing if).
				after := j.after(pos.stmt)
				for d := 0; d < maxPathDepth && after.stmt == nil && after.end != nil; d++ {
					kind, next := j.ownerOf(after.end)
					if kind != bodyIf {
						break
					}
					after = j.after(next)
				}
				if !ok && after.stmt != nil && j.returns(after.stmt, v) {
					return true, fmt.Sprintf("%s is tested by an if and propagated by the return after it", v)
				}
				return ok, why
			}
		case k.switchStmt:
			if j.findTested(fieldLoc(s, k.fCondition), v) != nil {
				return j.judgeSwitch(s, v)
			}
		case k.whileStmt, k.forStmt:
			if j.tested && j.loopHeadMentions(s, v) {
				kw := "while"
				if n.KindId() == k.forStmt {
					kw = "for"
				}
				return true, fmt.Sprintf("%s tested by a %s condition", v, kw)
			}
		case k.returnStmt:
			if j.mentions(s, v) {
				return true, fmt.Sprintf("%s propagated by return", v)
			}
			return false, fmt.Sprintf("function returns before %s is checked", v)
		case k.exprStmt:
			if c := n.NamedChild(0); c != nil && c.KindId() == k.call {
				if w := field(c, k.fFunction); w != nil && w.KindId() == k.identifier && j.voc.CheckMacro(j.f.text(w)) && j.mentions(s, v) {
					return true, fmt.Sprintf("%s checked by %s", v, j.f.text(w))
				}
			}
		}
		if j.assigns(pos.stmt, v) {
			return false, fmt.Sprintf("%s is overwritten before it is checked", v)
		}
		pos = j.after(pos.stmt)
	}
}

// lastChild is n's last child that is not a comment.
func (j *errJudge) lastChild(n *ts.Node) *ts.Node {
	for i := n.ChildCount(); i > 0; i-- {
		if c := n.Child(i - 1); c.KindId() != j.k.comment {
			return c
		}
	}
	return nil
}

// loopHeadMentions reports whether the condition of the while loop, or the
// parenthesized head of the for loop, at s names v.
func (j *errJudge) loopHeadMentions(s loc, v string) bool {
	k := j.k
	if s.node().KindId() == k.whileStmt {
		c := fieldLoc(s, k.fCondition)
		return c != nil && j.mentions(c, v)
	}
	for _, id := range []uint16{k.fInitializer, k.fCondition, k.fUpdate} {
		if c := fieldLoc(s, id); c != nil && j.mentions(c, v) {
			return true
		}
	}
	return false
}

// judgeIfChain judges the if at x that tests v; when its failure path does
// not leave, a following "else if" that tests v again is judged instead
// (if (ret == -EAGAIN) {...} else if (ret < 0) return ret;).
func (j *errJudge) judgeIfChain(x loc, v string) (bool, string) {
	var ok bool
	var why string
	for depth := 0; depth < maxIfChain; depth++ {
		e := j.findTested(fieldLoc(x, j.k.fCondition), v)
		if e == nil {
			break
		}
		// fds[1] < 0: the element is what is compared.
		for up := e.up(); up != nil && up.node().KindId() == j.k.subscript && same(field(up.node(), j.k.fArgument), e.node()); up = e.up() {
			e = up
		}
		ok, why = j.judgeBranches(x, j.polarity(e), v)
		if ok {
			return ok, why
		}
		next := j.elseBody(x)
		if next == nil || next.node().KindId() != j.k.ifStmt {
			break
		}
		x = next
	}
	return ok, why
}

// findTested returns the first occurrence of v in the condition at cond
// that the condition tests, nil when there is none. An occurrence only
// passed as an argument to a call (fgets(buf, n, f) == NULL tests fgets,
// not f) is not a test; one inside IS_ERR(...), likely(...) or
// unlikely(...) is.
func (j *errJudge) findTested(cond loc, v string) loc {
	if cond == nil {
		return nil
	}
	k := j.k
	base := len(cond)
	var found loc
	j.walk(cond, func(p loc) walkStep {
		n := p.node()
		if id := n.KindId(); (id != k.identifier && id != k.fieldIdent) || j.f.text(n) != v {
			return walkOn
		}
		for i := len(p) - 2; i >= base; i-- {
			switch p[i].KindId() {
			case k.argList:
				if i > 0 && p[i-1].KindId() == k.call {
					if w := j.calleeWord(&p[i-1]); w != "" && !j.voc.ErrorTest(w) && !j.voc.Hint(w) {
						return walkOn
					}
				}
			case k.sizeOf:
				return walkOn
			}
		}
		found = append(loc(nil), p...)
		return walkStop
	})
	return found
}

// mentions reports whether the subtree at x names v (a variable or a
// member of that name).
func (j *errJudge) mentions(x loc, v string) bool {
	k := j.k
	return j.any(x, func(p loc) bool {
		n := p.node()
		id := n.KindId()
		return (id == k.identifier || id == k.fieldIdent) && j.f.text(n) == v
	})
}

// assigns reports whether the subtree at x assigns variable v (=, +=, ...,
// or a declaration of it with an initializer) or takes its address.
func (j *errJudge) assigns(x loc, v string) bool {
	k := j.k
	return j.any(x, func(p loc) bool {
		n := p.node()
		if n.KindId() != k.identifier || j.f.text(n) != v || len(p) < 2 {
			return false
		}
		par := p.up().node()
		switch par.KindId() {
		case k.assign:
			return same(field(par, k.fLeft), n)
		case k.pointerExpr:
			return j.opText(par) == "&"
		}
		return j.initialized(p)
	})
}

// initialized reports whether the identifier at p is the name an
// init_declarator declares ("int v = ...", "char *v = ...").
func (j *errJudge) initialized(p loc) bool {
	k := j.k
	for i := len(p) - 2; i >= 0; i-- {
		switch p[i].KindId() {
		case k.ptrDecl:
			continue
		case k.initDecl:
			return same(field(&p[i], k.fDeclarator), &p[i+1])
		}
		return false
	}
	return false
}

// assignedNames returns the variables assigned with "=" (or declared with
// an initializer) in the subtree at x, in source order.
func (j *errJudge) assignedNames(x loc) []string {
	k := j.k
	var out []string
	j.walk(x, func(p loc) walkStep {
		n := p.node()
		switch n.KindId() {
		case k.assign:
			if l := field(n, k.fLeft); l != nil && l.KindId() == k.identifier && j.opText(n) == "=" {
				out = append(out, j.f.text(l))
			}
		case k.initDecl:
			if d := j.lastLeaf(field(n, k.fDeclarator)); d != nil && d.KindId() == k.identifier {
				out = append(out, j.f.text(d))
			}
		}
		return walkOn
	})
	return out
}
