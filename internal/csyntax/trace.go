package csyntax

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// This file follows execution from a function through the file's own
// helpers: Trace flattens it into events, and the typestate walk behind
// HappensBefore and Released answers ordered, per-path questions on the
// same flow trees that halt.go judges.

// Bounds of the trace walks.
const (
	// MaxTraceDepth bounds the helpers entered inside one another.
	MaxTraceDepth = 16
	// maxTraceEvents bounds the events of one trace.
	maxTraceEvents = 20000
	// maxFixpoint bounds the rounds a loop or a backward goto is evaluated.
	maxFixpoint = 24
	// maxTypestateWork bounds the statements one typestate question visits.
	maxTypestateWork = 400000
)

// Event is one step of a Trace.
type Event struct {
	// Kind is "call", "store", "asm", "return", "if", "else", "loop", "switch",
	// "case", "end" (closing an if, loop or switch), "goto", "label",
	// "break", "continue" or "truncated" (the trace's bound was reached).
	Kind string
	// Name is a call's callee ("" for a call through an expression), a
	// store's target, or a goto's or label's label.
	Name string
	// Args are a call's argument texts.
	Args []string
	// Op is a store's operator ("=", "|=", "++").
	Op string
	// Value is a store's value, a return's expression, an if's, loop's
	// or switch's condition, or an inline assembly statement's template.
	Value string
	// Function is the function whose code the event is, Line its line.
	Function string
	Line     int
	// Via names the helpers entered to reach the event, outermost first.
	Via []string
	// Pointer marks a call through an expression (cb(), dev->api->f()).
	Pointer bool
	// Entered marks a call whose callee's events follow it.
	Entered bool
	// Forever marks a loop whose condition is constant true.
	Forever bool
	// Maybe marks a call or store in an operand that may not be evaluated:
	// the right of && or ||, a branch of ?:.
	Maybe bool
	// Blocks are the blocks the event is inside, outermost first, as
	// "kind:function:line": kind "then" or "else" (of the if on line),
	// "loop" or "switch". Blocks of callers come first: a helper's events
	// are inside the blocks of the call that entered it.
	Blocks []string
}

// Trace returns the events reachable from function in execution order
// (source order within a function), entering the helpers the file defines
// at every call, up to depth helpers deep; a helper already being entered
// (recursion) is not entered again. In an entered helper's events, the
// helper's parameters are replaced by the call's argument texts. Branches
// and loops appear as markers around their events; both branches of an if
// are listed. Functions named in stop are not entered. Nil when function is
// not defined.
func (f *File) Trace(function string, depth int, calls *HaltingCalls, stop ...string) []Event {
	t := f.flow(calls)
	if t == nil || len(t.byName[function]) == 0 {
		return nil
	}
	depth = min(max(depth, 0), MaxTraceDepth)
	w := &traceWalk{t: t, max: depth, active: map[*flowFunc]bool{}, stop: map[string]bool{}}
	for _, s := range stop {
		w.stop[s] = true
	}
	w.enter(t.byName[function][0], nil, nil)
	if f.Interrupted() {
		return nil
	}
	return w.out
}

// traceWalk flattens flow trees into events.
type traceWalk struct {
	t      *flowTable
	max    int
	active map[*flowFunc]bool
	stop   map[string]bool
	blocks []string // the blocks open at the current event
	out    []Event
	full   bool
}

// frame is one function being walked: its name, the helpers entered to
// reach it, and its parameters' replacements.
type frame struct {
	fn     *flowFunc
	via    []string
	params []string
	args   []string
}

func (fr *frame) subst(s string) string {
	if len(fr.params) == 0 || s == "" {
		return s
	}
	if out, ok := Substitute(fr.params, s, fr.args); ok {
		return collapse(out)
	}
	return s
}

func (w *traceWalk) emit(fr *frame, e Event) bool {
	if w.full {
		return false
	}
	if len(w.out) >= maxTraceEvents || w.t.f.expired() {
		w.full = true
		w.out = append(w.out, Event{Kind: "truncated", Function: fr.fn.name, Via: fr.via})
		return false
	}
	e.Function, e.Via, e.Blocks = fr.fn.name, fr.via, w.blocks
	if e.Blocks == nil {
		e.Blocks = []string{}
	}
	w.out = append(w.out, e)
	return true
}

// inside runs walk with the block "kind:function:line" open: the events it
// emits carry it in Blocks. Published slices are never written again (the
// three-index slice makes every push copy).
func (w *traceWalk) inside(fr *frame, kind string, line int, walk func()) {
	outer := w.blocks
	w.blocks = append(outer[:len(outer):len(outer)], kind+":"+fr.fn.name+":"+strconv.Itoa(line))
	walk()
	w.blocks = outer
}

