package ctext

import "github.com/embedeval/embedeval-go/internal/csyntax"

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
	open    int // token of the opening brace
	close   int // token of the closing brace, -1 when unterminated
	bodyEnd int // byte offset where the body ends
}

// functions converts the definitions of the csyntax function index into
// token positions once: csyntax decides what is a definition and where its
// body starts and ends, this package only lexes. Without definitions given
// to NewSourceWith, the code is parsed here.
func (s *Source) functions() []funcDef {
	s.lex()
	s.funcOnce.Do(func() {
		defs := s.defs
		if !s.hasDefs {
			if f, err := csyntax.Parse(s.code); err == nil {
				defs = f.Definitions()
				f.Close()
			}
		}
		s.defHeads = map[int]bool{}
		for _, d := range defs {
			if fd, ok := s.funcDef(d); ok {
				s.funcs = append(s.funcs, fd)
				s.defHeads[s.tokAt(d.Head)] = true
			}
		}
	})
	return s.funcs
}

// funcDef locates definition d in the token stream; ok is false when its
// name or opening brace is not a token (a definition spelled by a
// preprocessor line).
func (s *Source) funcDef(d csyntax.Definition) (funcDef, bool) {
	nameTok, open, head := s.tokAt(d.NameStart), s.tokAt(d.Open), s.tokAt(d.Head)
	if nameTok < 0 || open < 0 || head < 0 || d.Open >= len(s.code) {
		return funcDef{}, false
	}
	f := funcDef{open: open, close: -1}
	f.bodyEnd = len(s.code)
	if d.Close >= 0 {
		if c := s.tokAt(d.Close); c >= 0 {
			f.close = c
			f.bodyEnd = d.Close
		}
	}
	f.Name = d.Name
	f.Line = d.Line
	f.BodyOffset = d.Open + 1
	f.Body = s.codeOnly[f.BodyOffset:f.bodyEnd]
	return f, true
}

// Functions lists every file-scope function definition in source order, as
// csyntax's function index finds them (csyntax.File.Definitions): the same
// definitions, with the same bodies, as csyntax.File.Functions. Prototypes
// and macro invocations without a body (K_THREAD_DEFINE(...);) are not
// definitions. An unterminated body runs to the end of the text.
func (s *Source) Functions() []Function {
	defs := s.functions()
	out := make([]Function, len(defs))
	for i, d := range defs {
		out[i] = d.Function
	}
	return out
}

// FunctionBody returns the body of the first definition of function name:
// the text between its outermost braces (exclusive), with comments blanked
// and string literals kept. Prototypes and calls are not definitions. It
// handles decorated definitions such as "static void __isr my_isr(...)",
// "void IRAM_ATTR gpio_isr(void *arg)", attribute lists, pointer return
// types, K&R parameter lists and ISR_DIRECT_DECLARE(my_isr).
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
// not defined in the source.
func (s *Source) APIInFunction(function, api string) bool {
	for _, f := range s.functions() {
		if f.Name == function && len(callMatches(s.stripped, api, f.BodyOffset, f.bodyEnd, 1)) > 0 {
			return true
		}
	}
	return false
}
