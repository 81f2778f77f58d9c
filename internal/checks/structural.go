package checks

import (
	"fmt"

	"go.starlark.net/starlark"

	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/isrctx"
)

// The helpers of this file answer from the session's syntax tree of the
// code (one C front end, the tree the c module reads): which functions run
// in interrupt context and what they call, how a variable is declared, in
// which order a body releases resources.

// onParsed runs f on the session's parse of code; f is not run when the
// code cannot be parsed at all (the helper then answers empty or False).
// An answer the call's deadline cut short becomes the time-limit error.
func onParsed(th *starlark.Thread, name, code string, f func(*csyntax.File)) error {
	if err := checkInput(name, len(code)); err != nil {
		return err
	}
	file, err := stateOf(th).parsed(code)
	if err != nil {
		return err
	}
	if file != nil {
		f(file)
	}
	return interrupted(th, file)
}

func findISRBodies(vocab loaded[*isrctx.Vocabulary]) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code string
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code); err != nil {
			return nil, err
		}
		if vocab.err != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), vocab.err)
		}
		var defs []csyntax.Definition
		if err := onParsed(th, b.Name(), code, func(f *csyntax.File) { defs = f.ISRDefinitions(vocab.v) }); err != nil {
			return nil, err
		}
		return isrBodyList(th, code, defs)
	}
}

// isrBodyList is find_isr_bodies' answer: a list of struct(name, line,
// body), the body as extract_function_body gives it (between the braces,
// comments blanked).
func isrBodyList(th *starlark.Thread, code string, defs []csyntax.Definition) (starlark.Value, error) {
	st := stateOf(th)
	if err := st.structList(len(defs), 3); err != nil {
		return nil, err
	}
	codeOnly := ""
	if len(defs) > 0 {
		codeOnly = st.cache.source(code).CodeOnly()
	}
	out := make([]starlark.Value, len(defs))
	for i, d := range defs {
		end := len(codeOnly)
		if d.Close >= 0 && d.Close <= end {
			end = d.Close
		}
		body := ""
		if d.Open+1 <= end {
			body = codeOnly[d.Open+1 : end]
		}
		out[i] = newStruct(starlark.StringDict{"name": starlark.String(d.Name), "line": starlark.MakeInt(d.Line), "body": starlark.String(body)})
	}
	return starlark.NewList(out), nil
}

func checkNoISRForbidden(vocab loaded[*isrctx.Vocabulary]) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code string
		var forbiddenV starlark.Value = starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "forbidden?", &forbiddenV); err != nil {
			return nil, err
		}
		var list []string
		if forbiddenV != starlark.None {
			var err error
			if list, err = stringList(forbiddenV); err != nil {
				return nil, fmt.Errorf("%s: forbidden %w", b.Name(), err)
			}
		}
		if vocab.err != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), vocab.err)
		}
		var vs []csyntax.ISRViolation
		if err := onParsed(th, b.Name(), code, func(f *csyntax.File) { vs = f.ISRForbiddenCalls(list, vocab.v) }); err != nil {
			return nil, err
		}
		return violationList(th, vs)
	}
}

// violationList is check_no_isr_forbidden's answer: a list of
// struct(function, api, line).
func violationList(th *starlark.Thread, vs []csyntax.ISRViolation) (starlark.Value, error) {
	if err := stateOf(th).structList(len(vs), 3); err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(vs))
	for i, v := range vs {
		out[i] = newStruct(starlark.StringDict{"function": starlark.String(v.Function), "api": starlark.String(v.API), "line": starlark.MakeInt(v.Line)})
	}
	return starlark.NewList(out), nil
}

func checkQualifierOnVariable(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code, variable, qualifier string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "variable", &variable, "qualifier", &qualifier); err != nil {
		return nil, err
	}
	var out bool
	if err := onParsed(th, b.Name(), code, func(f *csyntax.File) { out = f.QualifierOnVariable(variable, qualifier) }); err != nil {
		return nil, err
	}
	return starlark.Bool(out), nil
}

func checkCleanupReverseOrder(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code string
	var pairsV starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "pairs", &pairsV); err != nil {
		return nil, err
	}
	pairs, err := cleanupPairs(b.Name(), pairsV)
	if err != nil {
		return nil, err
	}
	var out bool
	if err := onParsed(th, b.Name(), code, func(f *csyntax.File) { out = f.CleanupReverseOrder(pairs) }); err != nil {
		return nil, err
	}
	return starlark.Bool(out), nil
}

// cleanupPairs reads check_cleanup_reverse_order's pairs: a list or tuple
// of (acquire, release) pairs of strings.
func cleanupPairs(name string, v starlark.Value) ([][2]string, error) {
	seq, ok := v.(starlark.Indexable)
	if !ok {
		return nil, fmt.Errorf("%s: pairs must be a list of (acquire, release) pairs, got %s", name, v.Type())
	}
	pairs := make([][2]string, 0, seq.Len())
	for i := 0; i < seq.Len(); i++ {
		p, ok := seq.Index(i).(starlark.Indexable)
		if !ok || p.Len() != 2 {
			return nil, fmt.Errorf("%s: pairs[%d] must be an (acquire, release) pair of strings", name, i)
		}
		a, ok1 := starlark.AsString(p.Index(0))
		r, ok2 := starlark.AsString(p.Index(1))
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%s: pairs[%d] must be an (acquire, release) pair of strings", name, i)
		}
		pairs = append(pairs, [2]string{a, r})
	}
	return pairs, nil
}
