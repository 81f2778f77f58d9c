package checks

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/entrypoints"
	"github.com/embedeval/embedeval-go/internal/halting"
	"github.com/embedeval/embedeval-go/internal/isrshare"
)

// defaultTraceDepth is how many helpers deep the trace builtins enter
// unless told otherwise.
const defaultTraceDepth = 6

// traceBuiltins are the c.* builtins that walk execution traces.
func traceBuiltins() map[string]builtinFunc {
	return map[string]builtinFunc{
		"entry_points":   entryPointsBuiltin(),
		"trace":          traceBuiltin(),
		"happens_before": pathBuiltin([]string{"first", "then"}, pair((*csyntax.File).HappensBefore), nil),
		"not_after":      pathBuiltin([]string{"first", "then"}, pair((*csyntax.File).NotAfter), nil),
		"released":       pathBuiltin([]string{"acquire", "release"}, pair((*csyntax.File).Released), pair((*csyntax.File).ReleasedEvenIfFailed), releasedHandle),
		"not_while_held": pathBuiltin([]string{"acquire", "release", "calls"}, notWhileHeld((*csyntax.File).NotWhileHeld), notWhileHeld((*csyntax.File).NotWhileHeldEvenIfFailed)),
		"isr_shared":     isrSharedBuiltin(),
	}
}

// entryPointsBuiltin is c.entry_points(code): one struct(name, kind, via,
// line) per entry point.
func entryPointsBuiltin() builtinFunc {
	kinds, loadErr := entrypoints.Default()
	return withFile(func(b *starlark.Builtin, st *callState, f *csyntax.File, _ []string) (starlark.Value, error) {
		if loadErr != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), loadErr)
		}
		eps := f.EntryPoints(kinds)
		if err := st.structList(len(eps), 4); err != nil {
			return nil, err
		}
		out := make([]starlark.Value, len(eps))
		for i, e := range eps {
			out[i] = newStruct(starlark.StringDict{"name": starlark.String(e.Name), "kind": starlark.String(e.Kind),
				"via": starlark.String(e.Via), "line": starlark.MakeInt(e.Line)})
		}
		return starlark.NewList(out), nil
	})
}

// unpackDepth reads an optional depth argument.
func unpackDepth(b *starlark.Builtin, v starlark.Value) (int, error) {
	if v == starlark.None {
		return defaultTraceDepth, nil
	}
	d, err := starlark.AsInt32(v)
	if err != nil || d < 0 || d > csyntax.MaxTraceDepth {
		return 0, fmt.Errorf("%s: depth must be an int from 0 to %d, got %s", b.Name(), csyntax.MaxTraceDepth, v.String())
	}
	return d, nil
}

// traceBuiltin is c.trace(code, function, depth=6, stop=None).
func traceBuiltin() builtinFunc {
	calls, loadErr := halting.Default()
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code, function string
		var depthV, stopV starlark.Value = starlark.None, starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "function", &function, "depth?", &depthV, "stop?", &stopV); err != nil {
			return nil, err
		}
		depth, err := unpackDepth(b, depthV)
		if err != nil {
			return nil, err
		}
		var stop []string
		if stopV != starlark.None {
			if stop, err = names(b, "stop", stopV); err != nil {
				return nil, err
			}
		}
		if loadErr != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), loadErr)
		}
		st := stateOf(th)
		f, err := st.parsed(code)
		if err != nil || f == nil {
			return starlark.NewList(nil), err
		}
		evs := f.Trace(function, depth, calls, stop...)
		if f.Interrupted() {
			return nil, st.timeLimit()
		}
		var elems int64
		for _, e := range evs {
			elems += int64(len(e.Args) + len(e.Via) + len(e.Blocks))
		}
		if err := countDicts(st, len(evs), 13, elems); err != nil {
			return nil, err
		}
		out := make([]starlark.Value, len(evs))
		for i, e := range evs {
			out[i] = newStruct(starlark.StringDict{
				"kind": starlark.String(e.Kind), "name": starlark.String(e.Name), "args": stringsToList(e.Args),
				"op": starlark.String(e.Op), "value": starlark.String(e.Value), "function": starlark.String(e.Function),
				"line": starlark.MakeInt(e.Line), "via": stringsToList(e.Via), "pointer": starlark.Bool(e.Pointer),
				"entered": starlark.Bool(e.Entered), "forever": starlark.Bool(e.Forever), "maybe": starlark.Bool(e.Maybe),
				"blocks": stringsToList(e.Blocks),
			})
		}
		return starlark.NewList(out), nil
	}
}

// pathQuestion is a csyntax.File path question over name lists, one per
// parameter of its builtin.
type pathQuestion func(f *csyntax.File, entry string, lists [][]string, depth int, calls *csyntax.HaltingCalls) csyntax.PathAnswer

