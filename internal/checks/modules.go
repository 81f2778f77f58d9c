package checks

import (
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/embedeval/embedeval-go/internal/bytesize"
	"github.com/embedeval/embedeval-go/internal/cexpr"
	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/devicetree"
	"github.com/embedeval/embedeval-go/internal/kconfig"
)

func module(name string, fns map[string]builtinFunc) *starlarkstruct.Module {
	m := &starlarkstruct.Module{Name: name, Members: starlark.StringDict{}}
	for n, f := range fns {
		m.Members[n] = starlark.NewBuiltin(name+"."+n, polled(f))
	}
	return m
}

// withFile unpacks (code, <extra params>) and hands the session's parsed tree
// of code to f, with the call's state to count what f builds. A parse that
// fails (too large) yields an empty file view. Parsing, and the walks and
// queries of the tree, stop at the call's deadline: the builtin then fails
// with the time limit instead of answering from an incomplete tree.
func withFile(f func(b *starlark.Builtin, st *callState, file *csyntax.File, extra []string) (starlark.Value, error), extra ...string) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code string
		vals := make([]starlark.Value, len(extra))
		pairs := []any{"code", &code}
		for i, e := range extra {
			vals[i] = starlark.None
			pairs = append(pairs, e+"?", &vals[i])
		}
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, pairs...); err != nil {
			return nil, err
		}
		strs := make([]string, len(extra))
		for i, v := range vals {
			if v == starlark.None {
				continue
			}
			s, ok := starlark.AsString(v)
			if !ok {
				return nil, fmt.Errorf("%s: %s must be a string or None, got %s", b.Name(), extra[i], v.Type())
			}
			strs[i] = s
		}
		st := stateOf(th)
		file, err := st.parsed(code)
		if err != nil {
			return nil, err
		}
		v, err := f(b, st, file, strs)
		if file.Interrupted() {
			return nil, st.timeLimit()
		}
		return v, err
	}
}

