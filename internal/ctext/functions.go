package ctext

import "strings"

// Function is one file-scope function definition.
type Function struct {
	// Name is the function's name. For definitions written through a
	// wrapper macro (ISR_DIRECT_DECLARE(name), AVR ISR(vector),
	// ZTEST(suite, name)) it is the name given to the macro.
	Name string
	// Line is the 1-based line of the name.
	Line int
	// Body is the text between the outermost braces (exclusive), taken from
	// the comment-stripped code: comments are blank, string literals remain.
	Body string
	// BodyOffset is the byte offset of Body in the original code.
	BodyOffset int
}

// funcDef is a Function with the token positions the analyses need.
type funcDef struct {
	Function
	nameTok   int    // token of the name (inside the wrapper for wrapped definitions)
	headStart int    // first token of the declaration specifiers
	open      int    // token of the opening brace
	close     int    // token of the closing brace, -1 when unterminated
	bodyEnd   int    // byte offset where the body ends
	wrapper   string // wrapper macro name, if any
}

// notFunctionName reports whether an identifier followed by "(" at file
// scope can never name a function definition.
func notFunctionName(name string) bool {
	switch name {
	case "if", "else", "while", "for", "do", "switch", "case", "return", "sizeof", "goto",
		"__attribute__", "__attribute", "__declspec", "_Alignas", "alignas", "_Alignof", "alignof",
		"_Static_assert", "static_assert", "typeof", "__typeof__", "__typeof", "_Generic",
		"defined", "asm", "__asm__", "__asm", "struct", "union", "enum", "typedef":
		return true
	}
	return false
}

// wrapperNameArg returns, for a macro that defines a function around a name
// given as an argument, the 0-based index of that argument.
func wrapperNameArg(name string) (int, bool) {
	switch name {
	case "ISR_DIRECT_DECLARE", "ISR", "SIGNAL":
		return 0, true
	case "ZTEST", "ZTEST_F", "ZTEST_USER", "ZTEST_USER_F":
		return 1, true
	}
	return 0, false
}

// isMacroish reports whether an identifier looks like an attribute or a
// decoration macro: it starts with "__" or has no lower-case letter.
func isMacroish(name string) bool {
	if strings.HasPrefix(name, "__") {
		return true
	}
	letter := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'a' && c <= 'z' {
			return false
		}
		if c >= 'A' && c <= 'Z' {
			letter = true
		}
	}
	return letter
}

// krForbidden reports whether name is a C keyword that cannot be a type name
// in a K&R parameter declaration list.
func krForbidden(name string) bool {
	switch name {
	case "struct", "union", "enum", "typedef", "static", "extern", "return", "if", "else",
		"while", "for", "do", "switch", "case", "goto", "sizeof":
		return true
	}
	return false
}

// defTail reports whether the parenthesised list opening at token p is the
// parameter list of a function definition, and returns the token of the
// body's opening brace (or -1). Between ")" and "{" it allows attribute
// specifiers, decoration macros (with or without arguments), C23 [[...]]
// attributes and, when the list is a plain identifier list, K&R parameter
// declarations.
func (s *Source) defTail(p int) int {
	q := s.match[p]
	if q < 0 {
		return -1
	}
	j := q + 1
	for j < len(s.toks) {
		switch {
		case s.is(j, "{"):
			return j
		case s.isIdentTok(j) && isMacroish(s.text(j)):
			j++
			if s.is(j, "(") {
				if s.match[j] < 0 {
					return -1
				}
				j = s.match[j] + 1
			}
		case s.is(j, "[") && s.is(j+1, "[") && s.match[j] > 0:
			j = s.match[j] + 1
		default:
			if s.identList(p, q) {
				return s.krTail(j)
			}
			return -1
		}
	}
	return -1
}

// identList reports whether tokens strictly between p and q are a
// non-empty comma-separated list of identifiers.
func (s *Source) identList(p, q int) bool {
	if q-p < 2 {
		return false
	}
	for k := p + 1; k < q; k++ {
		if (k-p)%2 == 1 {
			if !s.isIdentTok(k) || s.is(k, "void") {
				return false
			}
		} else if !s.is(k, ",") {
			return false
		}
	}
	return (q-p)%2 == 0
}

// krTail scans K&R parameter declarations starting at token j and returns
// the token of the body's opening brace, or -1.
func (s *Source) krTail(j int) int {
	semis := 0
	for ; j < len(s.toks); j++ {
		t := s.text(j)
		switch {
		case t == "{":
			if semis == 0 {
				return -1
			}
			return j
		case t == ";":
			semis++
		case t == "*" || t == "," || t == "[" || t == "]" || s.toks[j].kind == tokNumber:
		case s.isIdentTok(j) && !krForbidden(t):
		default:
			return -1
		}
	}
	return -1
}

