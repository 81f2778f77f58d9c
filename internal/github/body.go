package github

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/embedeval/embedeval-go/internal/mdescape"
	"github.com/embedeval/embedeval-go/internal/score"
)

// ResultsMarker is the hidden HTML comment every results PR body starts
// with; it identifies bodies written by this package.
const ResultsMarker = "<!-- embedeval:results -->"

// MaxBodyLength is the longest body GitHub accepts for a pull request or an
// issue comment, in characters.
const MaxBodyLength = 65536

// maxListedCases is how many case ids a row of the new-failures table names.
const maxListedCases = 5

// maxWarnings is how many scorer warnings the body quotes.
const maxWarnings = 10

// maxWarningRunes bounds one quoted warning (a warning can list case ids
// without end); longer ones are cut with "…".
const maxWarningRunes = 400

// foldRows is the most rows a long table (per model and category, new
// failures) shows open; a longer one is folded into a <details> block
// whose <summary> counts its rows. The per-model table is never folded.
const foldRows = 10

// BodyOptions is what the PR body says about the run besides the scores.
// Every field is optional.
type BodyOptions struct {
	// RunID names the run (results/runs/<run-id>/).
	RunID string
	// RunURL links the workflow run that produced the results.
	RunURL string
	// HeatmapURL is the address of the model × category heatmap picture in
	// the results branch (see HeatmapURL).
	HeatmapURL string
	// MaxLength caps the body; zero means MaxBodyLength. Tables that do not
	// fit are cut with a note saying how many rows were left out.
	MaxLength int
}

// Verdict is how a pass@1 change compares with the noise of its estimate.
type Verdict int

// Verdicts, in the order the body explains them.
const (
	// NoBaseline: the model or category has no earlier numbers.
	NoBaseline Verdict = iota
	// WithinNoise: the two Wilson intervals overlap.
	WithinNoise
	// Improved: the after interval lies wholly above the before interval.
	Improved
	// Regressed: the after interval lies wholly below the before interval.
	Regressed
	// Removed: there are earlier numbers but none now.
	Removed
)

// String is the verdict as the body shows it.
func (v Verdict) String() string {
	switch v {
	case WithinNoise:
		return "within noise"
	case Improved:
		return "▲ beyond noise"
	case Regressed:
		return "▼ beyond noise"
	case Removed:
		return "no longer scored"
	default:
		return "new"
	}
}

// Compare classifies a change of pass@1 from the interval before to the
// interval after. The rule: a change is beyond noise when the two Wilson 95%
// intervals do not overlap — after.lo > before.hi is an improvement,
// after.hi < before.lo a regression; touching intervals count as
// overlapping. Non-overlap of two 95% intervals is a conservative test (it
// corresponds to a two-sided level well below 5%), so a change shown within
// noise may still be real, but one shown beyond noise rarely is not. A nil
// interval means no numbers on that side.
func Compare(before, after *[2]float64) Verdict {
	switch {
	case before == nil:
		return NoBaseline
	case after == nil:
		return Removed
	case after[0] > before[1]:
		return Improved
	case after[1] < before[0]:
		return Regressed
	default:
		return WithinNoise
	}
}

