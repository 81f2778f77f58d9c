package ctext

import (
	"sort"
	"strings"

	"github.com/embedeval/embedeval-go/internal/isrctx"
)

// isrByDecoration reports whether the declaration of f carries an interrupt
// marker of v: a wrapper (ISR(...)), a keyword (__isr), or a word inside an
// attribute list or after ":" (__attribute__((interrupt))).
func (s *Source) isrByDecoration(f funcDef, v *isrctx.Vocabulary) bool {
	if f.wrapper != "" && v.Wrapper(f.wrapper) {
		return true
	}
	inAttr := false
	for k := f.headStart; k < f.nameTok && k < len(s.toks); k++ {
		switch t := s.text(k); {
		case v.Keyword(t):
			return true
		case t == "__attribute__" || t == "__attribute":
			inAttr = true
		case v.Attribute(t):
			if inAttr || s.is(k-1, ":") {
				return true
			}
		}
	}
	return false
}

// registeredISRs returns the names passed as handlers to the registration
// APIs of v.
func (s *Source) registeredISRs(v *isrctx.Vocabulary) map[string]bool {
	s.lex()
	out := map[string]bool{}
	for i := range s.toks {
		if !s.isIdentTok(i) || !s.is(i+1, "(") {
			continue
		}
		idx := v.RegistrarArgs(s.text(i))
		if idx == nil {
			continue
		}
		args := s.topArgs(i + 1)
		for _, a := range idx {
			if a < len(args) {
				if name := s.handlerName(args[a]); name != "" {
					out[name] = true
				}
			}
		}
	}
	return out
}

// handlerName extracts a function name from an argument such as
// "my_isr", "&my_isr" or "(irq_handler_t)my_isr".
func (s *Source) handlerName(r [2]int) string {
	a, b := r[0], r[1]
	for a < b {
		switch {
		case s.is(a, "&"):
			a++
		case s.is(a, "(") && s.match[a] > a && s.match[a] < b-1:
			a = s.match[a] + 1
		default:
			if b-a == 1 && s.isIdentTok(a) {
				return s.text(a)
			}
			return ""
		}
	}
	return ""
}

// isrFuncs returns the definitions that run in interrupt context.
func (s *Source) isrFuncs(v *isrctx.Vocabulary) []funcDef {
	reg := s.registeredISRs(v)
	seen := map[string]bool{}
	var out []funcDef
	for _, f := range s.functions() {
		if seen[f.Name] {
			continue
		}
		if reg[f.Name] || v.HandlerByName(f.Name) || s.isrByDecoration(f, v) {
			seen[f.Name] = true
			out = append(out, f)
		}
	}
	return out
}

// ISRBodies returns the definitions of functions that run in interrupt
// context by vocabulary v (data/isr_context.yaml), each once, in source
// order. A function qualifies when it is
//   - registered as a handler: passed as one of the handler arguments of a
//     registration call (3rd argument of IRQ_CONNECT, 2nd of request_irq,
//     2nd and 3rd of k_timer_init, ...);
//   - named by convention: ending in a handler suffix (_isr, _IRQHandler,
//     _Handler, ...; not Reset_Handler), or an STM32 HAL callback
//     HAL_*Callback;
//   - declared as an interrupt: a wrapper (ISR(...), ISR_DIRECT_DECLARE(...),
//     SIGNAL(...)), a keyword (__isr, __irq, __interrupt), or an attribute
//     list naming interrupt, interrupt_handler, isr or signal.
//
// Handlers registered here but defined in another file are not returned,
// as there is no body to inspect.
func ISRBodies(code string, v *isrctx.Vocabulary) []Function {
	return NewSource(code).ISRBodies(v)
}

// ISRBodies is ISRBodies on this source.
func (s *Source) ISRBodies(v *isrctx.Vocabulary) []Function {
	defs := s.isrFuncs(v)
	out := make([]Function, len(defs))
	for i, d := range defs {
		out[i] = d.Function
	}
	return out
}

// Violation is a call to a forbidden API inside an interrupt handler.
type Violation struct {
	Function string
	API      string
	Line     int
}

// textArgs splits the stripped text of the call whose "(" is at byte
// offset open into its top-level arguments (trimmed).
func textArgs(t string, open int) []string {
	depth := 0
	start := open + 1
	var out []string
	for j := open; j < len(t); j++ {
		switch t[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return append(out, strings.TrimSpace(t[start:j]))
			}
		case ',':
			if depth == 1 {
				out = append(out, strings.TrimSpace(t[start:j]))
				start = j + 1
			}
		}
	}
	return append(out, strings.TrimSpace(t[start:]))
}

// forbiddenHere decides the conditional cases of v: a Zephyr timeout call
// is forbidden unless its timeout is K_NO_WAIT; a Linux allocator only with
// GFP_KERNEL in its arguments.
func forbiddenHere(api string, args []string, v *isrctx.Vocabulary) bool {
	if i, ok := v.NoWaitArg(api); ok {
		if i >= len(args) {
			return true
		}
		a := strings.TrimSpace(strings.Trim(args[i], "() \t\r\n"))
		return a != v.NoWait()
	}
	if v.BlockingAllocOnly(api) {
		for _, a := range args {
			if len(wordMatches(a, v.BlockingFlag(), 1)) > 0 {
				return true
			}
		}
		return false
	}
	return true
}

// ISRForbiddenCalls returns the calls to forbidden APIs inside the bodies
// returned by ISRBodies, sorted by line, then API. A nil forbidden list
// means the forbidden list of v. Member calls (dev->free(...), ops.down(...))
// are not counted. Two rules of v are conditional whenever the API is
// listed: the Zephyr calls with a timeout (k_sem_take, k_msgq_put, ...) are
// forbidden only when their timeout argument is not exactly K_NO_WAIT; the
// Linux allocators (kmalloc, kzalloc, devm_kzalloc, ...) only when an
// argument contains GFP_KERNEL.
func ISRForbiddenCalls(code string, forbidden []string, v *isrctx.Vocabulary) []Violation {
	return NewSource(code).ISRForbiddenCalls(forbidden, v)
}

// ISRForbiddenCalls is ISRForbiddenCalls on this source.
func (s *Source) ISRForbiddenCalls(forbidden []string, v *isrctx.Vocabulary) []Violation {
	if forbidden == nil {
		forbidden = v.Forbidden()
	}
	var out []Violation
	for _, f := range s.isrFuncs(v) {
		seen := map[string]bool{}
		for _, api := range forbidden {
			api = normalizeCallName(api)
			if api == "" || seen[api] {
				continue
			}
			seen[api] = true
			for _, m := range callMatches(s.stripped, api, f.BodyOffset, f.bodyEnd, 0) {
				if isMemberAccess(s.stripped, m.start) {
					continue
				}
				open := strings.IndexByte(s.stripped[m.end:], '(') + m.end
				if !forbiddenHere(api, textArgs(s.stripped, open), v) {
					continue
				}
				out = append(out, Violation{Function: f.Name, API: api, Line: s.Line(m.start)})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].API < out[j].API
	})
	return out
}

// isMemberAccess reports whether the text before off (skipping whitespace)
// is "." or "->".
func isMemberAccess(t string, off int) bool {
	k := off - 1
	for k >= 0 && isSpace(t[k]) {
		k--
	}
	return k >= 0 && (t[k] == '.' || (t[k] == '>' && k > 0 && t[k-1] == '-'))
}
