package csyntax

import (
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Lvalue spellings canonLvalue rewrites.
var (
	reAddrArrow = regexp.MustCompile(`\(&([A-Za-z_]\w*(?:(?:\.|->)[A-Za-z_]\w*)*)\)->`)
	reDerefDot  = regexp.MustCompile(`\(\*([A-Za-z_]\w*)\)\.`)
)

// Site is one place a path question found a path that breaks the
// property, or could not tell.
type Site struct {
	// Function and Line locate the call (or the return) concerned; Via
	// names the helpers entered from the entry point to reach it.
	Function string
	Line     int
	Via      []string
	// Name is the call at the site; "" for the end of the entry point.
	Name string
	// Verdict is No when a path breaks the property there, Unknown when
	// only paths through calls the analysis cannot follow (through
	// function pointers, past the depth bound, recursion, unreadable
	// statements) might.
	Verdict Tristate
}

// PathAnswer is the answer of a path question asked from one entry point.
type PathAnswer struct {
	// Verdict is Yes when every path has the property, No when some path
	// (free of anything the analysis cannot follow) breaks it, Unknown
	// otherwise.
	Verdict Tristate
	// Reached counts the call sites of the second name list
	// (HappensBefore) or of acquire (Released) that some path reaches; for
	// Released without acquire, the entry point's returns (and its end)
	// that some path reaches.
	Reached int
	// Sites are the places the verdict comes from (none for Yes).
	Sites []Site
}

// HappensBefore answers, from the entry function: does every path that
// reaches a call to one of then pass a call to one of first before it?
// Besides call names, both lists may hold "store:<target>" (a store to
// target, its text as written, white space ignored: "store:SCB->VTOR") and
// "asm:<text>" (an inline assembly statement whose template starts with
// text: "asm:cpsid i", "asm:wfi").
// Helpers the file defines are entered at every call (up to depth deep);
// a call to a name in first or then counts as such even when the file
// defines it. Conditions are not evaluated: both branches of every if are
// paths. Reached is 0 (and the verdict Yes) when no path calls then.
func (f *File) HappensBefore(entry string, first, then []string, depth int, calls *HaltingCalls) PathAnswer {
	m := newMachine()
	m.events(first, then)
	for _, n := range first {
		m.move[eventKey(n)] = to(1)
	}
	for _, n := range then {
		m.check[eventKey(n)] |= 1 << 0
		m.count[eventKey(n)] = true
	}
	return f.typestate(entry, m, depth, calls)
}

// NotAfter answers, from the entry function: does no path call one of then
// after a call to one of first? (esp_ota_abort never after esp_ota_end, no
// register write after the peripheral is disabled.) Names are as for
// HappensBefore. Reached counts the then sites some path reaches.
func (f *File) NotAfter(entry string, first, then []string, depth int, calls *HaltingCalls) PathAnswer {
	m := newMachine()
	m.events(first, then)
	for _, n := range first {
		m.move[eventKey(n)] = to(1)
	}
	for _, n := range then {
		m.check[eventKey(n)] |= 1 << 1
		m.count[eventKey(n)] = true
	}
	return f.typestate(entry, m, depth, calls)
}

// NotWhileHeld answers, from the entry function: does no path call one of
// calls while something is held, that is after a call to one of acquire and
// before the next call to one of release? (No sleep while a spinlock is
// held, no printf inside a critical section.) Names are as for
// HappensBefore; a second acquire while held changes nothing (no nesting
// count). As for Released, a path on which the acquisition failed holds
// nothing: a variable storing an acquire call's result, or the call itself
// in a condition, is tracked, and the branch of an if that tests it failed
// (failureTest: "xSemaphoreTake(m, t) != pdTRUE", "k_mutex_lock(...) < 0")
// releases. Reached counts the call sites of calls some path reaches, held
// or not.
func (f *File) NotWhileHeld(entry string, acquire, release, calls []string, depth int, halting *HaltingCalls) PathAnswer {
	return f.notWhileHeld(entry, acquire, release, calls, depth, halting, true)
}

// NotWhileHeldEvenIfFailed is NotWhileHeld without the exemption of failed
// acquisitions: every path past an acquire call holds until a release.
func (f *File) NotWhileHeldEvenIfFailed(entry string, acquire, release, calls []string, depth int, halting *HaltingCalls) PathAnswer {
	return f.notWhileHeld(entry, acquire, release, calls, depth, halting, false)
}

func (f *File) notWhileHeld(entry string, acquire, release, calls []string, depth int, halting *HaltingCalls, failures bool) PathAnswer {
	m := newMachine()
	m.events(acquire, release, calls)
	m.acquire, m.release = map[string]bool{}, map[string]bool{}
	if failures {
		m.failed = to(0)
	}
	for _, n := range acquire {
		m.move[eventKey(n)] = to(1)
		m.acquire[n] = true
	}
	for _, n := range release {
		m.move[eventKey(n)] = to(0)
		m.release[n] = true
	}
	for _, n := range calls {
		m.check[eventKey(n)] |= 1 << 1
		m.count[eventKey(n)] = true
	}
	return f.typestate(entry, m, depth, halting)
}

// Released answers, from the entry function: once a call to one of
// acquire is made, does every path reach a call to one of release before
// the entry function returns? Paths that end in a call that never returns
// (a reset, a panic, an endless loop) need no release, and neither do the
// paths on which the acquisition failed: a variable storing an acquire
// call's result is tracked, and the branch of an if that tests it failed
// (see failureTest) holds nothing. With acquire empty the question is
// whether every returning path calls release at all.
func (f *File) Released(entry string, acquire, release []string, depth int, calls *HaltingCalls) PathAnswer {
	return f.released(entry, acquire, release, depth, calls, true)
}

// ReleasedEvenIfFailed is Released without the exemption of failed
// acquisitions: for a question whose "acquire" calls are uses of something
// that already exists (a key used by psa_cipher_encrypt must be destroyed
// even when the encryption fails).
func (f *File) ReleasedEvenIfFailed(entry string, acquire, release []string, depth int, calls *HaltingCalls) PathAnswer {
	return f.released(entry, acquire, release, depth, calls, false)
}

// ReleasedHandle is Released for one resource: the handle is the lvalue
// that holds it ("fd", "ctx->sock", "h"), as written (white space ignored).
// An acquire call counts only when its result is stored to handle or it
// takes &handle (an out-parameter: esp_timer_create(&args, &h)); a release
// call counts only when one of its arguments is handle or &handle. A helper
// the handle is passed to sees it under its parameter's name (*p for &h;
// p->sock for a member handle s.sock when &s is passed, or ctx->sock when
// ctx is); a file-scope handle keeps its name in every helper that does not
// shadow it. So one socket's leak is found even when another socket is closed on
// the same path.
func (f *File) ReleasedHandle(entry string, acquire, release []string, handle string, depth int, calls *HaltingCalls, failures bool) PathAnswer {
	h := canonLvalue(handle)
	if h == "" {
		return PathAnswer{Verdict: Unknown}
	}
	m := f.releasedMachine(acquire, release, failures)
	m.handle = h
	return f.typestate(entry, m, depth, calls)
}

func (f *File) released(entry string, acquire, release []string, depth int, calls *HaltingCalls, failures bool) PathAnswer {
	return f.typestate(entry, f.releasedMachine(acquire, release, failures), depth, calls)
}

// releasedMachine is the machine of a Released question.
func (f *File) releasedMachine(acquire, release []string, failures bool) *machine {
	m := newMachine()
	m.events(acquire, release)
	m.exitBad = 1 << 1
	if len(acquire) == 0 {
		m.start, m.countExits = 1, true
	}
	m.acquire, m.release = map[string]bool{}, map[string]bool{}
	if failures {
		m.failed = to(0)
	}
	for _, n := range acquire {
		m.move[eventKey(n)] = to(1)
		m.count[eventKey(n)] = true
		m.acquire[n] = true
	}
	for _, n := range release {
		m.move[eventKey(n)] = to(0)
		m.release[n] = true
	}
	return m
}

// machine is a typestate property: calls move paths between states, some
// calls and some uses of variables are wrong in some states, and some states
// are wrong at the entry point's return. States are 0..7.
type machine struct {
	start    uint8
	move     map[string]*transition // call name → how it moves each state
	check    map[string]uint8       // call name → states (bits) in which the call breaks the property
	checkUse map[string]uint8       // variable → states (bits) in which using it breaks the property
	exitBad  uint8                  // states (bits) in which returning from the entry point breaks it
	// asm judges an inline assembly statement by its template: the
	// transition it makes (nil: none), and whether it is understood (an
	// assembly statement that is not may make any move). nil: assembly
	// makes no move.
	asm func(template string) (t *transition, known bool)
	// acquire and release name the calls of a Released question; a
	// variable that stores an acquire call's result is tracked, and in the
	// branch of an if that finds it failed (fd < 0, p == NULL, rc != 0,
	// IS_ERR(p)…) failed moves the paths.
	acquire, release map[string]bool
	failed           *transition
	// stores and asms are the event names of the question that are not
	// calls ("store:VTOR", "asm:cpsid i"), filled by newEvents.
	stores map[string]bool
	asms   []string
	// count are the calls whose sites PathAnswer.Reached counts;
	// countExits counts the entry point's returns instead.
	count      map[string]bool
	countExits bool
	// handle, when set, makes acquire and release events of one resource
	// only (ReleasedHandle): its text, squeezed.
	handle string
}

func newMachine() *machine {
	return &machine{move: map[string]*transition{}, check: map[string]uint8{}, checkUse: map[string]uint8{}, count: map[string]bool{},
		stores: map[string]bool{}}
}

// events notes the store and asm event names among names.
func (m *machine) events(names ...[]string) {
	for _, list := range names {
		for _, n := range list {
			switch {
			case strings.HasPrefix(n, "store:"):
				m.stores["store:"+squeeze(strings.TrimPrefix(n, "store:"))] = true
			case strings.HasPrefix(n, "asm:"):
				m.asms = append(m.asms, n)
			}
		}
	}
}

// eventKey is the name a question uses for n: a store event's target with
// its white space collapsed, other names as they are.
func eventKey(n string) string {
	if strings.HasPrefix(n, "store:") {
		return "store:" + squeeze(strings.TrimPrefix(n, "store:"))
	}
	return n
}

// transition maps each state to the state a call moves it to.
type transition [8]uint8

// to is the transition that moves every state to s.
func to(s uint8) *transition {
	var t transition
	for i := range t {
		t[i] = s
	}
	return &t
}

// apply moves the states of set.
func (t *transition) apply(set uint8) uint8 {
	var out uint8
	for s := 0; s < 8; s++ {
		if set&(1<<s) != 0 {
			out |= 1 << t[s]
		}
	}
	return out
}

// targets are the states some move reaches (what an unknown call may do).
func (m *machine) targets() uint8 {
	var out uint8
	for _, t := range m.move {
		out |= t.apply(0xff)
	}
	return out
}

// pstate is the set of states the paths reaching a point are in: def for
// paths free of calls the analysis cannot follow, unk for the others.
type pstate struct{ def, unk uint8 }

func (p pstate) join(q pstate) pstate { return pstate{p.def | q.def, p.unk | q.unk} }
func (p pstate) empty() bool          { return p.def == 0 && p.unk == 0 }

// tsOut is how the paths entering a statement leave it.
type tsOut struct{ fall, ret, brk, cont pstate }

func (o *tsOut) merge(r tsOut) {
	o.fall, o.ret, o.brk, o.cont = o.fall.join(r.fall), o.ret.join(r.ret), o.brk.join(r.brk), o.cont.join(r.cont)
}

// tsWalk answers one typestate question.
type tsWalk struct {
	t *flowTable
	m *machine
	// voc is the vocabulary of the walk: its status constants decide
	// which comparisons test for a failed acquisition.
	voc     *HaltingCalls
	max     int
	targets uint8
	active  map[*flowFunc]bool
	memo    map[tsKey]pstate
	// handedBack records, per entered helper, whether it left the handle
	// it saw under its alias tracked (it acquired it, or was handed it
	// tracked): the caller then tracks it too (ReleasedHandle).
	handedBack map[tsKey]trackState
	sites      map[siteKey]*Site
	reached    map[siteKey]bool
	work       int
	cut        bool // work bound or deadline reached
}

type tsKey struct {
	fn    *flowFunc
	in    pstate
	alias string
	// tracked: the caller tracks the handle passed as alias (a handle
	// or a status; see tsFrame.handles), and so does the callee.
	tracked, isHandle bool
}

// trackState is whether a frame tracks the handle, and as what; status
// marks a helper whose result is the acquisition's status.
type trackState struct{ tracked, isHandle, status bool }

type siteKey struct {
	fn   string
	line int
	name string
}

// tsFrame is one evaluation of a function body.
type tsFrame struct {
	fn     *flowFunc
	via    []string
	labels map[string]pstate // states the gotos to each label carry
	grew   bool              // a goto added states to a label this round
	top    bool              // the entry function itself
	// handles are the variables holding an acquire call's result: true
	// for a handle (released by passing it), false for a status code.
	handles map[string]bool
	// alias is the machine's handle as this frame names it ("" where the
	// frame cannot see it).
	alias string
	// retOK and retFail are the paths of a helper's returns of a success
	// value (0, ESP_OK, pdTRUE…) and of anything else (ReleasedHandle).
	retOK, retFail pstate
	// acquired: the frame acquired its alias (a later store, such as
	// h = NULL after a release, may have ended the tracking).
	acquired bool
	// statusHelpers are the helpers this frame called that acquire its
	// handle and hold nothing on every return but a success value: a test
	// of their result is a failure test of the handle.
	statusHelpers map[string]bool
}

func (f *File) typestate(entry string, m *machine, depth int, calls *HaltingCalls) PathAnswer {
	w := f.walkTypestate(entry, m, depth, calls)
	if w == nil || w.cut || f.Interrupted() {
		return PathAnswer{Verdict: Unknown}
	}
	return w.answer()
}

// walkTypestate asks m from entry; nil when entry is not defined.
func (f *File) walkTypestate(entry string, m *machine, depth int, calls *HaltingCalls) *tsWalk {
	t := f.flow(calls)
	if t == nil || len(t.byName[entry]) == 0 {
		return nil
	}
	w := &tsWalk{t: t, m: m, voc: calls, max: min(max(depth, 0), MaxTraceDepth), targets: m.targets(),
		active: map[*flowFunc]bool{}, memo: map[tsKey]pstate{}, handedBack: map[tsKey]trackState{}, sites: map[siteKey]*Site{}, reached: map[siteKey]bool{}}
	for _, def := range t.byName[entry] {
		fr := &tsFrame{fn: def, via: []string{}, top: true, alias: m.handle}
		o := w.body(fr, pstate{def: 1 << m.start})
		if bad := (pstate{o.fall.def & m.exitBad, o.fall.unk & m.exitBad}); !bad.empty() {
			w.record(fr, def.line, "", bad)
		}
		if !o.fall.empty() && m.countExits {
			w.reached[siteKey{def.name, def.line, ""}] = true
		}
	}
	return w
}

// answer sums up the walk's sites.
func (w *tsWalk) answer() PathAnswer {
	ans := PathAnswer{Verdict: Yes, Reached: len(w.reached)}
	for _, s := range w.sites {
		ans.Sites = append(ans.Sites, *s)
		switch {
		case s.Verdict == No:
			ans.Verdict = No
		case ans.Verdict == Yes:
			ans.Verdict = Unknown
		}
	}
	sort.Slice(ans.Sites, func(i, j int) bool {
		a, b := ans.Sites[i], ans.Sites[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Function < b.Function
	})
	return ans
}

// record notes that paths in bad break the property at a site.
func (w *tsWalk) record(fr *tsFrame, line int, name string, bad pstate) {
	k := siteKey{fr.fn.name, line, name}
	v := Unknown
	if bad.def != 0 {
		v = No
	}
	if s := w.sites[k]; s != nil {
		if v == No {
			s.Verdict = No
		}
		return
	}
	w.sites[k] = &Site{Function: fr.fn.name, Line: line, Via: fr.via, Name: name, Verdict: v}
}

// body evaluates a function body from in, re-running it while gotos carry
// new states to labels; it returns the paths that return or fall off the
// end (in fall).
func (w *tsWalk) body(fr *tsFrame, in pstate) tsOut {
	fr.labels = map[string]pstate{}
	var o tsOut
	for round := 0; round < maxFixpoint; round++ {
		fr.grew = false
		o = w.eval(fr, fr.fn.body, in)
		if !fr.grew || w.cut {
			break
		}
	}
	return tsOut{fall: o.fall.join(o.ret)}
}

// unknown is what a call the analysis cannot follow does to paths.
func (w *tsWalk) unknown(in pstate) pstate {
	if in.empty() {
		return in
	}
	return pstate{unk: in.def | in.unk | w.targets}
}

// ops applies a statement's calls to the paths in; it returns the paths
// that go on (those reaching a call that never returns end there).
func (w *tsWalk) ops(fr *tsFrame, refs []callRef, in pstate) pstate {
	for _, r := range refs {
		if in.empty() {
			return in
		}
		next := w.op(fr, r, in)
		if r.maybe {
			// The operand may not run: paths that skip it go on too.
			next = next.join(in)
		}
		in = next
	}
	return in
}

// op applies one ref to the paths in.
func (w *tsWalk) op(fr *tsFrame, r callRef, in pstate) pstate {
	m := w.m
	if m.handle != "" {
		if out, done := w.handleOp(fr, r, in); done {
			return out
		}
	}
	if name := w.eventName(r); name != "" {
		return w.event(fr, r, name, in)
	}
	switch {
	case r.store:
		if m.failed != nil && !r.maybe {
			w.track(fr, r)
		}
		return in
	case r.asm:
		if m.asm != nil {
			if t, known := m.asm(r.value); t != nil {
				return pstate{t.apply(in.def), t.apply(in.unk)}
			} else if !known {
				return w.unknown(in)
			}
		}
		return in
	case r.use:
		if bad, ok := m.checkUse[r.name]; ok && !fr.fn.vars[r.name] {
			w.reached[siteKey{fr.fn.name, r.line, r.name}] = true
			if b := (pstate{in.def & bad, in.unk & bad}); !b.empty() {
				w.record(fr, r.line, r.name, b)
			}
		}
		return in
	}
	if !r.pointer {
		if _, named := m.move[r.name]; named {
			return w.event(fr, r, r.name, in)
		}
		if _, named := m.check[r.name]; named {
			return w.event(fr, r, r.name, in)
		}
		if m.count[r.name] {
			w.reached[siteKey{fr.fn.name, r.line, r.name}] = true
		}
	}
	return w.call(fr, r, in)
}

// handleOp applies a ref of a ReleasedHandle question that concerns the
// acquire and release names: the acquisition of the frame's alias (a store
// of an acquire call's result to it, or an acquire call taking &alias)
// moves to held; a release call with the alias among its arguments moves
// to released; any other acquire or release call is another resource's and
// changes nothing. done is false for every other ref.
func (w *tsWalk) handleOp(fr *tsFrame, r callRef, in pstate) (pstate, bool) {
	m := w.m
	switch {
	case r.store:
		name := calleeOf(r.value)
		if fr.statusHelpers[name] && m.failed != nil && !r.maybe {
			// err = link_open(&link): err is the acquisition's status.
			fr.trackAs(r.name, false)
			return in, true
		}
		if !m.acquire[name] {
			return in, false
		}
		out := in
		switch {
		case fr.alias != "" && canonLvalue(r.name) == fr.alias:
			out = w.event(fr, r, name, in) // h = open(...)
			fr.acquired = true
		case fr.alias == "" || !strings.Contains(canonLvalue(r.value), addrOf(fr.alias)):
			return in, true // another resource's result: not tracked
		}
		// The handle, or the status of an out-parameter acquisition
		// (err = create(&h)), is tracked for failure tests.
		if m.failed != nil && !r.maybe {
			w.track(fr, r)
		}
		return out, true
	case r.asm || r.use || r.pointer:
		return in, false
	case m.acquire[r.name]:
		if fr.alias != "" && slices.Contains(argTexts(r.args), addrOf(fr.alias)) {
			// An out-parameter: the handle is valid when set, so a NULL
			// test of it (if (h != NULL) release(h);) guards the release.
			if m.failed != nil && !r.maybe {
				fr.trackAs(fr.alias, true)
			}
			fr.acquired = true
			return w.event(fr, r, r.name, in), true
		}
		// Another resource, or this one through the store that follows.
		return in, true
	case m.release[r.name]:
		if fr.alias != "" && (slices.Contains(argTexts(r.args), fr.alias) || slices.Contains(argTexts(r.args), addrOf(fr.alias))) {
			return w.event(fr, r, r.name, in), true
		}
		return in, true
	}
	return in, false
}

// argTexts are a call's argument texts, squeezed, unparenthesized and in
// canonical lvalue form.
func argTexts(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = canonLvalue(unparen(strings.TrimSpace(a)))
	}
	return out
}

// canonLvalue squeezes an lvalue and spells it one way: (&s)->m is s.m,
// (*p).m is p->m, &*p is p.
func canonLvalue(s string) string {
	s = squeeze(s)
	for i := 0; i < 4; i++ {
		t := reAddrArrow.ReplaceAllString(s, "$1.")
		t = reDerefDot.ReplaceAllString(t, "$1->")
		t = strings.ReplaceAll(t, "&*", "")
		if t == s {
			break
		}
		s = t
	}
	return s
}

// addrOf is &v in canonical form.
func addrOf(v string) string { return canonLvalue("&" + v) }

// calleeAlias is the name under which def, called with args from a frame
// naming the handle alias, sees it: the parameter it is passed to (*p when
// &alias is passed), the same name for a file-scope handle def does not
// shadow, else "".
func (w *tsWalk) calleeAlias(alias string, def *flowFunc, args []string) string {
	if alias == "" {
		return ""
	}
	for i, a := range argTexts(args) {
		if i >= len(def.params) {
			break
		}
		p := def.params[i]
		switch {
		case a == alias:
			return p
		case a == addrOf(alias):
			return "*" + p
		case strings.HasPrefix(a, "&") && strings.HasPrefix(alias, a[1:]+"."):
			// f(&link) with the handle link.listener: p->listener.
			return p + "->" + alias[len(a):]
		case strings.HasPrefix(alias, a+"->"):
			// f(ctx) with the handle ctx->sock: p->sock.
			return p + alias[len(a):]
		}
	}
	root := alias
	if i := strings.IndexAny(root, ".-[*"); i >= 0 {
		root = root[:i]
	}
	if root != "" && w.t.globals[root] && !def.vars[root] {
		return alias
	}
	return ""
}

// event applies a ref that is one of the question's events, by name: it is
// counted, checked and makes its move.
func (w *tsWalk) event(fr *tsFrame, r callRef, name string, in pstate) pstate {
	m := w.m
	if m.count[name] {
		w.reached[siteKey{fr.fn.name, r.line, name}] = true
	}
	if bad, ok := m.check[name]; ok {
		if b := (pstate{in.def & bad, in.unk & bad}); !b.empty() {
			w.record(fr, r.line, name, b)
		}
	}
	if t, ok := m.move[name]; ok {
		return pstate{t.apply(in.def), t.apply(in.unk)}
	}
	return in
}

// eventName is the event name a store or an assembly statement answers to
// in the question, or "": "store:<target>" for a store to target (its text,
// whitespace collapsed), "asm:<text>" for an assembly statement whose
// template starts with text (case and whitespace ignored).
func (w *tsWalk) eventName(r callRef) string {
	switch {
	case r.store && len(w.m.stores) > 0:
		if name := "store:" + squeeze(r.name); w.m.stores[name] {
			return name
		}
	case r.asm && len(w.m.asms) > 0:
		t := strings.ToLower(collapse(r.value))
		for _, name := range w.m.asms {
			if strings.HasPrefix(t, strings.ToLower(collapse(strings.TrimPrefix(name, "asm:")))) {
				return name
			}
		}
	}
	return ""
}

// call applies one call that is not part of the property.
func (w *tsWalk) call(fr *tsFrame, r callRef, in pstate) pstate {
	t := w.t
	switch {
	case r.pointer || fr.fn.vars[r.name] || (t.globals[r.name] && len(t.byName[r.name]) == 0):
		return w.unknown(in)
	case t.noreturn[r.name]:
		return pstate{}
	case len(t.byName[r.name]) > 0:
		if r.bare {
			return in
		}
		var out pstate
		for _, def := range t.byName[r.name] {
			out = out.join(w.enter(fr, def, r.name, r.args, in))
		}
		return out
	case t.calls.Contains(r.name):
		return pstate{}
	}
	return in
}

// enter evaluates a helper called with the paths in.
func (w *tsWalk) enter(fr *tsFrame, def *flowFunc, name string, args []string, in pstate) pstate {
	if w.active[def] || len(fr.via) >= w.max {
		return w.unknown(in)
	}
	alias := w.calleeAlias(fr.alias, def, args)
	isHandle, tracked := fr.handles[fr.alias]
	tracked = tracked && alias != ""
	k := tsKey{def, in, alias, tracked, isHandle}
	if out, ok := w.memo[k]; ok {
		w.handBack(fr, k, name)
		return out
	}
	via := append(append(make([]string, 0, len(fr.via)+1), fr.via...), name)
	w.active[def] = true
	callee := &tsFrame{fn: def, via: via, alias: alias}
	if tracked {
		// The helper's guard on its copy of the handle ("if (s >= 0)
		// close(s);") is a failure test of the acquisition too.
		callee.handles = map[string]bool{alias: isHandle}
	}
	out := w.body(callee, in).fall
	w.active[def] = false
	w.memo[k] = out
	if alias != "" {
		isH, ok := callee.handles[alias]
		if !ok && callee.acquired {
			isH, ok = true, true
		}
		held := w.m.exitBad
		clean := callee.retFail.def&held == 0 && callee.retFail.unk&held == 0 && !callee.retOK.empty()
		w.handedBack[k] = trackState{ok, isH, ok && clean}
	}
	w.handBack(fr, k, name)
	return out
}

// handBack makes the caller track its alias of the handle when the helper
// entered with k left it tracked (it acquired it: "if (link.tx < 0)" after
// open_tx(&link) is a failure test of that acquisition).
func (w *tsWalk) handBack(fr *tsFrame, k tsKey, name string) {
	back := w.handedBack[k]
	if !back.tracked || fr.alias == "" {
		return
	}
	fr.trackAs(fr.alias, back.isHandle)
	if back.status {
		// if (link_open(&link) != 0) return 1; holds nothing.
		if fr.statusHelpers == nil {
			fr.statusHelpers = map[string]bool{}
		}
		fr.statusHelpers[name] = true
	}
}

// trackAs tracks v in the frame as a handle (isHandle) or a status code.
func (fr *tsFrame) trackAs(v string, isHandle bool) {
	if fr.handles == nil {
		fr.handles = map[string]bool{}
	}
	fr.handles[v] = isHandle
}

// successValue reports a success status: C's true and EXIT_SUCCESS, or a
// success constant of the SDK vocabulary (ESP_OK, pdTRUE…).
func successValue(v string, voc *HaltingCalls) bool {
	switch v = strings.TrimSpace(unparen(strings.TrimSpace(v))); v {
	case "EXIT_SUCCESS", "true":
		return true
	}
	return voc.successValue(v)
}

// fixLoop evaluates a loop body from head until the paths that come round
// again (back of the body's outcome) add nothing: it returns the body's
// last outcome, the loop head's paths and the paths that came round.
func (w *tsWalk) fixLoop(fr *tsFrame, body *flowNode, head pstate, back func(tsOut) pstate) (tsOut, pstate, pstate) {
	var o tsOut
	var round pstate
	for i := 0; i < maxFixpoint; i++ {
		o = w.eval(fr, body, head)
		round = back(o)
		next := head.join(round)
		if next == head {
			break
		}
		head = next
	}
	return o, head, round
}

// eval returns how the paths in that enter n leave it.
func (w *tsWalk) eval(fr *tsFrame, n *flowNode, in pstate) (o tsOut) {
	if n == nil {
		o.fall = in
		return o
	}
	if (in.empty() && !n.labels) || w.cut {
		return o
	}
	if w.work++; w.work > maxTypestateWork || w.t.f.expired() {
		w.cut = true
		return o
	}
	switch n.kind {
	case flowSeq, flowCase:
		cur := in
		for _, k := range n.kids {
			r := w.eval(fr, k, cur)
			cur, r.fall = r.fall, pstate{}
			o.merge(r)
		}
		o.fall = cur
	case flowEffect:
		o.fall = w.ops(fr, n.calls, in)
	case flowError:
		o.fall = w.ops(fr, n.calls, in)
		if n.jumps {
			o.fall = w.unknown(o.fall)
		}
	case flowIf:
		cont := w.ops(fr, n.calls, in)
		thenIn, elseIn := cont, cont
		if _, failedWhenTrue, ok := failureTest(n.cond, w.testedHandles(fr, n.cond), w.voc); ok && w.m.failed != nil {
			if failedWhenTrue {
				thenIn = pstate{w.m.failed.apply(thenIn.def), w.m.failed.apply(thenIn.unk)}
			} else {
				elseIn = pstate{w.m.failed.apply(elseIn.def), w.m.failed.apply(elseIn.unk)}
			}
		}
		o.merge(w.eval(fr, n.kids[0], thenIn))
		o.merge(w.eval(fr, n.kids[1], elseIn))
	case flowLoop:
		head := w.ops(fr, n.calls, in)
		body, head, _ := w.fixLoop(fr, n.kids[0], head, func(b tsOut) pstate { return w.ops(fr, n.calls, b.fall.join(b.cont)) })
		o.ret, o.fall = body.ret, body.brk
		if !n.forever {
			o.fall = o.fall.join(head)
		}
	case flowDo:
		body, _, back := w.fixLoop(fr, n.kids[0], in, func(b tsOut) pstate { return w.ops(fr, n.post, b.fall.join(b.cont)) })
		o.ret, o.fall = body.ret, body.brk
		if !n.forever {
			o.fall = o.fall.join(back)
		}
	case flowSwitch:
		cont := w.ops(fr, n.calls, in)
		var cur pstate
		for _, k := range n.kids {
			if k.kind == flowCase {
				cur = cur.join(cont)
			}
			r := w.eval(fr, k, cur)
			cur = r.fall
			o.ret, o.cont = o.ret.join(r.ret), o.cont.join(r.cont)
			o.fall = o.fall.join(r.brk)
		}
		o.fall = o.fall.join(cur)
		if !n.forever {
			o.fall = o.fall.join(cont)
		}
	case flowLabel:
		return w.eval(fr, n.kids[0], in.join(fr.labels[n.label]))
	case flowReturn:
		o.ret = w.ops(fr, n.calls, in)
		if !fr.top && w.m.handle != "" {
			if v := strings.TrimSpace(unparen(strings.TrimSpace(n.cond))); v == "0" || successValue(v, w.voc) {
				fr.retOK = fr.retOK.join(o.ret)
			} else {
				fr.retFail = fr.retFail.join(o.ret)
			}
		}
		if fr.top {
			if bad := (pstate{o.ret.def & w.m.exitBad, o.ret.unk & w.m.exitBad}); !bad.empty() {
				w.record(fr, n.line, "", bad)
			}
			if !o.ret.empty() && w.m.countExits {
				w.reached[siteKey{fr.fn.name, n.line, ""}] = true
			}
			// Reported here; the caller must not report it again.
			o.ret = pstate{}
		}
	case flowGoto:
		if fr.fn.labels[n.label] {
			old := fr.labels[n.label]
			if next := old.join(in); next != old {
				fr.labels[n.label], fr.grew = next, true
			}
		} else {
			o.fall = w.unknown(in)
		}
	case flowBreak:
		o.brk = in
	case flowContinue:
		o.cont = in
	case flowAlt:
		for _, k := range n.kids {
			o.merge(w.eval(fr, k, in))
		}
		if !n.forever {
			o.fall = o.fall.join(in)
		}
	}
	return o
}

// track notes a store of an acquire call's result ("fd = open(...)",
// "rc = pm_device_runtime_get(dev)") in the frame.
func (w *tsWalk) track(fr *tsFrame, r callRef) {
	name := calleeOf(r.value)
	if name == "" || !w.m.acquire[name] || r.op != "=" {
		// Any other store to a tracked variable makes it something else
		// than the acquisition's result.
		delete(fr.handles, r.name)
		return
	}
	fr.trackAs(r.name, w.releasedByArgument(r.name))
}

// testedHandles are the frame's tracked variables, plus an acquire call
// the condition tests directly ("if (pm_device_runtime_get(dev) < 0)"), read
// as a status code.
func (w *tsWalk) testedHandles(fr *tsFrame, cond string) map[string]bool {
	if w.m.failed == nil {
		return nil
	}
	c := strings.TrimSpace(cond)
	for strings.HasPrefix(c, "!") && !strings.HasPrefix(c, "!=") {
		c = strings.TrimSpace(c[1:])
	}
	sides := []string{c}
	if i, op := comparison(c); i >= 0 {
		sides = []string{c[:i], c[i+len(op):]}
	}
	handles := fr.handles
	for _, side := range sides {
		side = strings.TrimSpace(unparen(strings.TrimSpace(side)))
		statusHelper := fr.statusHelpers[calleeOf(side)] && storedVar(side) == side
		if w.m.handle != "" && !statusHelper && (fr.alias == "" || !strings.Contains(canonLvalue(side), addrOf(fr.alias))) {
			continue // another resource's acquisition
		}
		if statusHelper {
			if len(handles) == len(fr.handles) {
				handles = make(map[string]bool, len(fr.handles)+1)
				for k, v := range fr.handles {
					handles[k] = v
				}
			}
			handles[side] = false
			continue
		}
		if name := calleeOf(side); name != "" && w.m.acquire[name] && storedVar(side) == side {
			if len(handles) == len(fr.handles) {
				handles = make(map[string]bool, len(fr.handles)+1)
				for k, v := range fr.handles {
					handles[k] = v
				}
			}
			handles[side] = false
		}
	}
	return handles
}

// releasedByArgument reports whether some release call of the file takes
// v (or &v) as an argument: v is then a handle, not a status code.
func (w *tsWalk) releasedByArgument(v string) bool {
	for _, c := range w.t.f.Calls("") {
		if !w.m.release[c.Name] {
			continue
		}
		for _, a := range c.Args {
			if a = strings.TrimPrefix(strings.TrimSpace(a), "&"); strings.TrimSpace(a) == v {
				return true
			}
		}
	}
	return false
}

// calleeOf returns the function a value text calls at its top, under casts
// and parentheses ("(int)open(p, O_RDONLY)" → "open"), or "".
func calleeOf(value string) string {
	s := strings.TrimSpace(value)
	for strings.HasPrefix(s, "(") {
		i := closing(s)
		if i < 0 {
			return ""
		}
		if i == len(s)-1 {
			s = strings.TrimSpace(s[1:i])
			continue
		}
		s = strings.TrimSpace(s[i+1:]) // a cast
	}
	j := 0
	for j < len(s) && isIdentPart(s[j]) {
		j++
	}
	if j == 0 || !strings.HasPrefix(strings.TrimSpace(s[j:]), "(") {
		return ""
	}
	return s[:j]
}

// failureTest reads an if condition that tests a tracked variable for
// failure: it returns the variable and whether the condition is true when
// the acquisition failed. Handles fail as v < 0, v == -1, v == NULL, !v,
// v == 0, IS_ERR(v); status codes as v < 0, v != 0, v, and v != (or ==)
// an SDK's success value (ESP_OK, HAL_OK, pdPASS, pdTRUE, PSA_SUCCESS). likely()/unlikely()
// are looked through; conditions joined by && or || are not read.
func failureTest(cond string, handles map[string]bool, voc *HaltingCalls) (string, bool, bool) {
	if len(handles) == 0 {
		return "", false, false
	}
	c := strings.TrimSpace(cond)
	for _, wrap := range []string{"unlikely(", "likely("} {
		if strings.HasPrefix(c, wrap) && strings.HasSuffix(c, ")") {
			c = strings.TrimSpace(c[len(wrap) : len(c)-1])
		}
	}
	if strings.Contains(c, "&&") || strings.Contains(c, "||") {
		return "", false, false
	}
	negate := false
	for strings.HasPrefix(c, "!") && !strings.HasPrefix(c, "!=") {
		negate = !negate
		c = strings.TrimSpace(c[1:])
	}
	c = strings.TrimSpace(unparen(c))
	for _, fn := range []string{"IS_ERR_OR_NULL(", "IS_ERR("} {
		if strings.HasPrefix(c, fn) && strings.HasSuffix(c, ")") {
			v := strings.TrimSpace(c[len(fn) : len(c)-1])
			if _, ok := handles[v]; ok {
				return v, !negate, true
			}
			return "", false, false
		}
	}
	if isTrackedOperand(c, handles) {
		v := storedVar(c)
		// "v" alone: a handle is valid when true, a status code failed.
		failed := !handles[v]
		return v, failed != negate, true
	}
	i, op := comparison(c)
	if i < 0 {
		return "", false, false
	}
	l, r := strings.TrimSpace(c[:i]), strings.TrimSpace(c[i+len(op):])
	if !isTrackedOperand(l, handles) {
		l, r = r, l
		op = mirror(op)
	}
	if !isTrackedOperand(l, handles) {
		return "", false, false
	}
	v := storedVar(l)
	failed, ok := failedComparison(op, r, handles[v], voc)
	if !ok {
		return "", false, false
	}
	return v, failed != negate, true
}

// comparison finds the one relational or equality operator of s outside
// parentheses (not "->", "<<", ">>" or an assignment), or -1.
func comparison(s string) (int, string) {
	at, found := -1, ""
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '<', '>', '=', '!':
			if depth != 0 {
				continue
			}
			two := ""
			if i+1 < len(s) {
				two = s[i : i+2]
			}
			var op string
			switch {
			case two == "<=" || two == ">=" || two == "==" || two == "!=":
				op = two
			case two == "<<" || two == ">>" || c == '=' || c == '!' || (c == '>' && i > 0 && s[i-1] == '-'):
				if two == "<<" || two == ">>" {
					i++
				}
				continue
			default:
				op = string(c)
			}
			if found != "" {
				return -1, ""
			}
			at, found = i, op
			i += len(op) - 1
		}
	}
	return at, found
}