// pair adapts a question over two name lists (HappensBefore, Released…).
func pair(q func(f *csyntax.File, entry string, a, b []string, depth int, calls *csyntax.HaltingCalls) csyntax.PathAnswer) pathQuestion {
	return func(f *csyntax.File, entry string, lists [][]string, depth int, calls *csyntax.HaltingCalls) csyntax.PathAnswer {
		return q(f, entry, lists[0], lists[1], depth, calls)
	}
}

// handleQuestion is a path question about one resource (ReleasedHandle).
type handleQuestion func(f *csyntax.File, entry string, lists [][]string, handle string, depth int, calls *csyntax.HaltingCalls, failures bool) csyntax.PathAnswer

// releasedHandle is csyntax.File.ReleasedHandle over (acquire, release).
func releasedHandle(f *csyntax.File, entry string, lists [][]string, handle string, depth int, calls *csyntax.HaltingCalls, failures bool) csyntax.PathAnswer {
	return f.ReleasedHandle(entry, lists[0], lists[1], handle, depth, calls, failures)
}

// notWhileHeld adapts csyntax.File.NotWhileHeld (or its EvenIfFailed form)
// to (acquire, release, calls).
func notWhileHeld(q func(f *csyntax.File, entry string, acquire, release, calls []string, depth int, h *csyntax.HaltingCalls) csyntax.PathAnswer) pathQuestion {
	return func(f *csyntax.File, entry string, lists [][]string, depth int, calls *csyntax.HaltingCalls) csyntax.PathAnswer {
		return q(f, entry, lists[0], lists[1], lists[2], depth, calls)
	}
}

// names reads a name or a list of names.
func names(b *starlark.Builtin, param string, v starlark.Value) ([]string, error) {
	if s, ok := starlark.AsString(v); ok {
		if s == "" {
			return nil, nil
		}
		return []string{s}, nil
	}
	seq, ok := v.(starlark.Sequence)
	if !ok {
		return nil, fmt.Errorf("%s: %s must be a name or a list of names, got %s", b.Name(), param, v.Type())
	}
	out := make([]string, 0, seq.Len())
	it := seq.Iterate()
	defer it.Done()
	var x starlark.Value
	for it.Next(&x) {
		s, ok := starlark.AsString(x)
		if !ok || s == "" {
			return nil, fmt.Errorf("%s: %s must hold non-empty strings, got %s", b.Name(), param, x.String())
		}
		out = append(out, s)
	}
	return out, nil
}

// pathBuiltin is c.happens_before(code, first, then, entry=None, depth=6),
// c.not_while_held(code, acquire, release, calls, …, failures=True) or
// c.released(code, acquire, release, entry=None, depth=6, failures=True)
// (askEvenIfFailed answers failures=False): a struct(verdict, reached, sites) over the entry
// point, or over every entry point of the code when entry is None. params
// name the name-list parameters; the last must name at least one call.
// With askHandle, the builtin takes handle= (c.released's one-resource
// form).
func pathBuiltin(params []string, ask, askEvenIfFailed pathQuestion, askHandle ...handleQuestion) builtinFunc {
	calls, loadErr := halting.Default()
	kinds, kindsErr := entrypoints.Default()
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code string
		vals := make([]starlark.Value, len(params))
		var entryV, depthV starlark.Value = starlark.None, starlark.None
		failures := true
		pairs := []any{"code", &code}
		for i, p := range params {
			pairs = append(pairs, p, &vals[i])
		}
		pairs = append(pairs, "entry?", &entryV, "depth?", &depthV)
		if askEvenIfFailed != nil {
			pairs = append(pairs, "failures?", &failures)
		}
		var handle starlark.Value = starlark.None
		if len(askHandle) > 0 {
			pairs = append(pairs, "handle?", &handle)
		}
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, pairs...); err != nil {
			return nil, err
		}
		question := ask
		if !failures {
			question = askEvenIfFailed
		}
		if handle != starlark.None {
			h, ok := starlark.AsString(handle)
			if !ok || strings.TrimSpace(h) == "" {
				return nil, fmt.Errorf("%s: handle must be a non-empty string (the lvalue holding the resource), got %s", b.Name(), handle.String())
			}
			question = func(f *csyntax.File, entry string, lists [][]string, depth int, calls *csyntax.HaltingCalls) csyntax.PathAnswer {
				return askHandle[0](f, entry, lists, h, depth, calls, failures)
			}
		}
		lists := make([][]string, len(params))
		for i, p := range params {
			l, err := names(b, p, vals[i])
			if err != nil {
				return nil, err
			}
			lists[i] = l
		}
		if len(lists[len(lists)-1]) == 0 {
			return nil, fmt.Errorf("%s: %s must name at least one call", b.Name(), params[len(params)-1])
		}
		depth, err := unpackDepth(b, depthV)
		if err != nil {
			return nil, err
		}
		var entries []string
		if entryV != starlark.None {
			if entries, err = names(b, "entry", entryV); err != nil {
				return nil, err
			}
		}
		if loadErr != nil || kindsErr != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), firstErr(loadErr, kindsErr))
		}
		st := stateOf(th)
		f, err := st.parsed(code)
		if err != nil {
			return nil, err
		}
		if f == nil {
			return pathStruct(csyntax.PathAnswer{Verdict: csyntax.Unknown}, nil), nil
		}
		if entries == nil {
			entries = entryNames(f, kinds)
		}
		total := csyntax.PathAnswer{Verdict: csyntax.Yes}
		var sitesEntry []string
		if len(entries) == 0 {
			total.Verdict = csyntax.Unknown
		}
		for _, e := range entries {
			a := question(f, e, lists, depth, calls)
			if f.Interrupted() {
				return nil, st.timeLimit()
			}
			total.Reached += a.Reached
			for _, s := range a.Sites {
				total.Sites = append(total.Sites, s)
				sitesEntry = append(sitesEntry, e)
			}
			switch {
			case a.Verdict == csyntax.No:
				total.Verdict = csyntax.No
			case a.Verdict == csyntax.Unknown && total.Verdict == csyntax.Yes:
				total.Verdict = csyntax.Unknown
			}
		}
		if err := st.structList(len(total.Sites)+1, 6); err != nil {
			return nil, err
		}
		return pathStruct(total, sitesEntry), nil
	}
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// entryNames are the distinct entry points of f; with none found, the
// functions no other function of the file calls.
func entryNames(f *csyntax.File, kinds csyntax.EntryKinds) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range f.EntryPoints(kinds) {
		if !seen[e.Name] {
			seen[e.Name] = true
			out = append(out, e.Name)
		}
	}
	if len(out) > 0 {
		return out
	}
	called := map[string]bool{}
	for _, c := range f.Calls("") {
		if c.Function != "" && c.Function != c.Name {
			called[c.Name] = true
		}
	}
	for _, fn := range f.Functions() {
		if !called[fn.Name] && !seen[fn.Name] {
			seen[fn.Name] = true
			out = append(out, fn.Name)
		}
	}
	return out
}

