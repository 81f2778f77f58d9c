package cases

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/embedeval/embedeval-go/internal/diag"
)

// Metadata is the decoded metadata.yaml of a case (interop contract §2.1). Field
// names and JSON keys follow the contract; no field may be added without a joint
// release with downstream consumers.
type Metadata struct {
	ID              string   `json:"id" yaml:"id"`
	Category        string   `json:"category" yaml:"category"`
	Difficulty      string   `json:"difficulty" yaml:"difficulty"`
	Title           string   `json:"title" yaml:"title"`
	Description     string   `json:"description" yaml:"description"`
	Tags            []string `json:"tags" yaml:"tags"`
	Platform        string   `json:"platform" yaml:"platform"`
	SDK             string   `json:"sdk" yaml:"sdk"`
	EstimatedTokens int      `json:"estimated_tokens" yaml:"estimated_tokens"`
	SDKVersion      string   `json:"sdk_version" yaml:"sdk_version"`
	Visibility      string   `json:"visibility" yaml:"visibility"`
	CreatedDate     string   `json:"created_date,omitempty" yaml:"created_date"`
	Tier            string   `json:"tier" yaml:"tier"`
	ReasoningTypes  []string `json:"reasoning_types" yaml:"reasoning_types"`
	BuildBoard      string   `json:"build_board,omitempty" yaml:"build_board"`
	L1Skip          bool     `json:"l1_skip" yaml:"l1_skip"`
	L2Skip          bool     `json:"l2_skip" yaml:"l2_skip"`
}

// Board returns the build board, defaulting to native_sim as the seeds specify.
func (m Metadata) Board() string {
	if m.BuildBoard == "" {
		return "native_sim"
	}
	return m.BuildBoard
}

const metadataRule = "metadata"

var caseIDPattern = regexp.MustCompile(`^([a-z][a-z0-9]*(?:-[a-z0-9]+)*)-([0-9]{3})$`)

type fieldKind int

const (
	kindString fieldKind = iota
	kindStringList
	kindInt
	kindBool
)

type fieldSpec struct {
	name     string
	kind     fieldKind
	required bool
	enum     func() []string
}

func metadataFields() []fieldSpec {
	return []fieldSpec{
		{name: "id", kind: kindString, required: true},
		{name: "category", kind: kindString, required: true, enum: Categories},
		{name: "difficulty", kind: kindString, required: true, enum: Difficulties},
		{name: "title", kind: kindString, required: true},
		{name: "description", kind: kindString, required: true},
		{name: "tags", kind: kindStringList, required: true},
		{name: "platform", kind: kindString, required: true, enum: Platforms},
		{name: "sdk", kind: kindString, required: true, enum: SDKs},
		{name: "estimated_tokens", kind: kindInt, required: true},
		{name: "sdk_version", kind: kindString, required: true},
		{name: "visibility", kind: kindString, enum: Visibilities},
		{name: "created_date", kind: kindString},
		{name: "tier", kind: kindString, enum: Tiers},
		{name: "reasoning_types", kind: kindStringList, enum: ReasoningTypes},
		{name: "build_board", kind: kindString},
		{name: "l1_skip", kind: kindBool},
		{name: "l2_skip", kind: kindBool},
	}
}

// DecodeMetadata strictly decodes metadata.yaml content. file is the path used in
// problems. Every problem found is returned (not only the first); the Metadata is
// only meaningful when no error-severity problem is returned. Defaults of the
// contract are applied: visibility public, tier core.
func DecodeMetadata(file string, data []byte) (Metadata, []diag.Problem) {
	m, problems, _ := decodeMetadata(file, data, false)
	return m, problems
}

// DecodeLegacyMetadata decodes the metadata.yaml of a case in the flat layout,
// as the Python implementation writes it, by that implementation's rules:
// the same closed schema, except that sdk may be absent — it is then taken
// from the platform (SDKForPlatform) and inferred is true — and that an id
// not starting with its category is a warning, not an error.
func DecodeLegacyMetadata(file string, data []byte) (m Metadata, problems []diag.Problem, inferred bool) {
	return decodeMetadata(file, data, true)
}

