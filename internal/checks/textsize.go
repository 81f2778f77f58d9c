package checks

import (
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// maxTextDepth bounds the nesting of values that str, repr and formatting
// print: the interpreter's printer takes time quadratic in the depth.
const maxTextDepth = 1000

// maxMemo bounds the shared values a walk remembers. Past it the walk still
// ends: every value it visits adds to a size that stops at the limit.
const maxMemo = 1 << 16

// textSize bounds the length of str(v) (repr false) or repr(v) (repr true)
// without building it. Values shared inside v count once per appearance, as
// printing repeats them, but the walk measures each shared value once. The
// result is limit+1 as soon as the bound passes limit, for values nested
// deeper than maxTextDepth, and for cycles the printer never leaves (through
// a struct).
func textSize(v starlark.Value, repr bool, limit int64) int64 {
	w := &textWalker{limit: limit, memo: map[memoKey]int64{}, path: map[any]int{}}
	n := w.size(v, repr, 0)
	if n > limit {
		return limit + 1
	}
	return n
}

type textWalker struct {
	limit int64
	// memo holds the sizes of shared values measured without cutting a
	// cycle: those print the same wherever they appear.
	memo map[memoKey]int64
	// path holds the lists, dicts and structs being printed, each with the
	// segment it was entered in. The printer finds cycles only within one
	// segment: a struct prints its fields afresh, starting a new one.
	path    map[any]int
	segment int
	// cuts counts the cycles printed as [...] or {...} so far.
	cuts int
}

type memoKey struct {
	id   any
	repr bool
}

// identity is the key of a value that may be shared: a pointer, or a
// tuple's backing array. Long strings are keyed by their bytes, so one
// repeated in a list is scanned once.
func identity(v starlark.Value) (any, bool) {
	switch x := v.(type) {
	case *starlark.List, *starlark.Dict, *starlark.Set, *starlarkstruct.Struct:
		return x, true
	case starlark.Tuple:
		if len(x) == 0 {
			return nil, false
		}
		return [2]uintptr{uintptr(unsafe.Pointer(&x[0])), uintptr(len(x))}, true
	case starlark.String:
		if len(x) < 1024 {
			return nil, false
		}
		return [2]uintptr{uintptr(unsafe.Pointer(unsafe.StringData(string(x)))), uintptr(len(x))}, true
	}
	return nil, false
}

func (w *textWalker) size(v starlark.Value, repr bool, depth int) int64 {
	if depth > maxTextDepth {
		return w.limit + 1
	}
	id, shared := identity(v)
	key := memoKey{id, repr}
	if shared {
		if n, ok := w.memo[key]; ok {
			return n
		}
	}
	var onPath any
	switch v.(type) {
	case *starlark.List, *starlark.Dict, *starlarkstruct.Struct:
		onPath = v
		if seg, ok := w.path[v]; ok {
			if _, isStruct := v.(*starlarkstruct.Struct); isStruct || seg != w.segment {
				return w.limit + 1 // the printer would recurse forever
			}
			w.cuts++
			return 5 // [...] or {...}
		}
		w.path[v] = w.segment
	}
	cuts := w.cuts
	n := w.measure(v, repr, depth)
	if onPath != nil {
		delete(w.path, onPath)
	}
	if shared && w.cuts == cuts && n <= w.limit && len(w.memo) < maxMemo {
		w.memo[key] = n
	}
	return n
}

// measure is size without the sharing bookkeeping.
func (w *textWalker) measure(v starlark.Value, repr bool, depth int) int64 {
	switch x := v.(type) {
	case starlark.String:
		if !repr {
			return int64(len(x))
		}
		return quotedSize(string(x))
	case starlark.Bytes:
		if !repr {
			return 3 * int64(len(x)) // invalid bytes print as U+FFFD
		}
		return quotedSize(string(x)) + 1
	case starlark.Int:
		return int64(intBits(x))*3/10 + 2
	case starlark.Float:
		return 32
	case starlark.NoneType, starlark.Bool:
		return 5
	case *starlark.List:
		return w.elems(2, x.Len(), x.Index, depth)
	case starlark.Tuple:
		return w.elems(3, len(x), x.Index, depth)
	case *starlark.Set:
		items := make([]starlark.Value, 0, x.Len())
		iter := x.Iterate()
		var e starlark.Value
		for iter.Next(&e) {
			items = append(items, e)
		}
		iter.Done()
		return w.elems(7, len(items), func(i int) starlark.Value { return items[i] }, depth)
	case *starlark.Dict:
		var n int64 = 2
		for _, kv := range x.Items() {
			n += w.size(kv[0], true, depth+1) + w.size(kv[1], true, depth+1) + 4
			if n > w.limit {
				return n
			}
		}
		return n
	case *starlarkstruct.Struct:
		n := int64(66) // the constructor's name or repr, bounded, and ()
		if c, ok := x.Constructor().(starlark.String); ok {
			n = int64(len(c)) + 2
		}
		// Fields print afresh: cycles are no longer found.
		w.segment++
		defer func() { w.segment-- }()
		for _, name := range x.AttrNames() {
			f, err := x.Attr(name)
			if err != nil || f == nil {
				continue
			}
			n += int64(len(name)) + 5 + w.size(f, true, depth+1)
			if n > w.limit {
				return n
			}
		}
		return n
	case *reMatch:
		return quotedSize(x.str[x.loc[0]:x.loc[1]]) + 64
	case *starlark.Function, *starlark.Builtin, *starlarkstruct.Module:
		return int64(len(x.String())) // names only
	}
	// Other values (range, string.elems, ...) print in a bounded way from a
	// string or a few numbers.
	if l, ok := v.(interface{ Len() int }); ok && v.Type() != "range" {
		return 4*int64(l.Len()) + 64
	}
	return 64
}

// elems sizes a list, tuple or set: overhead plus each element's repr and
// separator.
func (w *textWalker) elems(overhead int64, n int, at func(int) starlark.Value, depth int) int64 {
	total := overhead
	for i := 0; i < n; i++ {
		total += w.size(at(i), true, depth+1) + 2
		if total > w.limit {
			return total
		}
	}
	return total
}

// quotedSize bounds the length of a quoted Starlark string: printable ASCII
// takes one byte, an escaped quote, backslash or control character two, and
// any other byte at most four (\xNN).
func quotedSize(s string) int64 {
	n := int64(2)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c == '\n' || c == '\t' || c == '\r':
			n += 2
		case c >= 0x20 && c < 0x7f:
			n++
		default:
			n += 4
		}
	}
	return n
}