func cModule() *starlarkstruct.Module {
	fns := map[string]builtinFunc{
		"functions": withFile(func(_ *starlark.Builtin, st *callState, f *csyntax.File, _ []string) (starlark.Value, error) {
			if f == nil {
				return starlark.NewList(nil), nil
			}
			fs := f.Functions()
			n := 0
			for _, fn := range fs {
				n += len(fn.Params) + len(fn.Attributes)
			}
			if err := st.structList(len(fs), 9); err != nil {
				return nil, err
			}
			if err := st.newStructs(n, 2*n); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(fs))
			for i, fn := range fs {
				out[i] = cFunction(fn)
			}
			return starlark.NewList(out), nil
		}),
		"function": withFile(func(b *starlark.Builtin, _ *callState, f *csyntax.File, extra []string) (starlark.Value, error) {
			if extra[0] == "" {
				return nil, fmt.Errorf("%s: missing argument for name", b.Name())
			}
			if f == nil {
				return starlark.None, nil
			}
			fn, ok := f.Function(extra[0])
			if !ok {
				return starlark.None, nil
			}
			return cFunction(fn), nil
		}, "name"),
		"calls": withFile(func(_ *starlark.Builtin, st *callState, f *csyntax.File, extra []string) (starlark.Value, error) {
			if f == nil {
				return starlark.NewList(nil), nil
			}
			calls := f.Calls(extra[0])
			n := 0
			for _, c := range calls {
				n += len(c.Args)
			}
			if err := st.structList(len(calls), 4+n/max(1, len(calls))); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(calls))
			for i, c := range calls {
				out[i] = newStruct(starlark.StringDict{"name": starlark.String(c.Name), "args": stringsToList(c.Args),
					"line": starlark.MakeInt(c.Line), "function": starlark.String(c.Function)})
			}
			return starlark.NewList(out), nil
		}, "within"),
		"assignments": withFile(func(b *starlark.Builtin, st *callState, f *csyntax.File, extra []string) (starlark.Value, error) {
			if f == nil {
				return starlark.NewList(nil), nil
			}
			as := f.Assignments(extra[0])
			if err := st.structList(len(as), 5); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(as))
			for i, a := range as {
				out[i] = newStruct(starlark.StringDict{"target": starlark.String(a.Target), "op": starlark.String(a.Op),
					"value": starlark.String(a.Value), "line": starlark.MakeInt(a.Line), "function": starlark.String(a.Function)})
			}
			return starlark.NewList(out), nil
		}, "target"),
		"callees": callees,
		"declarations": withFile(func(_ *starlark.Builtin, st *callState, f *csyntax.File, extra []string) (starlark.Value, error) {
			if f == nil {
				return starlark.NewList(nil), nil
			}
			ds := f.Declarations(extra[0])
			if err := st.structList(len(ds), 17); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(ds))
			for i, d := range ds {
				out[i] = newStruct(starlark.StringDict{"name": starlark.String(d.Name), "type": starlark.String(d.Type),
					"qualifiers": stringsToList(d.Qualifiers), "pointer_qualifiers": stringsToList(d.PointerQualifiers),
					"storage": stringsToList(d.Storage), "attributes": stringsToList(d.Attributes),
					"pointer": starlark.Bool(d.Pointer), "array": starlark.Bool(d.Array), "dims": stringsToList(d.Dims), "init": starlark.String(d.Init),
					"line": starlark.MakeInt(d.Line), "scope": starlark.String(d.Scope)})
			}
			return starlark.NewList(out), nil
		}, "within"),
		"includes": withFile(func(_ *starlark.Builtin, st *callState, f *csyntax.File, _ []string) (starlark.Value, error) {
			if f == nil {
				return starlark.NewList(nil), nil
			}
			inc := f.Includes()
			if err := st.structList(len(inc), 3); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(inc))
			for i, in := range inc {
				out[i] = newStruct(starlark.StringDict{"path": starlark.String(in.Path), "system": starlark.Bool(in.System), "line": starlark.MakeInt(in.Line)})
			}
			return starlark.NewList(out), nil
		}),
		"has_include": hasInclude(),
		"macros": withFile(func(_ *starlark.Builtin, st *callState, f *csyntax.File, _ []string) (starlark.Value, error) {
			if f == nil {
				return starlark.NewList(nil), nil
			}
			ms := f.Macros()
			if err := st.structList(len(ms), 6); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(ms))
			for i, m := range ms {
				out[i] = newStruct(starlark.StringDict{"name": starlark.String(m.Name), "params": stringsToList(m.Params),
					"function_like": starlark.Bool(m.FunctionLike), "value": starlark.String(m.Value), "line": starlark.MakeInt(m.Line)})
			}
			return starlark.NewList(out), nil
		}),
		"eval_int": withFile(evalInt, "expr", "function"),
		"has_errors": withFile(func(_ *starlark.Builtin, _ *callState, f *csyntax.File, _ []string) (starlark.Value, error) {
			return starlark.Bool(f == nil || f.HasErrors()), nil
		}),
		"query": withFile(func(b *starlark.Builtin, st *callState, f *csyntax.File, extra []string) (starlark.Value, error) {
			if extra[0] == "" {
				return nil, fmt.Errorf("%s: missing argument for pattern", b.Name())
			}
			if len(extra[0]) > maxQuery {
				// Compiling a query is slow and recursive in C: a long
				// or deeply nested one would stall or crash the process.
				return nil, &limitError{msg: fmt.Sprintf("exceeded the size limit of %s for a query pattern (%s got %d bytes)", bytesize.Format(maxQuery), b.Name(), len(extra[0]))}
			}
			if f == nil {
				return starlark.NewList(nil), nil
			}
			ms, err := f.Query(extra[0])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", b.Name(), err)
			}
			if err := st.newElems("list", int64(len(ms))); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(ms))
			for i, m := range ms {
				n := 0
				for _, caps := range m.Captures {
					n += len(caps)
				}
				if err := st.newStructs(1+n, 2*len(m.Captures)+4*n); err != nil {
					return nil, err
				}
				d := starlark.NewDict(len(m.Captures))
				names := make([]string, 0, len(m.Captures))
				for n := range m.Captures {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					caps := make([]starlark.Value, len(m.Captures[n]))
					for j, c := range m.Captures[n] {
						caps[j] = newStruct(starlark.StringDict{"text": starlark.String(c.Text), "kind": starlark.String(c.Kind),
							"line": starlark.MakeInt(c.Line), "end_line": starlark.MakeInt(c.EndLine)})
					}
					_ = d.SetKey(starlark.String(n), starlark.NewList(caps))
				}
				out[i] = d
			}
			return starlark.NewList(out), nil
		}, "pattern"),
		"never_returns": neverReturns(),
		"branch_exits":  branchExits(),
		"sleeps":        sleeps(),
		"busy_waits":    busyWaits(),
		"barriers":      barriers(),
	}
	for _, more := range []map[string]builtinFunc{valueBuiltins(), traceBuiltins()} {
		for name, f := range more {
			fns[name] = f
		}
	}
	return module("c", fns)
}