// decodeMetadata is DecodeMetadata, or DecodeLegacyMetadata when legacy is set.
func decodeMetadata(file string, data []byte, legacy bool) (Metadata, []diag.Problem, bool) {
	var m Metadata
	inferred := false
	var problems []diag.Problem
	bad := func(line, col int, format string, args ...any) {
		problems = append(problems, diag.Errorf(file, line, col, metadataRule, format, args...))
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		line, msg := yamlErrorLine(err)
		if msg == "EOF" {
			bad(0, 0, "empty file: expected a mapping of metadata fields")
			return m, problems, inferred
		}
		bad(line, 0, "invalid YAML: %s", msg)
		return m, problems, inferred
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		n := &doc
		if len(doc.Content) == 1 {
			n = doc.Content[0]
		}
		bad(n.Line, n.Column, "expected a mapping of metadata fields, found %s", nodeKindName(n))
		return m, problems, inferred
	}
	root := doc.Content[0]
	specs := metadataFields()
	byName := map[string]fieldSpec{}
	for _, s := range specs {
		byName[s.name] = s
	}
	seen := map[string]int{}
	values := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			bad(k.Line, k.Column, "metadata keys must be plain strings")
			continue
		}
		if first, dup := seen[k.Value]; dup {
			bad(k.Line, k.Column, "duplicate field %q (first set on line %d)", k.Value, first)
			continue
		}
		seen[k.Value] = k.Line
		spec, ok := byName[k.Value]
		if !ok {
			bad(k.Line, k.Column, "unknown field %q (the metadata schema is closed; allowed: %s)", k.Value, allowedFieldNames(specs))
			continue
		}
		values[spec.name] = v
		if p, ok := checkFieldValue(file, spec, v); !ok {
			problems = append(problems, p)
			delete(values, spec.name)
		}
	}
	for _, s := range specs {
		if s.required {
			if _, ok := seen[s.name]; !ok && !(legacy && s.name == "sdk") {
				bad(root.Line, root.Column, "missing required field %q", s.name)
			}
		}
	}
	str := func(name string) string {
		if v, ok := values[name]; ok {
			return v.Value
		}
		return ""
	}
	list := func(name string) []string {
		v, ok := values[name]
		if !ok {
			return nil
		}
		out := make([]string, 0, len(v.Content))
		for _, c := range v.Content {
			out = append(out, c.Value)
		}
		return out
	}
	m.ID = str("id")
	m.Category = str("category")
	m.Difficulty = str("difficulty")
	m.Title = str("title")
	m.Description = str("description")
	m.Tags = list("tags")
	if m.Tags == nil {
		m.Tags = []string{}
	}
	m.Platform = str("platform")
	m.SDK = str("sdk")
	if _, given := seen["sdk"]; legacy && !given {
		if sdk := SDKForPlatform(m.Platform); sdk != "" {
			m.SDK, inferred = sdk, true
		} else if _, ok := values["platform"]; ok {
			bad(root.Line, root.Column, "missing field \"sdk\", and platform %q names no SDK to take it from", m.Platform)
		} else {
			bad(root.Line, root.Column, "missing field \"sdk\", and no valid platform to take it from")
		}
	}
	if v, ok := values["estimated_tokens"]; ok {
		m.EstimatedTokens, _ = strconv.Atoi(v.Value)
	}
	m.SDKVersion = str("sdk_version")
	m.Visibility = str("visibility")
	if m.Visibility == "" {
		m.Visibility = "public"
	}
	m.CreatedDate = str("created_date")
	m.Tier = str("tier")
	if m.Tier == "" {
		m.Tier = "core"
	}
	m.ReasoningTypes = list("reasoning_types")
	if m.ReasoningTypes == nil {
		m.ReasoningTypes = []string{}
	}
	m.BuildBoard = str("build_board")
	m.L1Skip = values["l1_skip"] != nil && values["l1_skip"].Value == "true"
	m.L2Skip = values["l2_skip"] != nil && values["l2_skip"].Value == "true"

	if v, ok := values["id"]; ok && !caseIDPattern.MatchString(m.ID) {
		bad(v.Line, v.Column, "id %q does not have the form <category>-<NNN> (three digits)", m.ID)
	} else if ok && m.Category != "" {
		if sub := caseIDPattern.FindStringSubmatch(m.ID); sub != nil && sub[1] != m.Category {
			if legacy {
				problems = append(problems, diag.Warnf(file, v.Line, v.Column, metadataRule,
					"id %q does not start with its category %q (this project's rule; the Python implementation's flat layout allows it)", m.ID, m.Category))
			} else {
				bad(v.Line, v.Column, "id %q does not start with its category %q", m.ID, m.Category)
			}
		}
	}
	if v, ok := values["created_date"]; ok {
		if _, err := time.Parse("2006-01-02", m.CreatedDate); err != nil {
			bad(v.Line, v.Column, "created_date %q is not an ISO date (YYYY-MM-DD)", m.CreatedDate)
		}
	}
	if v, ok := values["estimated_tokens"]; ok && m.EstimatedTokens <= 0 {
		bad(v.Line, v.Column, "estimated_tokens must be a positive integer, found %s", v.Value)
	}
	for _, name := range []string{"id", "title", "description", "sdk_version"} {
		if v, ok := values[name]; ok && strings.TrimSpace(v.Value) == "" {
			bad(v.Line, v.Column, "field %q must not be empty", name)
		}
	}
	return m, problems, inferred
}

