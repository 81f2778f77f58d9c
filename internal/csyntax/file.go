package csyntax

import (
	"errors"
	"fmt"
	"sync"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
)

// MaxSourceBytes is the largest source Parse accepts.
const MaxSourceBytes = 16 << 20

// GlobalScope is the scope name of file-scope declarations.
const GlobalScope = "<global>"

// File is one parsed C source. It keeps the source bytes and the tree-sitter
// tree, and computes its function, call and declaration index lazily on first
// use. A File is not safe for concurrent use and must be closed with Close.
type File struct {
	code   string // original source, shared by the texts the File returns
	src    []byte // original source
	parsed []byte // source as handed to tree-sitter (decorators masked)
	masks  []mask
	lang   *ts.Language
	tree   *ts.Tree
	kinds  *kinds // shared by the Files of one ParseCache; nil until needed
	// queries compiles each query pattern once for the Files of a
	// ParseCache; nil for a File parsed on its own.
	queries *QueryCache
	idx     *index
	// results holds each query pattern's matches once run: a File never
	// changes, and checks ask the same query many times.
	results map[string][]QueryMatch
	// memo holds what callers derive from the file (see Memo).
	memo map[string]any
	// dl is the deadline of the owning ParseCache (nil for a File parsed on
	// its own); polls counts calls of expired between clock reads.
	dl    *deadline
	polls int
	// cut is set when a walk or query stopped early at the deadline: the
	// index and results are then incomplete.
	cut bool
}

// ErrInterrupted is returned by ParseCache.Get when parsing stopped at the
// cache's deadline.
var ErrInterrupted = errors.New("csyntax: parsing stopped at the deadline")

// deadline is when the long work of a ParseCache and its Files must stop;
// the zero time means never.
type deadline struct{ at time.Time }

// pollInterval is how many polls of expired pass between clock reads.
const pollInterval = 1024

// Interrupted reports whether a walk or query of f stopped early at its
// cache's deadline (see ParseCache.SetDeadline). The answers f gave since are
// incomplete, and the cache drops f on the next Get of its code.
func (f *File) Interrupted() bool { return f != nil && f.cut }

// expired reports whether the deadline has passed, reading the clock once
// every pollInterval calls, and marks f as cut when it has.
func (f *File) expired() bool {
	if f.cut {
		return true
	}
	if f.dl == nil || f.dl.at.IsZero() {
		return false
	}
	f.polls++
	if f.polls%pollInterval != 0 {
		return false
	}
	return f.expiredNow()
}

// expiredNow is expired reading the clock on every call.
func (f *File) expiredNow() bool {
	if f.cut {
		return true
	}
	if f.dl != nil && !f.dl.at.IsZero() && !time.Now().Before(f.dl.at) {
		f.cut = true
	}
	return f.cut
}

// timeoutMicros is the tree-sitter timeout that ends at d (0: no timeout).
// ok is false when d has already passed.
func (d *deadline) timeoutMicros() (micros uint64, ok bool) {
	if d == nil || d.at.IsZero() {
		return 0, true
	}
	left := time.Until(d.at)
	if left <= 0 {
		return 0, false
	}
	return uint64(left/time.Microsecond) + 1, true
}

// passed reports whether d is set and has passed.
func (d *deadline) passed() bool {
	return d != nil && !d.at.IsZero() && !time.Now().Before(d.at)
}

// Memo returns the value stored under key, building and storing it on first
// use: a place for data callers derive from this (immutable) file, such as
// the constants of an expression environment, so that it is built once per
// code string.
func (f *File) Memo(key string, build func() any) any {
	if v, ok := f.memo[key]; ok {
		return v
	}
	if f.memo == nil {
		f.memo = map[string]any{}
	}
	v := build()
	f.memo[key] = v
	return v
}

// Function is a function definition at file scope.
type Function struct {
	// Name is the function's name.
	Name string
	// ReturnType is the return type with its qualifiers and pointer stars,
	// normalized ("const char *", "struct device *", "void").
	ReturnType string
	// Params are the parameters; a lone "void" gives none.
	Params []Param
	// Body is the source text of the body including its braces.
	Body string
	// Line and EndLine are the 1-based first and last lines of the definition.
	Line, EndLine int
	// Static and Inline report the storage class specifiers.
	Static, Inline bool
	// Attributes are decorators in source order: masked macros ("__isr",
	// "IRAM_ATTR", "__aligned(4)"), GCC attributes ("__attribute__((weak))")
	// and unknown identifiers recovered from the tree.
	Attributes []string
}

