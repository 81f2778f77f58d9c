package ctext

import (
	"fmt"
	"sort"

	"github.com/embedeval/embedeval-go/internal/errconv"
)

// ErrorSite is the verdict on one call site of an API whose result must be
// checked.
type ErrorSite struct {
	// Line is the 1-based line of the call.
	Line int
	// Function is the enclosing function definition, "" outside any.
	Function string
	// Handled tells whether the failure is tested and the failure branch
	// leaves (return, goto or a no-return call).
	Handled bool
	// Reason says why, in words a check can put into "actual".
	Reason string
}

// polarity of a condition: which truth value means the call failed.
type polarity int

const (
	polUnknown   polarity = iota // either branch may be the failure branch
	polFailTrue                  // condition true means failure (ret < 0, ret != OK)
	polFailFalse                 // condition true means success (ret == 0, ret >= 0)
)

// errJudge judges error handling in a source with the SDK conventions of
// data/error_conventions.yaml.
type errJudge struct {
	*Source
	conv  *errconv.Conventions
	halts func(name string) bool
	// tested: a test of the result is enough (ErrorRules.TestedOnly).
	tested bool
}

// noReturn reports whether the call to name at token k (followed by "(")
// leaves for good: a no-return call of the conventions, or, when the rules
// can tell, a function that never returns (the project's own fatal() that
// loops forever or resets). Member calls (dev->stop()) are not judged.
func (j errJudge) noReturn(k int, name string) bool {
	if j.conv.NoReturn(name) {
		return true
	}
	return j.halts != nil && j.isIdentTok(k) && !j.is(k-1, ".") && !j.is(k-1, "->") && j.halts(name)
}

// failureValue reports whether a constant compared with == denotes failure:
// NULL, false, a negative value ("-" starts it) or an SDK failure constant.
func (j errJudge) failureValue(t string) bool {
	switch t {
	case "NULL", "false", "-":
		return true
	}
	return j.conv.FailureValue(t)
}

// polarityOf classifies the test of the expression spanning tokens [a, b]
// (a call or a variable) inside a condition.
func (j errJudge) polarityOf(a, b int) polarity {
	switch nx, val := j.text(b+1), j.text(b+2); nx {
	case "<", "<=":
		if val == "0" {
			return polFailTrue
		}
	case "!=":
		if j.failureValue(val) {
			return polFailFalse
		}
		return polFailTrue
	case "==":
		if j.failureValue(val) {
			return polFailTrue
		}
		return polFailFalse
	case ">=", ">":
		return polFailFalse
	}
	switch pv := j.text(a - 1); pv {
	case "!=":
		if j.failureValue(j.text(a - 2)) {
			return polFailFalse
		}
		return polFailTrue
	case "==":
		if j.failureValue(j.text(a - 2)) {
			return polFailTrue
		}
		return polFailFalse
	case "(":
		switch fn := j.text(a - 2); {
		case j.conv.ErrorTest(fn):
			return polFailTrue
		case j.conv.Hint(fn):
			if m := j.match[a-1]; m == b+1 {
				return j.polarityOf(a-1, m)
			}
		}
	case "=":
		if j.isIdentTok(a-2) && j.is(a-3, "(") && j.match[a-3] >= 0 {
			return j.polarityOf(a-3, j.match[a-3])
		}
	}
	return polUnknown
}

// enclosingBrace returns the "{" token enclosing token i, or -1.
func (s *Source) enclosingBrace(i int) int {
	if i < 0 || i >= len(s.parent) {
		return -1
	}
	for p := s.parent[i]; p >= 0; p = s.parent[p] {
		if s.is(p, "{") {
			return p
		}
	}
	return -1
}

// stmtStart returns the first token of the statement containing token i
// and the open brackets enclosing i within it, innermost first.
func (s *Source) stmtStart(i int) (int, []int) {
	blockNest := 0
	if b := s.enclosingBrace(i); b >= 0 {
		blockNest = s.nest[b] + 1
	}
	var opens []int
	k := i - 1
	for k >= 0 {
		t := s.text(k)
		switch {
		case t == "{" || t == "}":
			return k + 1, opens
		case t == ";" && s.nest[k] <= blockNest:
			return k + 1, opens
		case t == ":" && s.nest[k] <= blockNest && s.isLabelColon(k):
			return k + 1, opens
		case (t == ")" || t == "]") && s.match[k] >= 0:
			k = s.match[k] - 1
			continue
		case t == "(" || t == "[":
			opens = append(opens, k)
		}
		k--
	}
	return 0, opens
}

