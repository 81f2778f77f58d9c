package csyntax

import (
	"bytes"
	"sort"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// index is what has been extracted from one tree so far. Each part is built
// on first use by the narrowest walk that finds it exactly.
type index struct {
	k *kinds

	funcsDone bool
	funcs     []funcEntry
	merged    map[uint]bool // start bytes of declarations merged into functions

	bodyDone bool // calls and decls: one walk over every node
	calls    []Call
	callAt   []int // byte offset where each of calls starts
	decls    []Declaration

	globalsDone bool // file-scope declarations, when bodyDone is false
	globals     []Declaration

	ppDone   bool
	includes []Include
	macros   []Macro
}

// kinds are the node kind ids the walks compare, looked up once per
// language: comparing ids avoids Node.Kind, which crosses into C and
// allocates a string on every call.
type kinds struct {
	callExpr, macroType, declaration, include, def, fnDef uint16
	fnDefinition, comment                                 uint16
	containers                                            [9]uint16
}

// newKinds looks up the kind ids of lang.
func newKinds(lang *ts.Language) *kinds {
	id := func(kind string) uint16 { return lang.IdForNodeKind(kind, true) }
	k := &kinds{
		callExpr: id("call_expression"), macroType: id("macro_type_specifier"), declaration: id("declaration"),
		include: id("preproc_include"), def: id("preproc_def"), fnDef: id("preproc_function_def"),
		fnDefinition: id("function_definition"), comment: id("comment"),
	}
	for i, kind := range []string{"translation_unit", "preproc_if", "preproc_ifdef", "preproc_else",
		"preproc_elif", "preproc_elifdef", "ERROR", "linkage_specification", "declaration_list"} {
		k.containers[i] = id(kind)
	}
	return k
}

// isContainer reports whether children of a node of kind id are at file
// scope.
func (k *kinds) isContainer(id uint16) bool {
	for _, c := range k.containers {
		if c == id {
			return true
		}
	}
	return false
}

// funcEntry is a Function with the byte range used to find enclosing
// functions and the positions Definitions reports.
type funcEntry struct {
	Function
	start, end uint
	nameStart  uint   // first byte of the name
	nameLine   int    // 1-based line of the name
	open       uint   // byte of the body's "{"
	close      int    // byte of the body's "}", -1 when tree-sitter had to insert it
	head       uint   // first byte of the wrapper macro or of the name
	wrapper    string // wrapper macro (ISR_DIRECT_DECLARE, ISR, ZTEST, ...), if any
}

// wrapperNameArg returns, for a macro that defines a function around a name
// given as an argument, the 0-based index of that argument:
// ISR_DIRECT_DECLARE(name), AVR ISR(vector) and SIGNAL(vector), Zephyr
// ZTEST(suite, name) and its variants.
func wrapperNameArg(name string) (int, bool) {
	switch name {
	case "ISR_DIRECT_DECLARE", "ISR", "SIGNAL":
		return 0, true
	case "ZTEST", "ZTEST_F", "ZTEST_USER", "ZTEST_USER_F":
		return 1, true
	}
	return 0, false
}

// bodyClose returns the byte offset of the "}" closing compound statement
// body, or -1 when the brace is missing (unterminated body).
func bodyClose(body *ts.Node) int {
	n := body.ChildCount()
	if n == 0 {
		return -1
	}
	last := body.Child(n - 1)
	if last == nil || last.IsMissing() || last.Kind() != "}" {
		return -1
	}
	return int(last.StartByte())
}

// wrapped builds the Function of a definition tree-sitter reads as a call
// statement closed with a missing ";" followed by a compound statement at
// file scope: a wrapper macro "W(a, b) {...}" (named by its argument) or an
// implicit-int definition "f(x) {...}" (named by the callee). ok is false
// for any other shape.
func (f *File) wrapped(stmt, body *ts.Node) (fn funcEntry, ok bool) {
	if stmt == nil || body == nil || stmt.Kind() != "expression_statement" || body.Kind() != "compound_statement" {
		return fn, false
	}
	if n := stmt.ChildCount(); n == 0 || stmt.Child(n-1) == nil || !stmt.Child(n-1).IsMissing() {
		return fn, false
	}
	call := stmt.NamedChild(0)
	if call == nil || call.Kind() != "call_expression" {
		return fn, false
	}
	callee := call.ChildByFieldName("function")
	args := call.ChildByFieldName("arguments")
	if callee == nil || args == nil || callee.Kind() != "identifier" {
		return fn, false
	}
	w := f.text(callee)
	if k, isWrapper := wrapperNameArg(w); isWrapper && uint(k) < args.NamedChildCount() {
		if name := args.NamedChild(uint(k)); name != nil && name.Kind() == "identifier" {
			return f.wrapperEntry(w, stmt, callee, name, body), true
		}
	}
	// An implicit-int definition "name(a, b) {...}", or a wrapper whose
	// name argument is not an identifier: the definition of the callee.
	fn = f.wrapperEntry("", stmt, callee, callee, body)
	fn.Attributes = nil
	return fn, true
}

// unterminated builds the Function of a definition tree-sitter could not
// close: inside an ERROR node, a function declarator decl (after the type
// node before, if any) followed by "{" (a truncated answer, or a body whose
// brackets never balance). Like an unterminated body elsewhere, it runs to
// the end of the source; its entry ends with the ERROR node, or where the
// next definition inside it starts (set by scanFileScope), so that
// definitions stay ordered.
func (f *File) unterminated(before, decl, open, errNode *ts.Node) (fn funcEntry, ok bool) {
	name := f.nameNode(decl.ChildByFieldName("declarator"))
	if name == nil {
		return fn, false
	}
	start := decl.StartByte()
	if before != nil && before.EndByte() <= start && before.IsNamed() && isTypeWord(f.mtext(before)) {
		start = before.StartByte()
	}
	fn = funcEntry{
		Function: Function{
			Name:   f.text(name),
			Params: f.params(decl.ChildByFieldName("parameters")),
			Body:   f.code[open.StartByte():],
			Line:   int(f.startPoint(start).Row) + 1,
		},
		start:     start,
		end:       errNode.EndByte(),
		nameStart: name.StartByte(),
		nameLine:  int(name.StartPosition().Row) + 1,
		open:      open.StartByte(),
		close:     -1,
		head:      name.StartByte(),
	}
	fn.EndLine = strings.Count(strings.TrimSuffix(f.code, "\n"), "\n") + 1
	if fn.EndLine < fn.Line {
		fn.EndLine = fn.Line
	}
	return fn, true
}

// startPoint is the row and column of byte offset b.
func (f *File) startPoint(b uint) ts.Point {
	return pointAt(f.src, int(b))
}

// wrapperEntry is the entry of a wrapper-macro definition starting at node
// from, with the macro name at callee and the defined name at name.
func (f *File) wrapperEntry(w string, from, callee, name, body *ts.Node) funcEntry {
	fn := funcEntry{
		Function: Function{
			Name:       f.text(name),
			Body:       f.text(body),
			Line:       int(from.StartPosition().Row) + 1,
			EndLine:    endLine(body),
			Attributes: []string{w},
		},
		start:     from.StartByte(),
		end:       body.EndByte(),
		nameStart: name.StartByte(),
		nameLine:  int(name.StartPosition().Row) + 1,
		open:      body.StartByte(),
		close:     bodyClose(body),
		head:      callee.StartByte(),
		wrapper:   w,
	}
	if fn.EndLine < fn.Line {
		fn.EndLine = fn.Line
	}
	return fn
}

// index returns the extraction state, creating it on first use; nil when
// the file is closed.
func (f *File) index() *index {
	if f == nil || f.tree == nil {
		return nil
	}
	if f.idx == nil {
		if f.kinds == nil {
			f.kinds = newKinds(f.lang)
		}
		f.idx = &index{k: f.kinds}
	}
	return f.idx
}

// functions returns the index with its function definitions found: one
// walk over file-scope containers only.
func (f *File) functions() *index {
	ix := f.index()
	if ix != nil && !ix.funcsDone {
		ix.funcsDone = true
		ix.merged = map[uint]bool{}
		f.scanFileScope(f.tree.RootNode(), ix)
	}
	return ix
}

// body returns the index with every call and declaration found: one walk
// over every node.
func (f *File) body() *index {
	ix := f.functions()
	if ix == nil || ix.bodyDone {
		return ix
	}
	ix.bodyDone = true
	k := ix.k
	c := f.tree.Walk()
	defer c.Close()
	for !f.expired() {
		n := c.Node()
		switch n.KindId() {
		case k.callExpr:
			ix.addCall(f.call(n, ix), n.StartByte())
		case k.macroType:
			if call, ok := f.macroDeclCall(n, ix); ok {
				ix.addCall(call, n.StartByte())
			}
		case k.declaration:
			if call, ok := f.parenMacroCall(n, ix); ok {
				ix.addCall(call, n.StartByte())
			} else if !ix.merged[n.StartByte()] {
				ix.decls = append(ix.decls, f.declarations(n, ix)...)
			}
		}
		if c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return ix
			}
		}
	}
	return ix
}