// RenderPRBody renders the Markdown body of the results pull request for a
// run. before is the leaderboard's state before the run (nil when there is
// none), after the scores it produced. The body has, in order: the marker
// and a headline; pass@1 per model; pass@1 per model and category (rows
// whose numbers did not change are counted, not shown); the checks that
// newly fail, per model and category; the heatmap; the scorer's warnings.
// The per-model table is always open; the other two tables, when longer
// than foldRows rows, are folded into a <details> block whose summary
// counts the rows and their verdicts, so the body reads the same at 2 and
// at 10 models. The same inputs give the same bytes. Models present only
// in before are listed as no longer scored.
func RenderPRBody(before, after *score.Report, opts BodyOptions) string {
	if after == nil {
		after = &score.Report{}
	}
	limit := opts.MaxLength
	if limit <= 0 {
		limit = MaxBodyLength
	}
	beforeModels := modelsByName(before)
	w := &bodyWriter{}

	w.line(ResultsMarker)
	title := "## Benchmark results"
	if opts.RunID != "" {
		title += " for run " + mdescape.Code(opts.RunID)
	}
	w.line(title)
	w.line()
	var facts []string
	if u := mdescape.URL(opts.RunURL); u != "" {
		facts = append(facts, "[workflow run]("+u+")")
	}
	facts = append(facts, plural(len(after.Models), "model"), plural(after.Overall.TotalCases, "scored case"))
	if after.NSamplesPerCase > 0 {
		facts = append(facts, plural(after.NSamplesPerCase, "sample")+" per case")
	}
	w.line(strings.Join(facts, " · "))
	w.line()
	w.line("pass@1 with its Wilson 95% interval and the number of judged samples. A change is **beyond noise** when the intervals before and after do not overlap (a conservative rule: overlapping intervals can still hide a real change). Infrastructure errors are kept out of every denominator.")
	w.line()

	sections := []*section{
		modelSection(before, after, beforeModels),
		categorySection(after, beforeModels),
		failureSection(after, beforeModels),
	}
	tail := heatmapAndWarnings(after, opts)
	head := w.String()
	return fit(head, sections, tail, limit)
}

// modelSection is the per-model table.
func modelSection(before, after *score.Report, beforeModels map[string]*score.ModelScore) *section {
	w := &bodyWriter{}
	w.line("### pass@1 by model")
	w.line()
	table := tableHead("Model", "Before", "After", "Change", "Verdict", "Infra errors")
	var rows []string
	seen := map[string]bool{}
	for i := range after.Models {
		m := &after.Models[i]
		seen[m.Model] = true
		a := estimate{m.PassAt1, m.PassAt1CI, m.JudgedSamples}
		var b *estimate
		if p := beforeModels[m.Model]; p != nil {
			b = &estimate{p.PassAt1, p.PassAt1CI, p.JudgedSamples}
		}
		rows = append(rows, tableRow(mdescape.Text(m.Model), b.String(), a.String(), delta(b, &a), verdict(b, &a).String(), strconv.Itoa(m.Errors.Infrastructure)))
	}
	if before != nil {
		for i := range before.Models {
			p := &before.Models[i]
			if seen[p.Model] {
				continue
			}
			b := &estimate{p.PassAt1, p.PassAt1CI, p.JudgedSamples}
			rows = append(rows, tableRow(mdescape.Text(p.Model), b.String(), "—", "", Removed.String(), ""))
		}
	}
	return &section{head: w.String(), table: table, rows: rows, foot: "\n"}
}

