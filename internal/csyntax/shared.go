package csyntax

import (
	"slices"
	"strings"
)

// ISRSharing is the vocabulary SharedWithISR judges protection with: calls
// that enter and exit sections no interrupt handler of concern can
// interrupt (sections nest), and calls after which a handler may run.
type ISRSharing struct {
	Enter, Exit, Enable []string
	// Objects are type words of kernel objects that synchronise
	// themselves (k_sem, spinlock_t, QueueHandle_t): variables of such
	// types are not judged.
	Objects []string
}

// SharedVar is a file-scope variable that code in interrupt context and
// code outside it both use.
type SharedVar struct {
	// Name is the variable; Line the line of its declaration.
	Name string
	Line int
	// Volatile and Atomic describe its declaration: Atomic for _Atomic
	// and the atomic types (atomic_t, atomic_bool, atomic_int…,
	// sig_atomic_t).
	Volatile, Atomic bool
	// ISR are the interrupt-context entry points (kinds isr, handler and
	// timer) that reach a use, Threads the others (main, thread, work,
	// init, exit) that do.
	ISR, Threads []string
	// Unprotected are the uses outside interrupt context that some path
	// reaches with a handler live and no critical section open (Verdict
	// No), or might (Unknown); an atomic variable has none.
	Unprotected []Site
	// Protected is Yes when the variable is atomic or every such use is
	// inside a critical section on every path, No when a path (free of
	// anything the analysis cannot follow) reaches a use unprotected,
	// Unknown otherwise — also when a macro of the file masks interrupts
	// with inline assembly (its uses are calls the analysis cannot see
	// into). Inline "cpsid i" and "cpsie i" in functions open and close
	// sections; other PRIMASK/BASEPRI writes make the answer Unknown.
	Protected Tristate
}

// interruptKind reports entry point kinds that run in interrupt context.
func interruptKind(k string) bool { return k == "isr" || k == "handler" || k == "timer" }

// threadKind reports entry point kinds that run outside interrupt
// context; start is whether a handler may already be live when they start.
func threadKind(k string) (ok, live bool) {
	switch k {
	case "thread", "work":
		return true, true
	case "main", "init", "exit":
		return true, false
	}
	return false, false
}

// Machine states of the sharing question: bit 2 says a handler may be
// live, bits 0-1 count the critical sections open (up to 3).
const (
	shareLive  = 4
	shareDepth = 3
)

// sharingMachine builds the typestate of SharedWithISR for vars.
func sharingMachine(v ISRSharing, vars []string, live bool) *machine {
	m := newMachine()
	if live {
		m.start = shareLive
	}
	moves := map[string]func(s uint8) uint8{}
	compose := func(name string, f func(uint8) uint8) {
		if g := moves[name]; g != nil {
			moves[name] = func(s uint8) uint8 { return f(g(s)) }
			return
		}
		moves[name] = f
	}
	for _, n := range v.Enter {
		compose(n, func(s uint8) uint8 { return s&shareLive | min(s&shareDepth+1, shareDepth) })
	}
	for _, n := range v.Exit {
		compose(n, func(s uint8) uint8 { return s&shareLive | uint8(max(int(s&shareDepth)-1, 0)) })
	}
	for _, n := range v.Enable {
		compose(n, func(s uint8) uint8 { return s | shareLive })
	}
	table := func(f func(uint8) uint8) *transition {
		var t transition
		for s := range t {
			t[s] = f(uint8(s))
		}
		return &t
	}
	for name, f := range moves {
		m.move[name] = table(f)
	}
	enter := table(func(s uint8) uint8 { return s&shareLive | min(s&shareDepth+1, shareDepth) })
	leave := table(func(s uint8) uint8 { return shareLive | uint8(max(int(s&shareDepth)-1, 0)) })
	m.asm = func(template string) (*transition, bool) {
		switch t := strings.ToLower(template); {
		case strings.Contains(t, "cpsid"):
			return enter, true
		case strings.Contains(t, "cpsie"):
			return leave, true
		case maskingAsm(t):
			return nil, false // a PRIMASK/BASEPRI write: which way is not read
		}
		return nil, true
	}
	for _, name := range vars {
		m.checkUse[name] = 1 << shareLive
	}
	return m
}

