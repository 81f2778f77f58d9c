package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/embedeval/embedeval-go/internal/mdescape"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/score"
)

// LeaderboardSchemaVersion is the version of the LEADERBOARD.md parse
// contract (interop contract §2.5).
const LeaderboardSchemaVersion = 1

// SchemaComment is the exact line that follows the H1 of LEADERBOARD.md; the
// spelling is the one the upstream contract documents for
// LEADERBOARD_SCHEMA_VERSION.
func SchemaComment(version int) string {
	return fmt.Sprintf("<!-- SCHEMA_VERSION: %d -->", version)
}

// Category Results status values (the "short enum" of the Status column).
const (
	StatusPass    = "PASS"    // pass rate >= 80%
	StatusPartial = "PARTIAL" // 50% <= pass rate < 80%
	StatusFail    = "FAIL"    // pass rate < 50%
)

// CategoryStatus returns the Status cell for a pass rate in [0, 1].
func CategoryStatus(passRate float64) string {
	switch {
	case passRate >= 0.8:
		return StatusPass
	case passRate >= 0.5:
		return StatusPartial
	}
	return StatusFail
}

// CategoryResultsHeading and CategoryTableHeader are the fixed parts of the
// parse contract.
const (
	CategoryResultsHeading = "## Category Results"
	CategoryTableHeader    = "| Category | Pass Rate | Passed | Total | Status |"
)

func pct(v float64) string { return strconv.FormatFloat(v*100, 'f', 1, 64) + "%" }

func ci(v [2]float64) string { return "[" + pct(v[0]) + ", " + pct(v[1]) + "]" }

type mdWriter struct{ b strings.Builder }

func (w *mdWriter) line(parts ...string) {
	for _, p := range parts {
		w.b.WriteString(p)
	}
	w.b.WriteByte('\n')
}

func (w *mdWriter) row(cells ...string) { w.line("| ", strings.Join(cells, " | "), " |") }

func (w *mdWriter) header(cells ...string) {
	w.row(cells...)
	seps := make([]string, len(cells))
	for i := range seps {
		seps[i] = "---"
	}
	w.row(seps...)
}

func runLine(w *mdWriter, opts Options) {
	var parts []string
	if opts.RunID != "" {
		parts = append(parts, "Run: "+mdescape.Code(opts.RunID))
	}
	if opts.Generated != "" {
		parts = append(parts, "Generated: "+mdescape.Text(opts.Generated))
	}
	if len(parts) > 0 {
		w.line(strings.Join(parts, " · "))
		w.line()
	}
}

// rankedModels orders models by pass@1 (comparable pass@1 when set)
// descending, then by name.
func rankedModels(ms []score.ModelScore) []score.ModelScore {
	out := slices.Clone(ms)
	key := func(m score.ModelScore) float64 {
		if m.PassAt1Comparable != nil {
			return *m.PassAt1Comparable
		}
		return m.PassAt1
	}
	slices.SortStableFunc(out, func(a, b score.ModelScore) int {
		return cmp.Or(cmp.Compare(key(b), key(a)), strings.Compare(a.Model, b.Model))
	})
	return out
}

