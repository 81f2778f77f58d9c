// Package devicetree reads devicetree source text: .dts, .dtsi and Zephyr
// .overlay files. It builds a tree of nodes with their labels and raw
// property values, keeps preprocessor lines (#include, #define, ...) and
// top-level keywords (/dts-v1/;, /plugin/;) as directives without expanding
// them, and reports the first syntax error with its line and column.
//
// It owns reading the text only: no preprocessing, no merging of nodes that
// appear more than once, no phandle resolution and no binding validation.
// Compiling with dtc belongs to the toolchain layer.
package devicetree

import (
	"fmt"
	"strconv"
	"strings"
)

// Tree is a parsed devicetree source.
type Tree struct {
	// Nodes are every node occurrence, nested ones included, in source order.
	Nodes []*Node
	// Roots are the top-level nodes ("/" and "&label" references).
	Roots []*Node
	// Directives are preprocessor lines and top-level keywords in source order.
	Directives []Directive
}

// Directive is a line the reader keeps without interpreting it.
type Directive struct {
	// Name is "#include", "#define", "/dts-v1/", "/plugin/", "/memreserve/",
	// "/include/" or "/delete-node/" (a top-level node deletion).
	Name string
	// Value is the rest of the directive, trimmed, without a trailing ';'.
	Value string
	// Line is the 1-based line number.
	Line int
}

// Node is one node occurrence.
type Node struct {
	// Path is the node's path: "/", "/soc/i2c@40003000" for nodes under the
	// root, "&i2c0" or "&{/soc/i2c@40003000}" for a top-level reference, and
	// "&i2c0/sensor@76" for nodes inside a reference.
	Path string
	// Name is the node name without unit address ("i2c"); "/" for the root
	// and "" for a reference node.
	Name string
	// UnitAddress is the part after '@' ("40003000"), "" when absent.
	UnitAddress string
	// Labels are the labels written before the node.
	Labels []string
	// Ref is the label or path a reference node points at ("i2c0" or
	// "/soc/i2c@40003000"), "" for other nodes.
	Ref string
	// Properties are the node's properties in source order.
	Properties []Property
	// Children are the child nodes in source order.
	Children []*Node
	// DeletedNodes and DeletedProperties are the names given to
	// /delete-node/ and /delete-property/ inside this node.
	DeletedNodes, DeletedProperties []string
	// Line is the 1-based line of the node's name.
	Line int
}

// Property is one property.
type Property struct {
	// Name is the property name.
	Name string
	// Value is the raw text after '=', trimmed, without the ';'; "" for a
	// boolean property.
	Value string
	// Line is the 1-based line of the property name.
	Line int
}

// Node returns the first node matching pathOrLabel: a path ("/soc/i2c@4000",
// unit addresses may be left out when the name is unique among siblings,
// "&i2c0/sensor@76"), "&label", "&{/path}" or a bare label. A "&label" or
// bare label also finds a reference node "&label { ... }" when no node in this
// file carries the label.
func (t *Tree) Node(pathOrLabel string) (*Node, bool) {
	all := t.Find(pathOrLabel)
	if len(all) == 0 {
		return nil, false
	}
	return all[0], true
}

