package checks

import (
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/ctext"
	"github.com/embedeval/embedeval-go/internal/errconv"
	"github.com/embedeval/embedeval-go/internal/forbidden"
	"github.com/embedeval/embedeval-go/internal/halting"
	"github.com/embedeval/embedeval-go/internal/isrctx"
	"github.com/embedeval/embedeval-go/internal/udev"
)

// predeclared returns the names every check file sees: CheckDetail and its
// short form check, the
// contract's helper functions, and the re, c, kconfig and dts modules, plus
// the guards instrumented code calls and the guarded universal built-ins
// (guards.go). Every helper is total on model output: malformed code gives an
// empty or False answer, never an error; only a check author's misuse (wrong
// argument types) and the limits raise.
func predeclared() starlark.StringDict {
	isrVocab, errRules := ctextVocabulary()
	d := starlark.StringDict{
		"CheckDetail": checkDetailBuiltin(starlark.String("CheckDetail")),
		"check":       checkBuiltin(starlark.String("CheckDetail")),
		"struct":      starlark.NewBuiltin("struct", starlarkstruct.Make),
		"re":          reModule(),
		"c":           cModule(),
		"kconfig":     kconfigModule(),
		"dts":         dtsModule(),
	}
	for name, fn := range map[string]func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error){
		"strip_comments":                sourceStr(func(src *ctext.Source) string { return src.CodeOnly() }),
		"strip_string_literals":         strFunc(ctext.StripStringLiterals),
		"stripped":                      sourceStr(func(src *ctext.Source) string { return ctext.StripStringLiterals(src.CodeOnly()) }),
		"scoped_contains":               scopedContains,
		"has_word":                      boolFunc2("word", (*ctext.Source).HasWord),
		"has_api_call":                  boolFunc2("name", (*ctext.Source).HasAPICall),
		"extract_function_body":         extractFunctionBody,
		"find_isr_bodies":               findISRBodies(isrVocab),
		"check_api_in_function":         checkAPIInFunction,
		"check_qualifier_on_variable":   checkQualifierOnVariable,
		"check_return_after_error":      checkReturnAfterError(errRules),
		"error_handling_sites":          errorHandlingSites(errRules),
		"check_cleanup_reverse_order":   checkCleanupReverseOrder,
		"check_no_cross_platform_apis":  checkNoCrossPlatformAPIs,
		"check_no_isr_forbidden":        checkNoISRForbidden(isrVocab),
		"udev_rule_matches":             udevRuleFunc(udev.RuleMatches),
		"udev_rule_assigns":             udevRuleFunc(udev.RuleAssigns),
		"udev_match_key_used_as_assign": udevMatchKeyUsedAsAssign,
	} {
		d[name] = starlark.NewBuiltin(name, polled(fn))
	}
	for name, v := range hiddenBuiltins() {
		d[name] = v
	}
	for name, v := range shadowedBuiltins() {
		d[name] = v
	}
	return d
}

// loaded is a vocabulary loaded from package data, or the error that
// stopped it: a builtin that needs it reports the error when called.
type loaded[T any] struct {
	v   T
	err error
}

// errorVocabulary is what the error handling builtins judge with: the SDK
// error conventions and the calls that never return.
type errorVocabulary struct {
	conv    *errconv.Conventions
	halting *csyntax.HaltingCalls
}

// ctextVocabulary loads the SDK vocabularies the text and error-path builtins judge with:
// data/isr_context.yaml, data/error_conventions.yaml and
// data/halting_calls.yaml.
func ctextVocabulary() (loaded[*isrctx.Vocabulary], loaded[errorVocabulary]) {
	var isr loaded[*isrctx.Vocabulary]
	isr.v, isr.err = isrctx.Default()
	var ev loaded[errorVocabulary]
	if ev.v.conv, ev.err = errconv.Default(); ev.err == nil {
		ev.v.halting, ev.err = halting.Default()
	}
	return isr, ev
}

// errorRules returns the rules the error handling builtins judge code
// with, and the session's parse of code they judge (nil when it does not
// parse): the conventions, and the calls that never return.
func errorRules(th *starlark.Thread, name, code string, ev loaded[errorVocabulary]) (csyntax.ErrorRules, *csyntax.File, error) {
	if ev.err != nil {
		return csyntax.ErrorRules{}, nil, fmt.Errorf("%s: %w", name, ev.err)
	}
	st := stateOf(th)
	if err := checkInput(name, len(code)); err != nil {
		return csyntax.ErrorRules{}, nil, err
	}
	file, err := st.parsed(code)
	if err != nil {
		return csyntax.ErrorRules{}, nil, err
	}
	return csyntax.ErrorRules{Vocabulary: ev.v.conv, Halting: ev.v.halting}, file, nil
}

