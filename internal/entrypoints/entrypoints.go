// Package entrypoints loads the vocabulary of APIs and structure members
// that register entry points (data/entry_points.yaml): interrupt handlers,
// thread entries, work and timer handlers, init functions. It owns the
// file's schema and validation; finding entry points in code is csyntax's.
package entrypoints

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/embedeval/embedeval-go/data"
	"github.com/embedeval/embedeval-go/internal/csyntax"
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
	Via string `yaml:"via"`
	// Kind is the kind of entry point the registered function becomes.
	Kind string `yaml:"kind"`
	// Source says where the SDK documents it.
	Source string `yaml:"source"`
	// Line is the entry's line in the file.
	Line int `yaml:"-"`
}

// Load decodes and validates entry_points.yaml. source names the file in
// errors, which read "source:line: message": the document is a mapping
// with the single key "registrations", a list of {via, kind, source}
// mappings, via a C identifier or .identifier and unique, kind one of isr,
// thread, work, timer, init, exit and callback, source non-empty.
func Load(b []byte, source string) ([]Registration, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a mapping with key registrations", source)
	}
	at := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", source, n.Line, fmt.Sprintf(format, args...))
	}
	root := doc.Content[0]
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Value != "registrations" {
			return nil, at(k, "unknown top-level key %q (want registrations)", k.Value)
		}
		list = root.Content[i+1]
	}
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, at(root, "registrations: want a list of {via, kind, source} entries")
	}
	seen := map[string]int{}
	out := make([]Registration, 0, len(list.Content))
	for i, e := range list.Content {
		var r Registration
		dec := e.Decode
		if e.Kind != yaml.MappingNode {
			return nil, at(e, "registrations[%d]: want a mapping with keys via, kind and source", i)
		}
		for j := 0; j+1 < len(e.Content); j += 2 {
			switch k := e.Content[j]; k.Value {
			case "via", "kind", "source":
			default:
				return nil, at(k, "registrations[%d]: unknown key %q (allowed: via, kind, source)", i, k.Value)
			}
		}
		if err := dec(&r); err != nil {
			return nil, at(e, "registrations[%d]: %v", i, err)
		}
		r.Via, r.Kind, r.Source, r.Line = strings.TrimSpace(r.Via), strings.TrimSpace(r.Kind), strings.TrimSpace(r.Source), e.Line
		switch {
		case !isIdentifier(strings.TrimPrefix(r.Via, ".")):
			return nil, at(e, "registrations[%d]: via %q is not a C identifier or .member", i, r.Via)
		case !validKind(r.Kind):
			return nil, at(e, "registrations[%d]: %s: kind %q is not one of isr, thread, work, timer, init, exit, callback", i, r.Via, r.Kind)
		case r.Source == "":
			return nil, at(e, "registrations[%d]: %s has no source", i, r.Via)
		}
		if line, dup := seen[r.Via]; dup {
			return nil, at(e, "registrations[%d]: duplicate via %q (first at line %d)", i, r.Via, line)
		}
		seen[r.Via] = e.Line
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

func isIdentifier(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