// addCall records call, which starts at byte at.
func (ix *index) addCall(call Call, at uint) {
	ix.calls = append(ix.calls, call)
	ix.callAt = append(ix.callAt, int(at))
}

// globalDecls returns the file-scope declarations. Without the full walk of
// body, it walks every node except the insides of function definitions
// (which hold no file-scope declaration) and of preprocessor directives
// (which hold none at all).
func (f *File) globalDecls() []Declaration {
	ix := f.functions()
	if ix == nil {
		return nil
	}
	if ix.bodyDone {
		var out []Declaration
		for _, d := range ix.decls {
			if d.Scope == GlobalScope {
				out = append(out, d)
			}
		}
		return out
	}
	if ix.globalsDone {
		return append([]Declaration(nil), ix.globals...)
	}
	ix.globalsDone = true
	k := ix.k
	c := f.tree.Walk()
	defer c.Close()
	for !f.expired() {
		n := c.Node()
		descend := true
		switch n.KindId() {
		case k.declaration:
			if !ix.merged[n.StartByte()] {
				for _, d := range f.declarations(n, ix) {
					if d.Scope == GlobalScope {
						ix.globals = append(ix.globals, d)
					}
				}
			}
		case k.fnDefinition:
			// A definition that starts inside a function's range is that
			// function: everything in it is local.
			descend = ix.enclosing(n.StartByte()) == nil
		case k.include, k.def, k.fnDef:
			descend = false
		}
		if descend && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return append([]Declaration(nil), ix.globals...)
			}
		}
	}
	return append([]Declaration(nil), ix.globals...)
}