// tristate is True, False or None.
func tristate(t csyntax.Tristate) starlark.Value {
	switch t {
	case csyntax.Yes:
		return starlark.True
	case csyntax.No:
		return starlark.False
	}
	return starlark.None
}

func pathStruct(a csyntax.PathAnswer, entries []string) starlark.Value {
	sites := make([]starlark.Value, len(a.Sites))
	for i, s := range a.Sites {
		sites[i] = newStruct(starlark.StringDict{"entry": starlark.String(entries[i]), "function": starlark.String(s.Function),
			"line": starlark.MakeInt(s.Line), "name": starlark.String(s.Name), "via": stringsToList(s.Via),
			"verdict": tristate(s.Verdict)})
	}
	return newStruct(starlark.StringDict{"verdict": tristate(a.Verdict), "reached": starlark.MakeInt(a.Reached),
		"sites": starlark.NewList(sites)})
}

// isrSharedBuiltin is c.isr_shared(code, depth=6): one struct per variable
// shared between interrupt context and other code.
func isrSharedBuiltin() builtinFunc {
	calls, haltErr := halting.Default()
	kinds, kindsErr := entrypoints.Default()
	vocab, vocabErr := isrshare.Default()
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code string
		var depthV starlark.Value = starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "depth?", &depthV); err != nil {
			return nil, err
		}
		depth, err := unpackDepth(b, depthV)
		if err != nil {
			return nil, err
		}
		if err := firstErr(haltErr, kindsErr, vocabErr); err != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), err)
		}
		st := stateOf(th)
		f, err := st.parsed(code)
		if err != nil || f == nil {
			return starlark.NewList(nil), err
		}
		vars := f.SharedWithISR(kinds, vocab, depth, calls)
		if f.Interrupted() {
			return nil, st.timeLimit()
		}
		var elems int64
		for _, v := range vars {
			elems += int64(len(v.ISR) + len(v.Threads) + 6*len(v.Unprotected))
		}
		if err := countDicts(st, len(vars), 8, elems); err != nil {
			return nil, err
		}
		out := make([]starlark.Value, len(vars))
		for i, v := range vars {
			sites := make([]starlark.Value, len(v.Unprotected))
			for j, s := range v.Unprotected {
				sites[j] = newStruct(starlark.StringDict{"function": starlark.String(s.Function), "line": starlark.MakeInt(s.Line),
					"via": stringsToList(s.Via), "verdict": tristate(s.Verdict)})
			}
			out[i] = newStruct(starlark.StringDict{"name": starlark.String(v.Name), "line": starlark.MakeInt(v.Line),
				"volatile": starlark.Bool(v.Volatile), "atomic": starlark.Bool(v.Atomic), "isr": stringsToList(v.ISR),
				"threads": stringsToList(v.Threads), "unprotected": starlark.NewList(sites), "protected": tristate(v.Protected)})
		}
		return starlark.NewList(out), nil
	}
}
