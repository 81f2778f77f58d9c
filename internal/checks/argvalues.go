package checks

import (
	"slices"

	"github.com/embedeval/embedeval-go/internal/cexpr"
	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// maxViaDepth bounds how many callers c.arg_values goes up from a call.
const maxViaDepth = 8

// maxArgValues bounds how many results c.arg_values gives.
const maxArgValues = 1 << 16

// argValue is one result of c.arg_values.
type argValue struct {
	function string
	line     int
	text     string
	n        cexpr.Num
	ok       bool
	via      []string
}

// argValues gives the argument index of every call of callee: its text
// and value where the call is, or, for a parameter of the calling function
// that is not reassigned and whose callers disagree, one result per call
// site of that function (recursively, depth-bounded).
func (fw *follower) argValues(callee string, index int) []argValue {
	var out []argValue
	for _, c := range fw.callSites()[callee] {
		if len(out) >= maxArgValues || !fw.spend(1) {
			break
		}
		out = fw.origins(c, index, nil, 0, out)
	}
	return out
}

// origins appends the results of argument index of the call c, reached
// through the functions via.
func (fw *follower) origins(c csyntax.Call, index int, via []string, depth int, out []argValue) []argValue {
	v := argValue{function: c.Function, line: c.Line, via: via}
	if index < len(c.Args) {
		v.text = c.Args[index]
		v.n, v.ok = fw.Eval(v.text, c.Function, c.Line)
	}
	if v.ok || depth >= maxViaDepth || slices.Contains(via, c.Function) {
		return append(out, v)
	}
	fi, idx, ok := fw.passedParam(v.text, c)
	sites := fw.callSites()[c.Function]
	if !ok || len(sites) == 0 || fw.addressTaken()[c.Function] {
		return append(out, v)
	}
	inner := append([]string{c.Function}, via...)
	for _, s := range sites {
		if len(out) >= maxArgValues || !fw.spend(1) {
			break
		}
		if len(s.Args) != len(fi.fn.Params) {
			return append(out, v)
		}
		out = fw.origins(s, idx, inner, depth+1, out)
	}
	return out
}

// passedParam reports whether text is a parameter of the function making
// the call c that is not reassigned before the call, and which.
func (fw *follower) passedParam(text string, c csyntax.Call) (*funcInfo, int, bool) {
	toks := tokenizeExpr(text)
	for len(toks) >= 3 && toks[0].text == "(" && toks[len(toks)-1].text == ")" {
		toks = toks[1 : len(toks)-1]
	}
	fi := fw.funcInfo(c.Function)
	if len(toks) != 1 || fi == nil || fi.root == nil {
		return nil, 0, false
	}
	idx, ok := fi.params[toks[0].text]
	if !ok {
		return nil, 0, false
	}
	w := &walker{fw: fw, fi: fi, path: []string{toks[0].text}, stop: c.Line}
	st := w.stmt(fi.root, absVal{kind: aEntry}).st
	if st.kind != aEntry || fi.gotos && w.sawStore {
		return nil, 0, false
	}
	return fi, idx, true
}