// preprocessor returns the index with #include and #define directives found.
// Every directive starts with '#', so the walk only enters nodes whose text
// (as parsed) holds a '#': in most files that is the top level and the
// #if blocks, never a function body.
func (f *File) preprocessor() *index {
	ix := f.index()
	if ix == nil || ix.ppDone {
		return ix
	}
	ix.ppDone = true
	k := ix.k
	c := f.tree.Walk()
	defer c.Close()
	for !f.expired() {
		n := c.Node()
		descend := false
		switch n.KindId() {
		case k.include:
			if inc, ok := f.include(n); ok {
				ix.includes = append(ix.includes, inc)
			}
		case k.def, k.fnDef:
			if m, ok := f.macro(n); ok {
				ix.macros = append(ix.macros, m)
			}
		default:
			start, end := n.ByteRange()
			descend = bytes.IndexByte(f.parsed[start:end], '#') >= 0
		}
		if descend && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return ix
			}
		}
	}
	return ix
}

// scanFileScope collects function definitions among the file-scope children
// of container, recursing into preprocessor blocks and ERROR nodes.
func (f *File) scanFileScope(container *ts.Node, ix *index) {
	c := container.Walk()
	defer c.Close()
	if !c.GotoFirstChild() {
		return
	}
	isError := container.Kind() == "ERROR"
	open := -1 // index in ix.funcs of an unterminated definition in this ERROR node
	var prev, prev2 *ts.Node
	for !f.expired() {
		n := c.Node()
		id := n.KindId()
		switch {
		case id == ix.k.fnDefinition:
			if open >= 0 {
				ix.funcs[open].end = n.StartByte()
				open = -1
			}
			if fn, mergedStart, ok := f.function(n, prev, container); ok {
				if mergedStart != nil {
					ix.merged[*mergedStart] = true
				}
				ix.funcs = append(ix.funcs, fn)
			}
		case ix.k.isContainer(id):
			f.scanFileScope(n, ix)
		case prev != nil && n.Kind() == "compound_statement":
			if fn, ok := f.wrapped(prev, n); ok {
				ix.funcs = append(ix.funcs, fn)
			}
		case isError && prev != nil && n.Kind() == "{" && prev.Kind() == "function_declarator":
			if fn, ok := f.unterminated(prev2, prev, n, container); ok {
				open = len(ix.funcs)
				ix.funcs = append(ix.funcs, fn)
			}
		}
		if id != ix.k.comment {
			prev, prev2 = n, prev
		}
		if !c.GotoNextSibling() {
			return
		}
	}
}

// attr is an attribute text with its byte offset, for ordering.
type attr struct {
	at   uint
	text string
}

