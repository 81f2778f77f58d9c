package csyntax

import (
	"slices"
	"sort"
	"strings"
)

// Asm is one inline assembly statement: asm, __asm, __asm__ or CMSIS
// __ASM, with any qualifiers (volatile, __volatile__, inline, goto), in the
// GNU form asm("..." : outputs : inputs : clobbers) or the block form
// __asm { ... }.
type Asm struct {
	// Template is the assembly text: the template's string literals
	// concatenated with their escapes decoded, or the body of a block.
	Template string
	// Clobbers are the strings of the clobber list ("memory", "cc").
	Clobbers []string
	// Line is the 1-based line of the keyword (of the macro use, for a
	// statement in a macro's body).
	Line int
	// Function is the enclosing function's name, "" at file scope.
	Function string
	// start is the keyword's byte offset in the file.
	start int
}

// Step is a call or an inline assembly statement reached from a function.
type Step struct {
	// Call is the call; its Name is "" for an assembly statement. A call
	// in the body of a function-like macro has the line and function of
	// the macro's use, and its arguments with the use's arguments
	// substituted.
	Call Call
	// Asm is the assembly statement, nil for a call.
	Asm *Asm
	via *viaLink
}

// viaLink is one helper or macro entered on the way to a step; links share
// their parents, so that a deep chain of helpers costs one link each.
type viaLink struct {
	name   string
	parent *viaLink
	n      int
}

// Via names the helpers and macros entered to reach the step, outermost
// first; empty for a step of the function itself.
func (s Step) Via() []string {
	if s.via == nil {
		return []string{}
	}
	out := make([]string, s.via.n)
	for l := s.via; l != nil; l = l.parent {
		out[l.n-1] = l.name
	}
	return out
}

// ViaLen is len(s.Via()).
func (s Step) ViaLen() int {
	if s.via == nil {
		return 0
	}
	return s.via.n
}

func link(parent *viaLink, name string) *viaLink {
	n := 1
	if parent != nil {
		n = parent.n + 1
	}
	return &viaLink{name: name, parent: parent, n: n}
}

// Bounds of macro expansion in Steps.
const (
	// maxMacroDepth bounds the nesting of macros expanded into macros.
	maxMacroDepth = 8
	// maxMacroSteps bounds the steps one use of a macro expands to.
	maxMacroSteps = 256
	// maxExpansion bounds the text of one substituted argument.
	maxExpansion = 64 << 10
)

// Steps returns the calls and inline assembly statements of function, in
// source order (by line; on one line, assembly first). With follow, a call
// to a function the file defines is followed by that function's steps, each
// function entered once, at its first call (depth first, so recursion
// ends); a use of a function-like macro the file defines is followed by the
// calls and assembly of the macro's body, at every use. Via names what was
// entered. Only the steps keep accepts are returned (all when keep is nil).
// function "" gives the steps of the whole file, at file scope too, with
// macros expanded but no function entered. Calls for which leaf reports
// true are neither entered nor expanded.
func (f *File) Steps(function string, follow bool, leaf, keep func(Step) bool) []Step {
	if f == nil || f.expiredNow() {
		return nil
	}
	ix := f.stepIndex()
	if ix == nil {
		return nil
	}
	w := &stepWalk{f: f, ix: ix, follow: follow, leaf: leaf, keep: keep, entered: map[string]bool{function: true}}
	if function == "" {
		w.follow = false
		for _, s := range ix.all {
			if f.expired() {
				break
			}
			w.visit(s, nil, 0, nil)
		}
		return w.out
	}
	w.walk(function, nil)
	return w.out
}

// stepIndex is what Steps needs of a file, built once.
type stepIndex struct {
	all     []Step            // every step in source order
	byFunc  map[string][]Step // the steps of each function
	defined map[string]bool   // functions the file defines
	macros  map[string]*macroBody
}

// macroBody is a function-like macro with the calls and assembly of its
// body, found on first use.
type macroBody struct {
	params []string
	body   string
	parsed bool
	items  []Step // Line 0, arguments with the parameters unsubstituted
}