// headStart returns the first token of the declaration that ends with the
// name at token i: it walks back over tokens (jumping over parenthesised
// groups) until ";", "{" or "}".
func (s *Source) headStart(i int) int {
	k := i - 1
	for k >= 0 {
		t := s.text(k)
		if t == ";" || t == "{" || t == "}" {
			break
		}
		if t == ")" && s.match[k] >= 0 {
			k = s.match[k] - 1
			continue
		}
		k--
	}
	return k + 1
}

// topArgs splits the tokens strictly between the brackets p and match[p]
// into top-level comma-separated arguments, as token index ranges.
func (s *Source) topArgs(p int) [][2]int {
	q := s.match[p]
	if q < 0 {
		return nil
	}
	var out [][2]int
	start := p + 1
	for k := p + 1; k < q; k++ {
		if s.nest[k] == s.nest[p]+1 && s.is(k, ",") {
			out = append(out, [2]int{start, k})
			start = k + 1
		}
	}
	if start < q || len(out) > 0 {
		out = append(out, [2]int{start, q})
	}
	return out
}

// functions finds every file-scope function definition once.
func (s *Source) functions() []funcDef {
	s.lex()
	s.funcOnce.Do(func() {
		i := 0
		for i < len(s.toks) {
			if s.nest[i] != 0 || !s.isIdentTok(i) || !s.is(i+1, "(") || notFunctionName(s.text(i)) {
				i++
				continue
			}
			open := s.defTail(i + 1)
			if open < 0 {
				i++
				continue
			}
			f := funcDef{nameTok: i, headStart: s.headStart(i), open: open, close: s.match[open]}
			name := s.text(i)
			if arg, ok := wrapperNameArg(name); ok {
				args := s.topArgs(i + 1)
				if arg < len(args) && args[arg][1]-args[arg][0] == 1 && s.isIdentTok(args[arg][0]) {
					f.wrapper = name
					f.nameTok = args[arg][0]
				}
			}
			f.Name = s.text(f.nameTok)
			f.Line = s.Line(s.toks[f.nameTok].start)
			f.BodyOffset = s.toks[open].end
			f.bodyEnd = len(s.code)
			if f.close >= 0 {
				f.bodyEnd = s.toks[f.close].start
			}
			f.Body = s.codeOnly[f.BodyOffset:f.bodyEnd]
			s.funcs = append(s.funcs, f)
			if f.close < 0 {
				break
			}
			i = f.close + 1
		}
	})
	return s.funcs
}

// Functions lists every file-scope function definition in source order: an
// identifier at brace depth 0 followed by a parameter list and a body. It
// skips keywords (if, while, sizeof, ...), attribute specifiers, prototypes
// and macro invocations without a body (K_THREAD_DEFINE(...);), and it
// ignores preprocessor lines. An unterminated body runs to the end of the
// text. Definitions duplicated in #if/#else branches may confuse brace
// matching.
func (s *Source) Functions() []Function {
	defs := s.functions()
	out := make([]Function, len(defs))
	for i, d := range defs {
		out[i] = d.Function
	}
	return out
}

// Functions lists every file-scope function definition in code; see
// (*Source).Functions.
func Functions(code string) []Function {
	return NewSource(code).Functions()
}

// FunctionBody returns the body of the first definition of function name:
// the text between its outermost braces (exclusive), with comments blanked
// and string literals kept. Prototypes and calls are not definitions. It
// handles decorated definitions such as "static void __isr my_isr(...)",
// "void IRAM_ATTR gpio_isr(void *arg)", attribute lists, pointer return
// types, K&R parameter lists and ISR_DIRECT_DECLARE(my_isr).
func FunctionBody(code, name string) (body string, ok bool) {
	return NewSource(code).FunctionBody(name)
}

// FunctionBody is FunctionBody on this source.
func (s *Source) FunctionBody(name string) (body string, ok bool) {
	for _, f := range s.functions() {
		if f.Name == name {
			return f.Body, true
		}
	}
	return "", false
}

// APIInFunction reports whether api is called (HasAPICall semantics) inside
// the body of some definition of function. It is false when function is
// not defined in code.
func APIInFunction(code, function, api string) bool {
	return NewSource(code).APIInFunction(function, api)
}

// APIInFunction is APIInFunction on this source.
func (s *Source) APIInFunction(function, api string) bool {
	for _, f := range s.functions() {
		if f.Name == function && len(callMatches(s.stripped, api, f.BodyOffset, f.bodyEnd, 1)) > 0 {
			return true
		}
	}
	return false
}
