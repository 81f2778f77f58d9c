package checks

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"github.com/embedeval/embedeval-go/internal/cexpr"
	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/sleepapi"
)

// waitArgs are the arguments of c.sleeps, c.busy_waits and c.barriers:
// (code, function=None, follow=True).
type waitArgs struct {
	code, function string
	follow         bool
}

func unpackWaitArgs(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (waitArgs, error) {
	var w waitArgs
	var function starlark.Value = starlark.None
	follow := true
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &w.code, "function?", &function, "follow?", &follow); err != nil {
		return w, err
	}
	if function != starlark.None {
		s, ok := starlark.AsString(function)
		if !ok || s == "" {
			return w, fmt.Errorf("%s: function must be a non-empty string or None, got %s", b.Name(), function.String())
		}
		w.function = s
	}
	w.follow = follow
	return w, nil
}

// walkSteps parses code and returns the steps keep accepts, reached from
// the function of w (see csyntax.File.Steps); nil for code that does not
// parse. Names for which leaf reports true are not entered.
func walkSteps(st *callState, w waitArgs, leaf, keep func(csyntax.Step) bool) (*csyntax.File, []csyntax.Step, error) {
	f, err := st.parsed(w.code)
	if err != nil || f == nil {
		return nil, nil, err
	}
	steps := f.Steps(w.function, w.follow, leaf, keep)
	if f.Interrupted() {
		return nil, nil, st.timeLimit()
	}
	return f, steps, nil
}

// countDicts counts n dicts of fields fields each, with via elements in
// their via lists in all (which a deep chain of helpers makes many).
func countDicts(st *callState, n, fields int, via int64) error {
	if err := st.structList(n, fields); err != nil {
		return err
	}
	return st.alloc(via * elemBytes)
}

// The keys of the dicts of c.sleeps, c.busy_waits and c.barriers, in order.
const (
	sleepKeys    = "function line api kind ms ticks arg via"
	busyWaitKeys = "function line api ms arg via"
	barrierKeys  = "function line kind api via"
)

// stepDict builds a dict of the space-separated keys, in order.
func stepDict(keys string, values ...starlark.Value) *starlark.Dict {
	names := strings.Fields(keys)
	d := starlark.NewDict(len(names))
	for i, k := range names {
		_ = d.SetKey(starlark.String(k), values[i])
	}
	return d
}

// sleeps is c.sleeps(code, function=None, follow=True).
func sleeps() builtinFunc { return waits(sleepapi.ClassSleep) }

// busyWaits is c.busy_waits(code, function=None, follow=True).
func busyWaits() builtinFunc { return waits(sleepapi.ClassBusyWait) }

// waits is c.sleeps (class sleepapi.ClassSleep) or c.busy_waits
// (sleepapi.ClassBusyWait): one dict per call of the class.
func waits(class string) builtinFunc {
	vocab, loadErr := sleepapi.Default()
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		w, err := unpackWaitArgs(b, args, kwargs)
		if err != nil {
			return nil, err
		}
		if loadErr != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), loadErr)
		}
		st := stateOf(th)
		leaf := func(s csyntax.Step) bool {
			_, ok := vocab.API(s.Call.Name)
			return ok
		}
		keep := func(s csyntax.Step) bool {
			a, ok := vocab.API(s.Call.Name)
			return ok && a.Class == class
		}
		f, steps, err := walkSteps(st, w, leaf, keep)
		if err != nil || f == nil {
			return starlark.NewList(nil), err
		}
		keys := sleepKeys
		if class == sleepapi.ClassBusyWait {
			keys = busyWaitKeys
		}
		via := int64(0)
		for _, s := range steps {
			via += int64(s.ViaLen())
		}
		if err := countDicts(st, len(steps), len(strings.Fields(keys)), via); err != nil {
			return nil, err
		}
		out := make([]starlark.Value, len(steps))
		for i, s := range steps {
			if err := st.poll(); err != nil {
				return nil, err
			}
			api, _ := vocab.API(s.Call.Name)
			wait := vocab.Wait(api, s.Call.Args, sleepEnv(f, vocab, s.Call.Function), timespecOf(f, s.Call.Function))
			arg := ""
			if api.Arg < len(s.Call.Args) {
				arg = s.Call.Args[api.Arg]
			}
			common := []starlark.Value{starlark.String(s.Call.Function), starlark.MakeInt(s.Call.Line), starlark.String(api.Name)}
			if class == sleepapi.ClassBusyWait {
				out[i] = stepDict(keys, append(common, msValue(wait.MS), starlark.String(arg), stringsToList(s.Via()))...)
				continue
			}
			ticks := starlark.Value(starlark.None)
			if wait.Ticks != nil {
				ticks = starlark.MakeBigInt(wait.Ticks)
			}
			out[i] = stepDict(keys, append(common, starlark.String(wait.Kind), msValue(wait.MS), ticks, starlark.String(arg), stringsToList(s.Via()))...)
		}
		if f.Interrupted() {
			return nil, st.timeLimit()
		}
		return starlark.NewList(out), nil
	}
}