// isLabelColon reports whether the ":" at token k ends a label, a case or
// a default.
func (s *Source) isLabelColon(k int) bool {
	if s.is(k-1, "default") {
		return true
	}
	if s.isIdentTok(k - 1) {
		switch s.text(k - 2) {
		case ";", "{", "}", ":", "":
			return true
		}
	}
	for j := k - 1; j >= 0; j-- {
		switch s.text(j) {
		case "?", ";", "{", "}":
			return false
		case "case":
			return true
		}
	}
	return false
}

// stmtEnd returns the token after the statement starting at token i.
func (s *Source) stmtEnd(i, depth int) int {
	n := len(s.toks)
	if i >= n {
		return n
	}
	if depth < 64 {
		switch t := s.text(i); t {
		case "{":
			if m := s.match[i]; m >= 0 {
				return m + 1
			}
			return n
		case "}":
			return i
		case "if", "while", "for", "switch":
			if s.is(i+1, "(") && s.match[i+1] >= 0 {
				e := s.stmtEnd(s.match[i+1]+1, depth+1)
				if t == "if" && s.is(e, "else") {
					e = s.stmtEnd(e+1, depth+1)
				}
				return e
			}
		case "do":
			e := s.stmtEnd(i+1, depth+1)
			if s.is(e, "while") && s.is(e+1, "(") && s.match[e+1] >= 0 {
				e = s.match[e+1] + 1
				if s.is(e, ";") {
					e++
				}
			}
			return e
		default:
			if s.isIdentTok(i) && s.is(i+1, ":") {
				return s.stmtEnd(i+2, depth+1)
			}
		}
	}
	for k := i; k < n; k++ {
		t := s.text(k)
		switch {
		case (t == "(" || t == "[" || t == "{") && s.match[k] > k:
			k = s.match[k]
		case t == ";":
			return k + 1
		case t == "}":
			return k
		}
	}
	return n
}

// leaves reports whether tokens [a, b) contain return, goto, a no-return
// call or an endless loop (while (1), for (;;)).
func (j errJudge) leaves(a, b int) bool {
	if j.tested {
		return true
	}
	for k := a; k < b && k < len(j.toks); k++ {
		switch t := j.text(k); {
		case t == "return" || t == "goto":
			return true
		case j.is(k+1, "(") && j.noReturn(k, t):
			return true
		case t == "while" && j.is(k+1, "(") && (j.is(k+2, "1") || j.is(k+2, "true")) && j.is(k+3, ")") && !j.is(k-1, "}"):
			return true
		case t == "for" && j.is(k+1, "(") && j.is(k+2, ";") && j.is(k+3, ";") && j.is(k+4, ")"):
			return true
		}
	}
	return false
}

// failurePathLeaves looks at the two statements after an if (whose
// condition opens at o and which ends at token after) for one that leaves as
// judged by leaves. When the if ends a loop body, the failed iteration goes
// on to the next and then out of the loop: the statements after the loop
// count (for (...) { if (try() == OK) return 1; } return 0;).
func (j errJudge) failurePathLeaves(o, after int, leaves func(a, b int) bool) bool {
	next := after
	for depth := 0; depth < 4; depth++ {
		end := len(j.toks)
		b := j.enclosingBrace(o)
		if b >= 0 && j.match[b] >= 0 {
			end = j.match[b]
		}
		for i := 0; i < 2 && next < end; i++ {
			e := j.stmtEnd(next, 0)
			if leaves(next, e) {
				return true
			}
			if e <= next {
				return false
			}
			next = e
		}
		head := j.loopHead(b)
		if next < end || head < 0 {
			return false
		}
		// The if ends the loop body: continue after the loop statement.
		next, o = j.stmtEnd(head, 0), head
	}
	return false
}

// loopHead returns the first token (for, while or do) of the loop whose body
// opens at the "{" at token b, or -1 (also for b < 0).
func (s *Source) loopHead(b int) int {
	if b <= 0 {
		return -1
	}
	switch {
	case s.is(b-1, "do"):
		return b - 1
	case s.is(b-1, ")") && s.match[b-1] >= 0:
		if k := s.match[b-1] - 1; s.is(k, "for") || s.is(k, "while") {
			return k
		}
	}
	return -1
}

