// Package blindrec reads checks/blind.yaml, a case's record of its blind
// solutions: for each answer written from the prompt alone, who wrote it,
// its verdict in the first round (before any check was fixed) and the
// adjudication decision. validate holds the record against the files and
// the catalogue reports its first-round figures (docs/CASE-FORMAT.md,
// "Blind solutions").
package blindrec

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/diag"
)

// File is the record's path, relative to the case directory.
const File = "checks/blind.yaml"

// Rule is the diagnostic rule of problems in the record.
const Rule = "blind"

// Entry is one solution of the record.
type Entry struct {
	// File is accept/blind-<n>.<ext> or reject/blind-<n>.<ext>, relative to
	// the case's checks/ directory.
	File string `yaml:"file"`
	// Author is a short id of who wrote the answer.
	Author string `yaml:"author"`
	// FirstRound is the verdict before any adjudication (FirstRounds).
	FirstRound string `yaml:"first_round"`
	// Decision is the adjudication's outcome (Decisions); "pending" means
	// it is not done yet.
	Decision string `yaml:"decision"`
	Reason   string `yaml:"reason"`
	// Line is the entry's line in the record.
	Line int `yaml:"-"`
}

// Accept reports an entry of a blind accept (a file under checks/accept/).
func (e Entry) Accept() bool { return strings.HasPrefix(e.File, "accept/") }

// FirstRounds are the values of first_round: an accept "passed" or
// "failed"; a reject was "caught" by a check it names, caught only for
// another ("wrong-reason"), "missed", or named no check ("no-must-fail").
func FirstRounds() []string {
	return []string{"passed", "failed", "caught", "missed", "wrong-reason", "no-must-fail"}
}

// Decisions are the values of decision.
func Decisions() []string {
	return []string{"pending", "kept", "check-fixed", "check-added", "moved-to-reject", "moved-to-accept", "prompt-fixed"}
}

// Load reads the record of the case in dir: a mapping with the key
// solutions, a list of {file, author, first_round, decision, reason} (file
// and author required), keyed by file. A missing record is no entries.
func Load(dir string) (map[string]Entry, []diag.Problem) {
	path := filepath.Join(dir, filepath.FromSlash(File))
	data, err := cases.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]Entry{}, nil
	}
	if err != nil {
		return nil, []diag.Problem{diag.Errorf(path, 0, 0, Rule, "cannot read: %v", err)}
	}
	var doc struct {
		Solutions []yaml.Node `yaml:"solutions"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		return nil, []diag.Problem{diag.Errorf(path, 0, 0, Rule, "invalid: %v", err)}
	}
	out := map[string]Entry{}
	var ps []diag.Problem
	for _, n := range doc.Solutions {
		var e Entry
		if err := n.Decode(&e); err != nil {
			ps = append(ps, diag.Errorf(path, n.Line, 0, Rule, "invalid entry: %v", err))
			continue
		}
		e.Line = n.Line
		if p := e.problem(); p != "" {
			ps = append(ps, diag.Errorf(path, n.Line, 0, Rule, "%s", p))
			if strings.HasPrefix(p, "file ") {
				continue
			}
		}
		if _, dup := out[e.File]; dup {
			ps = append(ps, diag.Errorf(path, n.Line, 0, Rule, "%s is listed twice", e.File))
		}
		out[e.File] = e
	}
	return out, ps
}

// problem says what is wrong with an entry, or "".
func (e Entry) problem() string {
	dir, base := filepath.Split(filepath.FromSlash(e.File))
	switch {
	case (dir != "accept"+string(filepath.Separator) && dir != "reject"+string(filepath.Separator)) || !strings.HasPrefix(base, "blind-"):
		return fmt.Sprintf("file %q is not accept/blind-<n>.<ext> or reject/blind-<n>.<ext>", e.File)
	case strings.TrimSpace(e.Author) == "":
		return e.File + ": author missing (a short id of who wrote it)"
	case e.FirstRound != "" && !slices.Contains(FirstRounds(), e.FirstRound):
		return fmt.Sprintf("%s: first_round %q is not one of %s", e.File, e.FirstRound, strings.Join(FirstRounds(), ", "))
	case e.Decision != "" && !slices.Contains(Decisions(), e.Decision):
		return fmt.Sprintf("%s: decision %q is not one of %s", e.File, e.Decision, strings.Join(Decisions(), ", "))
	}
	return ""
}

// FirstRound sums a record's first round: blind accepts and how many
// passed, blind rejects and how many a check they name caught. An answer
// the adjudication later moved counts where its author filed it.
type FirstRound struct {
	Accepts, AcceptsPassed, Rejects, RejectsCaught int
}

// Sum adds up the first_round verdicts of entries (entries without one
// are not counted).
func Sum(entries map[string]Entry) FirstRound {
	var f FirstRound
	for _, e := range entries {
		switch e.FirstRound {
		case "passed":
			f.Accepts++
			f.AcceptsPassed++
		case "failed":
			f.Accepts++
		case "caught":
			f.Rejects++
			f.RejectsCaught++
		case "missed", "wrong-reason", "no-must-fail":
			f.Rejects++
		}
	}
	return f
}
