// Package entrypoints loads the vocabulary of APIs and structure members
// that register entry points (data/entry_points.yaml): interrupt handlers,
// thread entries, work and timer handlers, init functions. It owns the
// file's schema and validation; finding entry points in code is csyntax's.
package entrypoints

import (
	"fmt"
	"strings"

	"github.com/embedeval/embedeval-go/data"
	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/vocabyaml"
)

// validKind reports whether k is an entry point kind a registration may give.
func validKind(k string) bool {
	switch k {
	case "isr", "thread", "work", "timer", "init", "exit", "callback":
		return true
	}
	return false
}

// Registration is one entry of the vocabulary.
type Registration struct {
	// Via is the API's name, or ".member" for a structure member.
	Via string
	// Kind is the kind of entry point the registered function becomes.
	Kind string
	// Source says where the SDK documents it.
	Source string
	// Line is the entry's line in the file.
	Line int
}

// Load decodes and validates entry_points.yaml. source names the file in
// errors, which read "source:line: message": the document is a mapping
// with the single key "registrations", a list of {via, kind, source}
// mappings, via a C identifier or .identifier and unique, kind one of isr,
// thread, work, timer, init, exit and callback, source non-empty.
func Load(b []byte, source string) ([]Registration, error) {
	doc, err := vocabyaml.Parse(b, source, "registrations")
	if err != nil {
		return nil, err
	}
	entries, err := doc.List("registrations", "via", "kind", "source")
	if err != nil {
		return nil, err
	}
	seen := vocabyaml.Unique{}
	out := make([]Registration, 0, len(entries))
	for _, e := range entries {
		r := Registration{Line: e.Line}
		if r.Via, err = e.String("via"); err != nil {
			return nil, err
		}
		if r.Kind, err = e.String("kind"); err != nil {
			return nil, err
		}
		if r.Source, err = e.String("source"); err != nil {
			return nil, err
		}
		switch {
		case !vocabyaml.IsIdentifier(strings.TrimPrefix(r.Via, ".")):
			return nil, e.Errorf("via %q is not a C identifier or .member", r.Via)
		case !validKind(r.Kind):
			return nil, e.Errorf("%s: kind %q is not one of isr, thread, work, timer, init, exit, callback", r.Via, r.Kind)
		}
		if err := seen.Add(e, "via", r.Via); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Default loads the vocabulary embedded in the binary as the kinds
// csyntax.File.EntryPoints takes.
func Default() (csyntax.EntryKinds, error) {
	regs, err := Load(data.EntryPointsYAML(), "data/entry_points.yaml")
	if err != nil {
		return nil, fmt.Errorf("embedded entry point table: %w", err)
	}
	out := make(csyntax.EntryKinds, len(regs))
	for _, r := range regs {
		out[r.Via] = r.Kind
	}
	return out, nil
}
