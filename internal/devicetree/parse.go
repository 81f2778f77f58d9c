package devicetree

import (
	"fmt"
	"sort"
	"strings"
)

// parser is a recursive-descent reader over the source text. Errors are
// raised with panic(*Error) and recovered in Parse.
type parser struct {
	src        string
	pos        int
	lineStarts []int
	tree       *Tree
}

// Parse reads devicetree source. It returns the first syntax error as an
// *Error whose text names the line and column, what was expected and what
// was found.
func Parse(text string) (tree *Tree, err error) {
	p := &parser{src: text, tree: &Tree{}, lineStarts: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			p.lineStarts = append(p.lineStarts, i+1)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			var perr *Error
			if e, ok := r.(*Error); ok {
				perr = e
			}
			if perr == nil {
				panic(r)
			}
			tree, err = nil, perr
		}
	}()
	p.file()
	return p.tree, nil
}

func (p *parser) lineCol(pos int) (int, int) {
	i := sort.Search(len(p.lineStarts), func(i int) bool { return p.lineStarts[i] > pos }) - 1
	return i + 1, pos - p.lineStarts[i] + 1
}

func (p *parser) line(pos int) int {
	l, _ := p.lineCol(pos)
	return l
}

func (p *parser) failAt(pos int, format string, args ...any) {
	l, c := p.lineCol(pos)
	panic(&Error{Line: l, Col: c, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

// found describes what is at the current position, for error messages.
func (p *parser) found() string {
	if p.eof() {
		return "end of input"
	}
	c := p.src[p.pos]
	if isNameChar(c) {
		end := p.pos
		for end < len(p.src) && isNameChar(p.src[end]) && end-p.pos < 40 {
			end++
		}
		return fmt.Sprintf("%q", p.src[p.pos:end])
	}
	return fmt.Sprintf("'%c'", c)
}

// atLineStart reports whether only blanks precede pos on its line.
func (p *parser) atLineStart(pos int) bool {
	for i := pos - 1; i >= 0; i-- {
		switch p.src[i] {
		case '\n':
			return true
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return true
}

// directiveAt returns the directive keyword at pos ("#include"), or "".
func (p *parser) directiveAt(pos int) string {
	if p.src[pos] != '#' || !p.atLineStart(pos) {
		return ""
	}
	rest := p.src[pos+1:]
	trimmed := strings.TrimLeft(rest, " \t")
	for _, w := range []string{"include", "define", "undef", "ifdef", "ifndef", "if", "elif", "else", "endif", "error", "warning", "pragma", "line"} {
		if strings.HasPrefix(trimmed, w) {
			after := trimmed[len(w):]
			if after == "" || strings.ContainsAny(after[:1], " \t\r\n<\"(") {
				return "#" + w
			}
		}
	}
	return ""
}

// skip passes blanks, comments and preprocessor directives (which are
// recorded).
func (p *parser) skip() {
	for !p.eof() {
		c := p.src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			p.pos++
		case c == '/' && strings.HasPrefix(p.src[p.pos:], "//"):
			for !p.eof() && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == '/' && strings.HasPrefix(p.src[p.pos:], "/*"):
			end := strings.Index(p.src[p.pos+2:], "*/")
			if end < 0 {
				p.failAt(p.pos, "unterminated comment: expected '*/', found end of input")
			}
			p.pos += end + 4
		case c == '#':
			name := p.directiveAt(p.pos)
			if name == "" {
				return
			}
			start := p.pos
			for !p.eof() && p.src[p.pos] != '\n' {
				switch {
				case p.src[p.pos] == '\\' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n':
					p.pos++
				case strings.HasPrefix(p.src[p.pos:], "/*"):
					// A comment may run past the end of the line.
					if end := strings.Index(p.src[p.pos+2:], "*/"); end >= 0 {
						p.pos += end + 3
					}
				}
				p.pos++
			}
			text := stripDirectiveComments(strings.TrimSpace(p.src[start:p.pos]))
			value := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(text, "#")), name[1:]))
			p.tree.Directives = append(p.tree.Directives, Directive{Name: name, Value: value, Line: p.line(start)})
		default:
			return
		}
	}
}

// stripDirectiveComments removes the /* */ and // comments of a directive
// line, outside string literals, so a #define's value is only its body.
func stripDirectiveComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(s))
			b.WriteString(s[i:end])
			i = end - 1
		case strings.HasPrefix(s[i:], "//"):
			return strings.TrimSpace(b.String())
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return strings.TrimSpace(b.String())
			}
			b.WriteByte(' ')
			i += end + 3
		default:
			b.WriteByte(s[i])
		}
	}
	return strings.TrimSpace(b.String())
}

// keyword returns the /keyword/ at the current position ("/dts-v1/"), or "".
func (p *parser) keyword() string {
	for _, k := range []string{"/dts-v1/", "/plugin/", "/memreserve/", "/include/", "/delete-node/", "/delete-property/", "/omit-if-no-ref/", "/bits/"} {
		if strings.HasPrefix(p.src[p.pos:], k) {
			return k
		}
	}
	return ""
}