// Param is one function parameter.
type Param struct {
	// Type is the normalized type without the name ("const void *",
	// "uint8_t[]", "void (*)(int)"); "..." for a variadic parameter.
	Type string
	// Name is the parameter name, "" when the prototype omits it.
	Name string
}

// Call is one call expression (function calls and function-like macro uses
// alike).
type Call struct {
	// Name is the callee: an identifier, or the callee's source text with
	// whitespace collapsed ("dev->api->read", "(*cb)").
	Name string
	// Args are the argument source texts, trimmed.
	Args []string
	// Line is the 1-based line of the call.
	Line int
	// Function is the enclosing function's name, "" at file scope.
	Function string
}

// Declaration is one declared variable (one per declarator, so
// "volatile bool a, b;" gives two).
type Declaration struct {
	// Name is the declared name.
	Name string
	// Type is the base type without qualifiers, pointers or arrays
	// ("uint32_t", "struct k_sem", "unsigned int").
	Type string
	// Qualifiers are all type qualifiers in source order, deduplicated: those
	// of the base type and those after a '*' (const, volatile, restrict,
	// _Atomic). CMSIS __IO and friends contribute volatile (and const).
	Qualifiers []string
	// PointerQualifiers are the qualifiers written after a '*', which apply to
	// the pointer itself: "const struct device *const dev" has Qualifiers
	// [const] and PointerQualifiers [const].
	PointerQualifiers []string
	// Storage are the storage class specifiers (static, extern, register,
	// thread_local, _Thread_local, __thread, auto).
	Storage []string
	// Attributes are decorators such as "__aligned(4)", "__noinit" or
	// "__attribute__((section(\".x\")))".
	Attributes []string
	// Pointer and Array tell whether the declarator has a '*' or '[...]'.
	Pointer, Array bool
	// Dims are an array's sizes as written, outermost first ("" for []):
	// "char buf[2][BUF_LEN]" gives ["2", "BUF_LEN"]. Empty for a scalar.
	Dims []string
	// Init is the initializer's source text, "" when there is none.
	Init string
	// Line is the 1-based line of the declared name.
	Line int
	// Scope is GlobalScope or the enclosing function's name.
	Scope string
}

// Include is one #include directive.
type Include struct {
	// Path is the header path without quotes or angle brackets.
	Path string
	// System is true for <...> includes.
	System bool
	// Line is the 1-based line of the directive.
	Line int
}

// Macro is one #define.
type Macro struct {
	// Name is the macro name.
	Name string
	// Params are the parameter names of a function-like macro ("..." for
	// variadic).
	Params []string
	// FunctionLike is true for "#define NAME(...)".
	FunctionLike bool
	// Value is the replacement text, trimmed ("" when empty).
	Value string
	// Line is the 1-based line of the directive.
	Line int
}

// QueryMatch is one match of a query pattern.
type QueryMatch struct {
	// Captures maps a capture name (without '@') to the captured nodes.
	Captures map[string][]Capture
}

// Capture is one captured node.
type Capture struct {
	// Text is the node's source text.
	Text string
	// Kind is the node's grammar type ("identifier", "call_expression").
	Kind string
	// Line and EndLine are the node's 1-based first and last lines.
	Line, EndLine int
	// Start is the node's first byte offset in the source (masked
	// decorators keep their offsets), for ordering captures within a line.
	Start int
}

// Parse parses C source. It fails only when the source is too large or the
// parser cannot run; syntax errors are tolerated (see HasErrors). The caller
// must Close the File.
func Parse(code string) (*File, error) {
	if err := checkSize(code); err != nil {
		return nil, err
	}
	lang := ts.NewLanguage(tsc.Language())
	p, err := newParser(lang)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	src := []byte(code)
	parsed, masks := maskDecorators(src)
	return parseMasked(p, lang, code, src, parsed, masks, nil, nil)
}

// checkSize rejects sources larger than MaxSourceBytes.
func checkSize(code string) error {
	if len(code) > MaxSourceBytes {
		return fmt.Errorf("csyntax: source is %d bytes, more than the limit of %d", len(code), MaxSourceBytes)
	}
	return nil
}

