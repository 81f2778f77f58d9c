package csyntax

import "strings"

// InterruptVocabulary is what the interrupt context helpers know about an
// SDK: the calls that register handlers, the naming rules and declaration
// markers of handlers, and the calls forbidden in interrupt context with
// their conditions. *isrctx.Vocabulary (data/isr_context.yaml) satisfies
// it; this package keeps no vocabulary of its own.
type InterruptVocabulary interface {
	// RegistrarArgs returns the 0-based indexes of the arguments naming
	// handlers of a registering API; nil for other names.
	RegistrarArgs(api string) []int
	// HandlerByName reports whether a name marks a handler by convention.
	HandlerByName(name string) bool
	// Wrapper reports whether NAME(...) { ... } defines a handler.
	Wrapper(name string) bool
	// Keyword reports whether a word in a declaration marks a handler.
	Keyword(name string) bool
	// Attribute reports whether a word in an attribute list marks a handler.
	Attribute(name string) bool
	// Forbidden returns the calls that must not run in interrupt context.
	Forbidden() []string
	// NoWaitArg returns the timeout argument of a call allowed only with
	// the NoWait timeout.
	NoWaitArg(api string) (int, bool)
	// NoWait returns the timeout that never blocks (K_NO_WAIT).
	NoWait() string
	// BlockingAllocOnly reports whether an allocator is forbidden only with
	// BlockingFlag among its arguments.
	BlockingAllocOnly(api string) bool
	// BlockingFlag returns the allocation flag that may sleep (GFP_KERNEL).
	BlockingFlag() string
}

// ISRDefinitions returns the definitions (as Definitions gives them) of
// the functions that run in interrupt context by vocabulary v, each name
// once (its first definition that qualifies), in source order. A function
// qualifies when it is
//   - registered as a handler: named, as f, &f or (cast)f (see registeredName), by one of the
//     handler arguments of a registration call among Calls (3rd argument
//     of IRQ_CONNECT, 2nd of request_irq, 2nd and 3rd of k_timer_init and
//     K_TIMER_DEFINE, ...), wherever the call is, file scope included;
//   - named by convention (v.HandlerByName: *_isr, *_IRQHandler,
//     *_Handler but not Reset_Handler, HAL_*Callback, ...);
//   - declared as an interrupt: written through a wrapper macro of v
//     (ISR(vector), ISR_DIRECT_DECLARE(name), SIGNAL(vector)), or carrying
//     among its Attributes a keyword of v (__isr, __irq, __interrupt) or an
//     attribute word of v inside __attribute__((...)) or after "::"
//     ([[gnu::interrupt]]).
//
// Handlers registered here but defined in another file have no definition
// and are not returned. Unlike EntryPoints, only the vocabulary's handler
// arguments of its registration calls count: a thread entry or a work
// handler handed to an API is not an interrupt handler.
func (f *File) ISRDefinitions(v InterruptVocabulary) []Definition {
	if v == nil {
		return nil
	}
	defs := f.Definitions()
	if len(defs) == 0 {
		return nil
	}
	fns := f.Functions()
	registered := f.registeredHandlers(v)
	seen := map[string]bool{}
	var out []Definition
	for i, d := range defs {
		if seen[d.Name] {
			continue
		}
		if registered[d.Name] || v.HandlerByName(d.Name) || decoratedAsISR(fns[i], d, v) {
			seen[d.Name] = true
			out = append(out, d)
		}
	}
	return out
}

// registeredHandlers returns the names passed as handler arguments to the
// registration calls of v.
func (f *File) registeredHandlers(v InterruptVocabulary) map[string]bool {
	out := map[string]bool{}
	for _, c := range f.Calls("") {
		for _, a := range v.RegistrarArgs(c.Name) {
			if a < len(c.Args) {
				if name := registeredName(c.Args[a]); name != "" {
					out[name] = true
				}
			}
		}
	}
	return out
}

// registeredName returns the function an argument names as a handler: f,
// &f, (f), or f behind casts however many ((irq_handler_t)f,
// (gpio_isr_t)(void (*)(void *))&f); "" for anything else.
func registeredName(arg string) string {
	s := strings.TrimSpace(arg)
	for s != "" {
		switch {
		case s[0] == '&':
			s = strings.TrimSpace(s[1:])
		case s[0] == '(':
			i := closing(s)
			if i < 0 {
				return ""
			}
			if i == len(s)-1 {
				s = strings.TrimSpace(s[1:i])
			} else {
				s = strings.TrimSpace(s[i+1:])
			}
		default:
			if isIdentifier(s) {
				return s
			}
			return ""
		}
	}
	return ""
}

// decoratedAsISR reports whether definition d of fn is declared as an
// interrupt handler by a wrapper macro, keyword or attribute of v.
func decoratedAsISR(fn Function, d Definition, v InterruptVocabulary) bool {
	if d.Wrapper != "" && v.Wrapper(d.Wrapper) {
		return true
	}
	for _, a := range fn.Attributes {
		toks := cTokens(a)
		inList := false
		for k, t := range toks {
			switch {
			case v.Keyword(t):
				return true
			case t == "__attribute__" || t == "__attribute":
				inList = true
			case v.Attribute(t) && (inList || (k > 0 && toks[k-1] == ":")):
				return true
			}
		}
	}
	return false
}