// assignedNames returns the identifiers assigned with "=" in tokens [a, b).
func (s *Source) assignedNames(a, b int) []string {
	var out []string
	for k := a; k+1 < b && k < len(s.toks); k++ {
		if s.isIdentTok(k) && s.is(k+1, "=") && !s.is(k-1, ".") && !s.is(k-1, "->") {
			out = append(out, s.text(k))
		}
	}
	return out
}

// inLoop reports whether token i is inside the body of a for, while or do
// loop of its function.
func (s *Source) inLoop(i int) bool {
	for b := s.enclosingBrace(i); b >= 0; b = s.enclosingBrace(b) {
		if s.loopHead(b) >= 0 {
			return true
		}
		if s.is(b-1, ")") && s.match[b-1] >= 0 && !s.is(s.match[b-1]-1, "if") && !s.is(s.match[b-1]-1, "switch") {
			return false // a function body
		}
	}
	return false
}

// exitsIteration reports whether tokens [a, b) hold a continue, or a break
// that is not inside a switch or loop nested in the range: in a loop, both
// abandon the failed iteration.
func (s *Source) exitsIteration(a, b int) bool {
	for k := a; k < b && k < len(s.toks); k++ {
		switch s.text(k) {
		case "continue":
			return true
		case "break":
			nested := false
			for p := s.enclosingBrace(k); p >= a; p = s.enclosingBrace(p) {
				if s.loopHead(p) >= 0 || (s.is(p-1, ")") && s.match[p-1] >= 0 && s.is(s.match[p-1]-1, "switch")) {
					nested = true
					break
				}
			}
			if !nested {
				return true
			}
		}
	}
	return false
}

