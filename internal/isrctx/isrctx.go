// Package isrctx loads the vocabulary of interrupt context
// (data/isr_context.yaml): the calls that register interrupt handlers,
// the naming rules and declaration markers of handlers, and the calls that
// must not run in interrupt context with their conditions. It owns the
// file's schema and validation; finding handlers in code is csyntax's
// (File.ISRDefinitions and File.ISRForbiddenCalls).
package isrctx

import (
	"fmt"
	"slices"
	"strings"

	"github.com/embedeval/embedeval-go/data"
	"github.com/embedeval/embedeval-go/internal/vocabyaml"
)

// Vocabulary is a loaded isr_context.yaml. Its zero value, and a nil
// *Vocabulary, know no handlers and forbid nothing. It is not changed after
// Load and is safe for concurrent use.
type Vocabulary struct {
	forbidden     []string
	noWait        string
	noWaitArg     map[string]int
	blockingFlag  string
	blockingAlloc map[string]bool
	registrations map[string][]int
	suffixes      []string
	prefixSuffix  [][2]string
	notHandlers   map[string]bool
	wrappers      map[string]bool
	keywords      map[string]bool
	attributes    map[string]bool
}

// Forbidden returns a fresh copy of the calls that block, sleep or
// allocate and so must not run in interrupt context.
func (v *Vocabulary) Forbidden() []string {
	if v == nil {
		return []string{}
	}
	return slices.Clone(v.forbidden)
}

// NoWaitArg returns the 0-based index of the timeout argument of a call
// that is fine in interrupt context only with the NoWait timeout.
func (v *Vocabulary) NoWaitArg(api string) (int, bool) {
	if v == nil {
		return 0, false
	}
	i, ok := v.noWaitArg[api]
	return i, ok
}

// NoWait returns the timeout value that never blocks (K_NO_WAIT).
func (v *Vocabulary) NoWait() string {
	if v == nil {
		return ""
	}
	return v.noWait
}

// BlockingAllocOnly reports whether api is an allocator forbidden in
// interrupt context only when an argument contains BlockingFlag.
func (v *Vocabulary) BlockingAllocOnly(api string) bool {
	return v != nil && v.blockingAlloc[api]
}

// BlockingFlag returns the allocation flag that may sleep (GFP_KERNEL).
func (v *Vocabulary) BlockingFlag() string {
	if v == nil {
		return ""
	}
	return v.blockingFlag
}

// RegistrarArgs returns, for an API that registers functions to run in
// interrupt (or softirq/timer) context, the 0-based indexes of the
// arguments naming them; nil for other names.
func (v *Vocabulary) RegistrarArgs(api string) []int {
	if v == nil {
		return nil
	}
	return v.registrations[api]
}

// HandlerByName reports whether a function's name marks it as an interrupt
// handler by convention: it ends in a handler suffix (and has more before
// it), or has a handler prefix and suffix, and is not one of the names
// that run in thread mode.
func (v *Vocabulary) HandlerByName(name string) bool {
	if v == nil || v.notHandlers[name] {
		return false
	}
	for _, suf := range v.suffixes {
		if strings.HasSuffix(name, suf) && len(name) > len(suf) {
			return true
		}
	}
	for _, ps := range v.prefixSuffix {
		if strings.HasPrefix(name, ps[0]) && strings.HasSuffix(name, ps[1]) {
			return true
		}
	}
	return false
}

// Wrapper reports whether NAME(...) { ... } defines an interrupt handler.
func (v *Vocabulary) Wrapper(name string) bool { return v != nil && v.wrappers[name] }

// Keyword reports whether the word in a declaration marks an interrupt
// handler.
func (v *Vocabulary) Keyword(name string) bool { return v != nil && v.keywords[name] }

// Attribute reports whether the word inside an attribute list (or after
// ":") marks an interrupt handler.
func (v *Vocabulary) Attribute(name string) bool { return v != nil && v.attributes[name] }

