package checks

import "strings"

// ctok is one C token of a function body or an expression.
type ctok struct {
	text string
	line int
	// ident is set for identifiers and keywords, num for numbers, str
	// for string and character literals.
	ident, num, str bool
	// pp is set for a token inside an #if/#ifdef/#ifndef region.
	pp bool
}

// cPunct are C's punctuators, longest first.
var cPunct = []string{"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##"}

// tokenize splits C source text into tokens, the first line numbered line.
// Comments and preprocessor directives are skipped; tokens between #if and
// its #endif are marked pp.
func tokenize(src string, line int) []ctok { return scan(src, line, true) }

// tokenizeExpr splits an expression or a macro body into tokens: "#" is
// an operator there, not a directive.
func tokenizeExpr(src string) []ctok { return scan(src, 0, false) }

// scan splits src into tokens; directives tells whether a "#" starting a
// line is a preprocessor directive.
func scan(src string, line int, directives bool) []ctok {
	var out []ctok
	ppDepth := 0
	bol := true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			bol = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\\':
			i++
			continue
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src) - i - 2
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += min(len(src), end+4)
			continue
		case c == '#' && bol && directives:
			j, lines, word := directive(src, i)
			ppDepth = ppNesting(ppDepth, word)
			line += lines
			i = j
			continue
		}
		bol = false
		t, j := scanToken(src, i)
		t.line, t.pp = line, ppDepth > 0
		out = append(out, t)
		i = j
	}
	return out
}

// directive returns the end of the preprocessor directive at src[i] (its
// continuation lines included, the final newline not), the newlines it
// spans, and its word ("if", "endif", ...).
func directive(src string, i int) (end, lines int, word string) {
	j := i + 1
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	k := j
	for k < len(src) && isWordByte(src[k]) {
		k++
	}
	word = src[j:k]
	for k < len(src) && src[k] != '\n' {
		if src[k] == '\\' && k+1 < len(src) && src[k+1] == '\n' {
			lines++
			k++
		}
		k++
	}
	return k, lines, word
}

// ppNesting is the #if nesting depth after a directive.
func ppNesting(depth int, word string) int {
	switch word {
	case "if", "ifdef", "ifndef":
		return depth + 1
	case "endif":
		return max(0, depth-1)
	}
	return depth
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// scanToken reads the token at src[i] and returns it with the offset after it.
func scanToken(src string, i int) (ctok, int) {
	c := src[i]
	switch {
	case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
		j := i
		for j < len(src) && (isWordByte(src[j]) || src[j] == '.' ||
			(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !strings.HasPrefix(src[i:], "0x")) {
			j++
		}
		return ctok{text: src[i:j], num: true}, j
	case isWordByte(c):
		j := i
		for j < len(src) && isWordByte(src[j]) {
			j++
		}
		return ctok{text: src[i:j], ident: true}, j
	case c == '"' || c == '\'':
		j := i + 1
		for j < len(src) && src[j] != c && src[j] != '\n' {
			if src[j] == '\\' {
				j++
			}
			j++
		}
		j = min(j+1, len(src))
		return ctok{text: src[i:j], str: true}, j
	}
	for _, p := range cPunct {
		if strings.HasPrefix(src[i:], p) {
			return ctok{text: p}, i + len(p)
		}
	}
	return ctok{text: src[i : i+1]}, i + 1
}

// stmtKind is the kind of a statement of a function body.
type stmtKind uint8

const (
	sSimple   stmtKind = iota // an expression or declaration; toks without ';'
	sBlock                    // { kids }
	sIf                       // if (toks) kids[0] [else kids[1]]
	sLoop                     // while/for (toks) kids[0]; init and update for for
	sDo                       // do kids[0] while (toks);
	sSwitch                   // switch (toks) kids[0]
	sCase                     // case ...: or default:
	sReturn                   // return toks;
	sBreak                    // break;
	sContinue                 // continue;
	sGoto                     // goto label; or a label
)

// stmt is one statement of a function body.
type stmt struct {
	kind stmtKind
	toks []ctok
	// init and update are the first and third clauses of a for header.
	init, update []ctok
	kids         []*stmt
	line, end    int
	// forever is set for a loop whose condition is constant true.
	forever bool
}

// maxNesting bounds the statement nesting a body may have.
const maxNesting = 200

// stmtParser builds statements from tokens.
type stmtParser struct {
	toks []ctok
	pos  int
	// deep is set when the nesting went over maxNesting.
	deep bool
	// gotos is set when the body has a goto or a label.
	gotos bool
}

// parseBody parses the tokens of a body "{ ... }" into a block.
func parseBody(toks []ctok) (*stmt, *stmtParser) {
	p := &stmtParser{toks: toks}
	var kids []*stmt
	for p.pos < len(p.toks) && !p.deep {
		kids = append(kids, p.statement(0))
	}
	root := &stmt{kind: sBlock, kids: kids}
	if len(toks) > 0 {
		root.line, root.end = toks[0].line, toks[len(toks)-1].line
	}
	// A body is "{ ... }": one block statement.
	if len(kids) == 1 && kids[0].kind == sBlock {
		root = kids[0]
	}
	return root, p
}

func (p *stmtParser) peek(k int) string {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k].text
	}
	return ""
}

func (p *stmtParser) line() int {
	if p.pos < len(p.toks) {
		return p.toks[p.pos].line
	}
	if len(p.toks) > 0 {
		return p.toks[len(p.toks)-1].line
	}
	return 0
}

// lastLine is the line of the token before pos.
func (p *stmtParser) lastLine() int {
	if p.pos > 0 && p.pos-1 < len(p.toks) {
		return p.toks[p.pos-1].line
	}
	return p.line()
}