// function builds a Function from a function_definition node. prev is the
// previous non-comment sibling (for the two-decorator merge), container the
// parent. mergedStart is set when prev was merged into the function.
func (f *File) function(n, prev, container *ts.Node) (fn funcEntry, mergedStart *uint, ok bool) {
	var typeNode, declNode, body *ts.Node
	var quals []string
	var attrs []attr
	var errTypes []*ts.Node
	static, inline := false, false

	c := n.Walk()
	defer c.Close()
	if c.GotoFirstChild() {
		for {
			ch := c.Node()
			switch field := c.FieldName(); {
			case field == "type":
				typeNode = ch
			case field == "declarator":
				declNode = ch
			case field == "body":
				body = ch
			default:
				switch ch.Kind() {
				case "storage_class_specifier":
					switch f.mtext(ch) {
					case "static":
						static = true
					case "inline", "__inline", "__inline__":
						inline = true
					}
				case "type_qualifier":
					quals = append(quals, f.mtext(ch))
				case "attribute_specifier", "attribute_declaration", "ms_declspec_modifier", "ms_call_modifier":
					attrs = append(attrs, attr{ch.StartByte(), f.text(ch)})
				case "ERROR":
					if declNode == nil {
						if isTypeWord(f.mtext(ch)) {
							errTypes = append(errTypes, ch)
						} else {
							attrs = append(attrs, attr{ch.StartByte(), collapse(f.text(ch))})
						}
					}
				}
			}
			if !c.GotoNextSibling() {
				break
			}
		}
	}
	if declNode == nil || body == nil {
		return fn, nil, false
	}

	// Find the function declarator under pointer/parenthesized wrappers.
	d := declNode
	var ptrs []string
	var fd *ts.Node
	for d != nil && fd == nil {
		switch d.Kind() {
		case "pointer_declarator":
			ptrs = append(ptrs, "*"+strings.Join(f.childTexts(d, "type_qualifier"), " "))
			d = d.ChildByFieldName("declarator")
		case "parenthesized_declarator", "attributed_declarator":
			d = d.NamedChild(0)
		case "function_declarator":
			fd = d
		default:
			d = nil
		}
	}
	if fd == nil {
		// "W(name) {...}" and "f(x) {...}": a type W and a parenthesized
		// declarator, a wrapper macro named by its argument or an
		// implicit-int definition named by the "type".
		if typeNode != nil && typeNode.Kind() == "type_identifier" && declNode.Kind() == "parenthesized_declarator" {
			if inner := declNode.NamedChild(0); inner != nil && inner.Kind() == "identifier" {
				w := f.text(typeNode)
				if k, ok := wrapperNameArg(w); ok && k == 0 {
					return f.wrapperEntry(w, n, typeNode, inner, body), nil, true
				}
				fn = f.wrapperEntry("", n, typeNode, typeNode, body)
				fn.Attributes = nil
				return fn, nil, true
			}
		}
		return fn, nil, false
	}
	nameNode := f.nameNode(fd.ChildByFieldName("declarator"))
	if nameNode == nil {
		return fn, nil, false
	}
	params := fd.ChildByFieldName("parameters")

	baseType := f.typeText(typeNode)
	start := n.StartByte()
	line := int(n.StartPosition().Row) + 1
	// "MY_ATTR void f(void)": the ERROR holds the real type.
	if len(errTypes) > 0 && typeNode != nil && !isTypeWord(baseType) {
		attrs = append(attrs, attr{typeNode.StartByte(), f.text(typeNode)})
		baseType = f.mtext(errTypes[0])
		for _, e := range errTypes[1:] {
			attrs = append(attrs, attr{e.StartByte(), f.text(e)})
		}
	} else {
		for _, e := range errTypes {
			attrs = append(attrs, attr{e.StartByte(), f.text(e)})
		}
	}
	// "static void A B f(void) {...}": tree-sitter gives a declaration
	// "static void A" with a missing ';' followed by a function of type B.
	if pd, ok := f.mergeableDecl(prev, n, typeNode); ok {
		ms := prev.StartByte()
		mergedStart = &ms
		attrs = append(attrs, attr{pd.name.StartByte(), f.text(pd.name)}, attr{typeNode.StartByte(), f.text(typeNode)})
		baseType = pd.baseType
		quals = append(pd.quals, quals...)
		static = static || pd.static
		inline = inline || pd.inline
		start = prev.StartByte()
		line = int(prev.StartPosition().Row) + 1
	}

	// Masked decorators between the previous sibling and the body, outside the
	// parameter list.
	lower := scopeStart(container)
	switch {
	case mergedStart != nil:
		lower = start
		if pp := prev.PrevSibling(); pp != nil {
			lower = pp.EndByte()
		}
	case prev != nil:
		lower = prev.EndByte()
	}
	var pStart, pEnd uint
	if params != nil {
		pStart, pEnd = params.StartByte(), params.EndByte()
	}
	for _, m := range f.masksIn(lower, body.StartByte()) {
		at := uint(m.start)
		if at >= pStart && at < pEnd {
			continue
		}
		if m.dec.replacement != "" && strings.Contains(m.dec.replacement, "static") {
			static = true
		}
		if strings.Contains(m.dec.replacement, "inline") {
			inline = true
		}
		if m.dec.attribute {
			attrs = append(attrs, attr{at, m.text})
		}
	}
	sort.SliceStable(attrs, func(i, j int) bool { return attrs[i].at < attrs[j].at })

	ret := strings.Join(append(append([]string(nil), quals...), baseType), " ")
	for _, p := range ptrs {
		ret += " " + p
	}
	fn = funcEntry{
		Function: Function{
			Name:       f.text(nameNode),
			ReturnType: normType(ret),
			Params:     f.params(params),
			Body:       f.text(body),
			Line:       line,
			EndLine:    endLine(n),
			Static:     static,
			Inline:     inline,
		},
		start:     start,
		end:       n.EndByte(),
		nameStart: nameNode.StartByte(),
		nameLine:  int(nameNode.StartPosition().Row) + 1,
		open:      body.StartByte(),
		close:     bodyClose(body),
		head:      nameNode.StartByte(),
	}
	for _, a := range attrs {
		if a.text != "" {
			fn.Attributes = append(fn.Attributes, a.text)
		}
	}
	if fn.EndLine < fn.Line {
		fn.EndLine = fn.Line
	}
	return fn, mergedStart, true
}

