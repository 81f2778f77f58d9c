package cases

import (
	"bytes"
	"errors"
	"io/fs"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/embedeval/embedeval-go/internal/diag"
)

// MigrationsFile is the per-case check-name rename log, relative to the case.
const MigrationsFile = "checks/check_name_migrations.yaml"

// Rename is one entry of checks/check_name_migrations.yaml: check_name from
// became to on since.
type Rename struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Since  string `json:"since"`
	Reason string `json:"reason"`
	Line   int    `json:"line"`
}

const migrationsRule = "migrations"

// LoadMigrations reads a check_name_migrations.yaml file: a mapping with one
// key, renames, holding a list of {from, to, since, reason}. A missing file
// is no renames.
func LoadMigrations(path string) ([]Rename, []diag.Problem) {
	data, err := ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []diag.Problem{diag.Errorf(path, 0, 0, migrationsRule, "cannot read: %v", err)}
	}
	return DecodeMigrations(path, data)
}

// DecodeMigrations decodes the rename log strictly, naming the line of every
// problem.
func DecodeMigrations(path string, data []byte) ([]Rename, []diag.Problem) {
	var problems []diag.Problem
	bad := func(n *yaml.Node, format string, args ...any) {
		line, col := 0, 0
		if n != nil {
			line, col = n.Line, n.Column
		}
		problems = append(problems, diag.Errorf(path, line, col, migrationsRule, format, args...))
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		line, msg := yamlErrorLine(err)
		problems = append(problems, diag.Errorf(path, line, 0, migrationsRule, "invalid YAML: %s", msg))
		return nil, problems
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		bad(&doc, "expected a mapping with a renames list")
		return nil, problems
	}
	root := doc.Content[0]
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "renames" {
			bad(k, "unknown key %q (the file holds only renames)", k.Value)
			continue
		}
		list = v
	}
	if list == nil {
		bad(root, "missing renames list")
		return nil, problems
	}
	if list.Kind != yaml.SequenceNode {
		bad(list, "renames must be a list of {from, to, since, reason}")
		return nil, problems
	}
	var out []Rename
	for _, item := range list.Content {
		if item.Kind != yaml.MappingNode {
			bad(item, "a rename must be a mapping with from, to, since and reason")
			continue
		}
		r := Rename{Line: item.Line}
		fields := map[string]*string{"from": &r.From, "to": &r.To, "since": &r.Since, "reason": &r.Reason}
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i], item.Content[i+1]
			dst, ok := fields[k.Value]
			if !ok {
				bad(k, "unknown key %q in a rename (want from, to, since, reason)", k.Value)
				continue
			}
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				bad(v, "%s must be a non-empty string", k.Value)
				continue
			}
			*dst = v.Value
		}
		switch {
		case r.From == "" || r.To == "" || r.Since == "" || r.Reason == "":
			bad(item, "a rename needs from, to, since and reason")
			continue
		case r.From == r.To:
			bad(item, "rename from %q to itself", r.From)
			continue
		}
		if _, err := time.Parse("2006-01-02", r.Since); err != nil {
			bad(item, "since %q is not an ISO date (YYYY-MM-DD)", r.Since)
			continue
		}
		out = append(out, r)
	}
	return out, problems
}