func cFunction(fn csyntax.Function) starlark.Value {
	params := make([]starlark.Value, len(fn.Params))
	for i, p := range fn.Params {
		params[i] = newStruct(starlark.StringDict{"type": starlark.String(p.Type), "name": starlark.String(p.Name)})
	}
	return newStruct(starlark.StringDict{
		"name": starlark.String(fn.Name), "return_type": starlark.String(fn.ReturnType), "params": starlark.NewList(params),
		"body": starlark.String(fn.Body), "line": starlark.MakeInt(fn.Line), "end_line": starlark.MakeInt(fn.EndLine),
		"static": starlark.Bool(fn.Static), "inline": starlark.Bool(fn.Inline), "attributes": stringsToList(fn.Attributes),
	})
}

func kconfigModule() *starlarkstruct.Module {
	return module("kconfig", map[string]builtinFunc{
		"parse": func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var text string
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "text", &text); err != nil {
				return nil, err
			}
			var frag kconfig.Fragment
			if err := onText(th, b.Name(), text, func() { frag = kconfig.Parse(text) }); err != nil {
				return nil, err
			}
			if err := stateOf(th).structList(len(frag.Assignments)+len(frag.Problems), 5); err != nil {
				return nil, err
			}
			assigns := make([]starlark.Value, len(frag.Assignments))
			values := starlark.NewDict(len(frag.Assignments))
			for i, a := range frag.Assignments {
				assigns[i] = newStruct(starlark.StringDict{"symbol": starlark.String(a.Symbol), "value": starlark.String(a.Value),
					"kind": starlark.String(a.Kind), "line": starlark.MakeInt(a.Line)})
				_ = values.SetKey(starlark.String(a.Symbol), starlark.String(a.Value))
			}
			problems := make([]starlark.Value, len(frag.Problems))
			for i, p := range frag.Problems {
				problems[i] = newStruct(starlark.StringDict{"line": starlark.MakeInt(p.Line), "message": starlark.String(p.Message), "text": starlark.String(p.Text)})
			}
			value := starlark.NewBuiltin("value", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				var sym string
				var def starlark.Value = starlark.None
				if err := starlark.UnpackArgs(b.Name(), args, kwargs, "symbol", &sym, "default?", &def); err != nil {
					return nil, err
				}
				if v, ok := frag.Value(sym); ok {
					return starlark.String(v), nil
				}
				return def, nil
			})
			enabled := starlark.NewBuiltin("enabled", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				var sym string
				if err := starlark.UnpackArgs(b.Name(), args, kwargs, "symbol", &sym); err != nil {
					return nil, err
				}
				return starlark.Bool(frag.Enabled(sym)), nil
			})
			return newStruct(starlark.StringDict{"assignments": starlark.NewList(assigns), "values": values,
				"problems": starlark.NewList(problems), "duplicates": stringsToList(frag.Duplicates()),
				"value": value, "enabled": enabled}), nil
		},
	})
}

func dtsModule() *starlarkstruct.Module {
	return module("dts", map[string]builtinFunc{
		"parse": func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var text string
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "text", &text); err != nil {
				return nil, err
			}
			var tree *devicetree.Tree
			var err error
			if err := onText(th, b.Name(), text, func() { tree, err = devicetree.Parse(text) }); err != nil {
				return nil, err
			}
			errV := starlark.Value(starlark.None)
			if err != nil {
				errV = starlark.String(err.Error())
				tree = &devicetree.Tree{}
			}
			if err := stateOf(th).structList(len(tree.Nodes)+len(tree.Directives), 12); err != nil {
				return nil, err
			}
			conv := &dtsConverter{seen: map[*devicetree.Node]starlark.Value{}, env: dtsEnv(tree)}
			nodes := make([]starlark.Value, len(tree.Nodes))
			for i, n := range tree.Nodes {
				nodes[i] = conv.node(n)
			}
			directives := make([]starlark.Value, len(tree.Directives))
			for i, d := range tree.Directives {
				directives[i] = newStruct(starlark.StringDict{"name": starlark.String(d.Name), "value": starlark.String(d.Value), "line": starlark.MakeInt(d.Line)})
			}
			labels := starlark.NewDict(0)
			names := []string{}
			for l := range tree.Labels() {
				names = append(names, l)
			}
			sort.Strings(names)
			for _, l := range names {
				_ = labels.SetKey(starlark.String(l), conv.node(tree.Labels()[l]))
			}
			find := starlark.NewBuiltin("node", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				var key string
				if err := starlark.UnpackArgs(b.Name(), args, kwargs, "path_or_label", &key); err != nil {
					return nil, err
				}
				n, ok := tree.Node(key)
				if !ok {
					return starlark.None, nil
				}
				return conv.node(n), nil
			})
			return newStruct(starlark.StringDict{"nodes": starlark.NewList(nodes), "labels": labels, "error": errV, "node": find,
				"directives": starlark.NewList(directives)}), nil
		},
	})
}