func (p *parser) expect(c byte, format string, args ...any) {
	p.skip()
	if p.peek() != c {
		p.failAt(p.pos, "%s, found %s", fmt.Sprintf(format, args...), p.found())
	}
	p.pos++
}

// file := { directive | keyword ';' | [labels] ("/" | &ref) "{" body "}" ";" }
func (p *parser) file() {
	for {
		p.skip()
		if p.eof() {
			return
		}
		start := p.pos
		switch k := p.keyword(); k {
		case "/dts-v1/", "/plugin/":
			p.pos += len(k)
			p.expect(';', "expected ';' after %s", k)
			p.tree.Directives = append(p.tree.Directives, Directive{Name: k, Line: p.line(start)})
			continue
		case "/memreserve/", "/delete-node/", "/include/":
			p.pos += len(k)
			end := strings.IndexAny(p.src[p.pos:], ";\n")
			if k == "/include/" {
				p.skip()
				if p.peek() != '"' {
					p.failAt(p.pos, "expected a quoted file name after /include/, found %s", p.found())
				}
				s := p.pos
				p.readString()
				p.tree.Directives = append(p.tree.Directives, Directive{Name: k, Value: p.src[s:p.pos], Line: p.line(start)})
				continue
			}
			if end < 0 || p.src[p.pos+end] != ';' {
				p.failAt(start, "expected ';' after %s", k)
			}
			p.tree.Directives = append(p.tree.Directives, Directive{Name: k, Value: strings.TrimSpace(p.src[p.pos : p.pos+end]), Line: p.line(start)})
			p.pos += end + 1
			continue
		case "/omit-if-no-ref/":
			p.pos += len(k)
			continue
		}
		labels := p.labels()
		line := p.line(p.pos)
		var n *Node
		switch c := p.peek(); {
		case c == '/':
			p.pos++
			n = &Node{Path: "/", Name: "/", Labels: labels, Line: line}
		case c == '&':
			ref, text := p.readRef()
			n = &Node{Path: text, Ref: ref, Labels: labels, Line: line}
		case c == '}':
			p.failAt(p.pos, "unexpected '}': no node is open")
		default:
			p.failAt(p.pos, "expected a root node '/ {', a reference '&label {' or a directive, found %s", p.found())
		}
		p.tree.Nodes = append(p.tree.Nodes, n)
		p.tree.Roots = append(p.tree.Roots, n)
		p.expect('{', "expected '{' after %q", n.Path)
		p.body(n)
	}
}

// labels reads "label:" prefixes.
func (p *parser) labels() []string {
	var out []string
	for {
		p.skip()
		end := p.pos
		for end < len(p.src) && isLabelChar(p.src[end]) {
			end++
		}
		if end == p.pos || end >= len(p.src) || p.src[end] != ':' || (p.src[p.pos] >= '0' && p.src[p.pos] <= '9') {
			return out
		}
		out = append(out, p.src[p.pos:end])
		p.pos = end + 1
	}
}

// readRef reads "&label" or "&{/path}" and returns the target and the text.
func (p *parser) readRef() (ref, text string) {
	start := p.pos
	p.pos++ // '&'
	if p.peek() == '{' {
		end := strings.IndexByte(p.src[p.pos:], '}')
		nl := strings.IndexByte(p.src[p.pos:], '\n')
		if end < 0 || (nl >= 0 && nl < end) {
			p.failAt(start, "expected '}' to close the path reference '&{'")
		}
		ref = p.src[p.pos+1 : p.pos+end]
		p.pos += end + 1
		if !strings.HasPrefix(ref, "/") {
			p.failAt(start, "expected a path starting with '/' inside '&{...}', found %q", ref)
		}
		return ref, p.src[start:p.pos]
	}
	end := p.pos
	for end < len(p.src) && isLabelChar(p.src[end]) {
		end++
	}
	if end == p.pos {
		p.failAt(p.pos, "expected a label after '&', found %s", p.found())
	}
	ref = p.src[p.pos:end]
	p.pos = end
	return ref, p.src[start:p.pos]
}