func (w *traceWalk) enter(fn *flowFunc, via []string, args []string) {
	fr := &frame{fn: fn, via: via}
	if via == nil {
		fr.via = []string{}
	}
	if !fn.unnamed && len(fn.params) == len(args) {
		fr.params, fr.args = fn.params, args
	}
	w.active[fn] = true
	w.node(fr, fn.body)
	w.active[fn] = false
}

func (w *traceWalk) ops(fr *frame, refs []callRef) {
	for _, r := range refs {
		if w.full {
			return
		}
		switch {
		case r.use:
		case r.asm:
			w.emit(fr, Event{Kind: "asm", Value: r.value, Line: r.line})
		case r.store:
			w.emit(fr, Event{Kind: "store", Name: fr.subst(r.name), Op: r.op, Value: fr.subst(r.value), Line: r.line, Maybe: r.maybe})
		case r.bare:
			w.emit(fr, Event{Kind: "call", Name: r.name, Line: r.line, Args: []string{}})
		default:
			args := make([]string, len(r.args))
			for i, a := range r.args {
				args[i] = fr.subst(a)
			}
			e := Event{Kind: "call", Name: r.name, Args: args, Line: r.line, Pointer: r.pointer, Maybe: r.maybe}
			var callee *flowFunc
			if !r.pointer && !fr.fn.vars[r.name] && !w.stop[r.name] {
				if defs := w.t.byName[r.name]; len(defs) > 0 && len(fr.via) < w.max && !w.active[defs[0]] {
					callee = defs[0]
					e.Entered = true
				}
			}
			if !w.emit(fr, e) || callee == nil {
				continue
			}
			via := append(append(make([]string, 0, len(fr.via)+1), fr.via...), r.name)
			w.enter(callee, via, args)
		}
	}
}

func (w *traceWalk) node(fr *frame, n *flowNode) {
	if n == nil || w.full {
		return
	}
	switch n.kind {
	case flowSeq, flowCase, flowAlt:
		if n.kind == flowCase {
			w.emit(fr, Event{Kind: "case"})
		}
		for _, k := range n.kids {
			w.node(fr, k)
		}
	case flowEffect, flowError:
		w.ops(fr, n.calls)
	case flowIf:
		w.ops(fr, n.calls)
		w.emit(fr, Event{Kind: "if", Value: fr.subst(n.cond), Line: n.line})
		w.inside(fr, "then", n.line, func() { w.node(fr, n.kids[0]) })
		if n.kids[1] != nil {
			w.emit(fr, Event{Kind: "else", Line: n.line})
			w.inside(fr, "else", n.line, func() { w.node(fr, n.kids[1]) })
		}
		w.emit(fr, Event{Kind: "end", Line: n.line})
	case flowLoop:
		w.ops(fr, n.calls)
		w.emit(fr, Event{Kind: "loop", Value: fr.subst(n.cond), Line: n.line, Forever: n.forever})
		w.inside(fr, "loop", n.line, func() { w.node(fr, n.kids[0]) })
		w.emit(fr, Event{Kind: "end", Line: n.line})
	case flowDo:
		w.emit(fr, Event{Kind: "loop", Value: fr.subst(n.cond), Line: n.line, Forever: n.forever})
		w.inside(fr, "loop", n.line, func() {
			w.node(fr, n.kids[0])
			w.ops(fr, n.post)
		})
		w.emit(fr, Event{Kind: "end", Line: n.line})
	case flowSwitch:
		w.ops(fr, n.calls)
		w.emit(fr, Event{Kind: "switch", Value: fr.subst(n.cond), Line: n.line})
		w.inside(fr, "switch", n.line, func() {
			for _, k := range n.kids {
				w.node(fr, k)
			}
		})
		w.emit(fr, Event{Kind: "end", Line: n.line})
	case flowLabel:
		w.emit(fr, Event{Kind: "label", Name: n.label, Line: n.line})
		w.node(fr, n.kids[0])
	case flowReturn:
		w.ops(fr, n.calls)
		w.emit(fr, Event{Kind: "return", Value: fr.subst(n.cond), Line: n.line})
	case flowGoto:
		w.emit(fr, Event{Kind: "goto", Name: n.label, Line: n.line})
	case flowBreak:
		w.emit(fr, Event{Kind: "break", Line: n.line})
	case flowContinue:
		w.emit(fr, Event{Kind: "continue", Line: n.line})
	}
}

