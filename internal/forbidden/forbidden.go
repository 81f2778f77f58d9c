// Package forbidden loads the cross-platform API blacklist
// (data/forbidden_apis.yaml, interop contract section 2.6) and finds APIs
// of other platforms in C code. It owns the file's schema and validation;
// the text matching itself comes from package ctext.
package forbidden

import (
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/embedeval/embedeval-go/data"
	"github.com/embedeval/embedeval-go/internal/ctext"
)

// Table is a loaded forbidden_apis.yaml. It is immutable after Load.
type Table struct {
	platforms map[string][]string
}

// Hit is one use of a listed API.
type Hit struct {
	Platform string
	API      string
	Line     int
}

// Load decodes and validates forbidden_apis.yaml. source names the file in
// errors, which read "source:line: message". The document must be a
// mapping with the single key "platforms", whose value maps platform names
// to lists of non-empty strings without duplicates within a list.
func Load(b []byte, source string) (*Table, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: empty document, want a mapping with key platforms", source)
	}
	root := doc.Content[0]
	at := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", source, n.Line, fmt.Sprintf(format, args...))
	}
	if root.Kind != yaml.MappingNode {
		return nil, at(root, "want a mapping with key platforms, found %s", kindName(root))
	}
	var plats *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "platforms" {
			return nil, at(k, "unknown top-level key %q (want platforms)", k.Value)
		}
		if plats != nil {
			return nil, at(k, "duplicate top-level key platforms")
		}
		plats = v
	}
	if plats == nil {
		return nil, at(root, "missing top-level key platforms")
	}
	if plats.Kind != yaml.MappingNode {
		return nil, at(plats, "platforms: want a mapping of platform names to lists, found %s", kindName(plats))
	}
	t := &Table{platforms: map[string][]string{}}
	firstLine := map[string]int{}
	for i := 0; i+1 < len(plats.Content); i += 2 {
		k, v := plats.Content[i], plats.Content[i+1]
		name := k.Value
		if k.Kind != yaml.ScalarNode || strings.TrimSpace(name) == "" {
			return nil, at(k, "platform name must be a non-empty string")
		}
		if line, dup := firstLine[name]; dup {
			return nil, at(k, "duplicate platform %q (first at line %d)", name, line)
		}
		firstLine[name] = k.Line
		if v.Kind != yaml.SequenceNode {
			return nil, at(v, "platform %q: want a list of API names, found %s", name, kindName(v))
		}
		seen := map[string]int{}
		apis := make([]string, 0, len(v.Content))
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode || (e.Tag != "!!str" && e.Tag != "") {
				return nil, at(e, "platform %q: entry must be a string, found %s", name, kindName(e))
			}
			api := strings.TrimSpace(e.Value)
			if api == "" || api == "(" {
				return nil, at(e, "platform %q: empty entry", name)
			}
			if line, dup := seen[api]; dup {
				return nil, at(e, "platform %q: duplicate entry %q (first at line %d)", name, api, line)
			}
			seen[api] = e.Line
			apis = append(apis, api)
		}
		t.platforms[name] = apis
	}
	return t, nil
}

// kindName describes a YAML node for messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!str", "":
			return fmt.Sprintf("the string %q", n.Value)
		}
		return fmt.Sprintf("%s %s", strings.TrimPrefix(n.Tag, "!!"), n.Value)
	}
	return "nothing"
}

// Default loads the forbidden_apis.yaml embedded in the binary.
func Default() (*Table, error) {
	t, err := Load(data.ForbiddenAPIsYAML(), "data/forbidden_apis.yaml")
	if err != nil {
		return nil, fmt.Errorf("embedded forbidden API table: %w", err)
	}
	return t, nil
}

// Platforms returns the platform names, sorted.
func (t *Table) Platforms() []string {
	out := make([]string, 0, len(t.platforms))
	for p := range t.platforms {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// APIs returns a copy of the entries of platform in file order, or nil
// when the table has no such platform. The name is matched exactly first,
// then case-insensitively.
func (t *Table) APIs(platform string) []string {
	if apis, ok := t.platforms[platform]; ok {
		return append([]string(nil), apis...)
	}
	for p, apis := range t.platforms {
		if strings.EqualFold(p, platform) {
			return append([]string(nil), apis...)
		}
	}
	return nil
}

// CheckPlatforms returns an error naming the first of names (compared
// case-insensitively) that is not in the table, so callers can reject
// typos in skip lists.
func (t *Table) CheckPlatforms(names []string) error {
	for _, n := range names {
		found := false
		for p := range t.platforms {
			if strings.EqualFold(p, n) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("unknown platform %q (known: %s)", n, strings.Join(t.Platforms(), ", "))
		}
	}
	return nil
}

// Find returns every use in code of an API listed for a platform not in
// skipPlatforms (compared case-insensitively). An entry ending in "("
// matches as a raw substring of the stripped code (comments and string
// contents blanked); any other entry matches as a call with word
// boundaries ((*ctext.Source).HasAPICall semantics, definitions included).
// Each (platform, API, line) is reported once; hits are sorted by line, then
// platform, then API.
func (t *Table) Find(code string, skipPlatforms []string) []Hit {
	skip := map[string]bool{}
	for _, p := range skipPlatforms {
		skip[strings.ToLower(strings.TrimSpace(p))] = true
	}
	src := ctext.NewSource(code)
	stripped := src.Stripped()
	seen := map[Hit]bool{}
	var out []Hit
	add := func(h Hit) {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	for _, plat := range t.Platforms() {
		if skip[strings.ToLower(plat)] {
			continue
		}
		for _, api := range t.platforms[plat] {
			if strings.HasSuffix(api, "(") {
				for pos := 0; pos < len(stripped); {
					k := strings.Index(stripped[pos:], api)
					if k < 0 {
						break
					}
					add(Hit{Platform: plat, API: api, Line: src.Line(pos + k)})
					pos += k + len(api)
				}
				continue
			}
			for _, m := range src.APICalls(api) {
				add(Hit{Platform: plat, API: api, Line: m.Line})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Platform != b.Platform {
			return a.Platform < b.Platform
		}
		return a.API < b.API
	})
	return out
}