// categorySection is the per-model, per-category table.
func categorySection(after *score.Report, beforeModels map[string]*score.ModelScore) *section {
	w := &bodyWriter{}
	w.line("### pass@1 by model and category")
	w.line()
	type row struct {
		model, category string
		before, after   *estimate
	}
	var rows []row
	unchanged := 0
	for i := range after.Models {
		m := &after.Models[i]
		prev := map[string]*score.CategoryScore{}
		if p := beforeModels[m.Model]; p != nil {
			for j := range p.CategoryScores {
				prev[p.CategoryScores[j].Category] = &p.CategoryScores[j]
			}
		}
		names := map[string]bool{}
		for j := range m.CategoryScores {
			c := &m.CategoryScores[j]
			names[c.Category] = true
			a := &estimate{c.PassAt1, c.PassAt1CI, c.TotalSamples}
			var b *estimate
			if pc := prev[c.Category]; pc != nil {
				b = &estimate{pc.PassAt1, pc.PassAt1CI, pc.TotalSamples}
				if pc.Breakdown == c.Breakdown {
					unchanged++
					continue
				}
			}
			rows = append(rows, row{m.Model, c.Category, b, a})
		}
		for name, pc := range prev {
			if !names[name] {
				rows = append(rows, row{m.Model, name, &estimate{pc.PassAt1, pc.PassAt1CI, pc.TotalSamples}, nil})
			}
		}
	}
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(strings.Compare(a.model, b.model), strings.Compare(a.category, b.category))
	})
	if len(rows) == 0 {
		if unchanged > 0 {
			w.line("No category changed (" + plural(unchanged, "unchanged row") + ").")
		} else {
			w.line("No category scores.")
		}
		w.line()
		return &section{head: w.String()}
	}
	lines := make([]string, 0, len(rows))
	verdicts := map[Verdict]int{}
	for _, r := range rows {
		v := verdict(r.before, r.after)
		verdicts[v]++
		lines = append(lines, tableRow(mdescape.Text(r.model), mdescape.Text(r.category), r.before.String(), r.after.String(), delta(r.before, r.after), v.String()))
	}
	var counts []string
	for _, v := range []Verdict{Improved, Regressed, WithinNoise, NoBaseline, Removed} {
		if n := verdicts[v]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, v))
		}
	}
	summary := plural(len(rows), "row") + ": " + strings.Join(counts, ", ")
	if len(rows) > foldRows {
		// The table folds: its rows beyond noise stay in the open, in a
		// short table of their own — regressions, largest drop first, then
		// improvements, largest gain first; ties in the table's order.
		var picked []int
		for i, r := range rows {
			if v := verdict(r.before, r.after); v == Regressed || v == Improved {
				picked = append(picked, i)
			}
		}
		change := func(i int) float64 { return rows[i].after.p - rows[i].before.p }
		slices.SortStableFunc(picked, func(i, j int) int {
			ci, cj := change(i), change(j)
			if ci >= 0 && cj >= 0 {
				return cmp.Compare(cj, ci)
			}
			return cmp.Compare(ci, cj)
		})
		notable := make([]string, len(picked))
		for k, i := range picked {
			notable[k] = lines[i]
		}
		if n := len(notable); n > 0 {
			intro := "Changes beyond noise, regressions first:"
			if n > foldRows {
				intro = fmt.Sprintf("Changes beyond noise, regressions first (%d of %d; the table below has them all):", foldRows, n)
			}
			w.line(intro)
			w.line()
			w.b.WriteString(tableHead("Model", "Category", "Before", "After", "Change", "Verdict"))
			for _, l := range notable[:min(n, foldRows)] {
				w.line(l)
			}
			w.line()
		}
	}
	foot := &bodyWriter{}
	foot.line()
	if unchanged > 0 {
		foot.line(plural(unchanged, "unchanged row") + " not shown.")
		foot.line()
	}
	return &section{head: w.String(), table: tableHead("Model", "Category", "Before", "After", "Change", "Verdict"), rows: lines,
		summary: summary, foot: foot.String()}
}