// newParser returns a parser for lang; the caller must Close it.
func newParser(lang *ts.Language) (*ts.Parser, error) {
	p := ts.NewParser()
	if err := p.SetLanguage(lang); err != nil {
		p.Close()
		return nil, fmt.Errorf("csyntax: loading tree-sitter-c: %w", err)
	}
	return p, nil
}

// parseMasked parses the masked source with p. old, when not nil, is a tree
// already edited to match parsed, from which tree-sitter reuses what did not
// change. Parsing stops at dl (ErrInterrupted) when dl is not nil.
func parseMasked(p *ts.Parser, lang *ts.Language, code string, src, parsed []byte, masks []mask, old *ts.Tree, dl *deadline) (*File, error) {
	micros, ok := dl.timeoutMicros()
	if !ok {
		return nil, ErrInterrupted
	}
	// SetTimeoutMicros is deprecated for a progress callback, but go-tree-sitter
	// v0.25 never releases the options that carry the callback.
	p.SetTimeoutMicros(micros)
	tree := p.Parse(parsed, old)
	if tree == nil {
		// A stopped parser resumes the stopped parse unless reset.
		p.Reset()
		if dl.passed() {
			return nil, ErrInterrupted
		}
		return nil, errors.New("csyntax: tree-sitter returned no tree")
	}
	return &File{code: code, src: src, parsed: parsed, masks: masks, lang: lang, tree: tree, dl: dl}, nil
}

// Close frees the tree. It is safe to call more than once; a closed File
// answers every question with nothing.
func (f *File) Close() {
	if f == nil || f.tree == nil {
		return
	}
	f.tree.Close()
	f.tree = nil
	f.idx = nil
}

// HasErrors reports whether the tree has ERROR or MISSING nodes. Masked
// decorators do not count as errors.
func (f *File) HasErrors() bool {
	if f == nil || f.tree == nil {
		return false
	}
	return f.tree.RootNode().HasError()
}

// Source returns the original source text.
func (f *File) Source() string {
	if f == nil {
		return ""
	}
	return string(f.src)
}

// Functions returns the file-scope function definitions in source order,
// including those inside #if/#ifdef blocks and top-level ERROR nodes.
func (f *File) Functions() []Function {
	ix := f.functions()
	if ix == nil {
		return nil
	}
	if len(ix.funcs) == 0 {
		return nil
	}
	out := make([]Function, len(ix.funcs))
	for i, fn := range ix.funcs {
		out[i] = fn.Function
	}
	return out
}

// Function returns the first function definition with the given name.
func (f *File) Function(name string) (Function, bool) {
	ix := f.functions()
	if ix == nil {
		return Function{}, false
	}
	for _, fn := range ix.funcs {
		if fn.Name == name {
			return fn.Function, true
		}
	}
	return Function{}, false
}

// Definition is where a function definition of Functions sits in the
// source, for text helpers that work on byte ranges: the one answer to "the
// body of function f".
type Definition struct {
	// Name is the function's name; for a wrapper-macro definition
	// (ISR_DIRECT_DECLARE(name), AVR ISR(vector), ZTEST(suite, name)) the
	// name given to the macro.
	Name string
	// Line is the 1-based line of the name.
	Line int
	// Start is the byte offset where the definition starts (its first
	// declaration specifier, decorator or wrapper macro).
	Start int
	// Head is the byte offset of the wrapper macro's name, or of the name
	// when there is no wrapper: Start..Head holds the specifiers and
	// decorators.
	Head int
	// NameStart is the byte offset of the name.
	NameStart int
	// Open is the byte offset of the body's "{".
	Open int
	// Close is the byte offset of the body's "}", -1 when the body is
	// unterminated.
	Close int
	// Wrapper is the wrapper macro's name, "" for an ordinary definition.
	Wrapper string
}

// Definitions returns the positions of the definitions Functions returns,
// in the same order.
func (f *File) Definitions() []Definition {
	ix := f.functions()
	if ix == nil || len(ix.funcs) == 0 {
		return nil
	}
	out := make([]Definition, len(ix.funcs))
	for i, fn := range ix.funcs {
		out[i] = Definition{Name: fn.Name, Line: fn.nameLine, Start: int(fn.start), Head: int(fn.head),
			NameStart: int(fn.nameStart), Open: int(fn.open), Close: fn.close, Wrapper: fn.wrapper}
	}
	return out
}