// statement parses one statement; it always consumes a token.
func (p *stmtParser) statement(depth int) *stmt {
	if depth > maxNesting {
		p.deep = true
		p.pos = len(p.toks)
		return &stmt{kind: sSimple}
	}
	s := &stmt{line: p.line()}
	switch p.peek(0) {
	case "{":
		p.pos++
		s.kind = sBlock
		for p.pos < len(p.toks) && p.peek(0) != "}" && !p.deep {
			s.kids = append(s.kids, p.statement(depth+1))
		}
		p.pos++
	case "if":
		p.pos++
		s.kind, s.toks = sIf, p.parens()
		s.kids = []*stmt{p.statement(depth + 1)}
		if p.peek(0) == "else" {
			p.pos++
			s.kids = append(s.kids, p.statement(depth+1))
		}
	case "while":
		p.pos++
		s.kind, s.toks = sLoop, p.parens()
		s.forever = alwaysTrue(s.toks)
		s.kids = []*stmt{p.statement(depth + 1)}
	case "for":
		p.pos++
		p.forHeader(s)
		s.kids = []*stmt{p.statement(depth + 1)}
	case "do":
		p.pos++
		s.kind = sDo
		s.kids = []*stmt{p.statement(depth + 1)}
		if p.peek(0) == "while" {
			p.pos++
			s.toks = p.parens()
		}
		p.skip(";")
	case "switch":
		p.pos++
		s.kind, s.toks = sSwitch, p.parens()
		s.kids = []*stmt{p.statement(depth + 1)}
	case "case", "default":
		s.kind, s.toks = sCase, p.until(":")
	case "return":
		p.pos++
		s.kind, s.toks = sReturn, p.until(";")
	case "break", "continue":
		s.kind = map[string]stmtKind{"break": sBreak, "continue": sContinue}[p.peek(0)]
		p.pos++
		p.skip(";")
	case "goto":
		s.kind, p.gotos = sGoto, true
		p.until(";")
	case ";":
		p.pos++
	default:
		p.simple(s, depth)
	}
	s.end = p.lastLine()
	return s
}

// simple parses an expression or declaration statement. A statement that
// ends in ")" followed by a block is a loop macro (LIST_FOR_EACH(x) { }); a
// label "name:" is a goto target.
func (p *stmtParser) simple(s *stmt, depth int) {
	if p.toks[p.pos].ident && p.peek(1) == ":" && p.peek(2) != ":" {
		s.kind, p.gotos = sGoto, true
		p.pos += 2
		return
	}
	start := p.pos
	level := 0
	for p.pos < len(p.toks) {
		t := p.peek(0)
		switch {
		case t == ";" && level == 0:
			s.toks = p.toks[start:p.pos]
			p.pos++
			return
		case t == "}" && level == 0:
			s.toks = p.toks[start:p.pos]
			return
		case t == "{" && level == 0 && p.pos > start && p.toks[p.pos-1].text == ")" && !hasAssign(p.toks[start:p.pos]):
			s.kind, s.toks = sLoop, p.toks[start:p.pos]
			s.kids = []*stmt{p.statement(depth + 1)}
			return
		case t == "(" || t == "[" || t == "{":
			level++
		case t == ")" || t == "]" || t == "}":
			level--
		}
		p.pos++
	}
	s.toks = p.toks[start:p.pos]
}

// hasAssign reports whether toks hold a top-level "=" (an initializer).
func hasAssign(toks []ctok) bool {
	for _, t := range toks {
		if t.text == "=" {
			return true
		}
	}
	return false
}

// forHeader reads "(init; cond; update)" into s.
func (p *stmtParser) forHeader(s *stmt) {
	s.kind = sLoop
	header := p.parens()
	var parts [][]ctok
	start, level := 0, 0
	for i, t := range header {
		switch t.text {
		case "(", "[", "{":
			level++
		case ")", "]", "}":
			level--
		case ";":
			if level == 0 {
				parts = append(parts, header[start:i])
				start = i + 1
			}
		}
	}
	parts = append(parts, header[start:])
	if len(parts) != 3 {
		s.toks = header
		return
	}
	s.init, s.toks, s.update = parts[0], parts[1], parts[2]
	s.forever = len(parts[1]) == 0 || alwaysTrue(parts[1])
}

// alwaysTrue reports whether a loop condition is the constant 1 or true.
func alwaysTrue(cond []ctok) bool {
	return len(cond) == 1 && (cond[0].text == "1" || cond[0].text == "true")
}

// parens reads a parenthesized group and returns its inside.
func (p *stmtParser) parens() []ctok {
	if p.peek(0) != "(" {
		return nil
	}
	start := p.pos + 1
	level := 0
	for p.pos < len(p.toks) {
		switch p.peek(0) {
		case "(":
			level++
		case ")":
			level--
			if level == 0 {
				p.pos++
				return p.toks[start : p.pos-1]
			}
		}
		p.pos++
	}
	return p.toks[start:]
}

// until reads up to the token text (consumed) at nesting level 0.
func (p *stmtParser) until(text string) []ctok {
	start := p.pos
	level := 0
	for p.pos < len(p.toks) {
		t := p.peek(0)
		switch {
		case t == text && level == 0:
			p.pos++
			return p.toks[start : p.pos-1]
		case t == "}" && level == 0:
			return p.toks[start:p.pos]
		case t == "(" || t == "[" || t == "{":
			level++
		case t == ")" || t == "]" || t == "}":
			level--
		}
		p.pos++
	}
	return p.toks[start:]
}

func (p *stmtParser) skip(text string) {
	if p.peek(0) == text {
		p.pos++
	}
}

// joinToks is the source text of tokens, one space apart.
func joinToks(toks []ctok) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	return b.String()
}