// failureSection lists, per check, model and category, the cases that fail
// now and did not before. Models without a baseline are left out: every
// failure of a first run would be new.
func failureSection(after *score.Report, beforeModels map[string]*score.ModelScore) *section {
	w := &bodyWriter{}
	w.line("### New failures by check")
	w.line()
	type key struct{ check, category string }
	type row struct {
		key
		model          string
		newIDs         []string
		before, afterR *float64
	}
	var rows []row
	var noBaseline []string
	for i := range after.Models {
		m := &after.Models[i]
		p := beforeModels[m.Model]
		if p == nil {
			noBaseline = append(noBaseline, m.Model)
			continue
		}
		prev := map[key]*score.PerCheckStat{}
		for j := range p.PerCheckStats {
			s := &p.PerCheckStats[j]
			prev[key{s.CheckName, s.Category}] = s
		}
		for j := range m.PerCheckStats {
			s := &m.PerCheckStats[j]
			if s.FailCount == 0 {
				continue
			}
			k := key{s.CheckName, s.Category}
			var was map[string]bool
			var wasRate *float64
			if ps := prev[k]; ps != nil {
				was = make(map[string]bool, len(ps.FailingTCIDs))
				for _, id := range ps.FailingTCIDs {
					was[id] = true
				}
				wasRate = &ps.PassRate
			}
			var fresh []string
			for _, id := range s.FailingTCIDs {
				if !was[id] {
					fresh = append(fresh, id)
				}
			}
			if len(fresh) == 0 {
				continue
			}
			slices.Sort(fresh)
			rate := s.PassRate
			rows = append(rows, row{k, m.Model, fresh, wasRate, &rate})
		}
	}
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(strings.Compare(a.check, b.check), strings.Compare(a.category, b.category), strings.Compare(a.model, b.model))
	})
	var lines []string
	var table, summary string
	if len(rows) == 0 {
		w.line("No check fails on a case where it passed before.")
	} else {
		w.line("Checks failing on cases where they did not fail before (pass rate over all runs of the check in that category).")
		w.line()
		table = tableHead("Check", "Category", "Model", "Newly failing cases", "Pass rate")
		checks, models, cases := map[string]bool{}, map[string]bool{}, map[string]bool{}
		for _, r := range rows {
			checks[r.check], models[r.model] = true, true
			for _, id := range r.newIDs {
				cases[id] = true
			}
		}
		summary = fmt.Sprintf("%s: %s, %s, %s", plural(len(rows), "row"), plural(len(checks), "check"),
			plural(len(models), "model"), plural(len(cases), "distinct case"))
		for _, r := range rows {
			ids := r.newIDs
			listed := make([]string, 0, min(len(ids), maxListedCases))
			for _, id := range ids[:min(len(ids), maxListedCases)] {
				listed = append(listed, mdescape.Code(id))
			}
			cases := strings.Join(listed, ", ")
			if more := len(ids) - len(listed); more > 0 {
				cases += fmt.Sprintf(" and %d more", more)
			}
			rate := "new check → " + pct(*r.afterR)
			if r.before != nil {
				rate = pct(*r.before) + " → " + pct(*r.afterR)
			}
			lines = append(lines, tableRow(mdescape.Code(r.check), mdescape.Text(r.category), mdescape.Text(r.model), cases, rate))
		}
	}
	foot := &bodyWriter{}
	foot.line()
	if len(noBaseline) > 0 {
		foot.line("No baseline to compare failures with for: " + mdescape.Text(strings.Join(noBaseline, ", ")) + ".")
		foot.line()
	}
	return &section{head: w.String(), table: table, rows: lines, summary: summary, foot: foot.String()}
}

// heatmapAndWarnings is the part of the body that is always kept.
func heatmapAndWarnings(after *score.Report, opts BodyOptions) string {
	w := &bodyWriter{}
	if u := mdescape.URL(opts.HeatmapURL); u != "" {
		w.line("### Heatmap")
		w.line()
		w.line("![pass@1 by model and category](" + u + ")")
		w.line()
	}
	if n := len(after.Warnings); n > 0 {
		w.line("### Warnings")
		w.line()
		for _, s := range after.Warnings[:min(n, maxWarnings)] {
			w.line("- " + mdescape.Text(shorten(s, maxWarningRunes)))
		}
		if n > maxWarnings {
			w.line(fmt.Sprintf("- … and %d more (see summary.json)", n-maxWarnings))
		}
		w.line()
	}
	return w.String()
}

// section is one part of the body: text before a table (its heading), the
// table's header lines, its rows (which fit may cut) and text after them.
type section struct {
	head  string
	table string
	rows  []string
	// summary, when set, lets the table fold: with more than foldRows rows
	// (counting those fit cut) it goes into a <details> block with this
	// plain text as its <summary>.
	summary string
	foot    string
	// cut counts rows left out by fit.
	cut int
}

// folded reports whether the table goes into a <details> block; it does
// not change as fit cuts rows.
func (s *section) folded() bool { return s.summary != "" && len(s.rows)+s.cut > foldRows }

// String renders the section. A folded table is written as GitHub needs it
// to render Markdown inside <details>: "<details>" and "<summary>" on lines
// of their own, a blank line before the table and another before
// "</details>".
func (s *section) String() string {
	var b strings.Builder
	b.WriteString(s.head)
	fold := s.folded()
	if fold {
		b.WriteString("<details>\n<summary>" + mdescape.HTML(s.summary) + "</summary>\n\n")
	}
	b.WriteString(s.table)
	for _, r := range s.rows {
		b.WriteString(r)
		b.WriteByte('\n')
	}
	if s.cut > 0 {
		fmt.Fprintf(&b, "\n_%s left out to fit GitHub's size limit; the files of this branch have them all._\n", plural(s.cut, "row"))
	}
	if fold {
		b.WriteString("\n</details>\n")
	}
	b.WriteString(s.foot)
	return b.String()
}