// dtsConverter turns parsed nodes into Starlark structs, each node once.
type dtsConverter struct {
	seen map[*devicetree.Node]starlark.Value
	// env resolves the macros of cell expressions.
	env cexpr.Env
}

// dtsEnv collects the #define lines of an overlay for cell evaluation.
func dtsEnv(tree *devicetree.Tree) cexpr.Env {
	env := cexpr.Env{Objects: map[string]string{}, Functions: map[string]cexpr.FuncMacro{}}
	for _, d := range tree.Directives {
		if d.Name != "#define" {
			continue
		}
		v := d.Value
		i := 0
		for i < len(v) && (v[i] == '_' || v[i] >= 'a' && v[i] <= 'z' || v[i] >= 'A' && v[i] <= 'Z' || v[i] >= '0' && v[i] <= '9') {
			i++
		}
		name := v[:i]
		if i < len(v) && v[i] == '(' {
			if end := strings.IndexByte(v[i:], ')'); end > 0 {
				env.Functions[name] = cexpr.FuncMacro{Params: csyntax.SplitArgs(v[i+1 : i+end]), Body: strings.TrimSpace(v[i+end+1:])}
			}
			continue
		}
		if body := strings.TrimSpace(v[i:]); name != "" && body != "" {
			env.Objects[name] = body
		}
	}
	return env
}

func (cv *dtsConverter) node(n *devicetree.Node) starlark.Value {
	if v, ok := cv.seen[n]; ok {
		return v
	}
	props := starlark.NewDict(len(n.Properties))
	for _, p := range n.Properties {
		_ = props.SetKey(starlark.String(p.Name), starlark.String(p.Value))
	}
	children := make([]string, len(n.Children))
	for i, c := range n.Children {
		children[i] = c.Path
	}
	prop := func(name string, conv func(devicetree.Property) starlark.Value) *starlark.Builtin {
		return starlark.NewBuiltin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var key string
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name", &key); err != nil {
				return nil, err
			}
			p, ok := n.Property(key)
			if !ok {
				return starlark.None, nil
			}
			return conv(p), nil
		})
	}
	v := newStruct(starlark.StringDict{
		"path": starlark.String(n.Path), "name": starlark.String(n.Name), "unit_address": starlark.String(n.UnitAddress),
		"labels": stringsToList(n.Labels), "ref": starlark.String(n.Ref), "line": starlark.MakeInt(n.Line),
		"properties": props, "children": stringsToList(children),
		"deleted_nodes": stringsToList(n.DeletedNodes), "deleted_properties": stringsToList(n.DeletedProperties),
		"prop":    prop("prop", func(p devicetree.Property) starlark.Value { return starlark.String(p.Value) }),
		"strings": prop("strings", func(p devicetree.Property) starlark.Value { return stringsToList(p.Strings()) }),
		"cells":   prop("cells", func(p devicetree.Property) starlark.Value { return stringsToList(p.Cells()) }),
		"cell_values": starlark.NewBuiltin("cell_values", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var key string
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name", &key); err != nil {
				return nil, err
			}
			p, ok := n.Property(key)
			if !ok {
				return starlark.None, nil
			}
			st := stateOf(th)
			cells := p.Cells()
			if err := st.newElems("list", int64(len(cells))); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(cells))
			for i, c := range cells {
				// Each evaluation is bounded, not the number of cells.
				if err := st.poll(); err != nil {
					return nil, err
				}
				out[i] = starlark.None
				if x, err := cexpr.Eval(c, cv.env); err == nil {
					out[i] = starlark.MakeInt64(x)
				}
			}
			return starlark.NewList(out), nil
		}),
		"bytes": prop("bytes", func(p devicetree.Property) starlark.Value {
			bs, ok := p.Bytes()
			if !ok {
				return starlark.None
			}
			out := make([]starlark.Value, len(bs))
			for i, b := range bs {
				out[i] = starlark.MakeInt(int(b))
			}
			return starlark.NewList(out)
		}),
	})
	cv.seen[n] = v
	return v
}

// callees is c.callees(code, function, stop=None).
func callees(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code, function string
	var stop starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "function", &function, "stop?", &stop); err != nil {
		return nil, err
	}
	if function == "" {
		return nil, fmt.Errorf("%s: missing argument for function", b.Name())
	}
	var stops []string
	if stop != starlark.None {
		var err error
		if stops, err = stringList(stop); err != nil {
			return nil, fmt.Errorf("%s: stop %w", b.Name(), err)
		}
	}
	st := stateOf(th)
	f, err := st.parsed(code)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return starlark.NewList(nil), nil
	}
	out := f.Callees(function, stops...)
	if f.Interrupted() {
		return nil, st.timeLimit()
	}
	return stringsToList(out), st.newElems("list", int64(len(out)))
}