// SharedWithISR finds the file-scope variables used both in interrupt
// context and outside it, from the entry points EntryPoints finds with
// kinds, and judges every use outside interrupt context: protected when
// the variable is atomic, or when on every path to the use either no
// handler is live yet (main and init code before the first enable call) or
// a critical section is open. Helpers are entered up to depth deep, as by
// HappensBefore; calls that never return end paths. Entry points of kind
// callback (context unknown) are left out. Variables declared const and
// not volatile are not shared state, nor are kernel objects (v.Objects).
func (f *File) SharedWithISR(kinds EntryKinds, v ISRSharing, depth int, calls *HaltingCalls) []SharedVar {
	if f == nil || f.functions() == nil {
		return nil
	}
	decls := map[string]Declaration{}
	var names []string
	for _, d := range f.Declarations(GlobalScope) {
		if _, dup := decls[d.Name]; dup {
			continue
		}
		if slices.Contains(d.Qualifiers, "const") && !slices.Contains(d.Qualifiers, "volatile") && !d.Pointer {
			continue
		}
		if typeHasWord(d.Type, v.Objects) {
			continue
		}
		decls[d.Name] = d
		names = append(names, d.Name)
	}
	isrUsers, threadUsers := map[string][]string{}, map[string][]string{}
	seen := map[string]bool{}
	type threadEntry struct {
		name string
		live bool
	}
	var threads []threadEntry
	for _, e := range f.EntryPoints(kinds) {
		if seen[e.Name] {
			continue
		}
		seen[e.Name] = true
		if interruptKind(e.Kind) {
			w := f.walkTypestate(e.Name, sharingMachine(ISRSharing{}, names, true), depth, calls)
			for _, name := range reachedUses(w) {
				isrUsers[name] = append(isrUsers[name], e.Name)
			}
		} else if ok, live := threadKind(e.Kind); ok {
			threads = append(threads, threadEntry{e.Name, live})
		}
	}
	var shared []string
	for _, n := range names {
		if len(isrUsers[n]) > 0 {
			shared = append(shared, n)
		}
	}
	if len(shared) == 0 || f.Interrupted() {
		return nil
	}
	sites := map[string][]Site{}
	cut := false
	for _, th := range threads {
		w := f.walkTypestate(th.name, sharingMachine(v, shared, th.live), depth, calls)
		if w == nil {
			continue
		}
		cut = cut || w.cut
		for _, name := range reachedUses(w) {
			if len(isrUsers[name]) > 0 {
				threadUsers[name] = append(threadUsers[name], th.name)
			}
		}
		for _, s := range w.answer().Sites {
			sites[s.Name] = append(sites[s.Name], s)
		}
	}
	if f.Interrupted() {
		return nil
	}
	asmMask := f.masksInMacro()
	var out []SharedVar
	for _, n := range shared {
		if len(threadUsers[n]) == 0 {
			continue
		}
		d := decls[n]
		sv := SharedVar{Name: n, Line: d.Line, Volatile: slices.Contains(d.Qualifiers, "volatile"), Atomic: atomicDecl(d),
			ISR: isrUsers[n], Threads: threadUsers[n], Unprotected: []Site{}, Protected: Yes}
		if !sv.Atomic {
			sv.Unprotected = append(sv.Unprotected, sites[n]...)
			for _, s := range sites[n] {
				switch {
				case s.Verdict == No && !asmMask && !cut:
					sv.Protected = No
				case sv.Protected == Yes:
					sv.Protected = Unknown
				}
			}
			if cut && sv.Protected == Yes {
				sv.Protected = Unknown
			}
		}
		out = append(out, sv)
	}
	return out
}

// typeHasWord reports whether a type string holds one of words.
func typeHasWord(typ string, words []string) bool {
	for _, w := range strings.FieldsFunc(typ, func(r rune) bool { return !isIdentPart(byte(r)) }) {
		if slices.Contains(words, w) {
			return true
		}
	}
	return false
}

// reachedUses lists the variables whose uses a walk reached.
func reachedUses(w *tsWalk) []string {
	if w == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for k := range w.reached {
		if _, ok := w.m.checkUse[k.name]; ok && !seen[k.name] {
			seen[k.name] = true
			out = append(out, k.name)
		}
	}
	slices.Sort(out)
	return out
}

// atomicDecl reports declarations of atomic types.
func atomicDecl(d Declaration) bool {
	if slices.Contains(d.Qualifiers, "_Atomic") || strings.Contains(d.Type, "_Atomic") {
		return true
	}
	for _, w := range strings.FieldsFunc(d.Type, func(r rune) bool { return r == ' ' || r == '*' || r == '(' || r == ')' }) {
		if strings.HasPrefix(w, "atomic_") || w == "sig_atomic_t" || w == "atomic" {
			return true
		}
	}
	return false
}

// maskingAsm reports assembly text that masks or unmasks interrupts.
func maskingAsm(text string) bool {
	t := strings.ToLower(text)
	for _, w := range []string{"cpsid", "cpsie", "primask", "basepri", "faultmask"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// masksInMacro reports a macro whose body masks or unmasks interrupts with
// inline assembly: its uses are calls to an unknown name, so the analysis
// cannot see the section they open.
func (f *File) masksInMacro() bool {
	for _, m := range f.Macros() {
		if maskingAsm(m.Value) && strings.Contains(m.Value, "asm") {
			return true
		}
	}
	return false
}
