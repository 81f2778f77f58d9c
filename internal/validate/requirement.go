package validate

import (
	"fmt"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/prompt"
	"github.com/embedeval/embedeval-go/internal/result"
)

// RequirementRule is the rule of problems with the requirement a check
// record cites.
const RequirementRule = "requirement"

// minRequirementWords is the fewest words a cited requirement may have, so
// that a quote says what is required rather than naming an API.
const minRequirementWords = 6

// citedRecord is a check record and the check file that returned it.
type citedRecord struct {
	file   string
	detail result.CheckDetail
}

// normalizeQuote returns text as a requirement and the case's prompt.md and
// context/ files are compared: the Markdown emphasis and code marks (*, _
// and `) are deleted, then every run of white space (spaces, tabs, line
// breaks, any Unicode space) becomes one space and the ends are trimmed.
// Nothing else changes: the comparison is case-sensitive and keeps all other
// punctuation.
func normalizeQuote(text string) string {
	text = strings.Map(func(r rune) rune {
		switch r {
		case '*', '_', '`':
			return -1
		}
		return r
	}, text)
	return strings.Join(strings.Fields(text), " ")
}

// requirementCounts returns how many distinct checks the records report and
// how many of them cite a requirement.
func requirementCounts(recs []citedRecord) (cited, total int) {
	seen := map[string]bool{}
	for _, r := range recs {
		if seen[r.detail.CheckName] {
			continue
		}
		seen[r.detail.CheckName] = true
		total++
		if r.detail.Requirement != nil {
			cited++
		}
	}
	return cited, total
}

// requirementProblems holds every record's requirement against the case's
// prompt.md and context/ files: it must have at least minRequirementWords
// words and occur in one of them, both sides normalised by normalizeQuote.
// With required set, a record without a requirement is an error too. A
// problem names the check file that returned the record; the same finding on
// several solutions (the reference, accepted variants) is reported once.
func requirementProblems(c *cases.Case, recs []citedRecord, required bool) []diag.Problem {
	var ps []diag.Problem
	var sources []string
	loaded, readable := false, false
	reported := map[string]bool{}
	report := func(r citedRecord, p diag.Problem) {
		key := r.file + "\x00" + p.Message
		if !reported[key] {
			reported[key] = true
			ps = append(ps, p)
		}
	}
	for _, r := range recs {
		name, req := r.detail.CheckName, r.detail.Requirement
		if req == nil {
			if required {
				report(r, diag.Errorf(r.file, 0, 0, RequirementRule, "check %q: no requirement; every check must quote the text of prompt.md or context/ it enforces (--require-requirements)", name))
			}
			continue
		}
		quote := normalizeQuote(*req)
		if n := len(strings.Fields(quote)); n < minRequirementWords {
			report(r, diag.Errorf(r.file, 0, 0, RequirementRule, "check %q: requirement has %d words, want at least %d: %q", name, n, minRequirementWords, *req))
			continue
		}
		if !loaded {
			loaded = true
			var err error
			if sources, err = requirementSources(c); err != nil {
				ps = append(ps, diag.Errorf(c.Dir, 0, 0, RequirementRule, "cannot read the texts requirements quote: %v", err))
			}
			readable = err == nil
		}
		if !readable {
			continue
		}
		found := false
		for _, s := range sources {
			found = found || strings.Contains(s, quote)
		}
		if !found {
			report(r, diag.Errorf(r.file, 0, 0, RequirementRule, "check %q: requirement is not quoted from prompt.md or context/: %q", name, *req))
		}
	}
	return ps
}

// requirementSources returns the case's prompt.md and the regular files
// under context/ (hidden files skipped, as the prompt skips them), each
// normalised by normalizeQuote.
func requirementSources(c *cases.Case) ([]string, error) {
	data, err := cases.ReadFile(c.PromptPath)
	if err != nil {
		return nil, fmt.Errorf("prompt: %w", err)
	}
	out := []string{normalizeQuote(string(data))}
	files, err := prompt.ContextFiles(c) // the files the prompt shows, read the same way
	if err != nil {
		return nil, fmt.Errorf("context: %w", err)
	}
	for _, f := range files {
		out = append(out, normalizeQuote(f.Text))
	}
	return out, nil
}
