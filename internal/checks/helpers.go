package checks

import (
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/embedeval/embedeval-go/internal/ctext"
	"github.com/embedeval/embedeval-go/internal/udev"
)

// predeclared returns the names every check file sees: CheckDetail, the
// contract's helper functions, and the re, c, kconfig and dts modules. Every
// helper is total on model output: malformed code gives an empty or False
// answer, never an error; only a check author's misuse (wrong argument types)
// raises.
func predeclared() starlark.StringDict {
	d := starlark.StringDict{
		"CheckDetail": checkDetailBuiltin(starlark.String("CheckDetail")),
		"struct":      starlark.NewBuiltin("struct", starlarkstruct.Make),
		"re":          reModule(),
		"c":           cModule(),
		"kconfig":     kconfigModule(),
		"dts":         dtsModule(),
	}
	for name, fn := range map[string]func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error){
		"strip_comments":                sourceStr(func(src *ctext.Source) string { return src.CodeOnly() }),
		"strip_string_literals":         strFunc(ctext.StripStringLiterals),
		"scoped_contains":               scopedContains,
		"has_word":                      boolFunc2("word", (*ctext.Source).HasWord),
		"has_api_call":                  boolFunc2("name", (*ctext.Source).HasAPICall),
		"extract_function_body":         extractFunctionBody,
		"find_isr_bodies":               findISRBodies,
		"check_api_in_function":         checkAPIInFunction,
		"check_qualifier_on_variable":   checkQualifierOnVariable,
		"check_return_after_error":      checkReturnAfterError,
		"error_handling_sites":          errorHandlingSites,
		"check_cleanup_reverse_order":   checkCleanupReverseOrder,
		"check_no_cross_platform_apis":  checkNoCrossPlatformAPIs,
		"check_no_isr_forbidden":        checkNoISRForbidden,
		"udev_rule_matches":             udevRuleFunc(udev.RuleMatches),
		"udev_rule_assigns":             udevRuleFunc(udev.RuleAssigns),
		"udev_match_key_used_as_assign": udevMatchKeyUsedAsAssign,
	} {
		d[name] = starlark.NewBuiltin(name, fn)
	}
	return d
}

type builtinFunc = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)

func newStruct(fields starlark.StringDict) *starlarkstruct.Struct {
	return starlarkstruct.FromStringDict(starlarkstruct.Default, fields)
}

func stringsToList(ss []string) *starlark.List {
	vs := make([]starlark.Value, len(ss))
	for i, s := range ss {
		vs[i] = starlark.String(s)
	}
	return starlark.NewList(vs)
}

func strFunc(f func(string) string) builtinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code string
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code); err != nil {
			return nil, err
		}
		return starlark.String(f(code)), nil
	}
}

func sourceStr(f func(*ctext.Source) string) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code string
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code); err != nil {
			return nil, err
		}
		return starlark.String(f(sessionOf(th).source(code))), nil
	}
}

func boolFunc2(second string, f func(*ctext.Source, string) bool) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code, x string
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, second, &x); err != nil {
			return nil, err
		}
		return starlark.Bool(f(sessionOf(th).source(code), x)), nil
	}
}

func scopedContains(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code, needle string
	scope := string(ctext.ScopeStripped)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "needle", &needle, "scope?", &scope); err != nil {
		return nil, err
	}
	sc, err := ctext.ParseScope(scope)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name(), err)
	}
	return starlark.Bool(sessionOf(th).source(code).ScopedContains(needle, sc)), nil
}

func extractFunctionBody(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code, name string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "name", &name); err != nil {
		return nil, err
	}
	body, ok := sessionOf(th).source(code).FunctionBody(name)
	if !ok {
		return starlark.None, nil
	}
	return starlark.String(body), nil
}

func functionStruct(f ctext.Function) starlark.Value {
	return newStruct(starlark.StringDict{"name": starlark.String(f.Name), "line": starlark.MakeInt(f.Line), "body": starlark.String(f.Body)})
}

func findISRBodies(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code); err != nil {
		return nil, err
	}
	fs := sessionOf(th).source(code).ISRBodies()
	out := make([]starlark.Value, len(fs))
	for i, f := range fs {
		out[i] = functionStruct(f)
	}
	return starlark.NewList(out), nil
}

func checkAPIInFunction(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code, function, api string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "function", &function, "api", &api); err != nil {
		return nil, err
	}
	return starlark.Bool(sessionOf(th).source(code).APIInFunction(function, api)), nil
}

func checkQualifierOnVariable(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code, variable, qualifier string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "variable", &variable, "qualifier", &qualifier); err != nil {
		return nil, err
	}
	return starlark.Bool(sessionOf(th).source(code).QualifierOnVariable(variable, qualifier)), nil
}