// msValue is a duration in milliseconds: an int when whole, a float
// otherwise, None when unknown.
func msValue(ms *big.Rat) starlark.Value {
	switch {
	case ms == nil:
		return starlark.None
	case ms.IsInt():
		return starlark.MakeBigInt(ms.Num())
	}
	x, _ := ms.Float64()
	return starlark.Float(x)
}

// sleepEnv is the evaluation environment of the calls of function: the
// code's constants (c.eval_int's, with function's const locals when it has
// any), built once per code.
func sleepEnv(f *csyntax.File, vocab *sleepapi.Vocabulary, function string) *sleepapi.Env {
	scope := ""
	locals := f.Memo("c.sleeps const scopes", func() any {
		out := map[string]bool{}
		for _, d := range f.Declarations("") {
			if d.Scope != csyntax.GlobalScope && d.Init != "" && !d.Pointer && !d.Array && slices.Contains(d.Qualifiers, "const") {
				out[d.Scope] = true
			}
		}
		return out
	}).(map[string]bool)
	if locals[function] {
		scope = function
	}
	return f.Memo("c.sleeps env "+scope, func() any {
		code := f.Memo("c.eval_int env "+scope, func() any { return constEnv(f, scope) }).(cexpr.Env)
		return vocab.NewEnv(code)
	}).(*sleepapi.Env)
}

// timespecOf finds the struct timespec variable an argument (&ts) of a call
// in function names: a local of function or a file-scope variable, whose
// tv_sec and tv_nsec are each set once (by "=", from its initializer or one
// whole-struct assignment, or by one store into the field).
func timespecOf(f *csyntax.File, function string) sleepapi.Timespec {
	return func(arg string) (string, string, bool) {
		name := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(arg), "&"))
		scope, found := "", false
		for _, d := range f.Declarations(function) {
			if d.Name == name && !d.Pointer && !d.Array {
				scope, found = function, true
			}
		}
		if !found && function != "" {
			for _, d := range f.Declarations(csyntax.GlobalScope) {
				found = found || d.Name == name && !d.Pointer && !d.Array
			}
		}
		if !found {
			return "", "", false
		}
		inScope := func(a csyntax.Assignment) bool { return scope == "" || a.Function == scope }
		var whole [][2]string
		for _, a := range f.Assignments(name) {
			if a.Target != name || !inScope(a) {
				continue
			}
			sec, nsec, ok := sleepapi.TimespecFields(a.Value)
			if a.Op != "=" || !ok {
				return "", "", false
			}
			whole = append(whole, [2]string{sec, nsec})
		}
		if len(whole) > 1 {
			return "", "", false
		}
		var fields [2]string
		for i, field := range []string{"tv_sec", "tv_nsec"} {
			var stores []csyntax.Assignment
			for _, a := range f.Assignments(field) {
				if (a.Target == name+"."+field) && inScope(a) {
					stores = append(stores, a)
				}
			}
			switch {
			case len(stores) == 1 && stores[0].Op == "=":
				fields[i] = stores[0].Value
			case len(stores) == 0 && len(whole) == 1:
				fields[i] = whole[0][i]
			default:
				return "", "", false
			}
		}
		return fields[0], fields[1], true
	}
}

