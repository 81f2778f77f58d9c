package checks

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/embedeval/embedeval-go/internal/cexpr"
	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// valueBuiltins are the c.* builtins that compute values through code.
func valueBuiltins() map[string]builtinFunc {
	return map[string]builtinFunc{
		"eval_int":   withExpr(evalIntFollowing),
		"eval":       withExpr(evalFollowing),
		"expand":     withExpr(expandBuiltin),
		"arg_values": argValuesBuiltin,
		"address":    addressBuiltin,
	}
}

// exprArgs are the arguments of c.eval_int, c.eval and c.expand.
type exprArgs struct {
	expr, function string
	line           int
	hasLine        bool
}

// withExpr unpacks (code, expr, function=None, line=None) and hands the
// session's parsed tree of code to f; like withFile, work cut short at the
// deadline fails with the time limit.
func withExpr(f func(st *callState, file *csyntax.File, a exprArgs) (starlark.Value, error)) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code string
		var a exprArgs
		var function, line starlark.Value = starlark.None, starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "expr", &a.expr, "function?", &function, "line?", &line); err != nil {
			return nil, err
		}
		if function != starlark.None {
			s, ok := starlark.AsString(function)
			if !ok {
				return nil, fmt.Errorf("%s: function must be a string or None, got %s", b.Name(), function.Type())
			}
			a.function = s
		}
		if line != starlark.None {
			if err := starlark.AsInt(line, &a.line); err != nil {
				return nil, fmt.Errorf("%s: line must be an int or None: %w", b.Name(), err)
			}
			a.hasLine = true
		}
		st := stateOf(th)
		file, err := st.parsed(code)
		if err != nil {
			return nil, err
		}
		v, err := f(st, file, a)
		if file.Interrupted() {
			return nil, st.timeLimit()
		}
		if err == nil && st.poll() != nil {
			return nil, st.poll()
		}
		return v, err
	}
}

// stopOf is the deadline poll of a follower working for st.
func stopOf(st *callState) func() bool {
	return func() bool { return st.poll() != nil }
}

// evalIntFollowing is c.eval_int: the constant value as before, else the
// value found by following variables, parameters, members and calls.
func evalIntFollowing(st *callState, f *csyntax.File, a exprArgs) (starlark.Value, error) {
	if v, err := evalInt(nil, st, f, []string{a.expr, a.function}); err != nil || v != starlark.None || f == nil {
		return v, err
	}
	return follow(st, f, a, false)
}

// evalFollowing is c.eval: c.eval_int's rules with floating point.
func evalFollowing(st *callState, f *csyntax.File, a exprArgs) (starlark.Value, error) {
	if strings.TrimSpace(a.expr) == "" || f == nil {
		return starlark.None, nil
	}
	return follow(st, f, a, true)
}

// follow evaluates a's expression with a follower.
func follow(st *callState, f *csyntax.File, a exprArgs, floats bool) (starlark.Value, error) {
	fw := newFollower(f, floats, stopOf(st))
	line := 0
	if a.hasLine {
		line = max(a.line, 1)
	}
	if _, ok := fw.definitions()[a.function]; a.function != "" && !ok {
		return starlark.None, nil
	}
	n, ok := fw.Eval(a.expr, a.function, line)
	if !ok {
		return starlark.None, nil
	}
	return numValue(n), nil
}

// numValue is the Starlark value of n.
func numValue(n cexpr.Num) starlark.Value {
	switch {
	case n.Float:
		return starlark.Float(n.F)
	case n.Int.Unsigned:
		return starlark.MakeUint64(n.Int.Bits)
	}
	return starlark.MakeInt64(n.Int.Int64())
}

// expandBuiltin is c.expand: expr with the file's macros expanded.
func expandBuiltin(st *callState, f *csyntax.File, a exprArgs) (starlark.Value, error) {
	if a.hasLine {
		return nil, fmt.Errorf("c.expand: unexpected keyword argument line")
	}
	macros := &macroTable{objects: map[string][]ctok{}, functions: map[string]cexpr.FuncMacro{}}
	if f != nil {
		macros = fileMacros(f)
	}
	out, err := expandText(macros, a.expr)
	if err != nil {
		return starlark.None, nil
	}
	return starlark.String(out), st.newBytes("string", int64(len(out)))
}

// argValuesBuiltin is c.arg_values(code, callee, index).
func argValuesBuiltin(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code, callee string
	var index int
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "callee", &callee, "index", &index); err != nil {
		return nil, err
	}
	if callee == "" || index < 0 {
		return nil, fmt.Errorf("%s: need a callee name and an index >= 0", b.Name())
	}
	st := stateOf(th)
	f, err := st.parsed(code)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return starlark.NewList(nil), nil
	}
	fw := newFollower(f, true, stopOf(st))
	vals := fw.argValues(callee, index)
	if f.Interrupted() || st.poll() != nil {
		return nil, st.timeLimit()
	}
	if err := st.structList(len(vals), 5); err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(vals))
	for i, v := range vals {
		value := starlark.Value(starlark.None)
		if v.ok {
			value = numValue(v.n)
		}
		out[i] = newStruct(starlark.StringDict{"function": starlark.String(v.function), "line": starlark.MakeInt(v.line),
			"text": starlark.String(v.text), "value": value, "via": stringsToList(v.via)})
	}
	return starlark.NewList(out), nil
}