// Calls returns every call in source order. When within is not "", only calls
// inside the definitions of that function are returned (nil when there is no
// such function). Function-like macro uses are calls too ("K_MSEC(10)",
// "K_SEM_DEFINE(s, 0, 1);", "static K_THREAD_STACK_DEFINE(st, 1024);").
func (f *File) Calls(within string) []Call {
	ix := f.body()
	if ix == nil {
		return nil
	}
	var out []Call
	for _, c := range ix.calls {
		if within == "" || c.Function == within {
			out = append(out, c)
		}
	}
	return out
}

// Declarations returns declared variables in source order. within == ""
// returns all of them (file scope and locals), within == GlobalScope only file
// scope ones, otherwise the locals of that function. Parameters are not
// declarations (see Function.Params); neither are function prototypes,
// typedefs and struct fields.
func (f *File) Declarations(within string) []Declaration {
	if within == GlobalScope {
		return f.globalDecls()
	}
	ix := f.body()
	if ix == nil {
		return nil
	}
	var out []Declaration
	for _, d := range ix.decls {
		if within == "" || d.Scope == within {
			out = append(out, d)
		}
	}
	return out
}

// Callees returns the functions defined in this file that function calls,
// directly or through other functions of the file, each once, in the order
// they are first reached (breadth first, calls in source order). function
// itself is left out, even when it is recursive. Functions only passed as
// arguments (callbacks) are not calls and are not followed. Functions named
// in stop are neither reported nor entered (a walk from a reader that must
// not descend into the interrupt handler it calls).
func (f *File) Callees(function string, stop ...string) []string {
	defined := map[string]bool{}
	for _, fn := range f.Functions() {
		defined[fn.Name] = true
	}
	seen := map[string]bool{function: true}
	for _, s := range stop {
		seen[s] = true
	}
	var out []string
	queue := []string{function}
	for len(queue) > 0 && !f.expiredNow() {
		cur := queue[0]
		queue = queue[1:]
		for _, c := range f.Calls(cur) {
			if defined[c.Name] && !seen[c.Name] {
				seen[c.Name] = true
				out = append(out, c.Name)
				queue = append(queue, c.Name)
			}
		}
	}
	return out
}

// Includes returns the #include directives in source order.
func (f *File) Includes() []Include {
	ix := f.preprocessor()
	if ix == nil {
		return nil
	}
	return append([]Include(nil), ix.includes...)
}

// Macros returns the #define directives in source order.
func (f *File) Macros() []Macro {
	ix := f.preprocessor()
	if ix == nil {
		return nil
	}
	return append([]Macro(nil), ix.macros...)
}

// Query runs a raw tree-sitter query (S-expression syntax, with predicates
// such as #eq? and #match?) against the tree and returns its matches in order.
// Node kinds are those of tree-sitter-c; masked decorators are not in the
// tree. A malformed pattern gives an error naming its offset, line and column.
//
// The matches are computed once per pattern and shared by later calls:
// callers must not modify them.
func (f *File) Query(pattern string) ([]QueryMatch, error) {
	if f == nil || f.tree == nil {
		return nil, errors.New("csyntax: query on a closed file")
	}
	if ms, ok := f.results[pattern]; ok {
		return ms, nil
	}
	ms, err := f.runQuery(pattern)
	if err != nil || f.cut {
		return ms, err
	}
	if f.results == nil || len(f.results) >= maxCachedResults {
		f.results = map[string][]QueryMatch{}
	}
	f.results[pattern] = ms
	return ms, nil
}

// maxCachedResults bounds the query patterns whose matches a File keeps.
const maxCachedResults = 64