// LeaderboardMarkdown renders results/LEADERBOARD.md. The parse contract v1
// covers only the H1, the schema comment on the line after it, and the
// "## Category Results" section; everything else is for people.
func LeaderboardMarkdown(rep *score.Report, opts Options) []byte {
	w := &mdWriter{}
	w.line("# EmbedEval Leaderboard")
	w.line(SchemaComment(LeaderboardSchemaVersion))
	w.line()
	runLine(w, opts)
	if len(rep.Warnings) > 0 {
		w.line("## Warnings")
		w.line()
		for _, x := range rep.Warnings {
			w.line("- ", mdescape.Text(x))
		}
		w.line()
	}
	ranked := rankedModels(rep.Models)
	comparable := rep.Overall.CaseSetWarning != nil

	w.line("## Model Comparison")
	w.line()
	w.line("pass@1 is the mean over cases of the share of judged samples that passed, with its Wilson 95% interval. ",
		"Sanity-tier cases and results with status error are left out of every score; errors are counted in the Errors section.")
	w.line()
	cols := []string{"Rank", "Model", "pass@1", "95% CI", "pass@3", "pass@5", "Cases", "Samples", "Errors"}
	if comparable {
		cols = slices.Insert(cols, 4, "pass@1 (common cases)")
	}
	w.header(cols...)
	for i, m := range ranked {
		cells := []string{strconv.Itoa(i + 1), mdescape.Text(m.Model), pct(m.PassAt1), ci(m.PassAt1CI), pct(m.PassAt3), pct(m.PassAt5),
			strconv.Itoa(m.TotalCases), strconv.Itoa(m.JudgedSamples), strconv.Itoa(m.Errors.Results)}
		if comparable {
			c := "-"
			if m.PassAt1Comparable != nil {
				c = fmt.Sprintf("%s (%d)", pct(*m.PassAt1Comparable), *m.ComparableCases)
			}
			cells = slices.Insert(cells, 4, c)
		}
		w.row(cells...)
	}
	w.line()

	w.line("## Tier Results")
	w.line()
	w.line("The sanity tier is reported here only; it is not scored into any other number.")
	w.line()
	w.header("Model", "Tier", "pass@1", "95% CI", "Passed", "Total", "Scored")
	for _, m := range ranked {
		for _, t := range m.TierScores {
			scored := "yes"
			if !t.Scored {
				scored = "no"
			}
			w.row(mdescape.Text(m.Model), mdescape.Text(t.Tier), pct(t.PassAt1), ci(t.PassAt1CI), strconv.Itoa(t.PassedSamples), strconv.Itoa(t.TotalSamples), scored)
		}
	}
	w.line()

	w.line("## Reasoning Results")
	w.line()
	w.header("Model", "Reasoning Type", "pass@1", "95% CI", "Passed", "Total")
	for _, m := range ranked {
		for _, r := range m.ReasoningScores {
			w.row(mdescape.Text(m.Model), mdescape.Text(r.ReasoningType), pct(r.PassAt1), ci(r.PassAt1CI), strconv.Itoa(r.PassedSamples), strconv.Itoa(r.TotalSamples))
		}
	}
	w.line()

	w.line("## Difficulty Results")
	w.line()
	w.header("Model", "Difficulty", "pass@1", "95% CI", "Passed", "Total")
	for _, m := range ranked {
		for _, d := range m.DifficultyScores {
			w.row(mdescape.Text(m.Model), mdescape.Text(d.Difficulty), pct(d.PassAt1), ci(d.PassAt1CI), strconv.Itoa(d.PassedSamples), strconv.Itoa(d.TotalSamples))
		}
	}
	w.line()

	if len(opts.Charts) > 0 {
		w.line("## Charts")
		w.line()
		for _, c := range opts.Charts {
			if strings.HasSuffix(c, ".svg") {
				name := strings.TrimSuffix(c, ".svg")
				w.line("![", mdescape.Text(name), "](", mdescape.URL(c), ") ([PNG](", mdescape.URL(name+".png"), "))")
				w.line()
			}
		}
	}
	w.line(CategoryResultsHeading)
	w.line()
	w.line("Pass Rate is pass@1 of the category; Passed and Total count judged samples. ",
		"Status: PASS at 80% or more, PARTIAL at 50% or more, FAIL below.")
	w.line()
	for _, m := range ranked {
		w.line("### ", mdescape.Text(m.Model))
		w.line()
		w.line(CategoryTableHeader)
		w.line("|---|---|---|---|---|")
		for _, c := range m.CategoryScores {
			w.row(mdescape.Text(c.Category), pct(c.PassAt1), strconv.Itoa(c.PassedSamples), strconv.Itoa(c.TotalSamples), CategoryStatus(c.PassAt1))
		}
		w.line()
	}

	w.line("## Layer Pass Rates")
	w.line()
	w.line("A layer's rate counts only results where it ran (passed or failed); skipped and errored layers are shown apart and never count as a pass. ",
		"L4 (mutation) checks the benchmark's own checks and does not affect pass@1.")
	w.line()
	layerCols := []string{"Model"}
	for n := result.LayerStatic; n <= result.LayerMutation; n++ {
		layerCols = append(layerCols, fmt.Sprintf("L%d %s", n, result.LayerShortName(n)))
	}
	w.header(layerCols...)
	for _, m := range ranked {
		cells := []string{mdescape.Text(m.Model)}
		for n := result.LayerStatic; n <= result.LayerMutation; n++ {
			cells = append(cells, layerCell(m.LayerStats, n))
		}
		w.row(cells...)
	}
	w.line()

	w.line("## Failure Distribution")
	w.line()
	w.line("Where failed results first failed, as a count and a share of the model's failures.")
	w.line()
	failCols := []string{"Model"}
	for n := result.LayerStatic; n < result.LayerMutation; n++ {
		failCols = append(failCols, fmt.Sprintf("L%d %s", n, result.LayerShortName(n)))
	}
	failCols = append(failCols, "Failed")
	w.header(failCols...)
	for _, m := range ranked {
		total := 0
		byLayer := map[int]int{}
		for _, f := range m.FailureDistribution {
			total += f.Failures
			byLayer[f.Layer] = f.Failures
		}
		cells := []string{mdescape.Text(m.Model)}
		for n := result.LayerStatic; n < result.LayerMutation; n++ {
			c := strconv.Itoa(byLayer[n])
			if total > 0 {
				c += " (" + pct(float64(byLayer[n])/float64(total)) + ")"
			}
			cells = append(cells, c)
		}
		w.row(append(cells, strconv.Itoa(total))...)
	}
	w.line()

	w.line("## Stability")
	w.line()
	w.line("Cases by the outcome of their repeated samples: always passed, flaky (some passed), never passed; single-sample cases apart.")
	w.line()
	w.header("Model", "Always", "Flaky", "Never", "Single Sample")
	for _, m := range ranked {
		s := m.Stability
		w.row(mdescape.Text(m.Model), strconv.Itoa(s.Always), strconv.Itoa(s.Flaky), strconv.Itoa(s.Never), strconv.Itoa(s.Single))
	}
	w.line()

	w.line("## Errors")
	w.line()
	w.line("Results with status error (infrastructure or a broken case) are never model failures and are excluded from every denominator.")
	w.line()
	w.header("Model", "Errors", "Infrastructure", "Case", "Unjudged Cases")
	for _, m := range ranked {
		e := m.Errors
		w.row(mdescape.Text(m.Model), strconv.Itoa(e.Results), strconv.Itoa(e.Infrastructure), strconv.Itoa(e.Case), strconv.Itoa(e.UnjudgedCases))
	}
	w.line()
	c := rep.Counts
	w.line(fmt.Sprintf("Results read: %d; judged: %d; errors: %d; for unknown cases (excluded): %d; duplicates (ignored): %d.",
		c.Results, c.Judged, c.Errors.Results, c.UnknownCaseResults, c.DuplicateResults))
	return []byte(w.b.String())
}