func (f *File) stepIndex() *stepIndex {
	if f.functions() == nil {
		return nil
	}
	return f.Memo("csyntax.steps", func() any {
		calls, asms := f.Calls(""), f.Asms()
		ix := &stepIndex{byFunc: map[string][]Step{}, defined: map[string]bool{}, macros: map[string]*macroBody{}}
		ix.all = mergeSteps(calls, asms, f.callColumn)
		for _, s := range ix.all {
			fn := s.Call.Function
			if s.Asm != nil {
				fn = s.Asm.Function
			}
			ix.byFunc[fn] = append(ix.byFunc[fn], s)
		}
		for _, fn := range f.Functions() {
			ix.defined[fn.Name] = true
		}
		for _, m := range f.Macros() {
			if m.FunctionLike {
				ix.macros[m.Name] = &macroBody{params: m.Params, body: m.Value}
			} else {
				delete(ix.macros, m.Name)
			}
		}
		return ix
	}).(*stepIndex)
}

// mergeSteps merges calls and assembly statements, each in source order,
// by line, and on one line by offset (at tells a call's).
func mergeSteps(calls []Call, asms []Asm, at func(Call) int) []Step {
	out := make([]Step, 0, len(calls)+len(asms))
	i := 0
	for _, c := range calls {
		for i < len(asms) && (asms[i].Line < c.Line || asms[i].Line == c.Line && asms[i].start < at(c)) {
			out = append(out, Step{Asm: &asms[i]})
			i++
		}
		out = append(out, Step{Call: c})
	}
	for ; i < len(asms); i++ {
		out = append(out, Step{Asm: &asms[i]})
	}
	return out
}

// stepWalk is one Steps query.
type stepWalk struct {
	f          *File
	ix         *stepIndex
	follow     bool
	leaf, keep func(Step) bool
	entered    map[string]bool
	out        []Step
}

func (w *stepWalk) walk(fn string, via *viaLink) {
	for _, s := range w.ix.byFunc[fn] {
		if w.f.expired() {
			return
		}
		w.visit(s, via, 0, nil)
	}
}

// visit records s and enters what it calls. depth counts the macros s was
// expanded from, budget the steps the outermost of them may still expand to.
func (w *stepWalk) visit(s Step, via *viaLink, depth int, budget *int) {
	s.via = via
	if w.keep == nil || w.keep(s) {
		w.out = append(w.out, s)
	}
	if s.Asm != nil || (w.leaf != nil && w.leaf(s)) {
		return
	}
	name := s.Call.Name
	if m := w.ix.macros[name]; m != nil {
		if depth < maxMacroDepth {
			if budget == nil {
				budget = new(int)
				*budget = maxMacroSteps
			}
			w.expand(m, s.Call, link(via, name), depth+1, budget)
		}
		return
	}
	if w.follow && w.ix.defined[name] && !w.entered[name] {
		w.entered[name] = true
		w.walk(name, link(via, name))
	}
}

// expand visits the calls and assembly of macro m used by the call site.
func (w *stepWalk) expand(m *macroBody, site Call, via *viaLink, depth int, budget *int) {
	if !m.parsed {
		m.parsed = true
		m.items = bodySteps(m.body, m.params)
	}
	for _, it := range m.items {
		if *budget <= 0 || w.f.expired() {
			return
		}
		*budget--
		s := Step{}
		if it.Asm != nil {
			a := *it.Asm
			a.Line, a.Function = site.Line, site.Function
			s.Asm = &a
		} else {
			args := make([]string, len(it.Call.Args))
			for i, a := range it.Call.Args {
				v, ok := Substitute(m.params, a, site.Args)
				if !ok {
					return
				}
				args[i] = v
			}
			s.Call = Call{Name: it.Call.Name, Args: args, Line: site.Line, Function: site.Function}
		}
		w.visit(s, via, depth, budget)
	}
}

// bodySteps finds the calls and assembly statements of a macro body, in
// order; calls whose name is a parameter are left out, and a body over
// maxExpansion has none.
func bodySteps(body string, params []string) []Step {
	if len(body) > maxExpansion {
		return nil
	}
	var out []Step
	for _, it := range scanSteps(body, false, true) {
		if it.Asm != nil || !slices.Contains(params, it.Call.Name) {
			out = append(out, it.Step)
		}
	}
	return out
}

// notCallee reports the keywords that precede a parenthesis without being
// calls.
func notCallee(word string) bool {
	switch word {
	case "if", "while", "for", "switch", "return", "sizeof", "do", "else", "case", "defined",
		"_Alignof", "alignof", "__alignof__", "typeof", "__typeof__", "__typeof", "_Generic",
		"__attribute__", "_Static_assert", "static_assert", "__extension__", "void":
		return true
	}
	return false
}