// body reads the inside of a node after '{' through "};".
func (p *parser) body(n *Node) {
	open := p.pos - 1
	for {
		p.skip()
		if p.eof() {
			ol, oc := p.lineCol(open)
			p.failAt(p.pos, "expected '}' to close node %q opened at line %d:%d, found end of input", n.Path, ol, oc)
		}
		if p.peek() == '}' {
			p.pos++
			p.expect(';', "expected ';' after '}' closing node %q", n.Path)
			return
		}
		switch k := p.keyword(); k {
		case "/delete-node/", "/delete-property/":
			p.pos += len(k)
			p.skip()
			var name string
			if k == "/delete-node/" && p.peek() == '&' {
				_, name = p.readRef()
			} else {
				name = p.readName()
			}
			if name == "" {
				p.failAt(p.pos, "expected a name after %s, found %s", k, p.found())
			}
			p.expect(';', "expected ';' after %s %s", k, name)
			if k == "/delete-node/" {
				n.DeletedNodes = append(n.DeletedNodes, name)
			} else {
				n.DeletedProperties = append(n.DeletedProperties, name)
			}
			continue
		case "/omit-if-no-ref/":
			p.pos += len(k)
			continue
		}
		labels := p.labels()
		start := p.pos
		name := p.readName()
		if name == "" {
			p.failAt(p.pos, "expected a property or child node name in node %q, found %s", n.Path, p.found())
		}
		p.skip()
		switch p.peek() {
		case '{':
			p.pos++
			child := &Node{Path: childPath(n.Path, name), Labels: labels, Line: p.line(start)}
			child.Name, child.UnitAddress, _ = strings.Cut(name, "@")
			n.Children = append(n.Children, child)
			p.tree.Nodes = append(p.tree.Nodes, child)
			p.body(child)
		case '=':
			if len(labels) > 0 {
				p.failAt(start, "expected a node after label %q, found property %q", labels[0], name)
			}
			p.pos++
			value := p.value(name)
			p.expect(';', "expected ';' after property %q", name)
			n.Properties = append(n.Properties, Property{Name: name, Value: value, Line: p.line(start)})
		case ';':
			p.pos++
			n.Properties = append(n.Properties, Property{Name: name, Line: p.line(start)})
		default:
			p.failAt(p.pos, "expected '=', ';' or '{' after %q, found %s", name, p.found())
		}
	}
}

func childPath(parent, name string) string {
	if parent == "/" {
		return "/" + name
	}
	return parent + "/" + name
}

// value reads a property value list after '=' and returns its raw text.
func (p *parser) value(prop string) string {
	p.skip()
	start := p.pos
	end := p.pos
	for {
		p.skip()
		switch c := p.peek(); {
		case c == '"':
			p.readString()
		case c == '<':
			p.readCells(prop)
		case c == '[':
			p.readBytes(prop)
		case c == '&':
			p.readRef()
		case c == '/' && p.keyword() == "/bits/":
			p.pos += len("/bits/")
			p.skip()
			if p.readName() == "" {
				p.failAt(p.pos, "expected a bit width after /bits/ in property %q, found %s", prop, p.found())
			}
			p.skip()
			if p.peek() != '<' {
				p.failAt(p.pos, "expected '<' after /bits/ width in property %q, found %s", prop, p.found())
			}
			p.readCells(prop)
		default:
			if p.pos == start {
				p.failAt(p.pos, "expected a value after '=' in property %q, found %s", prop, p.found())
			}
			p.failAt(p.pos, "expected a string, <cells>, [bytes] or &reference after ',' in property %q, found %s", prop, p.found())
		}
		end = p.pos
		p.skip()
		if p.peek() != ',' {
			return strings.TrimSpace(p.src[start:end])
		}
		p.pos++
	}
}

func (p *parser) readString() {
	start := p.pos
	for p.pos++; p.pos < len(p.src); p.pos++ {
		switch p.src[p.pos] {
		case '\\':
			p.pos++
		case '"':
			p.pos++
			return
		case '\n':
			p.failAt(start, "unterminated string: expected '\"' before the end of the line")
		}
	}
	p.failAt(start, "unterminated string: expected '\"', found end of input")
}

func (p *parser) readCells(prop string) {
	start := p.pos
	depth := 0
	for p.pos++; p.pos < len(p.src); p.pos++ {
		switch c := p.src[p.pos]; c {
		case '(':
			depth++
		case ')':
			depth--
		case '>':
			if depth <= 0 {
				p.pos++
				return
			}
		case ';', '{', '}', '=':
			l, col := p.lineCol(start)
			p.failAt(p.pos, "expected '>' to close the cell list of property %q opened at line %d:%d, found '%c'", prop, l, col, c)
		case '/':
			if strings.HasPrefix(p.src[p.pos:], "/*") {
				end := strings.Index(p.src[p.pos+2:], "*/")
				if end < 0 {
					p.failAt(p.pos, "unterminated comment: expected '*/', found end of input")
				}
				p.pos += end + 3
			}
		}
	}
	l, col := p.lineCol(start)
	p.failAt(p.pos, "expected '>' to close the cell list of property %q opened at line %d:%d, found end of input", prop, l, col)
}

func (p *parser) readBytes(prop string) {
	start := p.pos
	for p.pos++; p.pos < len(p.src); p.pos++ {
		c := p.src[p.pos]
		switch {
		case c == ']':
			p.pos++
			return
		case isHexDigit(c) || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '.':
		default:
			l, col := p.lineCol(start)
			p.failAt(p.pos, "expected hex bytes and ']' to close the byte string of property %q opened at line %d:%d, found '%c'", prop, l, col, c)
		}
	}
	l, col := p.lineCol(start)
	p.failAt(p.pos, "expected ']' to close the byte string of property %q opened at line %d:%d, found end of input", prop, l, col)
}

// readName reads a node or property name.
func (p *parser) readName() string {
	start := p.pos
	for p.pos < len(p.src) && isNameChar(p.src[p.pos]) {
		p.pos++
	}
	return p.src[start:p.pos]
}

func isNameChar(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		strings.IndexByte(",._+*#?@-", c) >= 0
}

func isLabelChar(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

func isHexDigit(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
