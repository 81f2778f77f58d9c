package checks

import (
	"fmt"

	"go.starlark.net/starlark"

	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/halting"
)

// neverReturns is c.never_returns(code, function): True, False, or None when
// the code does not tell.
func neverReturns() builtinFunc {
	calls, loadErr := halting.Default()
	return withFile(func(b *starlark.Builtin, _ *callState, f *csyntax.File, extra []string) (starlark.Value, error) {
		if extra[0] == "" {
			return nil, fmt.Errorf("%s: missing argument for function", b.Name())
		}
		if loadErr != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), loadErr)
		}
		if f == nil {
			return starlark.None, nil
		}
		switch f.NeverReturns(extra[0], calls) {
		case csyntax.Yes:
			return starlark.True, nil
		case csyntax.No:
			return starlark.False, nil
		}
		return starlark.None, nil
	}, "function")
}

// branchExits is c.branch_exits(code, function=None, condition=None,
// line=None): one dict per matching if statement.
func branchExits() builtinFunc {
	calls, loadErr := halting.Default()
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code string
		var function, condition, line starlark.Value = starlark.None, starlark.None, starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "function?", &function, "condition?", &condition, "line?", &line); err != nil {
			return nil, err
		}
		var strs [2]string
		for i, v := range []starlark.Value{function, condition} {
			if v == starlark.None {
				continue
			}
			s, ok := starlark.AsString(v)
			if !ok {
				return nil, fmt.Errorf("%s: %s must be a string or None, got %s", b.Name(), [...]string{"function", "condition"}[i], v.Type())
			}
			strs[i] = s
		}
		n := 0
		if line != starlark.None {
			i, err := starlark.AsInt32(line)
			if err != nil || i < 1 {
				return nil, fmt.Errorf("%s: line must be a positive int or None, got %s", b.Name(), line.String())
			}
			n = i
		}
		if loadErr != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), loadErr)
		}
		st := stateOf(th)
		f, err := st.parsed(code)
		if err != nil {
			return nil, err
		}
		if f == nil {
			return starlark.NewList(nil), nil
		}
		branches := f.BranchExits(strs[0], strs[1], n, calls)
		if f.Interrupted() {
			return nil, st.timeLimit()
		}
		if err := st.structList(len(branches), 8); err != nil {
			return nil, err
		}
		out := make([]starlark.Value, len(branches))
		for i, br := range branches {
			d := starlark.NewDict(5)
			elseExits := starlark.Value(starlark.None)
			if br.HasElse {
				elseExits = stringsToList(br.Else.Names())
			}
			_ = d.SetKey(starlark.String("function"), starlark.String(br.Function))
			_ = d.SetKey(starlark.String("line"), starlark.MakeInt(br.Line))
			_ = d.SetKey(starlark.String("condition"), starlark.String(br.Condition))
			_ = d.SetKey(starlark.String("exits"), stringsToList(br.Then.Names()))
			_ = d.SetKey(starlark.String("else_exits"), elseExits)
			out[i] = d
		}
		return starlark.NewList(out), nil
	}
}