// failedComparison says whether "v op k" is true when the acquisition
// failed, for a handle or a status code; voc names the SDK's status
// constants.
func failedComparison(op, k string, handle bool, voc *HaltingCalls) (failed, ok bool) {
	switch k = strings.TrimSpace(unparen(k)); k {
	case "0", "NULL", "nullptr", "0L", "0U":
		switch op {
		case "<":
			return true, true
		case ">=":
			return false, true
		case "==":
			return handle, true // NULL handle; a status of 0 is success
		case "!=":
			return !handle, true
		}
	case "-1", "MAP_FAILED", "INVALID_HANDLE_VALUE", "SIG_ERR":
		return equalityTest(op, true, true)
	case "false":
		return equalityTest(op, true, !handle)
	}
	if voc.failureValue(k) {
		// A status compared with its SDK's failure value.
		return equalityTest(op, true, !handle)
	}
	if successValue(k, voc) {
		// A status compared with its SDK's success value.
		return equalityTest(op, false, !handle)
	}
	return false, false
}

// equalityTest reads "== k" (failed when failedIfEqual) and "!= k" (the
// opposite); ok is whether the comparison is a failure test at all.
func equalityTest(op string, failedIfEqual, ok bool) (failed, isTest bool) {
	switch op {
	case "==":
		return failedIfEqual, ok
	case "!=":
		return !failedIfEqual, ok
	}
	return false, false
}

func mirror(op string) string {
	switch op {
	case "<":
		return ">"
	case ">":
		return "<"
	case "<=":
		return ">="
	case ">=":
		return "<="
	}
	return op
}

// isTrackedOperand reports "v" or "(v = call(...))" for a tracked v.
func isTrackedOperand(s string, handles map[string]bool) bool {
	_, ok := handles[storedVar(s)]
	return ok
}

// storedVar is v for "v" and for "(v = ...)".
func storedVar(s string) string {
	s = strings.TrimSpace(unparen(strings.TrimSpace(s)))
	if i := strings.Index(s, "="); i > 0 && !strings.HasPrefix(s[i:], "==") {
		return strings.TrimSpace(s[:i])
	}
	return s
}

// unparen strips parentheses that enclose all of s.
func unparen(s string) string {
	for strings.HasPrefix(s, "(") && closing(s) == len(s)-1 {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}
