package checks

import (
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"github.com/embedeval/embedeval-go/internal/cexpr"
	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/ctext"
)

// evalInt is the constant part of c.eval_int(code, expr, function=None):
// the value of a C integer constant expression with the code's macros, enum
// constants and const variables (file scope, and the locals of function
// when given), or None when it is not constant (evalIntFollowing then
// follows values).
func evalInt(_ *starlark.Builtin, _ *callState, f *csyntax.File, extra []string) (starlark.Value, error) {
	expr, function := extra[0], extra[1]
	if strings.TrimSpace(expr) == "" || f == nil {
		return starlark.None, nil
	}
	v, err := cexpr.EvalValue(expr, newFollower(f, false, nil).env(function))
	if err != nil {
		return starlark.None, nil
	}
	if v.Unsigned {
		return starlark.MakeUint64(v.Bits), nil
	}
	return starlark.MakeInt64(v.Int64()), nil
}

// constEnv collects what an expression in f may name.
func constEnv(f *csyntax.File, function string) cexpr.Env {
	env := cexpr.Env{Objects: map[string]string{}, Functions: map[string]cexpr.FuncMacro{}}
	for _, m := range f.Macros() {
		switch {
		case m.FunctionLike:
			env.Functions[m.Name] = cexpr.FuncMacro{Params: m.Params, Body: m.Value}
		case m.Value != "":
			env.Objects[m.Name] = m.Value
		}
	}
	env.Types = map[string]string{}
	if ms, err := f.Query("(type_definition type: (_) @type declarator: (type_identifier) @name)"); err == nil {
		for _, m := range ms {
			if len(m.Captures["type"]) > 0 && len(m.Captures["name"]) > 0 {
				env.Types[m.Captures["name"][0].Text] = m.Captures["type"][0].Text
			}
		}
	}
	if ms, err := f.Query("(enumerator_list) @list"); err == nil {
		for _, m := range ms {
			for _, c := range m.Captures["list"] {
				enumConstants(c.Text, env.Objects)
			}
		}
	}
	decls := f.Declarations(csyntax.GlobalScope)
	if function != "" {
		decls = append(decls, f.Declarations(function)...)
	}
	for _, d := range decls {
		if d.Init != "" && !d.Pointer && !d.Array && slices.Contains(d.Qualifiers, "const") {
			env.Objects[d.Name] = d.Init
		}
	}
	env.Sizeof = objectSizes(f, function, env)
	return env
}

// objectSizes answers sizeof of a declared object for env: "buf" (every
// dimension), "buf [ 0 ]" or "* buf" (one dimension fewer), for an array or
// scalar of a type whose size cexpr knows (char, int, the fixed-width
// integers, typedefs of them); function's declarations first, then the
// file's. A pointer, a struct or a dimension that is not constant is not
// known.
func objectSizes(f *csyntax.File, function string, env cexpr.Env) func(string) (int64, bool) {
	plain := cexpr.Env{Objects: env.Objects, Functions: env.Functions, Types: env.Types}
	return func(operand string) (int64, bool) {
		words := strings.Fields(operand)
		levels := 0
		for len(words) > 0 && words[0] == "*" {
			levels++
			words = words[1:]
		}
		if len(words) == 0 {
			return 0, false
		}
		name, rest := words[0], words[1:]
		for len(rest) > 0 {
			if rest[0] != "[" {
				return 0, false
			}
			depth, i := 0, 0
			for ; i < len(rest); i++ {
				if rest[i] == "[" {
					depth++
				} else if rest[i] == "]" {
					if depth--; depth == 0 {
						break
					}
				}
			}
			if i == len(rest) {
				return 0, false
			}
			levels++
			rest = rest[i+1:]
		}
		var decl *csyntax.Declaration
		for _, scope := range []string{function, csyntax.GlobalScope} {
			if scope == "" && function == "" {
				continue
			}
			for _, d := range f.Declarations(scope) {
				if d.Name == name {
					decl = &d
					break
				}
			}
			if decl != nil {
				break
			}
		}
		if decl == nil || decl.Pointer || levels > len(decl.Dims) {
			return 0, false
		}
		size, err := cexpr.Eval("sizeof("+decl.Type+")", plain)
		if err != nil {
			return 0, false
		}
		for _, dim := range decl.Dims[levels:] {
			n, err := cexpr.Eval(dim, plain)
			if dim == "" || err != nil || n <= 0 {
				return 0, false
			}
			size *= n
		}
		return size, true
	}
}

// enumConstants adds the constants of "{ A, B = 4, C }" to objects, an
// implicit value being the last explicit one (or 0) plus its distance.
func enumConstants(list string, objects map[string]string) {
	body := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(ctext.StripComments(list)), "{"), "}")
	base, offset := "0", 0
	for _, item := range csyntax.SplitArgs(body) {
		name, value, hasValue := strings.Cut(item, "=")
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if hasValue {
			base, offset = "("+strings.TrimSpace(value)+")", 0
		}
		objects[name] = fmt.Sprintf("%s + %d", base, offset)
		offset++
	}
}