// Substitute expands a function-like macro use: each parameter of body,
// outside string and character literals, becomes its argument ("..."
// collects the rest as __VA_ARGS__); an argument that is not a single word
// or number is put in parentheses. ok is false when the arguments do not
// fit the parameters or the result would exceed 64 KiB.
func Substitute(params []string, body string, args []string) (string, bool) {
	variadic := len(params) > 0 && params[len(params)-1] == "..."
	named := params
	if variadic {
		named = params[:len(params)-1]
	}
	switch {
	case variadic && len(args) < len(named):
		return "", false
	case !variadic && len(args) != len(named) && !(len(named) == 1 && len(args) == 0):
		return "", false
	}
	arg := func(i int) string {
		if i >= len(args) {
			return ""
		}
		a := strings.TrimSpace(args[i])
		if isIdentifier(a) || isNumber(a) || len(a) > 1 && a[0] == '"' && skipQuoted(a, 0) == len(a) {
			return a
		}
		return "(" + a + ")"
	}
	var b strings.Builder
	for i := 0; i < len(body); {
		c := body[i]
		j := i + 1
		switch {
		case c == '"' || c == '\'':
			j = skipQuoted(body, i)
		case isIdentPart(c):
			for j < len(body) && isIdentPart(body[j]) {
				j++
			}
			word := body[i:j]
			if k := slices.Index(named, word); k >= 0 && isIdentStart(c) {
				b.WriteString(arg(k))
				i = j
				continue
			}
			if variadic && word == "__VA_ARGS__" {
				b.WriteString(strings.Join(args[len(named):], ", "))
				i = j
				continue
			}
		}
		b.WriteString(body[i:j])
		i = j
		if b.Len() > maxExpansion {
			return "", false
		}
	}
	return b.String(), true
}

func isNumber(s string) bool {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentPart(s[i]) && s[i] != '.' {
			return false
		}
	}
	return true
}

// Asms returns the inline assembly statements of the file in source order,
// outside comments, literals and preprocessor directives (a macro's body is
// read where the macro is used, by Steps). A statement inside another one's
// brackets is not reported.
func (f *File) Asms() []Asm {
	ix := f.functions()
	if ix == nil {
		return nil
	}
	return f.Memo("csyntax.asms", func() any {
		starts := f.lineStarts()
		var out []Asm
		for _, it := range scanSteps(f.code, true, false) {
			if f.expired() {
				break
			}
			a := *it.Asm
			a.start = it.at
			a.Line = sort.Search(len(starts), func(i int) bool { return starts[i] > it.at })
			if fn := ix.enclosing(uint(it.at)); fn != nil {
				a.Function = fn.Name
			}
			out = append(out, a)
		}
		return out
	}).([]Asm)
}

// maxColumnScan bounds the text callColumn searches.
const maxColumnScan = 4 << 10

// callColumn is the offset of the first use of c's name on its line (within
// its first 4 KiB), an estimate of where the call starts for ordering it
// against an assembly statement of the same line.
func (f *File) callColumn(c Call) int {
	starts := f.lineStarts()
	if c.Line < 1 || c.Line > len(starts) {
		return len(f.code)
	}
	start := starts[c.Line-1]
	end := len(f.code)
	if c.Line < len(starts) {
		end = starts[c.Line]
	}
	end = min(end, start+maxColumnScan)
	if k := strings.Index(f.code[start:end], c.Name); k >= 0 {
		return start + k
	}
	return end
}

// lineStarts returns the offset of each line's first byte.
func (f *File) lineStarts() []int {
	return f.Memo("csyntax.lines", func() any {
		starts := []int{0}
		for i := 0; i < len(f.code); i++ {
			if f.code[i] == '\n' {
				starts = append(starts, i+1)
			}
		}
		return starts
	}).([]int)
}

// scanned is a step found by scanSteps at byte offset at.
type scanned struct {
	Step
	at int
}

// maxScanDepth bounds the brackets scanSteps tracks as calls: the
// arguments of each tracked call are split, so deep nesting would cost time
// quadratic in the text.
const maxScanDepth = 256

