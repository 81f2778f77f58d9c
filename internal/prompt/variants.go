package prompt

import (
	"regexp"
	"sort"
	"strings"
)

// Variant is a deterministic rewrite of a task prompt used by the sensitivity
// analysis. The zero value is the original prompt.
type Variant string

// The variant strategies of the sensitivity analysis.
const (
	// Original leaves the prompt as it is.
	Original Variant = ""
	// Reorder reverses the order of the requirement bullets.
	Reorder Variant = "reorder"
	// Rephrase swaps imperative verbs (Write→Implement, Create→Build, ...).
	Rephrase Variant = "rephrase"
	// Remove strips the "Output only ..." instruction lines.
	Remove Variant = "remove"
)

// Variants returns the variant strategies in their fixed order.
func Variants() []Variant { return []Variant{Reorder, Rephrase, Remove} }

// String returns the variant's name ("original" for the zero value).
func (v Variant) String() string {
	if v == Original {
		return "original"
	}
	return string(v)
}

// Apply rewrites a task prompt. Unknown variants leave it unchanged.
func (v Variant) Apply(task string) string {
	switch v {
	case Reorder:
		return reorderRequirements(task)
	case Rephrase:
		return rephrase(task)
	case Remove:
		return removeOutputOnly(task)
	}
	return task
}

var (
	headingLine = regexp.MustCompile(`^#{1,6}\s+(.*)$`)
	bulletLine  = regexp.MustCompile(`^(?:[-*+]|\d+[.)])\s+`)
	fenceLine   = regexp.MustCompile("^\\s*(```|~~~)")
)

// reorderRequirements reverses the bullets of every section whose heading
// mentions requirements; a prompt without such a section has its first bullet
// list reversed. A bullet keeps its continuation lines.
func reorderRequirements(task string) string {
	lines := strings.Split(task, "\n")
	inReq, anyReq := false, false
	for _, l := range lines {
		if m := headingLine.FindStringSubmatch(l); m != nil && strings.Contains(strings.ToLower(m[1]), "requirement") {
			anyReq = true
		}
	}
	var out []string
	var items [][]string
	done := false // only the first list when no section is named
	flush := func() {
		for i := len(items) - 1; i >= 0; i-- {
			out = append(out, items[i]...)
		}
		if len(items) > 0 && !anyReq {
			done = true
		}
		items = nil
	}
	inFence := false
	for _, l := range lines {
		if fenceLine.MatchString(l) {
			inFence = !inFence
		}
		if m := headingLine.FindStringSubmatch(l); m != nil && !inFence {
			flush()
			inReq = strings.Contains(strings.ToLower(m[1]), "requirement")
			out = append(out, l)
			continue
		}
		active := !inFence && (inReq || !anyReq && !done)
		switch {
		case active && bulletLine.MatchString(l):
			items = append(items, []string{l})
		case active && len(items) > 0 && l != "" && (l[0] == ' ' || l[0] == '\t'):
			items[len(items)-1] = append(items[len(items)-1], l)
		default:
			flush()
			out = append(out, l)
		}
	}
	flush()
	return strings.Join(out, "\n")
}

// verbSwaps is the fixed table of the rephrase variant: capitalised
// imperative verbs and what replaces them.
func verbSwaps() map[string]string {
	return map[string]string{
		"Write":      "Implement",
		"Implement":  "Write",
		"Create":     "Build",
		"Build":      "Create",
		"Use":        "Employ",
		"Ensure":     "Make sure",
		"Provide":    "Supply",
		"Enable":     "Turn on",
		"Configure":  "Set up",
		"Define":     "Declare",
		"Add":        "Include",
		"Initialize": "Set up",
		"Initialise": "Set up",
		"Handle":     "Deal with",
		"Print":      "Output",
		"Make":       "Ensure",
	}
}

// rephrase swaps the capitalised imperative verbs of the table, in one pass
// (so Write→Implement and Implement→Write do not undo each other), outside
// fenced code and inline code spans.
func rephrase(task string) string {
	swaps := verbSwaps()
	words := make([]string, 0, len(swaps))
	for w := range swaps {
		words = append(words, regexp.QuoteMeta(w))
	}
	// Longest first keeps the alternation deterministic whatever map order.
	sortByLenDesc(words)
	re := regexp.MustCompile(`\b(` + strings.Join(words, "|") + `)\b`)
	lines := strings.Split(task, "\n")
	inFence := false
	for i, l := range lines {
		if fenceLine.MatchString(l) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		parts := strings.Split(l, "`")
		for j := 0; j < len(parts); j += 2 { // even parts are outside code spans
			parts[j] = re.ReplaceAllStringFunc(parts[j], func(w string) string { return swaps[w] })
		}
		lines[i] = strings.Join(parts, "`")
	}
	return strings.Join(lines, "\n")
}

func sortByLenDesc(ws []string) {
	sort.Slice(ws, func(i, j int) bool {
		if len(ws[i]) != len(ws[j]) {
			return len(ws[i]) > len(ws[j])
		}
		return ws[i] < ws[j]
	})
}

var outputOnlyLine = regexp.MustCompile(`(?i)^\s*(?:[-*+]\s+)?(?:\*\*|__)?output\s+only\b`)

// removeOutputOnly strips the lines that start with "Output only" (in any
// case, as a bullet or in bold too), then a heading left with nothing under
// it, and collapses the blank lines left behind.
func removeOutputOnly(task string) string {
	var kept []string
	for _, l := range strings.Split(task, "\n") {
		if !outputOnlyLine.MatchString(l) {
			kept = append(kept, l)
		}
	}
	// Drop headings whose section is now empty.
	var out []string
	for i, l := range kept {
		if headingLine.MatchString(l) {
			empty := true
			for _, next := range kept[i+1:] {
				if headingLine.MatchString(next) {
					break
				}
				if strings.TrimSpace(next) != "" {
					empty = false
					break
				}
			}
			if empty {
				continue
			}
		}
		out = append(out, l)
	}
	// Collapse runs of blank lines and trailing blank lines.
	var res []string
	for _, l := range out {
		if strings.TrimSpace(l) == "" && (len(res) == 0 || strings.TrimSpace(res[len(res)-1]) == "") {
			continue
		}
		res = append(res, l)
	}
	for len(res) > 0 && strings.TrimSpace(res[len(res)-1]) == "" {
		res = res[:len(res)-1]
	}
	s := strings.Join(res, "\n")
	if strings.HasSuffix(task, "\n") {
		s += "\n"
	}
	return s
}
