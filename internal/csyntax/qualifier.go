package csyntax

import (
	"sort"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// Declarator is one declaration of a name as an object: a variable, a
// function parameter or a struct or union member. Unlike Declarations, it
// keeps the declaration's tokens as written, for questions about any
// specifier or decorator in any placement.
type Declarator struct {
	// Name is the declared name.
	Name string
	// Kind is "variable" (file scope, local, for-loop init), "parameter"
	// (of a definition, a prototype or a function pointer type) or "field"
	// (a struct or union member).
	Kind string
	// Scope is, for a variable or parameter, GlobalScope or the enclosing
	// function's name; for a field, the tag of its struct or union ("" when
	// anonymous).
	Scope string
	// Line is the 1-based line of the name.
	Line int
	// Tokens are the tokens (see cTokens: comments dropped, a literal is one
	// token) of what the declaration says about the name: its specifiers
	// (storage class, qualifiers, attributes, masked decorators such as
	// __aligned(4) or RTC_DATA_ATTR, and the type with a struct or union
	// body written there), then its own declarator without the name: the
	// pointer stars and their qualifiers, array bounds and the decorators
	// written after it. Other declarators of the declaration, the
	// initializer, a bit-field width and the parameter lists of a function
	// pointer are left out. The qualifiers a masked decorator stands for
	// follow the tokens of its part (__IO adds volatile).
	Tokens []string
}

// Declarators returns the declarations of name as an object, in source
// order. Function prototypes, typedef names and macro calls that look like
// declarations ("static DEVICE_ATTR_RO(x);") are not declarators; neither
// is anything on a preprocessor line. The declarators of every name are
// collected in one walk on first use; the returned slice is shared, callers
// only read it.
func (f *File) Declarators(name string) []Declarator {
	if f == nil || f.functions() == nil {
		return nil
	}
	all := f.Memo("csyntax.declarators", func() any { return f.declarators() }).(map[string][]Declarator)
	return all[name]
}

// QualifierOnVariable reports whether some declarator of variable
// (Declarators) holds the tokens of qualifier as a contiguous run: a
// storage class ("static"), a qualifier ("volatile", "_Atomic") or a
// decorator ("__aligned(4)", compared token by token so "__aligned( 4 )"
// matches too), in any placement: "int *volatile p" and "volatile int *p"
// both qualify p. Masked decorators count as written and for the
// qualifiers they stand for: CMSIS "__IO uint32_t x" qualifies x with both
// "__IO" and "volatile". A typedef that hides the qualifier is not
// followed; an empty qualifier matches nothing.
func (f *File) QualifierOnVariable(variable, qualifier string) bool {
	want := cTokens(qualifier)
	if len(want) == 0 {
		return false
	}
	for _, d := range f.Declarators(variable) {
		if containsRun(d.Tokens, want) {
			return true
		}
	}
	return false
}

// declarators walks the tree once and collects every declarator by name.
func (f *File) declarators() map[string][]Declarator {
	ix := f.functions()
	k := ix.k
	param := f.lang.IdForNodeKind("parameter_declaration", true)
	field := f.lang.IdForNodeKind("field_declaration", true)
	call := f.lang.IdForNodeKind("preproc_call", true)
	out := map[string][]Declarator{}
	c := f.tree.Walk()
	defer c.Close()
	for !f.expired() {
		n := c.Node()
		descend := true
		switch n.KindId() {
		case k.declaration:
			if _, isMacro := f.parenMacroCall(n, ix); !isMacro && !ix.merged[n.StartByte()] {
				if t := n.ChildByFieldName("type"); t == nil || t.KindId() != k.macroType {
					f.addDeclarators(out, n, "variable", ix)
				}
			}
		case param:
			f.addDeclarators(out, n, "parameter", ix)
		case field:
			f.addDeclarators(out, n, "field", ix)
		case k.include, k.def, k.fnDef, call:
			descend = false
		}
		if descend && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return out
			}
		}
	}
	return out
}