// interrupted turns an answer that may rest on a flow analysis the call's
// deadline cut short into the time-limit error.
func interrupted(th *starlark.Thread, file *csyntax.File) error {
	if file != nil && file.Interrupted() {
		return stateOf(th).timeLimit()
	}
	return nil
}

// polled makes a builtin fail at once when its call must stop: an
// interpreter built-in may call it after the thread was cancelled.
func polled(fn builtinFunc) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := stateOf(th).poll(); err != nil {
			return nil, err
		}
		return fn(th, b, args, kwargs)
	}
}

// onSource runs f on code prepared for the text helpers. It refuses code
// over maxHelperInput, and runs f on its own goroutine when code is large,
// so that the call stops at its time limit without waiting for f.
func onSource(th *starlark.Thread, name, code string, f func(*ctext.Source)) error {
	st := stateOf(th)
	if err := checkInput(name, len(code)); err != nil {
		return err
	}
	src := st.cache.source(code)
	return st.await(len(code), func() { f(src) })
}

// onDefinitions is onSource for the helpers that look at function
// definitions: the Source answers from the function index of the session's
// csyntax parse of code, the same definitions and bodies as c.functions and
// c.function, instead of a second front end.
func onDefinitions(th *starlark.Thread, name, code string, f func(*ctext.Source)) error {
	st := stateOf(th)
	if err := checkInput(name, len(code)); err != nil {
		return err
	}
	src, err := st.definedSource(code)
	if err != nil {
		return err
	}
	return st.await(len(code), func() { f(src) })
}

// definedSource returns code prepared for the text helpers with the
// function definitions of the session's parse, from the session's cache
// when an earlier call prepared it. The parse stops at the call's deadline:
// the time-limit error then replaces an answer from an incomplete index.
func (st *callState) definedSource(code string) (*ctext.Source, error) {
	c := st.cache
	old, cached := c.sources[code]
	if cached && old.HasDefinitions() {
		return old, nil
	}
	file, err := st.parsed(code)
	if err != nil {
		return nil, err
	}
	var defs []csyntax.Definition
	if file != nil {
		defs = file.Definitions()
		if file.Interrupted() {
			return nil, st.timeLimit()
		}
	}
	if !cached {
		if len(c.sources) >= sourceCacheSize || c.sourceBytes+len(code) > sourceCacheBytes {
			clear(c.sources)
			c.sourceBytes = 0
		}
		c.sourceBytes += len(code)
	}
	src := ctext.NewSourceWith(code, defs)
	c.sources[code] = src
	return src, nil
}

// onText is onSource for helpers that read the text directly.
func onText(th *starlark.Thread, name, text string, f func()) error {
	if err := checkInput(name, len(text)); err != nil {
		return err
	}
	return stateOf(th).await(len(text), f)
}

// structList counts a list of n structs of fields fields each.
func (st *callState) structList(n, fields int) error {
	if err := st.newElems("list", int64(n)); err != nil {
		return err
	}
	return st.newStructs(n, n*fields)
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
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code, out string
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code); err != nil {
			return nil, err
		}
		if err := onText(th, b.Name(), code, func() { out = f(code) }); err != nil {
			return nil, err
		}
		return starlark.String(out), stateOf(th).newBytes("string", int64(len(out)))
	}
}

func sourceStr(f func(*ctext.Source) string) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code, out string
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code); err != nil {
			return nil, err
		}
		if err := onSource(th, b.Name(), code, func(src *ctext.Source) { out = f(src) }); err != nil {
			return nil, err
		}
		return starlark.String(out), stateOf(th).newBytes("string", int64(len(out)))
	}
}

// sourceBool is a helper answering True or False about code.
func sourceBool(th *starlark.Thread, name, code string, f func(*ctext.Source) bool) (starlark.Value, error) {
	var out bool
	if err := onSource(th, name, code, func(src *ctext.Source) { out = f(src) }); err != nil {
		return nil, err
	}
	return starlark.Bool(out), nil
}

// definedBool is sourceBool for the helpers that look at function
// definitions (see onDefinitions).
func definedBool(th *starlark.Thread, name, code string, f func(*ctext.Source) bool) (starlark.Value, error) {
	var out bool
	if err := onDefinitions(th, name, code, func(src *ctext.Source) { out = f(src) }); err != nil {
		return nil, err
	}
	return starlark.Bool(out), nil
}