func checkFieldValue(file string, s fieldSpec, v *yaml.Node) (diag.Problem, bool) {
	fail := func(n *yaml.Node, format string, args ...any) (diag.Problem, bool) {
		return diag.Errorf(file, n.Line, n.Column, metadataRule, format, args...), false
	}
	switch s.kind {
	case kindString:
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			return fail(v, "field %q must be a string, found %s", s.name, nodeKindName(v))
		}
		if s.enum != nil && !contains(s.enum(), v.Value) {
			return fail(v, "field %q: %q is not one of %s", s.name, v.Value, strings.Join(s.enum(), ", "))
		}
	case kindStringList:
		if v.Kind != yaml.SequenceNode {
			return fail(v, "field %q must be a list of strings, found %s", s.name, nodeKindName(v))
		}
		seen := map[string]bool{}
		for _, c := range v.Content {
			if c.Kind != yaml.ScalarNode || c.Tag == "!!null" {
				return fail(c, "field %q must be a list of strings, found an item that is %s", s.name, nodeKindName(c))
			}
			if s.enum != nil && !contains(s.enum(), c.Value) {
				return fail(c, "field %q: %q is not one of %s", s.name, c.Value, strings.Join(s.enum(), ", "))
			}
			if seen[c.Value] {
				return fail(c, "field %q lists %q twice", s.name, c.Value)
			}
			seen[c.Value] = true
		}
	case kindInt:
		if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
			return fail(v, "field %q must be an integer, found %s", s.name, nodeKindName(v))
		}
	case kindBool:
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || (v.Value != "true" && v.Value != "false") {
			return fail(v, "field %q must be true or false, found %s", s.name, nodeKindName(v))
		}
	}
	return diag.Problem{}, true
}

func nodeKindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.DocumentNode:
		return "an empty document"
	case yaml.AliasNode:
		return "an alias"
	}
	switch n.Tag {
	case "!!null":
		return "null"
	case "!!int":
		return fmt.Sprintf("the integer %s", n.Value)
	case "!!bool":
		return fmt.Sprintf("the boolean %s", n.Value)
	case "!!float":
		return fmt.Sprintf("the number %s", n.Value)
	}
	return fmt.Sprintf("the string %q", n.Value)
}

func allowedFieldNames(specs []fieldSpec) string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.name
	}
	return strings.Join(names, ", ")
}

var yamlLinePattern = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlErrorLine pulls the line number out of a yaml.v3 syntax error.
func yamlErrorLine(err error) (int, string) {
	msg := err.Error()
	if m := yamlLinePattern.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return line, m[2]
	}
	return 0, strings.TrimPrefix(msg, "yaml: ")
}