// judgeBranches decides a checked if statement whose condition is the
// parenthesis at token o.
func (j errJudge) judgeBranches(o int, pol polarity, what string) (bool, string) {
	if j.tested {
		return true, fmt.Sprintf("%s is tested by an if", what)
	}
	q := j.match[o]
	thenEnd := j.stmtEnd(q+1, 0)
	inLoop := j.inLoop(o)
	branchLeaves := func(a, b int) bool { return j.leaves(a, b) || (inLoop && j.exitsIteration(a, b)) }
	thenLeaves := branchLeaves(q+1, thenEnd)
	elseLeaves, hasElse := false, j.is(thenEnd, "else")
	if hasElse {
		elseLeaves = branchLeaves(thenEnd+1, j.stmtEnd(thenEnd+1, 0))
	}
	ok := false
	switch pol {
	case polFailTrue:
		ok = thenLeaves
	case polFailFalse:
		ok = elseLeaves
		switch {
		case hasElse:
		case thenLeaves:
			// if (ok) { ...; return 0; } followed by the failure path.
			ok = j.failurePathLeaves(o, thenEnd, func(a, b int) bool { return j.leaves(a, b) })
		default:
			// Single exit: if (ok) { ...; rc = 0; } return rc; — the failure
			// path returns the status the success branch would have set.
			for _, v := range j.assignedNames(q+1, thenEnd) {
				if j.failurePathLeaves(o, thenEnd, func(a, b int) bool {
					return j.is(a, "return") && j.findIdent(a+1, b, v) >= 0
				}) {
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

// judgeCall classifies the call whose name starts at token first and whose
// argument list opens at token paren.
func (j errJudge) judgeCall(first, paren int, name string) (bool, string) {
	closeTok := j.match[paren]
	if closeTok < 0 {
		return false, "the call is not closed"
	}
	start, opens := j.stmtStart(first)
	for _, o := range opens {
		if !j.is(o, "(") || !j.isIdentTok(o-1) {
			continue
		}
		switch w := j.text(o - 1); {
		case j.conv.CheckMacro(w):
			return true, fmt.Sprintf("result checked by %s", w)
		case j.tested && j.conv.NoticeMacro(w):
			return true, fmt.Sprintf("result noticed by %s", w)
		case w == "if":
			return j.judgeBranches(o, j.polarityOf(first, closeTok), "result")
		case w == "switch":
			return j.judgeSwitch(o, "result")
		case (w == "while" || w == "for") && j.tested:
			return true, fmt.Sprintf("result tested by a %s condition", w)
		case w == "while" || w == "for":
			return false, fmt.Sprintf("result only used as a %s condition", w)
		}
	}
	if j.is(start, "return") {
		return true, "result propagated by return"
	}
	if len(opens) == 0 && j.is(first-1, "=") && j.isIdentTok(first-2) {
		// A declaration (int ret = call(...)) lives only in its block.
		return j.judgeAssigned(j.text(first-2), closeTok, start != first-2)
	}
	// An array element: fds[i] = call(...); followed by if (fds[i] < 0).
	if len(opens) == 0 && j.is(first-1, "=") && j.is(first-2, "]") {
		if o := j.match[first-2]; o > 0 && j.isIdentTok(o-1) {
			return j.judgeAssigned(j.text(o-1), closeTok, false)
		}
	}
	if len(opens) == 0 && start == first {
		return false, "return value ignored"
	}
	if j.is(start, "(") && j.is(start+1, "void") && j.is(start+2, ")") && start+3 == first {
		return false, "return value discarded with (void)"
	}
	return false, fmt.Sprintf("result of %s is not tested", name)
}

// judgeAssigned follows a result stored in variable v by the statement
// that ends after token closeTok: the check must come within the next three
// statements (at most two unrelated ones in between that do not assign v).
//
// declared says the statement declares v: then v does not outlive its
// block, and the check is not looked for after it.
func (j errJudge) judgeAssigned(v string, closeTok int, declared bool) (bool, string) {
	next := j.stmtEnd(closeTok+1, 0)
	if next > 0 && !j.is(next-1, ";") {
		return false, fmt.Sprintf("result stored in %s but not checked", v)
	}
	for intervening := 0; next < len(j.toks); intervening++ {
		if intervening > 2 {
			return false, fmt.Sprintf("%s is not checked within the next 3 statements", v)
		}
		end := j.stmtEnd(next, 0)
		t := j.text(next)
		switch {
		case t == "}":
			// A retry loop: do { v = call(...); } while (v < 0 && errno == EINTR);
			// the check may follow the loop.
			if after, ok := j.afterDoWhile(next); ok {
				next = after
				intervening--
				continue
			}
			// The end of an if or else body, or of a bare block: the check
			// may follow it (if (on) { err = write(...); } return err;).
			if after, ok := j.afterIfBody(next); ok && !declared {
				next = after
				continue
			}
			if j.bareBlockEnd(next) && !declared {
				next++
				continue
			}
			return false, fmt.Sprintf("result stored in %s but not checked", v)
		case t == "if" && j.is(next+1, "(") && j.match[next+1] >= 0:
			if j.findTested(next+1, v) >= 0 {
				ok, why := j.judgeIfChain(next, v)
				// if (ret == 0) { ... } else { log } return ret; hands the
				// failure to the caller after the if (also when the if ends
				// the body of an enclosing if).
				after := end
				for j.is(after, "}") {
					a, found := j.afterIfBody(after)
					if !found {
						break
					}
					after = a
				}
				if !ok && after < len(j.toks) && j.is(after, "return") && j.findIdent(after+1, j.stmtEnd(after, 0), v) >= 0 {
					return true, fmt.Sprintf("%s is tested by an if and propagated by the return after it", v)
				}
				return ok, why
			}
		case t == "switch" && j.is(next+1, "(") && j.match[next+1] >= 0:
			if j.findTested(next+1, v) >= 0 {
				return j.judgeSwitch(next+1, v)
			}
		case j.tested && (t == "while" || t == "for") && j.is(next+1, "(") && j.match[next+1] >= 0:
			if j.findIdent(next+2, j.match[next+1], v) >= 0 {
				return true, fmt.Sprintf("%s tested by a %s condition", v, t)
			}
		case t == "return":
			if j.findIdent(next+1, end, v) >= 0 {
				return true, fmt.Sprintf("%s propagated by return", v)
			}
			return false, fmt.Sprintf("function returns before %s is checked", v)
		case j.conv.CheckMacro(t) && j.is(next+1, "(") && j.findIdent(next+1, end, v) >= 0:
			return true, fmt.Sprintf("%s checked by %s", v, t)
		}
		if j.assigns(v, next, end) {
			return false, fmt.Sprintf("%s is overwritten before it is checked", v)
		}
		if end <= next {
			break
		}
		next = end
	}
	return false, fmt.Sprintf("result stored in %s but not checked", v)
}

// judgeSwitch judges "switch (... v ...) { ... }" whose condition is the
// parenthesis at token o: the failure is handled when some branch leaves
// (return, goto, a no-return call).
func (j errJudge) judgeSwitch(o int, what string) (bool, string) {
	body := j.match[o] + 1
	if j.leaves(body, j.stmtEnd(body, 0)) {
		return true, fmt.Sprintf("%s is dispatched by a switch whose branches leave", what)
	}
	return false, fmt.Sprintf("%s is dispatched by a switch but no branch returns or goto", what)
}

// judgeIfChain judges "if (... v ...)" at token i; when its failure path
// does not leave, a following "else if" that tests v again is judged
// instead (if (ret == -EAGAIN) {...} else if (ret < 0) return ret;).
func (j errJudge) judgeIfChain(i int, v string) (bool, string) {
	var ok bool
	var why string
	for depth := 0; depth < 64; depth++ {
		o := j.match[i+1]
		k := j.findTested(i+1, v)
		if k < 0 {
			break
		}
		end := k
		for j.is(end+1, "[") && j.match[end+1] > end {
			end = j.match[end+1]
		}
		ok, why = j.judgeBranches(i+1, j.polarityOf(k, end), v)
		if ok {
			return ok, why
		}
		e := j.stmtEnd(o+1, 0)
		if !j.is(e, "else") || !j.is(e+1, "if") || !j.is(e+2, "(") || j.match[e+2] < 0 {
			break
		}
		i = e + 1
	}
	return ok, why
}

// findTested returns the first token of the condition in parentheses at
// token open that tests identifier v, or -1. An occurrence only passed as an
// argument to a call (fgets(buf, n, f) == NULL tests fgets, not f) is not a
// test; one inside IS_ERR(...), likely(...) or unlikely(...) is.
func (j errJudge) findTested(open int, v string) int {
	close := j.match[open]
	for k := open + 1; k < close && k < len(j.toks); k++ {
		if !j.isIdentTok(k) || j.text(k) != v {
			continue
		}
		tested := true
		for p := j.parent[k]; p > open; p = j.parent[p] {
			if j.is(p, "(") && j.isIdentTok(p-1) && !j.testWrapper(j.text(p-1)) {
				tested = false
				break
			}
		}
		if tested {
			return k
		}
	}
	return -1
}

// testWrapper reports whether a macro around an expression keeps it a test
// of that expression: an error test (IS_ERR) or a hint (likely).
func (j errJudge) testWrapper(name string) bool {
	return j.conv.ErrorTest(name) || j.conv.Hint(name)
}

// afterIfBody returns, when token i is the "}" closing the body of an if
// (or of its else), the token after the whole if statement.
func (s *Source) afterIfBody(i int) (int, bool) {
	open := s.match[i]
	if open < 0 {
		return 0, false
	}
	switch {
	case s.is(open-1, "else"):
	case s.is(open-1, ")") && s.match[open-1] > 0 && s.is(s.match[open-1]-1, "if"):
	default:
		return 0, false
	}
	next := i + 1
	for s.is(next, "else") {
		next = s.stmtEnd(next+1, 0)
	}
	return next, true
}

// bareBlockEnd reports whether token i is the "}" closing a bare block
// ({ ... } as a statement of its own, not a body of if, for, a function, ...).
func (s *Source) bareBlockEnd(i int) bool {
	open := s.match[i]
	if open <= 0 {
		return false
	}
	switch s.text(open - 1) {
	case ";", "{", "}", ":":
		return true
	}
	return false
}

// afterDoWhile returns, when token i is the "}" closing the body of a
// do-while loop, the token after the loop's "while (...);".
func (s *Source) afterDoWhile(i int) (int, bool) {
	open := s.match[i]
	if open < 0 || !s.is(open-1, "do") || !s.is(i+1, "while") || !s.is(i+2, "(") || s.match[i+2] < 0 {
		return 0, false
	}
	e := s.match[i+2] + 1
	if !s.is(e, ";") {
		return 0, false
	}
	return e + 1, true
}

// findIdent returns the first token in [a, b) that is identifier v, or -1.
func (s *Source) findIdent(a, b int, v string) int {
	for k := a; k < b && k < len(s.toks); k++ {
		if s.isIdentTok(k) && s.text(k) == v {
			return k
		}
	}
	return -1
}

// assigns reports whether tokens [a, b) assign v or take its address.
func (s *Source) assigns(v string, a, b int) bool {
	for k := a; k < b && k < len(s.toks); k++ {
		if !s.isIdentTok(k) || s.text(k) != v || s.is(k-1, ".") || s.is(k-1, "->") {
			continue
		}
		switch s.text(k + 1) {
		case "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=":
			return true
		}
		if s.is(k-1, "&") {
			return true
		}
	}
	return false
}

// enclosingFunction returns the name of the definition whose body holds
// token i, or "".
func (s *Source) enclosingFunction(i int) string {
	fs := s.functions()
	k := sort.Search(len(fs), func(j int) bool { return fs[j].open > i }) - 1
	if k >= 0 && (fs[k].close < 0 || i < fs[k].close) {
		return fs[k].Name
	}
	return ""
}

// ErrorRules is the vocabulary ErrorHandlingReport judges with.
type ErrorRules struct {
	// Conventions are the SDK error conventions
	// (data/error_conventions.yaml); nil knows none.
	Conventions *errconv.Conventions
	// Halts, when not nil, reports whether a call to the named function
	// never returns (csyntax File.NeverReturns answering Yes with the
	// vocabulary of data/halting_calls.yaml): a failure branch that calls
	// it leaves.
	Halts func(name string) bool
	// TestedOnly accepts a result that is tested at all — by an if, a
	// switch, a while or for condition, a checking macro, or returned —
	// whether or not the failure branch leaves: for a prompt that asks
	// only that a failure be noticed (logged, counted, retried).
	TestedOnly bool
}

// ErrorHandlingReport judges every call site of call (definitions,
// prototypes and #define lines excluded), in source order, with the SDK
// conventions of rules. Accepted shapes:
//   - the call in an if condition whose failure branch leaves:
//     "if (call(...) < 0) { ...; return ...; }", "if (call(...)) goto err;",
//     "if (!device_is_ready(dev)) return ...;", "if (IS_ERR(call(...)))";
//   - "ret = call(...);" (or a declaration with initializer) followed
//     within three statements, none of which reassigns ret, by an if on ret
//     whose failure branch leaves (ret < 0, ret != 0, ret != ESP_OK,
//     ret != HAL_OK, IS_ERR(ret), !ret, ret), or by "return ret;";
//   - "return call(...);" (the result is propagated);
//   - a checking macro of the conventions: ESP_ERROR_CHECK,
//     ESP_RETURN_ON_ERROR, ESP_GOTO_ON_ERROR, ESP_RETURN_ON_FALSE,
//     ESP_GOTO_ON_FALSE, BUG_ON.
//
// The failure branch is chosen from the comparison: "< 0", "!= X" and
// "== NULL" make the then-branch the failure branch; "== 0", ">= 0" and
// "== OK" make it the else-branch (or the code after the if); a bare or
// negated test accepts either branch. Leaving means return, goto, a
// no-return call of the conventions (Error_Handler, k_panic, abort,
// esp_restart, ...), a call rules.Halts says never returns, or an endless
// loop.
func ErrorHandlingReport(code, call string, rules ErrorRules) []ErrorSite {
	return NewSource(code).ErrorHandlingReport(call, rules)
}

// ErrorHandlingReport judges every call site of call; see the package
// function ErrorHandlingReport.
func (s *Source) ErrorHandlingReport(call string, rules ErrorRules) []ErrorSite {
	j := errJudge{Source: s, conv: rules.Conventions, halts: rules.Halts, tested: rules.TestedOnly}
	var out []ErrorSite
	for _, c := range s.callSites(call) {
		if c.first < 0 {
			continue
		}
		site := ErrorSite{Line: s.Line(c.start), Function: s.enclosingFunction(c.first)}
		site.Handled, site.Reason = j.judgeCall(c.first, c.paren, normalizeCallName(call))
		out = append(out, site)
	}
	return out
}

// ReturnAfterError reports whether every call site of call tests the
// result and leaves on failure (see ErrorHandlingReport). It is false when
// call never appears, because nothing then shows that errors are handled.
func ReturnAfterError(code, call string, rules ErrorRules) bool {
	return NewSource(code).ReturnAfterError(call, rules)
}

// ReturnAfterError is ReturnAfterError on this source.
func (s *Source) ReturnAfterError(call string, rules ErrorRules) bool {
	sites := s.ErrorHandlingReport(call, rules)
	if len(sites) == 0 {
		return false
	}
	for _, st := range sites {
		if !st.Handled {
			return false
		}
	}
	return true
}