// EntryPoint is a function the file's code does not call but something
// else runs: main, an interrupt handler, or a function handed to an API or
// stored in a structure (a thread entry, a callback, a work handler).
type EntryPoint struct {
	// Name is the function.
	Name string
	// Kind is "main" (main, or ESP-IDF's app_main), "handler" (named like a vector-table handler:
	// *_IRQHandler, *_Handler, *_IRQn_Handler, *_isr), "isr" for an STM32
	// HAL callback the application defines (HAL_*Callback, called by the
	// HAL's interrupt handlers; Via "HAL IRQ handler"), the kind the
	// registering API has in the EntryKinds ("isr", "thread", "work",
	// "timer", "init", "callback" …), or "callback" for an API the
	// vocabulary does not know.
	Kind string
	// Via is the API the function is handed to, or ".field" for a
	// designated initialiser or member store; "" for main and handlers.
	Via string
	// Line is the line of the registration, or of the definition.
	Line int
}

// EntryKinds maps a registering API (a function or macro name, or
// ".field" for a structure member) to the kind of entry point the function
// it is given becomes.
type EntryKinds map[string]string

var (
	handlerName = regexp.MustCompile(`(_IRQHandler|_Handler|_IRQn_Handler|_isr|_ISR)$`)
	halCallback = regexp.MustCompile(`^HAL_\w+Callback$`)
)

// EntryPoints finds the file's entry points, in source order of their
// definitions (a function registered twice is listed once per
// registration).
func (f *File) EntryPoints(kinds EntryKinds) []EntryPoint {
	if f == nil || f.functions() == nil {
		return nil
	}
	// Path questions without an entry and c.isr_shared ask again for the
	// same code: the answer is kept per vocabulary (the returned slice is
	// shared; callers only read it).
	key := fmt.Sprintf("csyntax.entrypoints %p", kinds)
	return f.Memo(key, func() any { return f.entryPoints(kinds) }).([]EntryPoint)
}

func (f *File) entryPoints(kinds EntryKinds) []EntryPoint {
	defined := map[string]Function{}
	for _, fn := range f.Functions() {
		if _, ok := defined[fn.Name]; !ok {
			defined[fn.Name] = fn
		}
	}
	var out []EntryPoint
	add := func(name, via string, line int) {
		if _, ok := defined[name]; !ok {
			return
		}
		kind := kinds[via]
		if kind == "" {
			kind = "callback"
		}
		out = append(out, EntryPoint{Name: name, Kind: kind, Via: via, Line: line})
	}
	for _, fn := range f.Functions() {
		switch {
		case fn.Name == "main" || fn.Name == "app_main":
			out = append(out, EntryPoint{Name: fn.Name, Kind: "main", Line: fn.Line})
		case handlerName.MatchString(fn.Name) && !fn.Static:
			out = append(out, EntryPoint{Name: fn.Name, Kind: "handler", Line: fn.Line})
		case halCallback.MatchString(fn.Name) && !fn.Static:
			// STM32 HAL's weak callbacks, which its IRQ handlers call.
			out = append(out, EntryPoint{Name: fn.Name, Kind: "isr", Via: "HAL IRQ handler", Line: fn.Line})
		}
	}
	for _, c := range f.Calls("") {
		for _, a := range c.Args {
			if name := functionValue(a); name != "" {
				add(name, c.Name, c.Line)
			}
		}
	}
	for _, q := range []string{
		`(initializer_pair designator: (field_designator (field_identifier) @field) value: (_) @value)`,
		`(assignment_expression left: (field_expression field: (field_identifier) @field) right: (_) @value)`,
	} {
		ms, err := f.Query(q)
		if err != nil {
			continue
		}
		for _, m := range ms {
			if len(m.Captures["field"]) == 0 || len(m.Captures["value"]) == 0 {
				continue
			}
			v := m.Captures["value"][0]
			if name := functionValue(v.Text); name != "" {
				add(name, "."+m.Captures["field"][0].Text, v.Line)
			}
		}
	}
	if ms, err := f.Query(`(initializer_list (identifier) @value)`); err == nil {
		for _, m := range ms {
			for _, v := range m.Captures["value"] {
				add(v.Text, "[]", v.Line)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return defined[out[i].Name].Line < defined[out[j].Name].Line })
	return out
}

// functionValue returns the function an argument or initialiser names as
// a value (f, &f, (cast)f), or "".
func functionValue(text string) string {
	s := strings.TrimSpace(text)
	for {
		switch {
		case strings.HasPrefix(s, "&"):
			s = strings.TrimSpace(s[1:])
			continue
		case strings.HasPrefix(s, "(") && closing(s) == len(s)-1:
			s = strings.TrimSpace(s[1 : len(s)-1])
			continue
		case strings.HasPrefix(s, "("):
			if i := closing(s); i > 0 && !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "(") {
				s = strings.TrimSpace(s[i+1:])
				continue
			}
		}
		break
	}
	if isIdentifier(s) {
		return s
	}
	return ""
}

// closing returns the index of the parenthesis closing s's first one, or -1.
func closing(s string) int {
	d := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			d++
		case ')':
			if d--; d == 0 {
				return i
			}
		}
	}
	return -1
}
