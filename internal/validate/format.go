package validate

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/embedeval/embedeval-go/internal/result"
)

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report for a person: one line per case, its problems
// indented under it, corpus problems, then a summary line.
func WriteText(w io.Writer, r *Report, verbose bool) error {
	var b strings.Builder
	for _, c := range r.Cases {
		mark := "ok  "
		if !c.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(&b, "%s  %-28s %s", mark, c.ID, layerLine(c.Layers))
		if c.Coverage != nil {
			fmt.Fprintf(&b, "  L4 coverage %d/%d", len(c.Coverage.Defended), len(c.Coverage.Checks))
		}
		if n := len(c.Variants); n > 0 {
			passed := 0
			for _, v := range c.Variants {
				if v.Passed {
					passed++
				}
			}
			fmt.Fprintf(&b, "  variants %d/%d", passed, n)
		}
		b.WriteString("\n")
		for _, p := range c.Problems {
			fmt.Fprintf(&b, "      %s\n", p)
		}
		if verbose {
			for _, l := range c.Layers {
				if l.Status == result.StatusSkipped && l.Reason != "" {
					fmt.Fprintf(&b, "      L%d skipped: %s\n", l.Layer, l.Reason)
				}
			}
		}
		if verbose && c.Coverage != nil && len(c.Coverage.Undefended) > 0 {
			fmt.Fprintf(&b, "      not defended by any must_fail negative: %s\n", strings.Join(c.Coverage.Undefended, ", "))
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "%s\n", p)
	}
	s := r.Summary
	fmt.Fprintf(&b, "%d cases: %d ok, %d failed; %d errors, %d warnings (layers %s)\n", s.Cases, s.OK, s.Failed, s.Errors, s.Warnings, r.Layers)
	_, err := io.WriteString(w, b.String())
	return err
}

func layerLine(ls []LayerSummary) string {
	parts := make([]string, 0, len(ls))
	for _, l := range ls {
		word := string(l.Status)
		if l.Status == result.StatusSkipped {
			word = "skip"
		}
		parts = append(parts, fmt.Sprintf("L%d:%s", l.Layer, word))
	}
	return strings.Join(parts, " ")
}
