// Package halting loads the vocabulary of calls that never return
// (data/halting_calls.yaml): SDK resets, panics, process exits and traps. It
// owns the file's schema and validation; the flow analysis that uses the
// vocabulary is csyntax's.
package halting

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/embedeval/embedeval-go/data"
	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// Entry is one call of the vocabulary.
type Entry struct {
	// Name is the function or macro name.
	Name string
	// Source says where its no-return behaviour is documented.
	Source string
	// Line is the entry's line in the file.
	Line int
}

// Load decodes and validates halting_calls.yaml. source names the file in
// errors, which read "source:line: message". The document must be a mapping
// with the single key "calls", a list of mappings with the keys name (a C
// identifier, unique in the file) and source (non-empty), both required.
func Load(b []byte, source string) ([]Entry, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: empty document, want a mapping with key calls", source)
	}
	at := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", source, n.Line, fmt.Sprintf(format, args...))
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, at(root, "want a mapping with key calls")
	}
	var calls *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		if k.Value != "calls" {
			return nil, at(k, "unknown top-level key %q (want calls)", k.Value)
		}
		if calls != nil {
			return nil, at(k, "duplicate top-level key calls")
		}
		calls = root.Content[i+1]
	}
	if calls == nil {
		return nil, at(root, "missing top-level key calls")
	}
	if calls.Kind != yaml.SequenceNode {
		return nil, at(calls, "calls: want a list of {name, source} entries")
	}
	seen := map[string]int{}
	out := make([]Entry, 0, len(calls.Content))
	for i, e := range calls.Content {
		if e.Kind != yaml.MappingNode {
			return nil, at(e, "calls[%d]: want a mapping with keys name and source", i)
		}
		entry := Entry{Line: e.Line}
		for j := 0; j+1 < len(e.Content); j += 2 {
			k, v := e.Content[j], e.Content[j+1]
			if v.Kind != yaml.ScalarNode || (v.Tag != "!!str" && v.Tag != "") {
				return nil, at(v, "calls[%d]: %s must be a string", i, k.Value)
			}
			switch k.Value {
			case "name":
				entry.Name = strings.TrimSpace(v.Value)
			case "source":
				entry.Source = strings.TrimSpace(v.Value)
			default:
				return nil, at(k, "calls[%d]: unknown key %q (allowed: name, source)", i, k.Value)
			}
		}
		switch {
		case !isIdentifier(entry.Name):
			return nil, at(e, "calls[%d]: name %q is not a C identifier", i, entry.Name)
		case entry.Source == "":
			return nil, at(e, "calls[%d]: %s has no source", i, entry.Name)
		}
		if line, dup := seen[entry.Name]; dup {
			return nil, at(e, "calls[%d]: duplicate name %q (first at line %d)", i, entry.Name, line)
		}
		seen[entry.Name] = e.Line
		out = append(out, entry)
	}
	return out, nil
}

// Default loads the vocabulary embedded in the binary.
func Default() (*csyntax.HaltingCalls, error) {
	entries, err := Load(data.HaltingCallsYAML(), "data/halting_calls.yaml")
	if err != nil {
		return nil, fmt.Errorf("embedded halting call table: %w", err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name
	}
	return csyntax.NewHaltingCalls(names...), nil
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