// prevDecl is what the two-decorator merge takes from the broken declaration.
type prevDecl struct {
	name           *ts.Node
	baseType       string
	quals          []string
	static, inline bool
}

// mergeableDecl reports whether prev is a declaration "specifiers IDENT" with
// a missing ';' directly followed by function n whose type is a non-type
// identifier, the shape tree-sitter gives "static void A B f(void) {".
func (f *File) mergeableDecl(prev, n, typeNode *ts.Node) (prevDecl, bool) {
	var pd prevDecl
	if prev == nil || prev.Kind() != "declaration" || typeNode == nil || typeNode.Kind() != "type_identifier" {
		return pd, false
	}
	if isTypeWord(f.mtext(typeNode)) {
		return pd, false
	}
	cnt := prev.ChildCount()
	if cnt == 0 {
		return pd, false
	}
	last := prev.Child(cnt - 1)
	if last == nil || !last.IsMissing() {
		return pd, false
	}
	if strings.TrimSpace(string(f.parsed[prev.EndByte():n.StartByte()])) != "" {
		return pd, false
	}
	decl := prev.ChildByFieldName("declarator")
	if decl == nil || decl.Kind() != "identifier" || decl.StartByte() == decl.EndByte() {
		return pd, false
	}
	pd.name = decl
	pd.baseType = f.typeText(prev.ChildByFieldName("type"))
	for i := uint(0); i < cnt; i++ {
		ch := prev.Child(i)
		switch ch.Kind() {
		case "storage_class_specifier":
			switch f.mtext(ch) {
			case "static":
				pd.static = true
			case "inline", "__inline", "__inline__":
				pd.inline = true
			}
		case "type_qualifier":
			pd.quals = append(pd.quals, f.mtext(ch))
		}
	}
	return pd, true
}

// params converts a parameter_list node.
func (f *File) params(list *ts.Node) []Param {
	if list == nil {
		return nil
	}
	var out []Param
	c := list.Walk()
	defer c.Close()
	if !c.GotoFirstChild() {
		return nil
	}
	for {
		n := c.Node()
		switch n.Kind() {
		case "parameter_declaration":
			name := f.nameNode(n.ChildByFieldName("declarator"))
			typ := ""
			if name != nil {
				typ = string(f.parsed[n.StartByte():name.StartByte()]) + string(f.parsed[name.EndByte():n.EndByte()])
				out = append(out, Param{Type: normType(typ), Name: f.text(name)})
			} else {
				out = append(out, Param{Type: normType(f.mtext(n))})
			}
		case "variadic_parameter":
			out = append(out, Param{Type: "..."})
		}
		if !c.GotoNextSibling() {
			break
		}
	}
	if len(out) == 1 && out[0].Name == "" && out[0].Type == "void" {
		return nil
	}
	return out
}

// nameNode returns the identifier a declarator declares, or nil.
func (f *File) nameNode(d *ts.Node) *ts.Node {
	for d != nil {
		switch d.Kind() {
		case "identifier", "field_identifier", "type_identifier":
			if d.StartByte() == d.EndByte() {
				return nil
			}
			return d
		case "pointer_declarator", "array_declarator", "function_declarator", "init_declarator",
			"abstract_pointer_declarator", "abstract_array_declarator", "abstract_function_declarator":
			d = d.ChildByFieldName("declarator")
		case "parenthesized_declarator", "attributed_declarator", "abstract_parenthesized_declarator":
			d = d.NamedChild(0)
		default:
			return nil
		}
	}
	return nil
}

