// This file lays out the code's C types on a 32-bit target for c.address:
// ILP32, natural alignment (an N-byte scalar aligned to N bytes, pointers 4
// bytes), the layout GCC and Clang give Cortex-M and RISC-V 32 code. Struct
// and union definitions and typedefs are read from csyntax's tree (the
// texts of type_definition, struct_specifier and union_specifier nodes) and
// lexed with ctoks; what cannot be laid out exactly (a bitfield, an
// alignment attribute, #pragma pack, an unknown type) has an unknown size
// or offset, never a guessed one.

package checks

import (
	"regexp"
	"sort"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cexpr"
	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// typeKind is the kind of a laid-out C type.
type typeKind uint8

const (
	tyScalar  typeKind = iota // an integer, enum or floating type
	tyPointer                 // a pointer (elem is the pointee, nil when unknown or void)
	tyArray                   // an array of count elems (count -1: unknown or flexible)
	tyRecord                  // a struct or union with its members
	tyTag                     // "struct tag" or "union tag", resolved at use
)

// cType is one C type with its layout; size and align are -1 when unknown.
type cType struct {
	kind        typeKind
	size, align int64
	elem        *cType
	count       int64
	fields      []cField
	// tag is the key ("struct uart") of a tyTag type.
	tag string
}

// cField is one member of a struct or union.
type cField struct {
	// name is "" for an anonymous struct or union member.
	name string
	// off is the byte offset in the record, -1 when unknown (after a
	// bitfield or a member of unknown size).
	off int64
	t   *cType
	// bits is set for a bitfield.
	bits bool
}

// pointerType is a pointer to elem.
func pointerType(elem *cType) *cType {
	return &cType{kind: tyPointer, size: 4, align: 4, elem: elem}
}

// scalarType is a scalar of size bytes aligned to its size.
func scalarType(size int64) *cType {
	return &cType{kind: tyScalar, size: size, align: size}
}

// typeTable holds the code's named types.
type typeTable struct {
	typedefs map[string]*cType
	tags     map[string]*cType
	env      cexpr.Env
}

// resolve is t with a tag reference replaced by its definition; nil when
// the tag is not defined.
func (tt *typeTable) resolve(t *cType) *cType {
	if t != nil && t.kind == tyTag {
		return tt.tags[t.tag]
	}
	return t
}

// sizeOf is t's size and alignment; ok is false when unknown.
func (tt *typeTable) sizeOf(t *cType) (size, align int64, ok bool) {
	t = tt.resolve(t)
	if t == nil || t.size < 0 || t.align <= 0 {
		return 0, 0, false
	}
	return t.size, t.align, true
}

// packPragma finds a #pragma pack directive.
var packPragma = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*pragma[ \t]+pack\b`)

// fileTypes is the type table of f, built once per file: its typedefs and
// struct and union definitions in source order. env evaluates array
// lengths.
func fileTypes(f *csyntax.File, env cexpr.Env) *typeTable {
	return f.Memo("c.address types", func() any {
		tt := &typeTable{typedefs: map[string]*cType{}, tags: map[string]*cType{}, env: env}
		packLine := 0
		if loc := packPragma.FindStringIndex(f.Source()); loc != nil {
			packLine = strings.Count(f.Source()[:loc[0]], "\n") + 1
		}
		var caps []csyntax.Capture
		for _, q := range []string{"(type_definition) @d", "(struct_specifier body: (_)) @d", "(union_specifier body: (_)) @d"} {
			ms, err := f.Query(q)
			if err != nil {
				continue
			}
			for _, m := range ms {
				caps = append(caps, m.Captures["d"]...)
			}
		}
		sort.SliceStable(caps, func(i, j int) bool { return caps[i].Start < caps[j].Start })
		for _, c := range caps {
			p := &typeParser{tt: tt, toks: tokenizeExpr(c.Text), packed: packLine > 0 && c.Line >= packLine}
			if c.Kind == "type_definition" {
				p.typedef()
			} else {
				p.specifiers()
			}
		}
		return tt
	}).(*typeTable)
}

// typeParser reads declarations from tokens.
type typeParser struct {
	tt   *typeTable
	toks []ctok
	i    int
	// packed marks the records read as under #pragma pack: their layout is
	// unknown.
	packed bool
}

func (p *typeParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].text
	}
	return ""
}

// cmsisQualifiers are the CMSIS register qualifiers, read as qualifiers
// whether the code defines them or not.
var cmsisQualifiers = map[string]bool{"__IO": true, "__I": true, "__O": true, "__IM": true, "__OM": true, "__IOM": true}

// isQualifier reports whether word is a qualifier or storage class that
// does not change a layout.
func isQualifier(word string) bool {
	switch word {
	case "const", "volatile", "restrict", "__restrict", "__restrict__", "__volatile__", "__const",
		"static", "extern", "register", "inline", "__inline", "__inline__", "auto", "typedef":
		return true
	}
	return cmsisQualifiers[word]
}

// scalarWords are the keywords that spell arithmetic types.
var scalarWords = map[string]bool{"void": true, "char": true, "short": true, "int": true, "long": true,
	"signed": true, "unsigned": true, "float": true, "double": true, "_Bool": true, "__signed__": true, "__unsigned__": true}

// namedScalars are the sizes of the standard and common SDK scalar
// typedefs, known without the code defining them.
var namedScalars = map[string]int64{
	"uint8_t": 1, "int8_t": 1, "u8": 1, "s8": 1, "bool": 1, "u_char": 1,
	"uint16_t": 2, "int16_t": 2, "u16": 2, "s16": 2,
	"uint32_t": 4, "int32_t": 4, "u32": 4, "s32": 4, "size_t": 4, "ssize_t": 4, "uintptr_t": 4,
	"intptr_t": 4, "ptrdiff_t": 4, "wchar_t": 4,
	"uint64_t": 8, "int64_t": 8, "u64": 8, "s64": 8,
}

// namedScalar is the type of a scalar typedef name known without the code,
// nil when it is none.
func namedScalar(name string) *cType {
	if n, ok := namedScalars[name]; ok {
		return scalarType(n)
	}
	if t, ok := cexpr.BuiltinTypes()[name]; ok {
		if n, ok := namedScalars[t]; ok {
			return scalarType(n)
		}
		return keywordScalar(strings.Fields(t))
	}
	return nil
}

// keywordScalar is the type spelled by scalar keywords ("unsigned long
// long"), nil for void or an unknown spelling.
func keywordScalar(words []string) *cType {
	longs := 0
	var base string
	for _, w := range words {
		switch w {
		case "long":
			longs++
		case "signed", "unsigned", "__signed__", "__unsigned__":
		case "int":
			if base == "" {
				base = w
			}
		default:
			base = w
		}
	}
	switch {
	case base == "char" || base == "_Bool":
		return scalarType(1)
	case base == "short":
		return scalarType(2)
	case base == "float":
		return scalarType(4)
	case base == "double" && longs == 0:
		return scalarType(8)
	case base == "double" || base == "void" || base != "" && base != "int":
		return nil
	case longs >= 2:
		return scalarType(8)
	}
	return scalarType(4)
}

// skipBalanced skips a bracketed group starting at p.i, returning its text.
func (p *typeParser) skipBalanced() string {
	var b strings.Builder
	level := 0
	for ; p.i < len(p.toks); p.i++ {
		t := p.toks[p.i].text
		b.WriteString(t + " ")
		switch t {
		case "(", "[", "{":
			level++
		case ")", "]", "}":
			level--
		}
		if level <= 0 {
			p.i++
			break
		}
	}
	return b.String()
}

// attrs are the layout attributes seen among specifiers.
type attrs struct {
	packed, aligned bool
}

// attribute reads a GCC or CMSIS attribute at p.i; false when there is none.
func (p *typeParser) attribute(a *attrs) bool {
	switch w := p.peek(); w {
	case "__attribute__", "__attribute", "__declspec":
		p.i++
		text := p.skipBalanced()
		a.packed = a.packed || strings.Contains(text, "packed")
		a.aligned = a.aligned || strings.Contains(text, "aligned")
		return true
	case "__packed", "__PACKED", "__PACKED_STRUCT", "__PACKED_UNION":
		p.i++
		a.packed = true
		return true
	case "__aligned", "__ALIGNED", "_Alignas", "alignas":
		p.i++
		if p.peek() == "(" {
			p.skipBalanced()
		}
		a.aligned = true
		return true
	}
	return false
}

// specifiers reads declaration specifiers: the base type (nil when unknown)
// and whether any were read at all.
func (p *typeParser) specifiers() (*cType, bool) {
	var words []string
	var t *cType
	var a attrs
	read := false
	for p.i < len(p.toks) {
		tok := p.toks[p.i]
		switch {
		case isQualifier(tok.text):
			p.i++
		case p.attribute(&a):
		case tok.text == "struct" || tok.text == "union":
			p.i++
			t = p.record(tok.text, &a)
		case tok.text == "enum":
			p.i++
			if p.i < len(p.toks) && p.toks[p.i].ident {
				p.i++
			}
			if p.peek() == "{" {
				p.skipBalanced()
			}
			t = scalarType(4)
		case scalarWords[tok.text]:
			words = append(words, tok.text)
			p.i++
		case tok.ident && t == nil && len(words) == 0:
			p.i++
			if td, ok := p.tt.typedefs[tok.text]; ok {
				t = td
			} else {
				t = namedScalar(tok.text)
			}
			if t == nil {
				// An unknown type name: the declaration is read on with
				// an unknown type.
				return nil, p.unknownName()
			}
		default:
			read = read || t != nil || len(words) > 0
			if len(words) > 0 {
				t = keywordScalar(words)
			}
			if a.aligned {
				t = nil
			}
			return t, read
		}
		read = true
	}
	if len(words) > 0 {
		t = keywordScalar(words)
	}
	if a.aligned {
		t = nil
	}
	return t, read
}

// unknownName skips the qualifiers after an unknown type name.
func (p *typeParser) unknownName() bool {
	for p.i < len(p.toks) && isQualifier(p.toks[p.i].text) {
		p.i++
	}
	return true
}

// record reads "tag", "{ members }" or both after struct or union.
func (p *typeParser) record(kw string, a *attrs) *cType {
	for p.attribute(a) {
	}
	tag := ""
	if p.i < len(p.toks) && p.toks[p.i].ident {
		tag = kw + " " + p.toks[p.i].text
		p.i++
	}
	for p.attribute(a) {
	}
	if p.peek() != "{" {
		if tag == "" {
			return nil
		}
		return &cType{kind: tyTag, size: -1, align: -1, tag: tag}
	}
	p.i++
	var fields []cField
	for p.i < len(p.toks) && p.peek() != "}" {
		fields = append(fields, p.member()...)
	}
	p.i++ // }
	for p.attribute(a) {
	}
	t := p.layout(fields, kw == "union", a.packed)
	if a.aligned || p.packed {
		t.size, t.align = -1, -1
		for k := range t.fields {
			t.fields[k].off = -1
		}
	}
	if tag != "" {
		p.tt.tags[tag] = t
	}
	return t
}

// member reads one member declaration up to its ";".
func (p *typeParser) member() []cField {
	start := p.i
	base, _ := p.specifiers()
	var out []cField
	if p.peek() == ";" {
		p.i++
		if base != nil && base.kind == tyRecord {
			return []cField{{t: base}}
		}
		return []cField{{t: nil, off: -1}}
	}
	for p.i < len(p.toks) {
		name, t, bits := p.declarator(base)
		if bits {
			t = nil
		}
		out = append(out, cField{name: name, t: t, bits: bits})
		var a attrs
		for p.attribute(&a) {
		}
		if a.aligned || a.packed {
			out[len(out)-1].t = nil
		}
		switch p.peek() {
		case ",":
			p.i++
			continue
		case ";":
			p.i++
			return out
		}
		break
	}
	// Something not understood: skip to the member's end.
	for p.i < len(p.toks) && p.peek() != ";" && p.peek() != "}" {
		if p.peek() == "{" || p.peek() == "(" {
			p.skipBalanced()
			continue
		}
		p.i++
	}
	if p.peek() == ";" {
		p.i++
	}
	if p.i == start {
		p.i++
	}
	return append(out, cField{off: -1})
}

// declarator reads a declarator over base: its name ("" when abstract),
// its type (nil when unknown) and whether it is a bitfield.
func (p *typeParser) declarator(base *cType) (string, *cType, bool) {
	t := base
	for p.peek() == "*" {
		p.i++
		t = pointerType(t)
		for p.i < len(p.toks) && isQualifier(p.toks[p.i].text) {
			p.i++
		}
	}
	name := ""
	switch {
	case p.peek() == "(":
		// A function pointer "(*name)(params)": 4 bytes; anything else in
		// parentheses is not read.
		p.i++
		if p.peek() != "*" {
			p.skipTo(")")
			return "", nil, false
		}
		for p.peek() == "*" || p.i < len(p.toks) && isQualifier(p.peek()) {
			p.i++
		}
		if p.i < len(p.toks) && p.toks[p.i].ident {
			name = p.toks[p.i].text
			p.i++
		}
		ok := p.peek() == ")"
		p.i++
		if !ok || p.peek() != "(" {
			p.skipTo(")")
			return name, nil, false
		}
		p.skipBalanced()
		return name, pointerType(nil), false
	case p.i < len(p.toks) && p.toks[p.i].ident:
		name = p.toks[p.i].text
		p.i++
	}
	var dims []int64
	for p.peek() == "[" {
		p.i++
		start := p.i
		p.skipTo("]")
		text := spaceToks(p.toks[start : p.i-1])
		n := int64(-1)
		if strings.TrimSpace(text) != "" {
			v, err := cexpr.EvalValue(text, p.tt.env)
			if err != nil || v.Int64() < 0 {
				return name, nil, false
			}
			n = v.Int64()
		}
		dims = append(dims, n)
	}
	for k := len(dims) - 1; k >= 0; k-- {
		size, align, ok := p.tt.sizeOf(t)
		if !ok {
			return name, nil, false
		}
		arr := &cType{kind: tyArray, elem: t, count: dims[k], align: align, size: -1}
		if dims[k] >= 0 {
			arr.size = size * dims[k]
		} else if k > 0 {
			return name, nil, false
		}
		t = arr
	}
	if p.peek() == ":" {
		p.i++
		for p.i < len(p.toks) && p.peek() != "," && p.peek() != ";" {
			p.i++
		}
		return name, nil, true
	}
	return name, t, false
}

// skipTo advances past the next close at bracket level 0.
func (p *typeParser) skipTo(close string) {
	level := 0
	for ; p.i < len(p.toks); p.i++ {
		switch t := p.peek(); {
		case t == close && level == 0:
			p.i++
			return
		case t == "(" || t == "[" || t == "{":
			level++
		case t == ")" || t == "]" || t == "}":
			level--
		}
	}
}

// layout places fields as a struct (or union) on the target; packed gives
// every member alignment 1.
func (p *typeParser) layout(fields []cField, union, packed bool) *cType {
	t := &cType{kind: tyRecord, fields: fields, align: 1}
	var off int64
	known := true
	for k := range t.fields {
		fl := &t.fields[k]
		size, align, ok := p.tt.sizeOf(fl.t)
		if fl.t != nil && fl.t.kind == tyArray && fl.t.count < 0 && k == len(t.fields)-1 && !union {
			// A flexible array member: no size, its element's alignment.
			size, align, ok = 0, fl.t.align, fl.t.align > 0
		}
		if packed {
			align = 1
		}
		switch {
		case union && !fl.bits:
			fl.off = 0
		case !known || !ok:
			fl.off = -1
		default:
			off = (off + align - 1) / align * align
			fl.off = off
		}
		if !ok {
			known = false
			continue
		}
		t.align = max(t.align, align)
		if union {
			off = max(off, size)
		} else {
			off += size
		}
	}
	if !known {
		t.size, t.align = -1, -1
		return t
	}
	t.size = (off + t.align - 1) / t.align * t.align
	return t
}

// typedef reads "typedef specifiers declarator, ...;" into the table.
func (p *typeParser) typedef() {
	if p.peek() != "typedef" {
		return
	}
	base, _ := p.specifiers()
	for p.i < len(p.toks) {
		name, t, bits := p.declarator(base)
		if name != "" {
			if bits {
				t = nil
			}
			p.tt.typedefs[name] = t
		}
		var a attrs
		for p.attribute(&a) {
		}
		if a.packed || a.aligned {
			p.tt.typedefs[name] = nil
		}
		if p.peek() != "," {
			return
		}
		p.i++
	}
}

// typeName reads a type name (specifiers and an abstract declarator, as in
// a cast) from toks; ok is false when toks are not one. The type is nil
// when the name is unknown.
func (tt *typeTable) typeName(toks []ctok) (*cType, bool) {
	p := &typeParser{tt: tt, toks: toks}
	base, read := p.specifiers()
	if !read {
		return nil, false
	}
	name, t, bits := p.declarator(base)
	if name != "" || bits || p.i != len(toks) {
		return nil, false
	}
	return t, true
}

// member finds the member name of the record t (through anonymous
// members): its offset and type; ok is false when it is not found, is a
// bitfield or has an unknown offset or type.
func (tt *typeTable) member(t *cType, name string) (int64, *cType, bool) {
	t = tt.resolve(t)
	if t == nil || t.kind != tyRecord {
		return 0, nil, false
	}
	for _, fl := range t.fields {
		switch {
		case fl.name == name:
			if fl.bits || fl.off < 0 || fl.t == nil {
				return 0, nil, false
			}
			return fl.off, fl.t, true
		case fl.name == "" && fl.off >= 0:
			if off, ft, ok := tt.member(fl.t, name); ok {
				return fl.off + off, ft, true
			}
		}
	}
	return 0, nil, false
}