// fit joins head, sections and tail, cutting rows from the end of the
// section with the most rows until the body fits in limit characters; as a
// last resort the body is truncated.
func fit(head string, sections []*section, tail string, limit int) string {
	join := func() string {
		var b strings.Builder
		b.WriteString(head)
		for _, s := range sections {
			b.WriteString(s.String())
		}
		b.WriteString(tail)
		return b.String()
	}
	body := join()
	for utf8.RuneCountInString(body) > limit {
		longest := sections[0]
		for _, s := range sections[1:] {
			if len(s.rows) > len(longest.rows) {
				longest = s
			}
		}
		if len(longest.rows) == 0 {
			r := []rune(body)
			return string(r[:limit-1]) + "\n"
		}
		n := max(1, len(longest.rows)/4)
		longest.rows = longest.rows[:len(longest.rows)-n]
		longest.cut += n
		body = join()
	}
	return body
}

// estimate is one pass@1 with its interval and sample count.
type estimate struct {
	p  float64
	ci [2]float64
	n  int
}

// String formats an estimate as "41.2% [35.0, 47.6] n=200"; nil is "—".
func (e *estimate) String() string {
	if e == nil {
		return "—"
	}
	return fmt.Sprintf("%s [%s, %s] n=%d", pct(e.p), num(e.ci[0]*100), num(e.ci[1]*100), e.n)
}

func verdict(b, a *estimate) Verdict {
	var bi, ai *[2]float64
	if b != nil {
		bi = &b.ci
	}
	if a != nil {
		ai = &a.ci
	}
	return Compare(bi, ai)
}

// delta is the change in percentage points, or empty without both sides.
func delta(b, a *estimate) string {
	if b == nil || a == nil {
		return ""
	}
	d := (a.p - b.p) * 100
	s := num(d)
	if s == "-0.0" || s == "0.0" {
		return "±0.0 pp"
	}
	if d > 0 {
		s = "+" + s
	}
	return s + " pp"
}

func modelsByName(r *score.Report) map[string]*score.ModelScore {
	out := map[string]*score.ModelScore{}
	if r == nil {
		return out
	}
	for i := range r.Models {
		out[r.Models[i].Model] = &r.Models[i]
	}
	return out
}

func pct(v float64) string { return num(v*100) + "%" }

func num(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// bodyWriter accumulates Markdown lines.
type bodyWriter struct{ b strings.Builder }

func (w *bodyWriter) line(s ...string) {
	w.b.WriteString(strings.Join(s, ""))
	w.b.WriteByte('\n')
}

// tableRow formats one Markdown table row (without a newline).
func tableRow(cells ...string) string { return "| " + strings.Join(cells, " | ") + " |" }

// tableHead is a Markdown table's header row and separator, each with its
// newline; the names are constants of this file, written as they are.
func tableHead(names ...string) string {
	return tableRow(names...) + "\n" + strings.TrimSuffix(strings.Repeat("| --- ", len(names)), " ") + " |\n"
}

// shorten cuts s to at most n runes, ending it with "…" when cut.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func (w *bodyWriter) String() string { return w.b.String() }

// HeatmapURL is the address of the heatmap picture committed on a results
// branch, for the PR body: <server>/<owner>/<repo>/blob/<branch>/<dir>/heatmap.svg?raw=true
// (server is GITHUB_SERVER_URL, e.g. https://github.com; dir the results
// directory's path in the repository). The blob address with raw=true works
// for private repositories too, where raw.githubusercontent.com would not.
func HeatmapURL(server, owner, repo, branch, dir, file string) string {
	return strings.TrimSuffix(server, "/") + "/" + owner + "/" + repo + "/blob/" + branch + "/" +
		strings.Trim(path.Join(dir, file), "/") + "?raw=true"
}