// declShape is what a declarator says about the declared name.
type declShape struct {
	name           *ts.Node
	init           *ts.Node
	pointer, array bool
	ptrQuals       []string
	prototype      bool
	dims           []string // array sizes, outermost first ("" for [])
}

// shape analyzes one declarator of a declaration.
func (f *File) shape(d *ts.Node) declShape {
	var s declShape
	for d != nil {
		switch d.Kind() {
		case "init_declarator":
			s.init = d.ChildByFieldName("value")
			d = d.ChildByFieldName("declarator")
		case "pointer_declarator":
			s.pointer = true
			s.ptrQuals = append(s.ptrQuals, f.childTexts(d, "type_qualifier")...)
			d = d.ChildByFieldName("declarator")
		case "array_declarator":
			s.array = true
			size := ""
			if z := d.ChildByFieldName("size"); z != nil {
				size = collapse(f.text(z))
			}
			s.dims = append([]string{size}, s.dims...)
			d = d.ChildByFieldName("declarator")
		case "function_declarator":
			inner := d.ChildByFieldName("declarator")
			if inner != nil && inner.Kind() == "identifier" {
				s.prototype = true
			}
			d = inner
		case "parenthesized_declarator", "attributed_declarator":
			d = d.NamedChild(0)
		case "identifier":
			if d.StartByte() != d.EndByte() {
				s.name = d
			}
			return s
		default:
			return s
		}
	}
	return s
}

// declarations converts a declaration node into one Declaration per declared
// variable.
func (f *File) declarations(n *ts.Node, ix *index) []Declaration {
	if _, ok := f.parenMacroCall(n, ix); ok {
		return nil
	}
	var typeNode *ts.Node
	var decls []*ts.Node
	var quals, storage []string
	var attrs []attr
	c := n.Walk()
	defer c.Close()
	if c.GotoFirstChild() {
		for {
			ch := c.Node()
			switch field := c.FieldName(); {
			case field == "type":
				typeNode = ch
			case field == "declarator":
				decls = append(decls, ch)
			default:
				switch ch.Kind() {
				case "storage_class_specifier":
					if s := f.mtext(ch); s != "inline" && s != "__inline" && s != "__inline__" {
						storage = append(storage, s)
					}
				case "type_qualifier":
					quals = append(quals, f.mtext(ch))
				case "attribute_specifier", "attribute_declaration", "ms_declspec_modifier":
					attrs = append(attrs, attr{ch.StartByte(), f.text(ch)})
				}
			}
			if !c.GotoNextSibling() {
				break
			}
		}
	}
	if len(decls) == 0 || (typeNode != nil && typeNode.Kind() == "macro_type_specifier") {
		return nil
	}
	lower := n.StartByte()
	if p := n.PrevSibling(); p != nil {
		lower = p.EndByte()
	} else if p := n.Parent(); p != nil {
		lower = scopeStart(p)
	}
	for _, m := range f.masksIn(lower, n.EndByte()) {
		at := uint(m.start)
		quals = append(quals, m.dec.qualifiers...)
		if m.dec.attribute {
			attrs = append(attrs, attr{at, m.text})
		}
	}
	sort.SliceStable(attrs, func(i, j int) bool { return attrs[i].at < attrs[j].at })
	var attrTexts []string
	for _, a := range attrs {
		attrTexts = append(attrTexts, a.text)
	}
	scope := GlobalScope
	if fn := ix.enclosing(n.StartByte()); fn != nil {
		scope = fn.Name
	}
	baseType := f.typeText(typeNode)

	var out []Declaration
	for _, d := range decls {
		s := f.shape(d)
		if s.name == nil || s.prototype {
			continue
		}
		decl := Declaration{
			Name:              f.text(s.name),
			Type:              baseType,
			Qualifiers:        dedupe(append(append([]string(nil), quals...), s.ptrQuals...)),
			PointerQualifiers: dedupe(s.ptrQuals),
			Storage:           append([]string(nil), storage...),
			Attributes:        append([]string(nil), attrTexts...),
			Pointer:           s.pointer,
			Array:             s.array,
			Dims:              s.dims,
			Line:              int(s.name.StartPosition().Row) + 1,
			Scope:             scope,
		}
		if s.init != nil {
			decl.Init = strings.TrimSpace(f.text(s.init))
		}
		out = append(out, decl)
	}
	return out
}

