package csyntax

import (
	"fmt"
	"sort"
	"strings"
)

// cleanupEvent is a release call or a path end (return, goto) in a body.
type cleanupEvent struct {
	at   int // byte offset
	line int
	pair int // index into the pairs; -1 for a path end
	api  string
}

// ExplainCleanupOrder checks that resources are released in reverse order
// of acquisition, and says why. pairs lists (acquire, release) API names in
// acquisition order; only the release names are looked at. Within each
// function body (Definitions), the release calls (Calls inside the body,
// in macro arguments too; a member call dev->ops->release(...) counts as a
// call of release, as has_api_call would find it) are split into cleanup
// paths at every return and goto statement, so each inline error branch and
// the fall-through unwind ladder after the labels are separate paths; on
// each path a release must never follow the release of a resource acquired
// before it.
//
// The result is false when a path releases in the wrong order, and also
// when fewer than two release calls exist in all function bodies together,
// because the order of cleanup cannot then be confirmed. Functions that
// release only one resource are not violations. Pairs with an empty release
// name are ignored; a release named twice keeps its first position.
// Cleanup spread over helper functions is not followed.
func (f *File) ExplainCleanupOrder(pairs [][2]string) (ok bool, explanation string) {
	index := map[string]int{}
	var names []string
	for i, p := range pairs {
		r := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(p[1]), "("))
		if _, dup := index[r]; r == "" || dup {
			continue
		}
		index[r] = i
		names = append(names, r)
	}
	calls := f.LocatedCalls()
	ends := f.pathEnds()
	total := 0
	var checked []string
	for _, d := range f.Definitions() {
		lo, hi := f.bodyRange(d)
		var evs []cleanupEvent
		for _, c := range callsIn(calls, lo, hi) {
			i, ok := index[c.Name]
			if !ok {
				i, ok = index[memberName(c.Name)]
			}
			if ok {
				evs = append(evs, cleanupEvent{at: c.Start, line: c.Line, pair: i, api: pairName(pairs, i)})
			}
		}
		if len(evs) == 0 {
			continue
		}
		total += len(evs)
		k := sort.SearchInts(ends, lo)
		for ; k < len(ends) && ends[k] < hi; k++ {
			evs = append(evs, cleanupEvent{at: ends[k], pair: -1})
		}
		sort.SliceStable(evs, func(i, j int) bool { return evs[i].at < evs[j].at })
		bad, multi := firstMisorder(evs)
		if bad != nil {
			return false, fmt.Sprintf(
				"%s (line %d): %s at line %d runs after %s at line %d, but %s was acquired after %s, so it must be released first",
				d.Name, d.Line, bad[1].api, bad[1].line, bad[0].api, bad[0].line,
				pairs[bad[1].pair][0], pairs[bad[0].pair][0])
		}
		if multi {
			checked = append(checked, d.Name)
		}
	}
	if total < 2 {
		return false, fmt.Sprintf("found %d release call(s) of %s; at least 2 are needed to confirm the cleanup order",
			total, strings.Join(names, ", "))
	}
	if len(checked) == 0 {
		return true, fmt.Sprintf("found %d release calls; no cleanup path releases two different resources", total)
	}
	return true, "releases run in reverse acquisition order in " + strings.Join(checked, ", ")
}

// CleanupReverseOrder is ExplainCleanupOrder without the explanation.
func (f *File) CleanupReverseOrder(pairs [][2]string) bool {
	ok, _ := f.ExplainCleanupOrder(pairs)
	return ok
}

// firstMisorder walks events in body order and returns the first release
// (bad[1]) that follows, on the same path, the release of a resource
// acquired before it (bad[0]); multi reports whether some path released
// two different resources in the right order.
func firstMisorder(evs []cleanupEvent) (bad *[2]cleanupEvent, multi bool) {
	var first *cleanupEvent // release with the smallest pair index on the path
	for i := range evs {
		e := &evs[i]
		switch {
		case e.pair < 0:
			first = nil
		case first == nil:
			first = e
		case e.pair > first.pair:
			return &[2]cleanupEvent{*first, *e}, multi
		case e.pair < first.pair:
			multi = true
			first = e
		}
	}
	return nil, multi
}

// memberName is the member a member call calls ("dev->ops->stop" and
// "ops.stop" call "stop"), or callee itself.
func memberName(callee string) string {
	if i := strings.LastIndexAny(callee, ".>"); i >= 0 && isIdentifier(callee[i+1:]) {
		if callee[i] == '.' || (i > 0 && callee[i-1] == '-') {
			return callee[i+1:]
		}
	}
	return callee
}

// pairName is the release name of pairs[i] as the caller wrote it, trimmed.
func pairName(pairs [][2]string, i int) string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(pairs[i][1]), "("))
}

// pathEnds returns the byte offsets of the file's return and goto
// statements, sorted.
func (f *File) pathEnds() []int {
	ms, err := f.Query(`[(return_statement) (goto_statement)] @end`)
	if err != nil {
		return nil
	}
	out := make([]int, 0, len(ms))
	for _, m := range ms {
		for _, c := range m.Captures["end"] {
			out = append(out, c.Start)
		}
	}
	sort.Ints(out)
	return out
}