func boolFunc2(second string, f func(*ctext.Source, string) bool) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code, x string
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, second, &x); err != nil {
			return nil, err
		}
		return sourceBool(th, b.Name(), code, func(src *ctext.Source) bool { return f(src, x) })
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
	return sourceBool(th, b.Name(), code, func(src *ctext.Source) bool { return src.ScopedContains(needle, sc) })
}

func extractFunctionBody(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code, name string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "name", &name); err != nil {
		return nil, err
	}
	var body string
	var ok bool
	if err := onDefinitions(th, b.Name(), code, func(src *ctext.Source) { body, ok = src.FunctionBody(name) }); err != nil {
		return nil, err
	}
	if !ok {
		return starlark.None, nil
	}
	return starlark.String(body), nil
}

func checkAPIInFunction(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code, function, api string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "function", &function, "api", &api); err != nil {
		return nil, err
	}
	return definedBool(th, b.Name(), code, func(src *ctext.Source) bool { return src.APIInFunction(function, api) })
}

func checkReturnAfterError(ev loaded[errorVocabulary]) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code, call string
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "call", &call); err != nil {
			return nil, err
		}
		rules, file, err := errorRules(th, b.Name(), code, ev)
		if err != nil {
			return nil, err
		}
		ok := file.ReturnAfterError(call, rules)
		if err := interrupted(th, file); err != nil {
			return nil, err
		}
		return starlark.Bool(ok), stateOf(th).poll()
	}
}

func errorHandlingSites(ev loaded[errorVocabulary]) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code, call string
		mustLeave := true
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "call", &call, "must_leave?", &mustLeave); err != nil {
			return nil, err
		}
		rules, file, err := errorRules(th, b.Name(), code, ev)
		if err != nil {
			return nil, err
		}
		rules.TestedOnly = !mustLeave
		sites := file.ErrorSites(call, rules)
		if err := interrupted(th, file); err != nil {
			return nil, err
		}
		if err := stateOf(th).poll(); err != nil {
			return nil, err
		}
		return errorSiteList(th, sites)
	}
}

// errorSiteList is error_handling_sites' answer: a list of struct(line,
// function, handled, reason).
func errorSiteList(th *starlark.Thread, sites []csyntax.ErrorSite) (starlark.Value, error) {
	if err := stateOf(th).structList(len(sites), 4); err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(sites))
	for i, s := range sites {
		out[i] = newStruct(starlark.StringDict{"line": starlark.MakeInt(s.Line), "function": starlark.String(s.Function), "handled": starlark.Bool(s.Handled), "reason": starlark.String(s.Reason)})
	}
	return starlark.NewList(out), nil
}

func checkNoCrossPlatformAPIs(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code string
	var skip starlark.Value = starlark.None
	ignoreDefined := false
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "skip_platforms?", &skip, "ignore_defined?", &ignoreDefined); err != nil {
		return nil, err
	}
	st := stateOf(th)
	var skipNames []string
	if skip != starlark.None {
		var err error
		if skipNames, err = stringList(skip); err != nil {
			return nil, fmt.Errorf("%s: skip_platforms %w", b.Name(), err)
		}
		if err := st.rt.forbidden.CheckPlatforms(skipNames); err != nil {
			return nil, fmt.Errorf("%s: skip_platforms: %w", b.Name(), err)
		}
	}
	var hits []forbidden.Hit
	defined := map[string]bool{}
	if err := onDefinitions(th, b.Name(), code, func(src *ctext.Source) {
		hits = st.rt.forbidden.Find(code, skipNames)
		if ignoreDefined {
			for _, f := range src.Functions() {
				defined[f.Name] = true
			}
		}
	}); err != nil {
		return nil, err
	}
	if err := st.structList(len(hits), 3); err != nil {
		return nil, err
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

func udevRuleFunc(f func(text, key, value string) bool) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
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
		var out bool
		if err := onText(th, b.Name(), rules, func() { out = f(rules, key, v) }); err != nil {
			return nil, err
		}
		return starlark.Bool(out), nil
	}
}

func udevMatchKeyUsedAsAssign(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var rules string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "rules", &rules); err != nil {
		return nil, err
	}
	var found []udev.KeyMisuse
	if err := onText(th, b.Name(), rules, func() { found = udev.MatchKeysUsedAsAssign(rules) }); err != nil {
		return nil, err
	}
	if err := stateOf(th).structList(len(found), 5); err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(found))
	for i, p := range found {
		out[i] = newStruct(starlark.StringDict{"key": starlark.String(p.Pair.Key), "attr": starlark.String(p.Pair.Attr), "op": starlark.String(p.Pair.Op), "value": starlark.String(p.Pair.Value), "line": starlark.MakeInt(p.Line)})
	}
	return starlark.NewList(out), nil
}