// masksIn returns the masks starting in [lo, hi); masks are in source order.
func (f *File) masksIn(lo, hi uint) []mask {
	i := sort.Search(len(f.masks), func(i int) bool { return uint(f.masks[i].start) >= lo })
	j := sort.Search(len(f.masks), func(i int) bool { return uint(f.masks[i].start) >= hi })
	return f.masks[i:max(i, j)]
}

// scopeStart is where masked decorators of a container's first child may
// start: 0 for the translation unit (whose node starts at its first token),
// otherwise the container's start.
func scopeStart(container *ts.Node) uint {
	if container.Kind() == "translation_unit" {
		return 0
	}
	return container.StartByte()
}

// enclosing returns the function whose definition contains byte b, or nil.
func (ix *index) enclosing(b uint) *funcEntry {
	i := sort.Search(len(ix.funcs), func(i int) bool { return ix.funcs[i].end > b })
	if i < len(ix.funcs) && ix.funcs[i].start <= b {
		return &ix.funcs[i]
	}
	return nil
}

// call converts a call_expression node.
func (f *File) call(n *ts.Node, ix *index) Call {
	call := Call{Line: int(n.StartPosition().Row) + 1}
	if fn := n.ChildByFieldName("function"); fn != nil {
		call.Name = collapse(f.text(fn))
	}
	if args := n.ChildByFieldName("arguments"); args != nil {
		c := args.Walk()
		defer c.Close()
		if c.GotoFirstChild() {
			for {
				a := c.Node()
				if a.IsNamed() && a.Kind() != "comment" {
					call.Args = append(call.Args, strings.TrimSpace(f.code[f.unmaskedStart(a.StartByte()):a.EndByte()]))
				}
				if !c.GotoNextSibling() {
					break
				}
			}
		}
	}
	if fn := ix.enclosing(n.StartByte()); fn != nil {
		call.Function = fn.Name
	}
	return call
}

// macroDeclCall recognizes "static K_THREAD_STACK_DEFINE(stack, 1024);",
// which tree-sitter parses as a declaration whose type is a macro type
// specifier and whose declarator is missing, and reports it as a call.
func (f *File) macroDeclCall(n *ts.Node, ix *index) (Call, bool) {
	parent := n.Parent()
	if parent == nil || parent.Kind() != "declaration" {
		return Call{}, false
	}
	if d := parent.ChildByFieldName("declarator"); d != nil && strings.TrimSpace(f.text(d)) != "" {
		return Call{}, false
	}
	name := n.ChildByFieldName("name")
	if name == nil {
		return Call{}, false
	}
	text := f.text(n)
	open := strings.IndexByte(text, '(')
	closing := strings.LastIndexByte(text, ')')
	call := Call{Name: f.text(name), Line: int(n.StartPosition().Row) + 1}
	if open >= 0 && closing > open {
		call.Args = SplitArgs(text[open+1 : closing])
	}
	if fn := ix.enclosing(n.StartByte()); fn != nil {
		call.Function = fn.Name
	}
	return call, true
}

// parenMacroCall recognizes "static DEVICE_ATTR_RO(count);", which
// tree-sitter parses as a declaration of "count" (in parentheses) whose type
// is DEVICE_ATTR_RO, and reports it as the macro call it is: the type is an
// all-caps identifier and the only declarator a parenthesized name without
// an initializer.
func (f *File) parenMacroCall(n *ts.Node, ix *index) (Call, bool) {
	typ := n.ChildByFieldName("type")
	if typ == nil || typ.Kind() != "type_identifier" || !allCaps(f.text(typ)) {
		return Call{}, false
	}
	var decl *ts.Node
	count := 0
	c := n.Walk()
	defer c.Close()
	if c.GotoFirstChild() {
		for {
			if c.FieldName() == "declarator" {
				decl = c.Node()
				count++
			}
			if !c.GotoNextSibling() {
				break
			}
		}
	}
	if count != 1 || decl.Kind() != "parenthesized_declarator" {
		return Call{}, false
	}
	inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(f.text(decl)), "("), ")"))
	call := Call{Name: f.text(typ), Args: SplitArgs(inner), Line: int(typ.StartPosition().Row) + 1}
	if fn := ix.enclosing(n.StartByte()); fn != nil {
		call.Function = fn.Name
	}
	return call, true
}

