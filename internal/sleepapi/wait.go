package sleepapi

import (
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cexpr"
	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// Wait is what a waiting call's arguments state.
type Wait struct {
	// Kind is Relative, Absolute or Forever for a sleep, "" for a busy-wait.
	Kind string
	// MS is the duration in milliseconds, nil when the arguments do not
	// state one: not constant, ticks of a clock whose rate the code does not
	// define, a point in time (an absolute deadline), or forever.
	MS *big.Rat
	// Ticks is the duration in ticks when the argument is a constant tick
	// count, nil otherwise.
	Ticks *big.Int
}

// Timespec finds the fields of the struct timespec an argument points to
// (&ts), as C expressions; ok is false when they are not known.
type Timespec func(arg string) (sec, nsec string, ok bool)

// maxResolve bounds the macro expansions that reduce an argument to the
// name of a timeout constructor or converter.
const maxResolve = 8

// Env evaluates the arguments of the calls of one scope: the code's
// constants, and what the vocabulary adds for tick arithmetic (its clocks'
// period macros and its converters, defined from the clocks' rates). It
// builds what it needs on first use and caches evaluations; it is not safe
// for concurrent use.
type Env struct {
	v    *Vocabulary
	code cexpr.Env
	// typed is code with the SDK typedefs of its macros read as standard
	// types (see stdTypes); built on first use.
	typed *cexpr.Env
	// variants are the code's environment with the vocabulary's macros:
	// rates the code leaves undefined stay undefined (0), are 1000 (1) or
	// 100 (2). Built on first use.
	variants [3]*cexpr.Env
	rates    map[string]*big.Int
	cache    map[evalKey]*big.Int
}

type evalKey struct {
	variant int // -1: the code's environment alone
	text    string
}

// Variants of Env.
const (
	codeEnv = -1
	rawEnv  = 0
	at1000  = 1
	at100   = 2
)

// NewEnv returns an environment for code, the constants of the code in
// scope (macros, enum constants, const variables). code is not modified.
func (v *Vocabulary) NewEnv(code cexpr.Env) *Env {
	return &Env{v: v, code: code, cache: map[evalKey]*big.Int{}}
}

// Wait reads the wait that a call to api with the argument texts args
// states. timespec, when not nil, finds the struct timespec a pointer
// argument names; compound literals (&(struct timespec){ .tv_sec = 1 }) are
// read without it.
func (v *Vocabulary) Wait(api API, args []string, env *Env, timespec Timespec) Wait {
	w := Wait{Kind: api.Kind}
	if api.Arg >= len(args) {
		return w
	}
	arg := args[api.Arg]
	switch api.Unit {
	case "deadline":
		return w
	case "ticks":
		return env.ticks(w, v.clocks[api.Clock], arg)
	case "timeout":
		return env.timeout(w, arg)
	case "timespec":
		if api.AbsoluteFlag != "" && api.FlagsArg < len(args) && hasWord(args[api.FlagsArg], api.AbsoluteFlag) {
			w.Kind = Absolute
			return w
		}
		sec, nsec, ok := TimespecFields(arg)
		if !ok && timespec != nil {
			sec, nsec, ok = timespec(arg)
		}
		if !ok {
			return w
		}
		s, n := env.scaled(sec, "s"), env.scaled(nsec, "ns")
		if s != nil && n != nil {
			w.MS = s.Add(s, n)
		}
		return w
	}
	w.MS = env.scaled(arg, api.Unit)
	return w
}

// ticks reads a tick count of clock c.
func (e *Env) ticks(w Wait, c Clock, arg string) Wait {
	f, isForm := e.resolve(arg)
	if isForm && !f.call && slices.Contains(c.Forever, f.name) {
		w.Kind = Forever
		return w
	}
	if rate := e.rate(c); rate != nil {
		if t := e.eval(rawEnv, arg); t != nil {
			w.Ticks = t
			w.MS = new(big.Rat).SetFrac(new(big.Int).Mul(t, big.NewInt(1000)), rate)
		}
		return w
	}
	if isForm && f.call && len(f.args) == 1 {
		// A converter's argument is read in its unit exactly, which the
		// evaluation at 1 kHz below would truncate (usecs_to_jiffies(500)).
		if cv, ok := e.v.converters[f.name]; ok && cv.Clock == c.Name {
			w.MS = e.scaled(f.args[0], cv.Unit)
			return w
		}
	}
	if t := e.eval(rawEnv, arg); t != nil {
		// Constant without the rate: a raw tick count.
		w.Ticks = t
		return w
	}
	// Ticks at 1 kHz are milliseconds. At 100 Hz the conversions can only
	// round down; a longer wait there means raw ticks are mixed in.
	t1 := e.eval(at1000, arg)
	if t1 == nil {
		return w
	}
	if t2 := e.eval(at100, arg); t2 != nil && new(big.Int).Mul(t2, big.NewInt(10)).Cmp(t1) > 0 {
		return w
	}
	w.MS = new(big.Rat).SetInt(t1)
	return w
}

// timeout reads a Zephyr k_timeout_t.
func (e *Env) timeout(w Wait, arg string) Wait {
	f, ok := e.resolve(arg)
	if !ok {
		return w
	}
	t, ok := e.v.timeouts[f.name]
	switch {
	case !ok:
	case t.Kind == Forever:
		w.Kind = Forever
	case t.MS != nil:
		if !f.call {
			w.MS = new(big.Rat).SetInt64(*t.MS)
		}
	case !f.call || len(f.args) != 1:
	case t.Kind == Absolute:
		w.Kind = Absolute
	case t.Unit == "ticks":
		return e.ticks(w, e.v.clocks[t.Clock], f.args[0])
	default:
		w.MS = e.scaled(f.args[0], t.Unit)
	}
	return w
}

// rate is the tick rate of c that the code defines, nil when it does not
// (or not as a positive constant).
func (e *Env) rate(c Clock) *big.Int {
	if e.rates == nil {
		e.rates = map[string]*big.Int{}
	}
	if r, ok := e.rates[c.Name]; ok {
		return r
	}
	var r *big.Int
	if _, defined := e.code.Objects[c.Rate]; defined {
		if x := e.eval(codeEnv, c.Rate); x != nil && x.Sign() > 0 {
			r = x
		}
	}
	e.rates[c.Name] = r
	return r
}

// scaled evaluates text, a count of unit, in milliseconds.
func (e *Env) scaled(text, unit string) *big.Rat {
	x := e.eval(codeEnv, text)
	if x == nil {
		return nil
	}
	num, den := unitMS(unit)
	return new(big.Rat).SetFrac(new(big.Int).Mul(x, big.NewInt(num)), big.NewInt(den))
}

// unitMS is the length of unit in milliseconds, num/den.
func unitMS(unit string) (num, den int64) {
	switch unit {
	case "h":
		return 3600000, 1
	case "min":
		return 60000, 1
	case "s":
		return 1000, 1
	case "us":
		return 1, 1000
	case "ns":
		return 1, 1000000
	}
	return 1, 1
}

// eval evaluates text in a variant of the environment; nil when it is not
// constant.
func (e *Env) eval(variant int, text string) *big.Int {
	key := evalKey{variant, text}
	if x, ok := e.cache[key]; ok {
		return x
	}
	env := e.typedEnv()
	if variant != codeEnv {
		env = e.variant(variant)
	}
	var x *big.Int
	if v, err := cexpr.EvalValue(stdTypes(text), env); err == nil {
		if v.Unsigned {
			x = new(big.Int).SetUint64(v.Bits)
		} else {
			x = big.NewInt(v.Int64())
		}
	}
	e.cache[key] = x
	return x
}

// variant builds variant i: the code's macros, plus the clocks' period
// macros and the converters where the code does not define them, plus the
// rates the code does not define set to 1000 (at1000) or 100 (at100).
func (e *Env) variant(i int) cexpr.Env {
	if e.variants[i] != nil {
		return *e.variants[i]
	}
	typed := e.typedEnv()
	env := cexpr.Env{Objects: maps.Clone(typed.Objects), Functions: maps.Clone(typed.Functions)}
	if env.Objects == nil {
		env.Objects = map[string]string{}
	}
	if env.Functions == nil {
		env.Functions = map[string]cexpr.FuncMacro{}
	}
	setObject := func(name, value string) {
		if _, ok := env.Objects[name]; !ok {
			env.Objects[name] = value
		}
	}
	for _, c := range e.v.clocks {
		switch i {
		case at1000:
			setObject(c.Rate, "1000")
		case at100:
			setObject(c.Rate, "100")
		}
		for _, p := range c.PeriodMS {
			setObject(p, "(1000 / ("+c.Rate+"))")
		}
	}
	for _, cv := range e.v.converters {
		if _, ok := env.Functions[cv.Name]; ok {
			continue
		}
		num, den := unitMS(cv.Unit)
		// ticks = x * rate * num / (den * 1000), in 64 bits.
		body := "((x) * (1ULL * (" + e.v.clocks[cv.Clock].Rate + ")) * " + itoa(num) + " / " + itoa(den*1000) + ")"
		env.Functions[cv.Name] = cexpr.FuncMacro{Params: []string{"x"}, Body: body}
	}
	e.variants[i] = &env
	return env
}

// typedEnv is the code's environment with stdTypes applied to its macros.
func (e *Env) typedEnv() cexpr.Env {
	if e.typed != nil {
		return *e.typed
	}
	env := e.code
	changed := func() bool {
		for _, body := range e.code.Objects {
			if stdTypes(body) != body {
				return true
			}
		}
		for _, m := range e.code.Functions {
			if stdTypes(m.Body) != m.Body {
				return true
			}
		}
		return false
	}()
	if changed {
		env = cexpr.Env{Objects: make(map[string]string, len(e.code.Objects)), Functions: make(map[string]cexpr.FuncMacro, len(e.code.Functions))}
		for name, body := range e.code.Objects {
			env.Objects[name] = stdTypes(body)
		}
		for name, m := range e.code.Functions {
			env.Functions[name] = cexpr.FuncMacro{Params: m.Params, Body: stdTypes(m.Body)}
		}
	}
	e.typed = &env
	return env
}

// stdType is the standard type the evaluator reads for an SDK typedef of
// time and tick counts, "" for other words: FreeRTOS TickType_t (32-bit
// ticks, the default of configTICK_TYPE_WIDTH_IN_BITS), BaseType_t and
// UBaseType_t (long on 32-bit ports), Zephyr k_ticks_t (64-bit with the
// default CONFIG_TIMEOUT_64BIT), POSIX useconds_t, suseconds_t and time_t.
func stdType(word string) string {
	switch word {
	case "TickType_t", "UBaseType_t", "useconds_t":
		return "uint32_t"
	case "BaseType_t", "suseconds_t":
		return "int32_t"
	case "k_ticks_t", "time_t":
		return "int64_t"
	}
	return ""
}

// stdTypes replaces the typedefs stdType knows by their standard types, so
// that casts to them evaluate.
func stdTypes(s string) string {
	if !strings.Contains(s, "_t") {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isIdentByte(s[i]) || (i > 0 && isIdentByte(s[i-1])) {
			i++
			continue
		}
		j := i
		for j < len(s) && isIdentByte(s[j]) {
			j++
		}
		if t := stdType(s[i:j]); t != "" {
			b.WriteString(s[last:i])
			b.WriteString(t)
			last = j
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func itoa(x int64) string { return big.NewInt(x).String() }

// form is an argument reduced to its outermost name: NAME or NAME(args).
type form struct {
	name string
	args []string
	call bool
}

// resolve reduces text to a form, expanding the code's macros (but not the
// names the vocabulary defines) and dropping parentheses and casts around
// it; ok is false when text is an expression of another shape.
func (e *Env) resolve(text string) (form, bool) {
	for range maxResolve {
		t := strip(text)
		name, rest := leadingIdent(t)
		if name == "" {
			return form{}, false
		}
		rest = strings.TrimSpace(rest)
		if rest == "" {
			body, ok := e.code.Objects[name]
			if !ok || e.v.names[name] {
				return form{name: name}, true
			}
			text = body
			continue
		}
		if rest[0] != '(' || matchParen(rest, 0) != len(rest)-1 {
			return form{}, false
		}
		args := csyntax.SplitArgs(rest[1 : len(rest)-1])
		m, ok := e.code.Functions[name]
		if !ok || e.v.names[name] {
			return form{name: name, args: args, call: true}, true
		}
		expanded, ok := csyntax.Substitute(m.Params, m.Body, args)
		if !ok {
			return form{}, false
		}
		text = expanded
	}
	return form{}, false
}

// strip removes whitespace, enclosing parentheses and leading casts.
func strip(s string) string {
	for range maxResolve {
		s = strings.TrimSpace(s)
		if !strings.HasPrefix(s, "(") {
			return s
		}
		end := matchParen(s, 0)
		switch {
		case end == len(s)-1:
			s = s[1:end]
		case end > 0 && isTypeName(s[1:end]) && startsOperand(strings.TrimSpace(s[end+1:])):
			s = s[end+1:]
		default:
			return s
		}
	}
	return s
}

// isTypeName reports whether s looks like a type in a cast: words and stars.
func isTypeName(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isIdentByte(c) && c != ' ' && c != '\t' && c != '*' {
			return false
		}
	}
	return true
}

// startsOperand reports whether s starts with what a cast applies to.
func startsOperand(s string) bool {
	return s != "" && (isIdentByte(s[0]) || s[0] == '(')
}

// leadingIdent splits s into its leading identifier and the rest.
func leadingIdent(s string) (string, string) {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return "", s
	}
	i := 0
	for i < len(s) && isIdentByte(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// matchParen returns the index of the bracket closing the one at s[open],
// skipping string and character literals; -1 when it is not closed.
func matchParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		case '"', '\'':
			i = skipQuoted(s, i)
		}
	}
	return -1
}

// skipQuoted returns the index of the quote closing the literal at s[i].
func skipQuoted(s string, i int) int {
	q := s[i]
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i
		}
	}
	return len(s)
}