// Load decodes and validates isr_context.yaml. source names the file in
// errors, which read "source:line: message". The document is a mapping
// with the keys forbidden, no_wait, no_wait_only, blocking_flag,
// blocking_alloc_only, registrations, handler_suffixes,
// handler_prefix_suffix, not_handlers, wrappers, keywords and attributes,
// all required; see the file's header for each list's entries. Names are C
// identifiers unique in their list, argument indexes are integers 0..63,
// suffixes and prefixes are non-empty identifier fragments, and every entry
// has a non-empty source.
func Load(b []byte, source string) (*Vocabulary, error) {
	d, err := vocabyaml.Parse(b, source, "forbidden", "no_wait", "no_wait_only", "blocking_flag",
		"blocking_alloc_only", "registrations", "handler_suffixes", "handler_prefix_suffix",
		"not_handlers", "wrappers", "keywords", "attributes")
	if err != nil {
		return nil, err
	}
	v := &Vocabulary{}
	if v.forbidden, err = d.Names("forbidden"); err != nil {
		return nil, err
	}
	if v.noWait, err = d.Identifier("no_wait"); err != nil {
		return nil, err
	}
	if v.blockingFlag, err = d.Identifier("blocking_flag"); err != nil {
		return nil, err
	}
	if v.noWaitArg, err = namedIndexes(d, "no_wait_only", "name", "arg", func(e vocabyaml.Entry) (int, error) { return e.Index("arg") }); err != nil {
		return nil, err
	}
	if v.registrations, err = namedIndexes(d, "registrations", "api", "args", func(e vocabyaml.Entry) ([]int, error) { return e.Indexes("args") }); err != nil {
		return nil, err
	}
	sets := []struct {
		key string
		dst *map[string]bool
	}{{"blocking_alloc_only", &v.blockingAlloc}, {"not_handlers", &v.notHandlers},
		{"wrappers", &v.wrappers}, {"keywords", &v.keywords}, {"attributes", &v.attributes}}
	for _, set := range sets {
		names, err := d.Names(set.key)
		if err != nil {
			return nil, err
		}
		*set.dst = make(map[string]bool, len(names))
		for _, n := range names {
			(*set.dst)[n] = true
		}
	}
	if v.suffixes, v.prefixSuffix, err = namingRules(d); err != nil {
		return nil, err
	}
	return v, nil
}

// namedIndexes reads a list of {key, field, source} entries into a map
// from the identifier under key to the value get reads.
func namedIndexes[T any](d *vocabyaml.Doc, list, key, field string, get func(vocabyaml.Entry) (T, error)) (map[string]T, error) {
	entries, err := d.List(list, key, field, "source")
	if err != nil {
		return nil, err
	}
	out := make(map[string]T, len(entries))
	seen := vocabyaml.Unique{}
	for _, e := range entries {
		n, err := e.Identifier(key)
		if err != nil {
			return nil, err
		}
		if err := seen.Add(e, key, n); err != nil {
			return nil, err
		}
		if out[n], err = get(e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// namingRules reads handler_suffixes and handler_prefix_suffix.
func namingRules(d *vocabyaml.Doc) ([]string, [][2]string, error) {
	sufs, err := d.List("handler_suffixes", "suffix", "source")
	if err != nil {
		return nil, nil, err
	}
	var suffixes []string
	seen := vocabyaml.Unique{}
	for _, e := range sufs {
		s, err := fragment(e, "suffix")
		if err != nil {
			return nil, nil, err
		}
		if err := seen.Add(e, "suffix", s); err != nil {
			return nil, nil, err
		}
		suffixes = append(suffixes, s)
	}
	pss, err := d.List("handler_prefix_suffix", "prefix", "suffix", "source")
	if err != nil {
		return nil, nil, err
	}
	var prefixSuffix [][2]string
	seen = vocabyaml.Unique{}
	for _, e := range pss {
		p, err := fragment(e, "prefix")
		if err != nil {
			return nil, nil, err
		}
		s, err := fragment(e, "suffix")
		if err != nil {
			return nil, nil, err
		}
		if err := seen.Add(e, "prefix and suffix", p+"..."+s); err != nil {
			return nil, nil, err
		}
		prefixSuffix = append(prefixSuffix, [2]string{p, s})
	}
	return suffixes, prefixSuffix, nil
}

// fragment reads a part of an identifier (a suffix may start with a digit
// in principle, so "_" is prefixed before the check).
func fragment(e vocabyaml.Entry, field string) (string, error) {
	s, err := e.String(field)
	if err != nil {
		return "", err
	}
	if !vocabyaml.IsIdentifier("_"+s) || s == "" {
		return "", e.Errorf("%s %q is not part of a C identifier", field, s)
	}
	return s, nil
}

// Default loads the vocabulary embedded in the binary.
func Default() (*Vocabulary, error) {
	v, err := Load(data.ISRContextYAML(), "data/isr_context.yaml")
	if err != nil {
		return nil, fmt.Errorf("embedded interrupt context table: %w", err)
	}
	return v, nil
}
