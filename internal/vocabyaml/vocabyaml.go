// Package vocabyaml reads the SDK vocabulary files of package data that
// are top-level mappings of lists of small mappings ({name, source},
// {api, args, source}, ...). It checks the document's shape strictly and
// reports errors as "file:line: message"; each vocabulary's loader gives
// the meaning and checks its own values.
package vocabyaml

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Doc is a parsed vocabulary file.
type Doc struct {
	source string
	keys   map[string]*yaml.Node
	root   *yaml.Node
}

// Entry is one mapping of a list: its fields by key and its line.
type Entry struct {
	// Line is the entry's line in the file.
	Line   int
	doc    *Doc
	list   string
	index  int
	fields map[string]*yaml.Node
}

// Parse decodes b, which source names in errors, as a mapping whose keys
// are all in allowed, each at most once.
func Parse(b []byte, source string, allowed ...string) (*Doc, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(b, &n); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	want := strings.Join(allowed, ", ")
	if n.Kind != yaml.DocumentNode || len(n.Content) == 0 || n.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a mapping with keys %s", source, want)
	}
	d := &Doc{source: source, keys: map[string]*yaml.Node{}, root: n.Content[0]}
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	for i := 0; i+1 < len(d.root.Content); i += 2 {
		k := d.root.Content[i]
		if !ok[k.Value] {
			return nil, d.Errorf(k.Line, "unknown top-level key %q (want %s)", k.Value, want)
		}
		if _, dup := d.keys[k.Value]; dup {
			return nil, d.Errorf(k.Line, "duplicate top-level key %s", k.Value)
		}
		d.keys[k.Value] = d.root.Content[i+1]
	}
	return d, nil
}

// Errorf returns an error at line of the file.
func (d *Doc) Errorf(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", d.source, line, fmt.Sprintf(format, args...))
}

// Identifier returns the top-level key's value, which must be a C
// identifier.
func (d *Doc) Identifier(key string) (string, error) {
	v, ok := d.keys[key]
	if !ok {
		return "", d.Errorf(d.root.Line, "missing top-level key %s", key)
	}
	s := strings.TrimSpace(v.Value)
	if v.Kind != yaml.ScalarNode || !IsIdentifier(s) {
		return "", d.Errorf(v.Line, "%s: want a C identifier", key)
	}
	return s, nil
}

// List returns the entries of the top-level key, a required list of
// mappings with exactly the keys fields (all required). A "source" field
// must be a non-empty string.
func (d *Doc) List(key string, fields ...string) ([]Entry, error) {
	v, ok := d.keys[key]
	shape := "{" + strings.Join(fields, ", ") + "}"
	if !ok {
		return nil, d.Errorf(d.root.Line, "missing top-level key %s", key)
	}
	if v.Kind != yaml.SequenceNode {
		return nil, d.Errorf(v.Line, "%s: want a list of %s entries", key, shape)
	}
	allowed := map[string]bool{}
	for _, f := range fields {
		allowed[f] = true
	}
	out := make([]Entry, 0, len(v.Content))
	for i, e := range v.Content {
		if e.Kind != yaml.MappingNode {
			return nil, d.Errorf(e.Line, "%s[%d]: want a mapping %s", key, i, shape)
		}
		en := Entry{Line: e.Line, doc: d, list: key, index: i, fields: map[string]*yaml.Node{}}
		for j := 0; j+1 < len(e.Content); j += 2 {
			k := e.Content[j]
			if !allowed[k.Value] {
				return nil, d.Errorf(k.Line, "%s[%d]: unknown key %q (allowed: %s)", key, i, k.Value, strings.Join(fields, ", "))
			}
			if _, dup := en.fields[k.Value]; dup {
				return nil, d.Errorf(k.Line, "%s[%d]: duplicate key %s", key, i, k.Value)
			}
			en.fields[k.Value] = e.Content[j+1]
		}
		for _, f := range fields {
			if _, ok := en.fields[f]; !ok {
				return nil, d.Errorf(e.Line, "%s[%d]: missing %s", key, i, f)
			}
		}
		if src, ok := en.fields["source"]; ok && (src.Kind != yaml.ScalarNode || strings.TrimSpace(src.Value) == "") {
			return nil, en.Errorf("has no source")
		}
		out = append(out, en)
	}
	return out, nil
}

// Errorf returns an error at the entry, naming its list and index.
func (e Entry) Errorf(format string, args ...any) error {
	return e.doc.Errorf(e.Line, "%s[%d]: %s", e.list, e.index, fmt.Sprintf(format, args...))
}

// String returns the field's string value, trimmed.
func (e Entry) String(field string) (string, error) {
	v := e.fields[field]
	if v == nil || v.Kind != yaml.ScalarNode || (v.Tag != "!!str" && v.Tag != "") {
		return "", e.Errorf("%s must be a string", field)
	}
	return strings.TrimSpace(v.Value), nil
}

// Identifier returns the field's value, which must be a C identifier.
func (e Entry) Identifier(field string) (string, error) {
	s, err := e.String(field)
	if err != nil {
		return "", err
	}
	if !IsIdentifier(s) {
		return "", e.Errorf("%s %q is not a C identifier", field, s)
	}
	return s, nil
}

// Index returns the field's value, a non-negative integer below 64.
func (e Entry) Index(field string) (int, error) {
	return index(e, field, e.fields[field])
}

// Indexes returns the field's value, a non-empty list of distinct
// non-negative integers below 64.
func (e Entry) Indexes(field string) ([]int, error) {
	v := e.fields[field]
	if v == nil || v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return nil, e.Errorf("%s must be a non-empty list of argument indexes", field)
	}
	out := make([]int, 0, len(v.Content))
	seen := map[int]bool{}
	for _, n := range v.Content {
		i, err := index(e, field, n)
		if err != nil {
			return nil, err
		}
		if seen[i] {
			return nil, e.Errorf("%s lists %d twice", field, i)
		}
		seen[i] = true
		out = append(out, i)
	}
	return out, nil
}

func index(e Entry, field string, v *yaml.Node) (int, error) {
	if v == nil || v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
		return 0, e.Errorf("%s must be an argument index (0-based integer)", field)
	}
	i, err := strconv.Atoi(v.Value)
	if err != nil || i < 0 || i >= 64 {
		return 0, e.Errorf("%s %s is not an argument index in 0..63", field, v.Value)
	}
	return i, nil
}

// Unique remembers keys of one list and reports the second use of one.
type Unique map[string]int

// Add records key for entry e, or returns an error when an earlier entry
// used it.
func (u Unique) Add(e Entry, what, key string) error {
	if line, dup := u[key]; dup {
		return e.Errorf("duplicate %s %q (first at line %d)", what, key, line)
	}
	u[key] = e.Line
	return nil
}

// IsIdentifier reports whether s is a C identifier.
func IsIdentifier(s string) bool {
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

// Names returns the names of the top-level key, a list of {name, source}
// entries whose names are C identifiers, unique in the list.
func (d *Doc) Names(key string) ([]string, error) {
	entries, err := d.List(key, "name", "source")
	if err != nil {
		return nil, err
	}
	seen := Unique{}
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		n, err := e.Identifier("name")
		if err != nil {
			return nil, err
		}
		if err := seen.Add(e, "name", n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}