// runQuery runs a query pattern against the tree.
func (f *File) runQuery(pattern string) ([]QueryMatch, error) {
	var q *ts.Query
	if f.queries != nil {
		cq, owned := f.queries.get(pattern)
		if cq.err != nil {
			return nil, cq.err
		}
		q = cq.query
		if owned {
			defer q.Close()
		}
	} else {
		var err error
		if q, err = compileQuery(f.lang, pattern); err != nil {
			return nil, err
		}
		defer q.Close()
	}
	micros, ok := f.dl.timeoutMicros()
	if !ok || f.cut {
		f.cut = true
		return nil, nil
	}
	qc := ts.NewQueryCursor()
	defer qc.Close()
	// SetTimeoutMicros is deprecated for a progress callback, but go-tree-sitter
	// v0.25 never releases the options that carry the callback.
	qc.SetTimeoutMicros(micros)
	names := q.CaptureNames()
	var out []QueryMatch
	matches := qc.Matches(q, f.tree.RootNode(), f.src)
	for m := matches.Next(); m != nil && !f.expired(); m = matches.Next() {
		qm := QueryMatch{Captures: map[string][]Capture{}}
		for _, c := range m.Captures {
			name := names[c.Index]
			qm.Captures[name] = append(qm.Captures[name], Capture{
				Text:    f.code[c.Node.StartByte():c.Node.EndByte()],
				Kind:    c.Node.Kind(),
				Line:    int(c.Node.StartPosition().Row) + 1,
				EndLine: endLine(&c.Node),
				Start:   int(c.Node.StartByte()),
			})
		}
		out = append(out, qm)
	}
	if f.dl.passed() {
		// The cursor's timeout ends the matches early without saying so.
		f.cut = true
	}
	return out, nil
}

// queryErrorText says what is wrong with a query in one line.
func queryErrorText(e *ts.QueryError) string {
	switch e.Kind {
	case ts.QueryErrorNodeType:
		return fmt.Sprintf("unknown node type %q", e.Message)
	case ts.QueryErrorField:
		return fmt.Sprintf("unknown field %q", e.Message)
	case ts.QueryErrorCapture:
		return fmt.Sprintf("unknown capture %q", e.Message)
	case ts.QueryErrorPredicate:
		return "invalid predicate: " + e.Message
	case ts.QueryErrorStructure:
		return "impossible pattern structure"
	case ts.QueryErrorSyntax:
		return "invalid syntax"
	default:
		return e.Message
	}
}

// endLine is the 1-based last line of n; a node ending at column 0 of a line
// ends on the previous line.
func endLine(n *ts.Node) int {
	s, e := n.StartPosition(), n.EndPosition()
	if e.Column == 0 && e.Row > s.Row {
		return int(e.Row)
	}
	return int(e.Row) + 1
}

// compileQuery compiles a query pattern for lang with a positioned error.
func compileQuery(lang *ts.Language, pattern string) (*ts.Query, error) {
	q, qerr := ts.NewQuery(lang, pattern)
	if qerr != nil {
		return nil, fmt.Errorf("csyntax: bad query at offset %d (line %d, column %d): %s",
			qerr.Offset, qerr.Row+1, qerr.Column+1, queryErrorText(qerr))
	}
	return q, nil
}

// QueryCache compiles each query pattern once (and remembers the errors of
// bad patterns) for every File of the C grammar: compiling a query costs far
// more than running it. Compiled queries are immutable, so one QueryCache is
// safe for concurrent use by many ParseCaches.
type QueryCache struct {
	mu       sync.Mutex
	lang     *ts.Language
	compiled map[string]*compiledQuery
}

type compiledQuery struct {
	query *ts.Query
	err   error
}

// maxCachedQueries bounds a query cache; past it, new patterns are compiled
// for one use only.
const maxCachedQueries = 256

// NewQueryCache returns an empty cache.
func NewQueryCache() *QueryCache {
	return &QueryCache{lang: ts.NewLanguage(tsc.Language()), compiled: map[string]*compiledQuery{}}
}

// Len returns how many patterns are compiled.
func (c *QueryCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.compiled)
}

// get returns the compiled pattern and whether the caller owns it (must Close
// it after use) because the cache is full.
func (c *QueryCache) get(pattern string) (cq *compiledQuery, owned bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cq, ok := c.compiled[pattern]; ok {
		return cq, false
	}
	q, err := compileQuery(c.lang, pattern)
	cq = &compiledQuery{query: q, err: err}
	if len(c.compiled) >= maxCachedQueries {
		return cq, true
	}
	c.compiled[pattern] = cq
	return cq, false
}

// Close frees every compiled query. The cache must not be in use.
func (c *QueryCache) Close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cq := range c.compiled {
		if cq.query != nil {
			cq.query.Close()
		}
	}
	clear(c.compiled)
}