func checkReturnAfterError(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code, call string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "call", &call); err != nil {
		return nil, err
	}
	return starlark.Bool(sessionOf(th).source(code).ReturnAfterError(call)), nil
}

func errorHandlingSites(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code, call string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "call", &call); err != nil {
		return nil, err
	}
	sites := sessionOf(th).source(code).ErrorHandlingReport(call)
	out := make([]starlark.Value, len(sites))
	for i, s := range sites {
		out[i] = newStruct(starlark.StringDict{"line": starlark.MakeInt(s.Line), "function": starlark.String(s.Function), "handled": starlark.Bool(s.Handled), "reason": starlark.String(s.Reason)})
	}
	return starlark.NewList(out), nil
}

func checkCleanupReverseOrder(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code string
	var pairsV starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "pairs", &pairsV); err != nil {
		return nil, err
	}
	seq, ok := pairsV.(starlark.Indexable)
	if !ok {
		return nil, fmt.Errorf("%s: pairs must be a list of (acquire, release) pairs, got %s", b.Name(), pairsV.Type())
	}
	pairs := make([][2]string, 0, seq.Len())
	for i := 0; i < seq.Len(); i++ {
		p, ok := seq.Index(i).(starlark.Indexable)
		if !ok || p.Len() != 2 {
			return nil, fmt.Errorf("%s: pairs[%d] must be an (acquire, release) pair of strings", b.Name(), i)
		}
		a, ok1 := starlark.AsString(p.Index(0))
		r, ok2 := starlark.AsString(p.Index(1))
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%s: pairs[%d] must be an (acquire, release) pair of strings", b.Name(), i)
		}
		pairs = append(pairs, [2]string{a, r})
	}
	return starlark.Bool(sessionOf(th).source(code).CleanupReverseOrder(pairs)), nil
}

func checkNoCrossPlatformAPIs(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code string
	var skip starlark.Value = starlark.None
	ignoreDefined := false
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "skip_platforms?", &skip, "ignore_defined?", &ignoreDefined); err != nil {
		return nil, err
	}
	s := sessionOf(th)
	var skipNames []string
	if skip != starlark.None {
		var err error
		if skipNames, err = stringList(skip); err != nil {
			return nil, fmt.Errorf("%s: skip_platforms %w", b.Name(), err)
		}
		if err := s.rt.forbidden.CheckPlatforms(skipNames); err != nil {
			return nil, fmt.Errorf("%s: skip_platforms: %w", b.Name(), err)
		}
	}
	hits := s.rt.forbidden.Find(code, skipNames)
	defined := map[string]bool{}
	if ignoreDefined {
		for _, f := range s.source(code).Functions() {
			defined[f.Name] = true
		}
	}
	out := make([]starlark.Value, 0, len(hits))
	for _, h := range hits {
		if defined[h.API] {
			continue
		}
		out = append(out, newStruct(starlark.StringDict{"platform": starlark.String(h.Platform), "api": starlark.String(h.API), "line": starlark.MakeInt(h.Line)}))
	}
	return starlark.NewList(out), nil
}

func checkNoISRForbidden(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
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
	vs := sessionOf(th).source(code).ISRForbiddenCalls(list)
	out := make([]starlark.Value, len(vs))
	for i, v := range vs {
		out[i] = newStruct(starlark.StringDict{"function": starlark.String(v.Function), "api": starlark.String(v.API), "line": starlark.MakeInt(v.Line)})
	}
	return starlark.NewList(out), nil
}

func udevRuleFunc(f func(text, key, value string) bool) builtinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var rules, key string
		var value starlark.Value = starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "rules", &rules, "key", &key, "value?", &value); err != nil {
			return nil, err
		}
		v := ""
		if value != starlark.None {
			s, ok := starlark.AsString(value)
			if !ok {
				return nil, fmt.Errorf("%s: value must be a string or None, got %s", b.Name(), value.Type())
			}
			v = s
		}
		return starlark.Bool(f(rules, key, v)), nil
	}
}

func udevMatchKeyUsedAsAssign(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var rules string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "rules", &rules); err != nil {
		return nil, err
	}
	found := udev.MatchKeysUsedAsAssign(rules)
	out := make([]starlark.Value, len(found))
	for i, p := range found {
		out[i] = newStruct(starlark.StringDict{"key": starlark.String(p.Pair.Key), "attr": starlark.String(p.Pair.Attr), "op": starlark.String(p.Pair.Op), "value": starlark.String(p.Pair.Value), "line": starlark.MakeInt(p.Line)})
	}
	return starlark.NewList(out), nil
}
