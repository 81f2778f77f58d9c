package csyntax

import (
	"sort"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// loc is a node with its ancestors, the root first and the node last: the
// path a walk took to it, so that going up costs nothing.
type loc []ts.Node

// node is the located node.
func (l loc) node() *ts.Node { return &l[len(l)-1] }

// up is the parent's loc, nil at the root.
func (l loc) up() loc {
	if len(l) < 2 {
		return nil
	}
	return l[:len(l)-1]
}

// child extends l by one of its node's children (copying, so that locs
// never share a backing array they append to).
func (l loc) child(n ts.Node) loc {
	out := make(loc, len(l), len(l)+1)
	copy(out, l)
	return append(out, n)
}

// same reports whether a and b are the same node of one tree.
func same(a, b *ts.Node) bool {
	return a != nil && b != nil && a.StartByte() == b.StartByte() && a.EndByte() == b.EndByte() && a.KindId() == b.KindId()
}

// callSite is one call of the judged name: expr is the call expression (or
// the name itself where the parser made no call of it), name the name.
// deep marks a call nested deeper than maxPathDepth, whose expr is only the
// name.
type callSite struct {
	expr loc
	name ts.Node
	deep bool
}

// sites returns the calls of name in source order: call expressions whose
// callee is name (or ends in the member name), and a name followed by "("
// that the parser left outside any call (inside an unreadable macro use).
// Function declarators, #define bodies and #if conditions are not calls.
func (j *errJudge) sites(name string) []callSite {
	k := j.k
	ident := isIdentifier(name)
	// Where the name's text stands: a subtree that holds none of these
	// offsets holds no call of it, and is not entered.
	var at []int
	for i := 0; ident; {
		off := strings.Index(j.f.code[i:], name)
		if off < 0 {
			break
		}
		at = append(at, i+off)
		i += off + len(name)
	}
	if ident && len(at) == 0 {
		return nil
	}
	var out []callSite
	j.walk(loc{*j.f.tree.RootNode()}, func(p loc) walkStep {
		n := p.node()
		if ident && !holdsOffset(at, int(n.StartByte()), int(n.EndByte())) {
			return walkOver
		}
		if !ident {
			if n.KindId() == k.call && collapse(j.f.text(field(n, k.fFunction))) == name {
				out = append(out, callSite{expr: append(loc(nil), p...), name: *n})
			}
			return walkOn
		}
		id := n.KindId()
		if (id != k.identifier && id != k.fieldIdent) || j.f.text(n) != name {
			return walkOn
		}
		if len(p) > maxPathDepth {
			if !j.f.declaredBefore(int(n.StartByte())) {
				out = append(out, callSite{expr: loc{*n}, name: *n, deep: true})
			}
			return walkOn
		}
		if s, ok := j.siteOf(p); ok && !j.f.declaredBefore(int(n.StartByte())) {
			out = append(out, s)
		}
		return walkOn
	})
	return out
}

// holdsOffset reports whether some offset of the sorted at lies in
// [start, end).
func holdsOffset(at []int, start, end int) bool {
	i := sort.SearchInts(at, start)
	return i < len(at) && at[i] < end
}

// siteOf classifies an occurrence of the judged name at p.
func (j *errJudge) siteOf(p loc) (callSite, bool) {
	k := j.k
	n, par := p.node(), p.up()
	if par == nil {
		return callSite{}, false
	}
	pn := par.node()
	switch {
	case pn.KindId() == k.call && same(field(pn, k.fFunction), n):
		return callSite{expr: append(loc(nil), par...), name: *n}, !j.inDirective(par)
	case pn.KindId() == k.fieldExpr && same(field(pn, k.fField), n):
		if gp := par.up(); gp != nil && gp.node().KindId() == k.call && same(field(gp.node(), k.fFunction), pn) {
			return callSite{expr: append(loc(nil), gp...), name: *n}, !j.inDirective(gp)
		}
		return callSite{}, false
	case pn.KindId() == k.ppFnDef, pn.KindId() == k.ppDef:
		return callSite{}, false
	case pn.KindId() == k.fnDecl && !inBody(k, p):
		// A definition or prototype; inside a body, a declarator the parser
		// made of a call it could not read (MACRO(x) f(y) ...) is a call
		// unless a type name comes before it (declaredBefore).
		return callSite{}, false
	}
	next := n.NextSibling()
	if next == nil || !strings.HasPrefix(j.f.text(next), "(") {
		return callSite{}, false
	}
	return callSite{expr: append(loc(nil), p...), name: *n}, !j.inDirective(p)
}

// inBody reports whether p lies inside a compound statement.
func inBody(k *nodeKinds, p loc) bool {
	for i := len(p) - 2; i >= 0; i-- {
		if p[i].KindId() == k.compound {
			return true
		}
	}
	return false
}

// inDirective reports whether p lies in the condition of an #if or #elif.
func (j *errJudge) inDirective(p loc) bool {
	k := j.k
	b := p.node().StartByte()
	for i := len(p) - 2; i >= 0; i-- {
		if id := p[i].KindId(); id == k.ppIf || id == k.ppElif {
			if c := field(&p[i], k.fCondition); c != nil && c.StartByte() <= b && b < c.EndByte() {
				return true
			}
		}
	}
	return false
}

// walkStep tells walk how to go on after a node.
type walkStep uint8

const (
	walkOn   walkStep = iota // visit the node's children, then go on
	walkStop                 // end the walk
	walkOver                 // go on without visiting the node's children
)

// walk visits the subtree of from's node in source order, handing visit
// the loc of each node (from's ancestors included); visit must not keep
// the loc, which the walk reuses. It stops at the file's deadline. The
// walk keeps no recursion: any depth is safe.
func (j *errJudge) walk(from loc, visit func(loc) walkStep) {
	c := from.node().Walk()
	defer c.Close()
	p := append(make(loc, 0, len(from)+16), from...)
	base := len(p)
	for !j.f.expired() {
		step := visit(p)
		if step == walkStop {
			return
		}
		if step == walkOn && c.GotoFirstChild() {
			p = append(p, *c.Node())
			continue
		}
		for {
			if len(p) == base {
				return
			}
			if c.GotoNextSibling() {
				p[len(p)-1] = *c.Node()
				break
			}
			c.GotoParent()
			p = p[:len(p)-1]
		}
	}
}

// any reports whether some node of from's subtree satisfies pred.
func (j *errJudge) any(from loc, pred func(loc) bool) bool {
	found := false
	j.walk(from, func(p loc) walkStep {
		if pred(p) {
			found = true
			return walkStop
		}
		return walkOn
	})
	return found
}

// declaredBefore reports whether the word before the name at byte off
// makes name(...) a declaration rather than a call, as in "static
// K_SEM_DEFINE(s, 0, 1);" or "MY_API int f(x)": a word that is not a
// keyword introducing an expression ("return f(x)"), skipping "*",
// comments and directive lines.
func (f *File) declaredBefore(off int) bool {
	src := f.code
	i := off - 1
	for i >= 0 {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '*' || c == '\f' || c == '\v':
			i--
			continue
		case c == '/' && i > 0 && src[i-1] == '*':
			k := strings.LastIndex(src[:i-1], "/*")
			if k < 0 {
				return false
			}
			i = k - 1
			continue
		}
		ls := strings.LastIndexByte(src[:i], '\n') + 1
		line := src[ls : i+1]
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "#") {
			i = ls - 1
			continue
		}
		if k := strings.Index(line, "//"); k >= 0 {
			i = ls + k - 1
			continue
		}
		if !isIdentPart(c) {
			return false
		}
		end := i + 1
		for i >= 0 && isIdentPart(src[i]) {
			i--
		}
		word := src[i+1 : end]
		return !ExprKeyword(word) && !(word[0] >= '0' && word[0] <= '9')
	}
	return false
}

// ExprKeyword reports whether a word before a call introduces an
// expression, so that "return foo(x)" is a call while the type name in
// "int foo(x)" makes a declaration.
func ExprKeyword(word string) bool {
	switch word {
	case "return", "else", "do", "case", "sizeof", "goto", "typeof", "__typeof__", "__typeof",
		"_Alignof", "alignof", "defined", "__extension__":
		return true
	}
	return false
}
