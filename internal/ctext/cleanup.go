package ctext

import (
	"fmt"
	"sort"
	"strings"
)

// cleanupEvent is a release call or a path end (return, goto) in a body.
type cleanupEvent struct {
	off  int
	pair int // index into pairs; -1 for a path end
	api  string
}

// ExplainCleanupOrder checks that resources are released in reverse order
// of acquisition and says why. pairs lists (acquire, release) API names in
// acquisition order. Within each function body, release calls are split
// into cleanup paths at every return and goto (so each inline error branch
// and the fall-through unwind ladder after the labels are separate paths);
// on each path a release must never follow the release of a resource
// acquired before it. Calls are matched with HasAPICall semantics.
//
// The result is false when a path releases in the wrong order, and also
// when fewer than two release calls exist in all function bodies together,
// because the order of cleanup cannot then be confirmed. Functions that
// release only one resource are not violations. Pairs with an empty release
// name are ignored; a release named twice keeps its first position.
// Cleanup spread over helper functions is not followed.
func ExplainCleanupOrder(code string, pairs [][2]string) (ok bool, explanation string) {
	return NewSource(code).ExplainCleanupOrder(pairs)
}

// ExplainCleanupOrder is ExplainCleanupOrder on this source.
func (s *Source) ExplainCleanupOrder(pairs [][2]string) (ok bool, explanation string) {
	s.lex()
	index := map[string]int{}
	var names []string
	for i, p := range pairs {
		r := normalizeCallName(p[1])
		if _, dup := index[r]; r == "" || dup {
			continue
		}
		index[r] = i
		names = append(names, r)
	}
	total := 0
	var checked []string
	for _, f := range s.functions() {
		var evs []cleanupEvent
		for _, r := range names {
			for _, m := range callMatches(s.stripped, r, f.BodyOffset, f.bodyEnd, 0) {
				evs = append(evs, cleanupEvent{off: m.start, pair: index[r], api: r})
			}
		}
		if len(evs) == 0 {
			continue
		}
		total += len(evs)
		end := f.close
		if end < 0 {
			end = len(s.toks)
		}
		for k := f.open + 1; k < end; k++ {
			if s.is(k, "return") || s.is(k, "goto") {
				evs = append(evs, cleanupEvent{off: s.toks[k].start, pair: -1})
			}
		}
		sort.SliceStable(evs, func(i, j int) bool { return evs[i].off < evs[j].off })
		var first *cleanupEvent // release with the smallest pair index on the path
		multi := false
		for i := range evs {
			e := &evs[i]
			if e.pair < 0 {
				first = nil
				continue
			}
			if first != nil && e.pair > first.pair {
				return false, fmt.Sprintf(
					"%s (line %d): %s at line %d runs after %s at line %d, but %s was acquired after %s, so it must be released first",
					f.Name, f.Line, e.api, s.Line(e.off), first.api, s.Line(first.off),
					pairs[e.pair][0], pairs[first.pair][0])
			}
			if first != nil && e.pair < first.pair {
				multi = true
			}
			if first == nil || e.pair < first.pair {
				first = e
			}
		}
		if multi {
			checked = append(checked, f.Name)
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

// CleanupReverseOrder reports whether releases run in reverse order of
// acquisition; see ExplainCleanupOrder for the rules and the explanation.
func CleanupReverseOrder(code string, pairs [][2]string) bool {
	ok, _ := ExplainCleanupOrder(code, pairs)
	return ok
}

// CleanupReverseOrder is CleanupReverseOrder on this source.
func (s *Source) CleanupReverseOrder(pairs [][2]string) bool {
	ok, _ := s.ExplainCleanupOrder(pairs)
	return ok
}
