package cases

import (
	"bytes"
	"errors"
	"io/fs"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/embedeval/embedeval-go/internal/diag"
)

// MigrationsFile is the per-case check-name log (renames and retirements),
// relative to the case.
const MigrationsFile = "checks/check_name_migrations.yaml"

// Rename is one entry of checks/check_name_migrations.yaml: check_name from
// became to on since, or (Retired, To empty) stopped being reported on since:
// a check removed because no text of the case states what it enforced.
type Rename struct {
	From    string `json:"from"`
	To      string `json:"to,omitempty"`
	Retired bool   `json:"retired,omitempty"`
	Since   string `json:"since"`
	Reason  string `json:"reason"`
	Line    int    `json:"line"`
}

const migrationsRule = "migrations"

// LoadMigrations reads a check_name_migrations.yaml file: a mapping with the
// keys renames, a list of {from, to, since, reason}, and retired, a list of
// {name, since, reason} (either may be left out, not both). A missing file is
// no entries. Retirements come back as Renames with Retired set and From the
// retired name.
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
	var list, retired *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "renames":
			list = v
		case "retired":
			retired = v
		default:
			bad(k, "unknown key %q (the file holds renames and retired)", k.Value)
		}
	}
	if list == nil && retired == nil {
		bad(root, "missing renames list")
		return nil, problems
	}
	var out []Rename
	if list != nil {
		out = append(out, decodeEntries(list, false, bad)...)
	}
	if retired != nil {
		out = append(out, decodeEntries(retired, true, bad)...)
	}
	return out, problems
}

// decodeEntries decodes the renames list, or (retired) the retired list.
func decodeEntries(list *yaml.Node, retired bool, bad func(n *yaml.Node, format string, args ...any)) []Rename {
	what, keys := "renames", "from, to, since, reason"
	if retired {
		what, keys = "retired", "name, since, reason"
	}
	if list.Kind != yaml.SequenceNode {
		bad(list, "%s must be a list of {%s}", what, keys)
		return nil
	}
	var out []Rename
	for _, item := range list.Content {
		if item.Kind != yaml.MappingNode {
			bad(item, "an entry of %s must be a mapping with %s", what, keys)
			continue
		}
		r := Rename{Line: item.Line, Retired: retired}
		fields := map[string]*string{"from": &r.From, "to": &r.To, "since": &r.Since, "reason": &r.Reason}
		if retired {
			fields = map[string]*string{"name": &r.From, "since": &r.Since, "reason": &r.Reason}
		}
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i], item.Content[i+1]
			dst, ok := fields[k.Value]
			if !ok {
				bad(k, "unknown key %q in %s (want %s)", k.Value, what, keys)
				continue
			}
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				bad(v, "%s must be a non-empty string", k.Value)
				continue
			}
			*dst = v.Value
		}
		switch {
		case retired && (r.From == "" || r.Since == "" || r.Reason == ""):
			bad(item, "a retirement needs name, since and reason")
			continue
		case !retired && (r.From == "" || r.To == "" || r.Since == "" || r.Reason == ""):
			bad(item, "a rename needs from, to, since and reason")
			continue
		case !retired && r.From == r.To:
			bad(item, "rename from %q to itself", r.From)
			continue
		}
		if _, err := time.Parse("2006-01-02", r.Since); err != nil {
			bad(item, "since %q is not an ISO date (YYYY-MM-DD)", r.Since)
			continue
		}
		out = append(out, r)
	}
	return out
}