// hasWord reports whether identifier word appears in s.
func hasWord(s, word string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(word)
		if (j == 0 || !isIdentByte(s[j-1])) && (end == len(s) || !isIdentByte(s[end])) {
			return true
		}
		i = j + 1
	}
}

// TimespecFields reads the struct timespec of an initializer or compound
// literal ("{1, 500000000}", "{ .tv_nsec = 5000000 }",
// "&(struct timespec){ .tv_sec = 2 }"): the expressions of tv_sec and
// tv_nsec, "0" for a field the initializer leaves out. ok is false for any
// other text.
func TimespecFields(text string) (sec, nsec string, ok bool) {
	s := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "&"))
	if strings.HasPrefix(s, "(") {
		if end := matchParen(s, 0); end > 0 && strings.HasPrefix(strings.TrimSpace(s[end+1:]), "{") {
			s = strings.TrimSpace(s[end+1:])
		}
	}
	if !strings.HasPrefix(s, "{") || matchParen(s, 0) != len(s)-1 {
		return "", "", false
	}
	fields := [2]string{"0", "0"}
	pos := 0
	for _, item := range csyntax.SplitArgs(s[1 : len(s)-1]) {
		if item == "" {
			continue
		}
		if strings.HasPrefix(item, ".") {
			name, value, found := strings.Cut(item[1:], "=")
			if !found {
				return "", "", false
			}
			switch strings.TrimSpace(name) {
			case "tv_sec":
				pos = 0
			case "tv_nsec":
				pos = 1
			default:
				return "", "", false
			}
			item = strings.TrimSpace(value)
		}
		if pos > 1 {
			return "", "", false
		}
		fields[pos] = item
		pos++
	}
	return fields[0], fields[1], true
}