func layerCell(stats []score.LayerStat, n int) string {
	i := slices.IndexFunc(stats, func(s score.LayerStat) bool { return s.Layer == n })
	if i < 0 {
		return "-"
	}
	s := stats[i]
	out := "-"
	if s.Ran > 0 {
		out = fmt.Sprintf("%s (%d/%d)", pct(s.PassRate), s.Passed, s.Ran)
	}
	var extra []string
	if s.Skipped > 0 {
		extra = append(extra, fmt.Sprintf("%d skipped", s.Skipped))
	}
	if s.Errored > 0 {
		extra = append(extra, fmt.Sprintf("%d errored", s.Errored))
	}
	if len(extra) > 0 {
		out += "; " + strings.Join(extra, ", ")
	}
	return out
}

// maxFailingIDs bounds the case ids listed per row of LEADERBOARD_PER_CHECK.md.
const maxFailingIDs = 5

// LeaderboardPerCheckMarkdown renders results/LEADERBOARD_PER_CHECK.md: one
// row per (check, category, model) from models[*].per_check_stats, lowest
// pass rate first, then check, category and model. An Inconclusive column
// appears only when some check could not decide.
func LeaderboardPerCheckMarkdown(rep *score.Report, opts Options) []byte {
	w := &mdWriter{}
	w.line("# EmbedEval Per-Check Results")
	w.line()
	runLine(w, opts)
	type row struct {
		model string
		st    score.PerCheckStat
	}
	var rows []row
	inconclusive := false
	for _, m := range rep.Models {
		for _, st := range m.PerCheckStats {
			rows = append(rows, row{m.Model, st})
			inconclusive = inconclusive || st.Inconclusive > 0
		}
	}
	w.line("One row per (check, category, model); checks of type `mutation` (L4) are excluded. ",
		"Runs count judged samples where the check reported; Failing Cases lists the cases where it failed at least once.")
	if inconclusive {
		w.line("Inconclusive counts runs where the check could not decide; they are never failures, ",
			"and Pass Rate is over the decided runs only (\"-\" when none decided).")
	}
	w.line()
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.st.PassRate, b.st.PassRate), strings.Compare(a.st.CheckName, b.st.CheckName),
			strings.Compare(a.st.Category, b.st.Category), strings.Compare(a.model, b.model))
	})
	cols := []string{"Check", "Category", "Model", "Runs", "Failures", "Pass Rate", "Failing Cases"}
	if inconclusive {
		cols = slices.Insert(cols, 5, "Inconclusive")
	}
	w.header(cols...)
	for _, r := range rows {
		ids := r.st.FailingTCIDs
		list := strings.Join(ids[:min(len(ids), maxFailingIDs)], ", ")
		if len(ids) > maxFailingIDs {
			list += fmt.Sprintf(" (+%d more)", len(ids)-maxFailingIDs)
		}
		if list == "" {
			list = "-"
		}
		rate := pct(r.st.PassRate)
		if r.st.Inconclusive >= r.st.TotalRuns {
			rate = "-"
		}
		cells := []string{mdescape.Text(r.st.CheckName), mdescape.Text(r.st.Category), mdescape.Text(r.model), strconv.Itoa(r.st.TotalRuns),
			strconv.Itoa(r.st.FailCount), rate, mdescape.Text(list)}
		if inconclusive {
			cells = slices.Insert(cells, 5, strconv.Itoa(r.st.Inconclusive))
		}
		w.row(cells...)
	}
	if len(rows) == 0 {
		w.line()
		w.line("No check results.")
	}
	return []byte(w.b.String())
}
