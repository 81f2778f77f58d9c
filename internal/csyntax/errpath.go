package csyntax

import (
	"sort"
	"strings"
)

// This file is the error-path judge: for each call of an API whose result
// must be checked, does the code test the result and leave on failure? The
// SDK vocabulary (checking macros, failure constants, no-return calls)
// comes in as an ErrorVocabulary; the shapes it accepts are those of
// ErrorSites.

// ErrorVocabulary is the SDK vocabulary of error handling the judge reads:
// errconv.Conventions, loaded from data/error_conventions.yaml.
type ErrorVocabulary interface {
	// CheckMacro: a macro around a call or its result that checks it and
	// leaves (or aborts) on failure (ESP_ERROR_CHECK).
	CheckMacro(name string) bool
	// NoticeMacro: a macro that logs a failure and goes on.
	NoticeMacro(name string) bool
	// NoReturn: a call that leaves the failure branch for good.
	NoReturn(name string) bool
	// FailureValue: a constant that denotes failure when compared with ==.
	FailureValue(name string) bool
	// ErrorTest: name(x) is true when x is an error (IS_ERR).
	ErrorTest(name string) bool
	// Hint: name(x) is a branch-prediction hint around the test x.
	Hint(name string) bool
}

// noVocabulary knows no names.
type noVocabulary struct{}

func (noVocabulary) CheckMacro(string) bool { return false }

func (noVocabulary) NoticeMacro(string) bool { return false }

func (noVocabulary) NoReturn(string) bool { return false }

func (noVocabulary) FailureValue(string) bool { return false }

func (noVocabulary) ErrorTest(string) bool { return false }

func (noVocabulary) Hint(string) bool { return false }

// ErrorRules is the vocabulary ErrorSites judges with.
type ErrorRules struct {
	// Vocabulary is the SDK error conventions; nil knows none.
	Vocabulary ErrorVocabulary
	// Halting, when not nil, makes a failure branch that calls a function
	// NeverReturns answers Yes for (with this vocabulary) leave: the
	// project's own fatal() that loops forever or resets. Nil judges only
	// the Vocabulary's no-return calls.
	Halting *HaltingCalls
	// TestedOnly accepts a result that is tested at all — by an if, a
	// switch, a while or for condition, a checking or notice macro, or
	// returned — whether or not the failure branch leaves: for a prompt
	// that asks only that a failure be noticed (logged, counted, retried).
	TestedOnly bool
}

// ErrorSite is the verdict on one call site of an API whose result must be
// checked.
type ErrorSite struct {
	// Line is the 1-based line of the called name.
	Line int
	// Function is the enclosing function definition, "" outside any.
	Function string
	// Handled tells whether the failure is tested and the failure branch
	// leaves (return, goto or a no-return call).
	Handled bool
	// Reason says why, in words a check can put into "actual".
	Reason string
}

// maxPathDepth bounds the nesting the judge follows around a call: a call
// nested deeper is reported as not tested, and the judge's walks up and
// down the tree from a call stop there.
const maxPathDepth = 512

// ErrorSites judges every call of call (definitions, prototypes and
// #define bodies excluded), in source order. Accepted shapes:
//   - the call in an if condition whose failure branch leaves:
//     "if (call(...) < 0) { ...; return ...; }", "if (call(...)) goto err;",
//     "if (!device_is_ready(dev)) return ...;", "if (IS_ERR(call(...)))";
//   - "ret = call(...);" (or a declaration with initializer, or an array
//     element "fds[i] = call(...);") followed within three statements, none
//     of which reassigns ret or takes its address, by an if on ret whose
//     failure branch leaves (ret < 0, ret != 0, ret != ESP_OK, IS_ERR(ret),
//     !ret, ret; an else-if testing ret again counts), by a switch on ret
//     with a branch that leaves, by a checking macro on ret, or by
//     "return ret;" — also after the if: "if (ret == 0) {...} else {...}
//     return ret;". The statements may continue after the end of an if
//     body, a bare block or a do-while retry loop, except for a
//     declaration, which lives only in its block. A ret only passed to
//     another call in the condition (fgets(buf, n, f) == NULL) is not a
//     test of it; inside IS_ERR(...) or likely(...) it is;
//   - "return call(...);" (the result is propagated);
//   - a switch on the call with a branch that leaves;
//   - a checking macro of the vocabulary (ESP_ERROR_CHECK, BUG_ON, ...).
//
// The failure branch is chosen from the comparison: "< 0", "!= X" and
// "== NULL" make the then-branch the failure branch; "== 0", ">= 0" and
// "== OK" make it the else-branch, or, without an else, the code after the
// if when the then-branch leaves (two statements, followed past the end of
// a loop the if ends), or a "return rc;" after the if when the then-branch
// sets rc (a single exit); a bare or negated test accepts either branch.
// Leaving means return, goto, a no-return call of the vocabulary, a call
// rules.Halting says never returns, or an endless loop; in a loop, continue
// and a break that is not of a nested loop or switch leave too. A call in a
// while or for condition is not handled unless rules.TestedOnly.
//
// The answer is partial when the file's deadline passed (Interrupted).
func (f *File) ErrorSites(call string, rules ErrorRules) []ErrorSite {
	if f == nil || f.tree == nil {
		return nil
	}
	name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(call), "("))
	if name == "" {
		return nil
	}
	j := newErrJudge(f, rules)
	ix := f.functions()
	var out []ErrorSite
	for _, s := range j.sites(name) {
		if f.expired() {
			break
		}
		site := ErrorSite{Line: int(s.name.StartPosition().Row) + 1}
		site.Function = ix.bodyAt(s.name.StartByte())
		site.Handled, site.Reason = j.judgeCall(s, name)
		out = append(out, site)
	}
	return out
}

// bodyAt returns the name of the function whose body holds byte b (after
// its "{" and before its "}", or anywhere after an unterminated "{"), ""
// when none does.
func (ix *index) bodyAt(b uint) string {
	i := sort.Search(len(ix.funcs), func(i int) bool { return ix.funcs[i].open > b }) - 1
	if i >= 0 && (ix.funcs[i].close < 0 || b < uint(ix.funcs[i].close)) {
		return ix.funcs[i].Name
	}
	return ""
}

// ReturnAfterError reports whether every call site of call tests the
// result and leaves on failure (see ErrorSites). It is false when call
// never appears, because nothing then shows that errors are handled.
func (f *File) ReturnAfterError(call string, rules ErrorRules) bool {
	sites := f.ErrorSites(call, rules)
	if len(sites) == 0 {
		return false
	}
	for _, s := range sites {
		if !s.Handled {
			return false
		}
	}
	return true
}

// errJudge judges the error paths of one file with one set of rules.
type errJudge struct {
	f      *File
	k      *nodeKinds
	voc    ErrorVocabulary
	halts  *HaltingCalls
	tested bool
}

// newErrJudge returns the judge of f with rules.
func newErrJudge(f *File, rules ErrorRules) *errJudge {
	j := &errJudge{f: f, k: newNodeKinds(f.lang), voc: rules.Vocabulary, halts: rules.Halting, tested: rules.TestedOnly}
	if j.voc == nil {
		j.voc = noVocabulary{}
	}
	return j
}