// addDeclarators adds the declarators of declaration node n.
func (f *File) addDeclarators(out map[string][]Declarator, n *ts.Node, kind string, ix *index) {
	var decls []*ts.Node
	c := n.Walk()
	defer c.Close()
	if c.GotoFirstChild() {
		for {
			if c.FieldName() == "declarator" {
				decls = append(decls, c.Node())
			}
			if !c.GotoNextSibling() {
				break
			}
		}
	}
	if len(decls) == 0 {
		return
	}
	specStart := f.decoratedStart(n)
	spec := f.maskedQualifiers(cTokens(f.code[specStart:decls[0].StartByte()]), specStart, decls[0].StartByte())
	scope := GlobalScope
	if kind == "field" {
		scope = recordTag(f, n)
	} else if fn := ix.enclosing(n.StartByte()); fn != nil {
		scope = fn.Name
	}
	for _, d := range decls {
		name, holes := declaratorName(d)
		if name == nil {
			continue
		}
		end := ownEnd(d, n, kind)
		holes = append(holes, [2]uint{name.StartByte(), name.EndByte()})
		toks := append([]string(nil), spec...)
		toks = append(toks, f.maskedQualifiers(f.tokensExcept(d.StartByte(), end, holes), d.StartByte(), end)...)
		text := f.text(name)
		out[text] = append(out[text], Declarator{Name: text, Kind: kind, Scope: scope,
			Line: int(name.StartPosition().Row) + 1, Tokens: toks})
	}
}

// decoratedStart is where declaration node n starts with the masked
// decorators written before its first token ("RTC_DATA_ATTR static int x;"
// parses as a declaration starting at "static"): masks are blank in the
// parsed text, so the blank run before n holds them.
func (f *File) decoratedStart(n *ts.Node) uint {
	start := n.StartByte()
	lower := start
	for lower > 0 && isBlank(f.parsed[lower-1]) {
		lower--
	}
	if ms := f.masksIn(lower, start); len(ms) > 0 {
		return uint(ms[0].start)
	}
	return start
}

// declaratorName follows declarator d to the name it declares and returns
// the parameter lists on the way (a function pointer's), which say nothing
// about the name; nil for a function prototype or an abstract declarator.
func declaratorName(d *ts.Node) (name *ts.Node, holes [][2]uint) {
	for d != nil {
		switch d.Kind() {
		case "identifier", "field_identifier":
			if d.StartByte() == d.EndByte() {
				return nil, nil
			}
			return d, holes
		case "init_declarator", "pointer_declarator", "array_declarator":
			d = d.ChildByFieldName("declarator")
		case "function_declarator":
			inner := d.ChildByFieldName("declarator")
			if inner == nil || inner.Kind() == "identifier" || inner.Kind() == "field_identifier" {
				return nil, nil
			}
			if p := d.ChildByFieldName("parameters"); p != nil {
				holes = append(holes, [2]uint{p.StartByte(), p.EndByte()})
			}
			d = inner
		case "parenthesized_declarator", "attributed_declarator":
			d = d.NamedChild(0)
		default:
			return nil, nil
		}
	}
	return nil, nil
}

// ownEnd is where declarator d's own part ends: before its initializer's
// "=", else where the next child of declaration n starts ("," ";" or a
// bit-field width, so that decorators after the declarator count), else
// for a parameter where the next parameter or ")" starts.
func ownEnd(d, n *ts.Node, kind string) uint {
	if d.Kind() == "init_declarator" {
		for i := uint(0); i < d.ChildCount(); i++ {
			if ch := d.Child(i); ch != nil && ch.Kind() == "=" {
				return ch.StartByte()
			}
		}
		return d.EndByte()
	}
	if next := d.NextSibling(); next != nil {
		return next.StartByte()
	}
	if kind == "parameter" {
		if next := n.NextSibling(); next != nil {
			return next.StartByte()
		}
	}
	return n.EndByte()
}

// maskedQualifiers appends to toks the qualifiers that the masked
// decorators in [lo, hi) stand for (CMSIS __IO is volatile).
func (f *File) maskedQualifiers(toks []string, lo, hi uint) []string {
	for _, m := range f.masksIn(lo, hi) {
		toks = append(toks, m.dec.qualifiers...)
	}
	return toks
}

// tokensExcept returns the tokens of the source in [lo, hi) outside the
// holes (byte ranges of nodes).
func (f *File) tokensExcept(lo, hi uint, holes [][2]uint) []string {
	sort.Slice(holes, func(i, j int) bool { return holes[i][0] < holes[j][0] })
	var out []string
	at := lo
	for _, h := range holes {
		if h[0] > at && h[0] <= hi {
			out = append(out, cTokens(f.code[at:h[0]])...)
		}
		at = max(at, h[1])
	}
	if at < hi {
		out = append(out, cTokens(f.code[at:hi])...)
	}
	return out
}

// recordTag returns the tag of the struct or union whose member list holds
// field declaration n, "" when it is anonymous.
func recordTag(f *File, n *ts.Node) string {
	p := n.Parent()
	if p == nil || p.Kind() != "field_declaration_list" {
		return ""
	}
	if r := p.Parent(); r != nil {
		if name := r.ChildByFieldName("name"); name != nil {
			return f.text(name)
		}
	}
	return ""
}