// allCaps reports whether name looks like a macro: upper-case letters,
// digits and underscores, starting with a letter.
func allCaps(name string) bool {
	if name == "" || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// include converts a preproc_include node.
func (f *File) include(n *ts.Node) (Include, bool) {
	p := n.ChildByFieldName("path")
	if p == nil {
		return Include{}, false
	}
	text := strings.TrimSpace(f.text(p))
	inc := Include{Line: int(n.StartPosition().Row) + 1}
	switch {
	case p.Kind() == "system_lib_string":
		inc.System = true
		inc.Path = strings.TrimSuffix(strings.TrimPrefix(text, "<"), ">")
	case p.Kind() == "string_literal":
		inc.Path = strings.TrimSuffix(strings.TrimPrefix(text, `"`), `"`)
	default:
		inc.Path = text
	}
	return inc, true
}

// macro converts a preproc_def or preproc_function_def node.
func (f *File) macro(n *ts.Node) (Macro, bool) {
	name := n.ChildByFieldName("name")
	if name == nil || name.StartByte() == name.EndByte() {
		return Macro{}, false
	}
	m := Macro{Name: f.text(name), Line: int(n.StartPosition().Row) + 1}
	if v := n.ChildByFieldName("value"); v != nil {
		m.Value = strings.TrimSpace(f.text(v))
	}
	if ps := n.ChildByFieldName("parameters"); ps != nil {
		m.FunctionLike = true
		m.Params = []string{}
		for i := uint(0); i < ps.ChildCount(); i++ {
			ch := ps.Child(i)
			if ch.Kind() == "identifier" || ch.Kind() == "..." {
				m.Params = append(m.Params, f.text(ch))
			}
		}
	}
	return m, true
}

// typeText renders a type specifier node: "struct NAME" for named
// struct/union/enum specifiers, otherwise the collapsed masked text.
func (f *File) typeText(n *ts.Node) string {
	if n == nil {
		return ""
	}
	switch n.Kind() {
	case "struct_specifier", "union_specifier", "enum_specifier":
		if name := n.ChildByFieldName("name"); name != nil {
			return strings.TrimSuffix(n.Kind(), "_specifier") + " " + f.text(name)
		}
	}
	return collapse(f.mtext(n))
}

// childTexts returns the masked texts of n's children of the given kind.
func (f *File) childTexts(n *ts.Node, kind string) []string {
	var out []string
	for i := uint(0); i < n.ChildCount(); i++ {
		if ch := n.Child(i); ch.Kind() == kind {
			out = append(out, f.mtext(ch))
		}
	}
	return out
}

// text is n's original source text (a substring of the source, not a copy).
func (f *File) text(n *ts.Node) string {
	return f.code[n.StartByte():n.EndByte()]
}

// unmaskedStart moves a node's start back over source text that masking
// blanked just before it (the "struct" of container_of(p, struct foo, m)), so
// that texts taken from the original source include it.
func (f *File) unmaskedStart(start uint) uint {
	k := start
	for k > 0 && isBlank(f.parsed[k-1]) {
		k--
	}
	for k < start && isBlank(f.src[k]) {
		k++
	}
	return k
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// mtext is n's text as parsed (decorators masked).
func (f *File) mtext(n *ts.Node) string {
	return string(f.parsed[n.StartByte():n.EndByte()])
}

// isTypeWord reports whether s looks like a type name: a C type keyword, a
// name ending in _t, or a struct/union/enum type.
func isTypeWord(s string) bool {
	s = strings.TrimSpace(s)
	switch s {
	case "void", "char", "short", "int", "long", "float", "double", "signed",
		"unsigned", "bool", "_Bool", "size_t", "ssize_t":
		return true
	}
	if strings.HasPrefix(s, "struct ") || strings.HasPrefix(s, "union ") || strings.HasPrefix(s, "enum ") {
		return true
	}
	return strings.HasSuffix(s, "_t") && !strings.ContainsAny(s, " ()")
}

// collapse trims s and collapses runs of whitespace to one space.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// normType renders a type string with canonical spacing: one space between
// words, before a '*' or '(' that follows a word, and after a comma.
func normType(s string) string {
	var b strings.Builder
	prevWord, prevComma := false, false
	for i := 0; i < len(s); {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\\':
			i++
			continue
		case isIdentPart(ch):
			j := i
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			if (prevWord || prevComma) && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(s[i:j])
			i = j
			prevWord, prevComma = true, false
			continue
		default:
			if ((prevWord && (ch == '*' || ch == '(')) || prevComma) && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(ch)
			prevWord, prevComma = false, ch == ','
			i++
		}
	}
	return b.String()
}

// SplitArgs splits a macro argument list (or an initializer or enumerator
// list) at top-level commas, outside brackets and quotes, trimmed.
func SplitArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'':
			i = skipQuoted(s, i) - 1
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if last := strings.TrimSpace(s[start:]); last != "" || len(out) > 0 {
		out = append(out, last)
	}
	return out
}

// dedupe removes repeated strings, keeping the first occurrence; nil for an
// empty result.
func dedupe(in []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
