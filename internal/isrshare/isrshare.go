// Package isrshare loads the vocabulary of calls that protect data shared
// with interrupt handlers (data/isr_sharing.yaml): critical-section entries
// and exits, and the calls that make a handler live. It owns the file's
// schema and validation; the analysis is csyntax's.
package isrshare

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/embedeval/embedeval-go/data"
	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// Load decodes and validates isr_sharing.yaml. source names the file in
// errors, which read "source:line: message". The document is a mapping
// with the keys enter, exit, enable and objects (all required), each a list
// of {name, source} mappings; a name is a C identifier, unique in its
// list, and source is non-empty.
func Load(b []byte, source string) (csyntax.ISRSharing, error) {
	var out csyntax.ISRSharing
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return out, fmt.Errorf("%s: %w", source, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return out, fmt.Errorf("%s: want a mapping with keys enter, exit and enable", source)
	}
	at := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", source, n.Line, fmt.Sprintf(format, args...))
	}
	root := doc.Content[0]
	lists := map[string]*[]string{"enter": &out.Enter, "exit": &out.Exit, "enable": &out.Enable, "objects": &out.Objects}
	found := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		dst, ok := lists[k.Value]
		if !ok {
			return out, at(k, "unknown top-level key %q (want enter, exit, enable, objects)", k.Value)
		}
		if found[k.Value] {
			return out, at(k, "duplicate top-level key %s", k.Value)
		}
		found[k.Value] = true
		if v.Kind != yaml.SequenceNode {
			return out, at(v, "%s: want a list of {name, source} entries", k.Value)
		}
		seen := map[string]int{}
		for j, e := range v.Content {
			var entry struct {
				Name   string `yaml:"name"`
				Source string `yaml:"source"`
			}
			if e.Kind != yaml.MappingNode {
				return out, at(e, "%s[%d]: want a mapping with keys name and source", k.Value, j)
			}
			for x := 0; x+1 < len(e.Content); x += 2 {
				if key := e.Content[x].Value; key != "name" && key != "source" {
					return out, at(e.Content[x], "%s[%d]: unknown key %q (allowed: name, source)", k.Value, j, key)
				}
			}
			if err := e.Decode(&entry); err != nil {
				return out, at(e, "%s[%d]: %v", k.Value, j, err)
			}
			name := strings.TrimSpace(entry.Name)
			switch {
			case !isIdentifier(name):
				return out, at(e, "%s[%d]: name %q is not a C identifier", k.Value, j, name)
			case strings.TrimSpace(entry.Source) == "":
				return out, at(e, "%s[%d]: %s has no source", k.Value, j, name)
			}
			if line, dup := seen[name]; dup {
				return out, at(e, "%s[%d]: duplicate name %q (first at line %d)", k.Value, j, name, line)
			}
			seen[name] = e.Line
			*dst = append(*dst, name)
		}
	}
	for _, k := range []string{"enter", "exit", "enable", "objects"} {
		if !found[k] {
			return out, at(root, "missing top-level key %s", k)
		}
	}
	return out, nil
}

// Default loads the vocabulary embedded in the binary.
func Default() (csyntax.ISRSharing, error) {
	v, err := Load(data.ISRSharingYAML(), "data/isr_sharing.yaml")
	if err != nil {
		return v, fmt.Errorf("embedded ISR sharing table: %w", err)
	}
	return v, nil
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
