package csyntax

import ts "github.com/tree-sitter/go-tree-sitter"

// streamPos is where the judge stands in the statements that
// follow one another in a block: a statement, or the end of a block.
// Case labels, labels and #if branches do not interrupt the stream: the
// statements of the next case or branch follow.
type streamPos struct {
	// stmt is the statement at this position; nil at the end of a block.
	stmt loc
	// end is the body that ended: a compound statement, or the statement
	// that is a body of its own (if (x) y = 1;). nil with stmt nil: no
	// position at all (the depth limit).
	end loc
}

// isWrapper reports whether id holds statements of the enclosing block
// among other children: a case, an #if branch, or a stretch the parser
// could not read (whose statements follow one another all the same).
func (k *nodeKinds) isWrapper(id uint16) bool {
	switch id {
	case k.caseStmt, k.ppIf, k.ppIfdef, k.ppElse, k.ppElif, k.ppElifdef, k.errorNode:
		return true
	}
	return false
}

// isStreamItem reports whether child ch of a block, case or #if branch is
// one of its statements (not a comment, directive, case value or #if
// condition).
func (k *nodeKinds) isStreamItem(ch *ts.Node, field uint16) bool {
	if !ch.IsNamed() || field == k.fCondition || field == k.fValue || field == k.fName {
		return false
	}
	switch ch.KindId() {
	case k.comment, k.ppDef, k.ppFnDef, k.ppCall, k.ppInclude:
		return false
	}
	return true
}

// children returns n's children with their field ids.
func (j *errJudge) children(n *ts.Node) []fieldChild {
	c := n.Walk()
	defer c.Close()
	if !c.GotoFirstChild() {
		return nil
	}
	var out []fieldChild
	for {
		out = append(out, fieldChild{node: *c.Node(), field: c.FieldId()})
		if !c.GotoNextSibling() {
			return out
		}
	}
}

// enter returns the position of statement item s of block (a loc ending at
// the block): s itself, or, for a case or #if branch, its first statement
// (or what follows it when it has none).
func (j *errJudge) enter(block loc, s ts.Node, depth int) streamPos {
	at := block.child(s)
	if !j.k.isWrapper(s.KindId()) || depth > maxPathDepth {
		return streamPos{stmt: at}
	}
	for _, c := range j.children(&s) {
		if j.k.isStreamItem(&c.node, c.field) {
			return j.enter(at, c.node, depth+1)
		}
	}
	return j.afterDepth(at, depth+1)
}

// after returns the position after statement x.
func (j *errJudge) after(x loc) streamPos { return j.afterDepth(x, 0) }

func (j *errJudge) afterDepth(x loc, depth int) streamPos {
	k := j.k
	for ; depth <= maxPathDepth && len(x) >= 2; depth++ {
		par := x.up()
		pn := par.node()
		switch id := pn.KindId(); {
		case id == k.compound || id == k.translationUnit || k.isWrapper(id):
			kids := j.children(pn)
			i := 0
			for i < len(kids) && !same(&kids[i].node, x.node()) {
				i++
			}
			for i++; i < len(kids); i++ {
				if k.isStreamItem(&kids[i].node, kids[i].field) {
					return j.enter(par, kids[i].node, depth+1)
				}
			}
			if id == k.compound || id == k.translationUnit {
				return streamPos{end: par}
			}
			x = par
		case id == k.labeled || id == k.attributed:
			x = par
		default:
			// A body of its own: if (x) y = 1;
			return streamPos{end: x}
		}
	}
	return streamPos{}
}

// bodyKind classifies the body that ended at a stream position: the
// statement it is a body of, and how.
type bodyKind uint8

const (
	bodyOther bodyKind = iota // a loop, switch or function body
	bodyDo                    // the body of a do-while loop
	bodyIf                    // the then- or else-body of an if
	bodyBare                  // a block that is a statement of its own
)

// ownerOf returns how body end (a streamPos.end) belongs to its parent, and
// the statement after which the stream goes on: the do loop, the whole if
// chain, or the bare block.
func (j *errJudge) ownerOf(end loc) (bodyKind, loc) {
	k := j.k
	par := end.up()
	if par == nil {
		return bodyOther, nil
	}
	pn := par.node()
	switch pn.KindId() {
	case k.doStmt:
		if same(field(pn, k.fBody), end.node()) {
			return bodyDo, par
		}
	case k.ifStmt:
		if same(field(pn, k.fConsequence), end.node()) {
			return bodyIf, j.ifChainTop(par)
		}
	case k.elseClause:
		if gp := par.up(); gp != nil && gp.node().KindId() == k.ifStmt {
			return bodyIf, j.ifChainTop(gp)
		}
	case k.compound, k.caseStmt, k.labeled, k.ppIf, k.ppIfdef, k.ppElse, k.ppElif, k.ppElifdef:
		if end.node().KindId() == k.compound {
			return bodyBare, end
		}
	}
	return bodyOther, nil
}

// ifChainTop returns the outermost if of the else-if chain holding the if
// at x.
func (j *errJudge) ifChainTop(x loc) loc {
	for d := 0; d < maxPathDepth; d++ {
		e := x.up()
		if e == nil || e.node().KindId() != j.k.elseClause {
			return x
		}
		g := e.up()
		if g == nil || g.node().KindId() != j.k.ifStmt {
			return x
		}
		x = g
	}
	return x
}

// unlabeled returns the statement under any labels at x.
func (j *errJudge) unlabeled(x loc) loc {
	for d := 0; d < maxPathDepth && (x.node().KindId() == j.k.labeled || x.node().KindId() == j.k.attributed); d++ {
		var inner *ts.Node
		for _, c := range j.children(x.node()) {
			if c.node.IsNamed() && c.field != j.k.fLabel && c.node.KindId() != j.k.comment && c.node.Kind() != "attribute_declaration" {
				inner = &c.node
			}
		}
		if inner == nil {
			return x
		}
		x = x.child(*inner)
	}
	return x
}

// fieldLoc returns the loc of x's child in field id, nil when there is none.
func fieldLoc(x loc, id uint16) loc {
	if c := field(x.node(), id); c != nil {
		return x.child(*c)
	}
	return nil
}

// elseBody returns the statement of the else clause of the if at x, nil
// without an else.
func (j *errJudge) elseBody(x loc) loc {
	alt := fieldLoc(x, j.k.fAlternative)
	if alt == nil {
		return nil
	}
	for _, c := range j.children(alt.node()) {
		if c.node.IsNamed() && c.node.KindId() != j.k.comment {
			return alt.child(c.node)
		}
	}
	return nil
}