// scanSteps finds, in one pass over src, the inline assembly statements
// and (with calls) the calls: a name followed by a parenthesis, keywords
// excepted. Comments, literals and (with skipPP) preprocessor lines are
// skipped. The result is in order of offset.
func scanSteps(src string, skipPP, calls bool) []scanned {
	type open struct {
		pos, nameAt int
		name        string
		asm         bool
	}
	var (
		out       []scanned
		stack     []open
		openAsm   int    // asm brackets on the stack
		asmAt     = -1   // offset of an asm keyword waiting for its bracket
		word      string // the identifier just before, for a call
		wordAt    int
		lineStart = true
	)
	for i := 0; i < len(src); {
		c := src[i]
		if c == '\n' {
			lineStart = true
			i++
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || (c == '\\' && i+1 < len(src) && src[i+1] == '\n') {
			i++
			continue
		}
		if c == '#' && lineStart && skipPP {
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n' {
					i++
				}
				i++
			}
			continue
		}
		lineStart = false
		prevWord, prevAt := word, wordAt
		word = ""
		switch {
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			word, wordAt = prevWord, prevAt
		case strings.HasPrefix(src[i:], "/*"):
			if end := strings.Index(src[i+2:], "*/"); end >= 0 {
				i += end + 4
			} else {
				i = len(src)
			}
			word, wordAt = prevWord, prevAt
		case c == '"' || c == '\'':
			i = skipQuoted(src, i)
			asmAt = -1
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			w := src[i:j]
			switch {
			case asmKeyword(w) && openAsm == 0:
				asmAt = i
			case asmAt >= 0 && asmQualifier(w):
			default:
				asmAt = -1
				word, wordAt = w, i
			}
			i = j
		case c == '(' || c == '[' || c == '{':
			o := open{pos: i, asm: asmAt >= 0 && c != '['}
			if o.asm {
				o.nameAt = asmAt
				openAsm++
			} else if calls && c == '(' && prevWord != "" && !notCallee(prevWord) && len(stack) < maxScanDepth {
				o.name, o.nameAt = prevWord, prevAt
			}
			asmAt = -1
			stack = append(stack, o)
			i++
		case c == ')' || c == ']' || c == '}':
			asmAt = -1
			if n := len(stack); n > 0 {
				o := stack[n-1]
				stack = stack[:n-1]
				matched := src[o.pos] == "([{"[strings.IndexByte(")]}", c)]
				switch {
				case o.asm:
					openAsm--
					if !matched {
						break
					}
					a := parseAsm(src[o.pos : i+1])
					out = append(out, scanned{Step{Asm: &a}, o.nameAt})
				case o.name != "" && matched:
					out = append(out, scanned{Step{Call: Call{Name: o.name, Args: SplitArgs(src[o.pos+1 : i])}}, o.nameAt})
				}
			}
			i++
		default:
			asmAt = -1
			if c < '0' || c > '9' {
				i++
				break
			}
			for i < len(src) && (isIdentPart(src[i]) || src[i] == '.') {
				i++
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].at < out[b].at })
	return out
}

// asmKeyword reports the spellings of the assembly keyword.
func asmKeyword(w string) bool {
	switch w {
	case "asm", "__asm", "__asm__", "__ASM":
		return true
	}
	return false
}

// asmQualifier reports the qualifiers between the keyword and the bracket.
func asmQualifier(w string) bool {
	switch w {
	case "volatile", "__volatile", "__volatile__", "inline", "__inline", "__inline__", "goto":
		return true
	}
	return false
}

// parseAsm reads a bracketed assembly statement, "( ... )" or "{ ... }".
func parseAsm(text string) Asm {
	inner := text[1 : len(text)-1]
	if text[0] == '{' {
		return Asm{Template: strings.TrimSpace(inner)}
	}
	var a Asm
	var tmpl strings.Builder
	section, depth := 0, 0
	for i := 0; i < len(inner); i++ {
		switch c := inner[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ':':
			if depth == 0 {
				section++
			}
		case '"', '\'':
			end := skipQuoted(inner, i)
			if c == '"' && depth == 0 {
				lit := unescape(inner[i+1 : max(i+1, end-1)])
				switch section {
				case 0:
					tmpl.WriteString(lit)
				case 3:
					a.Clobbers = append(a.Clobbers, lit)
				}
			}
			i = end - 1
		}
	}
	a.Template = tmpl.String()
	return a
}

// unescape decodes the escapes of a string literal's body: \n and \t
// become a newline and a tab, any other escaped character itself.
func unescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