// Find returns every node occurrence matching pathOrLabel (see Node), in
// source order; a node written twice (as in "&i2c0 { ... };" twice) is found
// twice.
func (t *Tree) Find(pathOrLabel string) []*Node {
	var out []*Node
	switch {
	case strings.HasPrefix(pathOrLabel, "&{") && strings.HasSuffix(pathOrLabel, "}") && !strings.Contains(pathOrLabel, "}/"):
		p := pathOrLabel[2 : len(pathOrLabel)-1]
		for _, n := range t.Nodes {
			if pathMatches(n.Path, p) || n.Path == pathOrLabel {
				out = append(out, n)
			}
		}
	case strings.HasPrefix(pathOrLabel, "/") || strings.Contains(pathOrLabel, "/"):
		for _, n := range t.Nodes {
			if pathMatches(n.Path, pathOrLabel) {
				out = append(out, n)
			}
		}
	default:
		label := strings.TrimPrefix(pathOrLabel, "&")
		for _, n := range t.Nodes {
			for _, l := range n.Labels {
				if l == label {
					out = append(out, n)
					break
				}
			}
		}
		if len(out) == 0 {
			for _, n := range t.Nodes {
				if n.Ref == label && n.Path == "&"+label {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// pathMatches compares a node path with a wanted path component by
// component; a wanted component without '@' matches any unit address.
func pathMatches(have, want string) bool {
	if have == want {
		return true
	}
	h, w := splitPath(have), splitPath(want)
	if len(h) != len(w) {
		return false
	}
	for i := range h {
		if h[i] == w[i] {
			continue
		}
		if strings.Contains(w[i], "@") {
			return false
		}
		name, _, _ := strings.Cut(h[i], "@")
		if name != w[i] {
			return false
		}
	}
	return true
}

// splitPath splits a path at '/' outside "&{...}".
func splitPath(p string) []string {
	if strings.HasPrefix(p, "&{") {
		if end := strings.Index(p, "}"); end > 0 {
			rest := strings.Split(strings.Trim(p[end+1:], "/"), "/")
			if p[end+1:] == "" {
				rest = nil
			}
			return append([]string{p[:end+1]}, rest...)
		}
	}
	if p == "/" {
		return []string{""}
	}
	return strings.Split(p, "/")
}

// Labels maps every label to the first node carrying it.
func (t *Tree) Labels() map[string]*Node {
	out := map[string]*Node{}
	for _, n := range t.Nodes {
		for _, l := range n.Labels {
			if _, ok := out[l]; !ok {
				out[l] = n
			}
		}
	}
	return out
}

// Property returns the last property with the given name (a later
// assignment overrides an earlier one in devicetree).
func (n *Node) Property(name string) (Property, bool) {
	for i := len(n.Properties) - 1; i >= 0; i-- {
		if n.Properties[i].Name == name {
			return n.Properties[i], true
		}
	}
	return Property{}, false
}

// Strings returns the unescaped values of the quoted strings in the value
// ("okay" for status = "okay"; ["a", "b"] for compatible = "a", "b").
func (p Property) Strings() []string {
	var out []string
	v := p.Value
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '"':
			s, end := unescape(v, i)
			out = append(out, s)
			i = end - 1
		case '<':
			i = skipCells(v, i) - 1
		}
	}
	return out
}

// Bytes returns the bytes of a byte-string value ("[EF 40 16]" or
// "[ef4016]"), and false when the value is not exactly one byte string of
// whole bytes.
func (p Property) Bytes() ([]byte, bool) {
	v := strings.TrimSpace(p.Value)
	if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") {
		return nil, false
	}
	hex := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '.' {
			return -1
		}
		return r
	}, v[1:len(v)-1])
	if len(hex)%2 != 0 {
		return nil, false
	}
	out := make([]byte, len(hex)/2)
	for i := range out {
		b, err := strconv.ParseUint(hex[2*i:2*i+2], 16, 8)
		if err != nil {
			return nil, false
		}
		out[i] = byte(b)
	}
	return out, true
}

// Cells returns the tokens inside every <...> group of the value, in order;
// a parenthesized expression is one token ("<(1 << 2) 3>" gives
// ["(1 << 2)", "3"]).
func (p Property) Cells() []string {
	var out []string
	v := p.Value
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '"':
			_, end := unescape(v, i)
			i = end - 1
		case '<':
			end := skipCells(v, i)
			inner := v[i+1:]
			if end-1 > i && v[end-1] == '>' {
				inner = v[i+1 : end-1]
			}
			out = append(out, cellTokens(inner)...)
			i = end - 1
		}
	}
	return out
}

// unescape reads the string literal starting at the quote at i and returns
// its value and the index after the closing quote.
func unescape(v string, i int) (string, int) {
	var b strings.Builder
	for j := i + 1; j < len(v); j++ {
		switch v[j] {
		case '\\':
			if j+1 < len(v) {
				j++
				switch v[j] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				default:
					b.WriteByte(v[j])
				}
			}
		case '"':
			return b.String(), j + 1
		default:
			b.WriteByte(v[j])
		}
	}
	return b.String(), len(v)
}

// skipCells returns the index after the '>' closing the '<' at i (outside
// parentheses), or len(v).
func skipCells(v string, i int) int {
	depth := 0
	for j := i + 1; j < len(v); j++ {
		switch v[j] {
		case '(':
			depth++
		case ')':
			depth--
		case '>':
			if depth <= 0 {
				return j + 1
			}
		}
	}
	return len(v)
}

// cellTokens splits the inside of a cell list at whitespace outside
// parentheses, dropping comments.
func cellTokens(s string) []string {
	var out []string
	depth, start := 0, -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, s[start:end])
			start = -1
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case depth == 0 && c == '/' && i+1 < len(s) && s[i+1] == '*':
			flush(i)
			if end := strings.Index(s[i+2:], "*/"); end >= 0 {
				i += end + 3
			} else {
				i = len(s)
			}
		case depth == 0 && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			flush(i)
		default:
			if start < 0 {
				start = i
			}
			if c == '(' {
				depth++
			} else if c == ')' && depth > 0 {
				depth--
			}
		}
	}
	flush(len(s))
	return out
}

// Error is a syntax error with its position.
type Error struct {
	// Line and Col are 1-based; Col counts bytes.
	Line, Col int
	// Msg says what was expected and what was found.
	Msg string
}

// Error renders "line L:C: message".
func (e *Error) Error() string {
	return fmt.Sprintf("line %d:%d: %s", e.Line, e.Col, e.Msg)
}