// barriers is c.barriers(code, function=None, follow=True): one dict per
// barrier reached.
func barriers() builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		w, err := unpackWaitArgs(b, args, kwargs)
		if err != nil {
			return nil, err
		}
		st := stateOf(th)
		leaf := func(s csyntax.Step) bool { return barrierCall(s.Call.Name, s.Call.Args) != "" }
		keep := func(s csyntax.Step) bool { return len(barrierKinds(s)) > 0 }
		f, steps, err := walkSteps(st, w, leaf, keep)
		if err != nil || f == nil {
			return starlark.NewList(nil), err
		}
		n, via := 0, int64(0)
		for _, s := range steps {
			k := len(barrierKinds(s))
			n += k
			via += int64(k * s.ViaLen())
		}
		if err := countDicts(st, n, len(strings.Fields(barrierKeys)), via); err != nil {
			return nil, err
		}
		out := make([]starlark.Value, 0, n)
		for _, s := range steps {
			fn, line, api := s.Call.Function, s.Call.Line, s.Call.Name
			if s.Asm != nil {
				fn, line, api = s.Asm.Function, s.Asm.Line, "asm"
			}
			for _, kind := range barrierKinds(s) {
				out = append(out, stepDict(barrierKeys, starlark.String(fn), starlark.MakeInt(line), starlark.String(kind),
					starlark.String(api), stringsToList(s.Via())))
			}
		}
		return starlark.NewList(out), nil
	}
}

// barrierKinds are the barriers a step issues, in order.
func barrierKinds(s csyntax.Step) []string {
	if s.Asm == nil {
		if k := barrierCall(s.Call.Name, s.Call.Args); k != "" {
			return []string{k}
		}
		return nil
	}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s.Asm.Template), func(r rune) bool {
		return !(r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if (w == "dsb" || w == "isb" || w == "dmb") && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	if len(out) == 0 && strings.TrimSpace(s.Asm.Template) == "" && slices.Contains(s.Asm.Clobbers, "memory") {
		out = append(out, "compiler")
	}
	return out
}

// barrierCall is the kind of barrier a call issues, "" for none: CMSIS and
// ACLE intrinsics, Zephyr's sys/barrier.h, Linux's arm and compiler
// barriers, the GCC and C11 fences (not relaxed ones).
func barrierCall(name string, args []string) string {
	switch name {
	case "__DSB", "__dsb", "__builtin_arm_dsb", "barrier_dsync_fence_full", "dsb":
		return "dsb"
	case "__ISB", "__isb", "__builtin_arm_isb", "barrier_isync_fence_full", "isb":
		return "isb"
	case "__DMB", "__dmb", "__builtin_arm_dmb", "barrier_dmem_fence_full", "dmb", "__sync_synchronize":
		return "dmb"
	case "atomic_thread_fence", "__atomic_thread_fence":
		if !relaxed(args) {
			return "dmb"
		}
	case "__COMPILER_BARRIER", "compiler_barrier":
		return "compiler"
	case "barrier":
		if len(args) == 0 {
			return "compiler"
		}
	case "atomic_signal_fence", "__atomic_signal_fence":
		if !relaxed(args) {
			return "compiler"
		}
	}
	return ""
}

// relaxed reports a fence whose order is relaxed (a no-op).
func relaxed(args []string) bool {
	return len(args) == 1 && (strings.TrimSpace(args[0]) == "memory_order_relaxed" || strings.TrimSpace(args[0]) == "__ATOMIC_RELAXED")
}
