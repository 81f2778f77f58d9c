package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/embedeval/embedeval-go/internal/analysis"
	"github.com/embedeval/embedeval-go/internal/mdescape"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/score"
)

// File and directory names of the analysis reports.
const (
	// FailureReportFile is results/runs/<run-id>/report.md.
	FailureReportFile = "report.md"
	// SafeGuideFile is results/SAFE_GUIDE.md.
	SafeGuideFile = "SAFE_GUIDE.md"
	// TestResultsFile is results/TEST_RESULTS.md.
	TestResultsFile = "TEST_RESULTS.md"
	// HistoryFile is results/history.json.
	HistoryFile = "history.json"
	// DetailsDir is results/runs/<run-id>/details/ (ignored by git).
	DetailsDir = "details"
	// CalibrationJSONFile and CalibrationFile are results/calibration.json
	// and results/CALIBRATION.md.
	CalibrationJSONFile = "calibration.json"
	CalibrationFile     = "CALIBRATION.md"
	// AblationFile is results/runs/<run-id>/ablation.md.
	AblationFile = "ablation.md"
)

// Number of rows in the per-model lists of report.md.
const (
	topFailingChecks = 10
	worstCategories  = 5
	maxExampleCases  = 5
)

// WriteAnalysis writes the failure report results/runs/<run-id>/report.md,
// results/SAFE_GUIDE.md and results/TEST_RESULTS.md, and merges the run into
// results/history.json. rep and an must come from the same results; gaps
// may be empty. Each file is replaced atomically.
func WriteAnalysis(resultsDir string, rep *score.Report, an *analysis.Analysis, gaps []analysis.Gap, opts Options) error {
	if err := checkRunID(opts.RunID); err != nil {
		return err
	}
	files := []struct {
		path string
		data []byte
	}{
		{filepath.Join(resultsDir, "runs", opts.RunID, FailureReportFile), FailureReportMarkdown(rep, an, gaps, opts)},
		{filepath.Join(resultsDir, SafeGuideFile), SafeGuideMarkdown(analysis.SafetyGuide(rep.Categories), opts)},
		{filepath.Join(resultsDir, TestResultsFile), TestResultsMarkdown(an, opts)},
	}
	for _, f := range files {
		if err := WriteFileAtomic(f.path, f.data); err != nil {
			return err
		}
	}
	return AppendHistory(filepath.Join(resultsDir, HistoryFile), rep, opts)
}

// signedPP formats a difference of rates in percentage points with a sign.
func signedPP(v float64) string {
	s := strconv.FormatFloat(v*100, 'f', 1, 64)
	if s == "-0.0" {
		s = "0.0"
	}
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s + " pp"
}

func fixed(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }

func itoa(n int) string { return strconv.Itoa(n) }

func share(n, total int) string {
	if total == 0 {
		return "—"
	}
	return pct(float64(n) / float64(total))
}

func exampleCases(ids []string) string {
	if len(ids) == 0 {
		return "—"
	}
	shown := ids[:min(len(ids), maxExampleCases)]
	s := strings.Join(shown, ", ")
	if len(ids) > len(shown) {
		s += fmt.Sprintf(" (+%d more)", len(ids)-len(shown))
	}
	return mdescape.Text(s)
}

// taxonomyRows returns the patterns with failures, most failures first,
// then in Patterns() order.
func taxonomyRows(mt analysis.ModelTaxonomy) []analysis.TaxonomyRow {
	var rows []analysis.TaxonomyRow
	for _, r := range mt.Rows {
		if r.Failures > 0 {
			rows = append(rows, r)
		}
	}
	slices.SortStableFunc(rows, func(a, b analysis.TaxonomyRow) int { return cmp.Compare(b.Failures, a.Failures) })
	return rows
}

func writeTaxonomy(w *mdWriter, mt analysis.ModelTaxonomy) {
	rows := taxonomyRows(mt)
	if len(rows) == 0 {
		w.line("No failed results.")
		w.line()
		return
	}
	w.header("Pattern", "Failures", "Share", "Confidence", "Description", "Cases")
	for _, r := range rows {
		w.row(mdescape.Code(string(r.Pattern)), itoa(r.Failures), pct(r.Share), fixed(r.MeanConfidence, 2),
			analysis.PatternDescription(r.Pattern), exampleCases(r.Cases))
	}
	w.line()
}

// FailureReportMarkdown renders results/runs/<run-id>/report.md: a summary
// per model (pass@1, CI, failures, errors, stability from package score),
// then per model the failure distribution by layer, the failure taxonomy
// with vote confidence, the top failing checks and the worst categories;
// the taxonomy of all models together; the Embed Gap; and the
// classification rules.
func FailureReportMarkdown(rep *score.Report, an *analysis.Analysis, gaps []analysis.Gap, opts Options) []byte {
	w := &mdWriter{}
	w.line("# EmbedEval Failure Analysis")
	w.line()
	runLine(w, opts)
	taxByModel := map[string]analysis.ModelTaxonomy{}
	for _, mt := range an.Taxonomy {
		taxByModel[mt.Model] = mt
	}

	w.line("## Summary")
	w.line()
	w.line("Sanity-tier cases and results with status error are left out of every number below; ",
		"stability counts cases by their judged samples (always / flaky / never passed; single = one sample).")
	w.line()
	w.header("Model", "pass@1", "95% CI", "Cases", "Judged", "Failed", "Errors", "Always", "Flaky", "Never", "Single")
	for _, m := range rep.Models {
		s := m.Stability
		w.row(mdescape.Text(m.Model), pct(m.PassAt1), ci(m.PassAt1CI), itoa(m.TotalCases), itoa(m.JudgedSamples),
			itoa(m.JudgedSamples-m.PassedSamples), itoa(m.Errors.Results), itoa(s.Always), itoa(s.Flaky), itoa(s.Never), itoa(s.Single))
	}
	w.line()

	for _, m := range rep.Models {
		w.line("## ", mdescape.Text(m.Model))
		w.line()
		w.line("### Failure distribution by layer")
		w.line()
		total := 0
		for _, f := range m.FailureDistribution {
			total += f.Failures
		}
		if total == 0 {
			w.line("No failed results.")
		} else {
			w.header("Layer", "Failures", "Share")
			for _, f := range m.FailureDistribution {
				w.row(fmt.Sprintf("L%d %s", f.Layer, result.LayerShortName(f.Layer)), itoa(f.Failures), share(f.Failures, total))
			}
		}
		w.line()

		w.line("### Failure taxonomy")
		w.line()
		writeTaxonomy(w, taxByModel[m.Model])

		w.line("### Top failing checks")
		w.line()
		checks := slices.Clone(m.PerCheckStats)
		checks = slices.DeleteFunc(checks, func(c score.PerCheckStat) bool { return c.FailCount == 0 })
		slices.SortStableFunc(checks, func(a, b score.PerCheckStat) int {
			return cmp.Or(cmp.Compare(b.FailCount, a.FailCount), cmp.Compare(a.PassRate, b.PassRate),
				strings.Compare(a.CheckName, b.CheckName), strings.Compare(a.Category, b.Category))
		})
		if len(checks) == 0 {
			w.line("No failing checks.")
		} else {
			w.header("Check", "Category", "Failures", "Runs", "Pass Rate", "Failing Cases")
			for _, c := range checks[:min(len(checks), topFailingChecks)] {
				pattern, _ := analysis.MatchCheck(c.CheckName, "")
				w.row(mdescape.Code(c.CheckName)+" ("+string(pattern)+")", mdescape.Text(c.Category), itoa(c.FailCount), itoa(c.TotalRuns),
					pct(c.PassRate), exampleCases(c.FailingTCIDs))
			}
		}
		w.line()

		w.line("### Worst categories")
		w.line()
		cats := slices.Clone(m.CategoryScores)
		slices.SortStableFunc(cats, func(a, b score.CategoryScore) int {
			return cmp.Or(cmp.Compare(a.PassAt1, b.PassAt1), strings.Compare(a.Category, b.Category))
		})
		if len(cats) == 0 {
			w.line("No scored categories.")
		} else {
			w.header("Category", "pass@1", "Passed", "Total", "Status")
			for _, c := range cats[:min(len(cats), worstCategories)] {
				w.row(mdescape.Text(c.Category), pct(c.PassAt1), itoa(c.PassedSamples), itoa(c.TotalSamples), CategoryStatus(c.PassAt1))
			}
		}
		w.line()
	}

	w.line("## Failure taxonomy, all models")
	w.line()
	writeTaxonomy(w, an.TaxonomyAll)

	w.line("## Embed Gap")
	w.line()
	if len(gaps) == 0 {
		w.line("No external benchmark scores for these models.")
	} else {
		w.line("Embed Gap = EmbedEval pass@1 minus the model's pass@1 on the external benchmark (negative: harder for the model than general coding).")
		w.line()
		w.header("Model", "EmbedEval pass@1", "Benchmark", "External pass@1", "Embed Gap", "Source")
		for _, g := range gaps {
			src := mdescape.Text(g.Source)
			if g.Example {
				src = "example value — " + src
			}
			w.row(mdescape.Text(g.Model), pct(g.PassAt1), mdescape.Text(g.Benchmark), pct(g.External), signedPP(g.Gap), src)
		}
	}
	w.line()

	w.line("## How failures are classified")
	w.line()
	w.line("Each failed result (sanity cases aside) gets one pattern by majority vote: every failed check of a failed layer L0–L3 ",
		"votes for the pattern of the first keyword rule its name (else its type) matches; an unmatched check, or a failed layer ",
		"without failed checks, votes for the layer default (L1 with a compiler/linker message such as \"implicit declaration\" ",
		"or \"undefined reference\": `api_hallucination`; L2: `semantic_mismatch`; otherwise `unknown`). Ties go to the earlier of ",
		patternOrder(), "; confidence is the winning votes over all votes, averaged per pattern.")
	w.line()
	w.header("Pattern", "Check-name keywords")
	for _, r := range analysis.KeywordRules() {
		w.row(mdescape.Code(string(r.Pattern)), mdescape.Text(strings.Join(r.Keywords, ", ")))
	}
	return []byte(w.b.String())
}

// patternOrder lists the patterns in their tie-break order.
func patternOrder() string {
	var names []string
	for _, p := range analysis.Patterns() {
		names = append(names, mdescape.Code(string(p)))
	}
	return strings.Join(names, ", ")
}

// SafeGuideMarkdown renders results/SAFE_GUIDE.md from analysis.SafetyGuide:
// the tier legend, one row per category from the riskiest up, and the
// categories grouped by tier.
func SafeGuideMarkdown(guide []analysis.CategoryRisk, opts Options) []byte {
	w := &mdWriter{}
	w.line("# EmbedEval Safety Guide")
	w.line()
	runLine(w, opts)
	w.line("Risk tiers per category for engineers using LLM-written embedded code, from the category's pass rate across ",
		"all models and runs scored (the mean over every model and case of the share of judged samples that passed; ",
		"sanity cases and errored results left out).")
	w.line()
	w.line("## Risk Tiers")
	w.line()
	w.header("Risk Tier", "Pass Rate", "Recommendation")
	for _, t := range analysis.RiskTiers() {
		w.row(string(t), analysis.TierRange(t), analysis.Recommendation(t))
	}
	w.line()
	w.line("## Categories")
	w.line()
	if len(guide) == 0 {
		w.line("No scored categories.")
		return []byte(w.b.String())
	}
	w.header("Category", "Risk Tier", "Pass Rate", "95% CI", "Cases", "Samples", "Recommendation")
	for _, g := range guide {
		w.row(mdescape.Text(g.Category), string(g.Tier), pct(g.PassAt1), ci(g.PassAt1CI), itoa(g.TotalCases), itoa(g.TotalSamples), g.Recommendation)
	}
	w.line()
	w.line("## By Tier")
	w.line()
	for _, t := range analysis.RiskTiers() {
		var names []string
		for _, g := range guide {
			if g.Tier == t {
				names = append(names, mdescape.Text(g.Category))
			}
		}
		slices.Sort(names)
		list := "—"
		if len(names) > 0 {
			list = strings.Join(names, ", ")
		}
		w.line("- **", string(t), "** (", analysis.TierRange(t), "): ", list)
	}
	return []byte(w.b.String())
}

// TestResultsMarkdown renders results/TEST_RESULTS.md: one row per (case,
// model) with judged samples, passed samples and a status (PASS every
// judged sample passed, FLAKY some, FAIL none, ERROR no judged sample),
// every tier included, sorted by case then model.
func TestResultsMarkdown(an *analysis.Analysis, opts Options) []byte {
	w := &mdWriter{}
	w.line("# EmbedEval Test Results")
	w.line()
	runLine(w, opts)
	counts := map[string]int{}
	for _, t := range an.Tasks {
		counts[t.Status()]++
	}
	w.line(fmt.Sprintf("%d rows: %d PASS, %d FLAKY, %d FAIL, %d ERROR. Samples count judged results; results with status error are in Errors.",
		len(an.Tasks), counts[analysis.TaskPass], counts[analysis.TaskFlaky], counts[analysis.TaskFail], counts[analysis.TaskError]))
	w.line()
	w.header("Case", "Model", "Samples", "Passed", "Status", "Tier", "Errors")
	for _, t := range an.Tasks {
		w.row(mdescape.Text(t.TaskKey.String()), mdescape.Text(t.Model), itoa(t.Samples), itoa(t.Passed), t.Status(), mdescape.Text(t.Tier), itoa(t.Errors))
	}
	return []byte(w.b.String())
}

// HistoryEntry is one (run, model) summary of results/history.json.
type HistoryEntry struct {
	RunID   string     `json:"run_id"`
	Date    string     `json:"date"`
	Model   string     `json:"model"`
	PassAt1 float64    `json:"pass_at_1"`
	CI      [2]float64 `json:"ci"`
	Cases   int        `json:"cases"`
}

// HistoryEntries returns the history entries of one run: one per model with
// scored cases, dated opts.Generated.
func HistoryEntries(rep *score.Report, opts Options) []HistoryEntry {
	out := []HistoryEntry{}
	for _, m := range rep.Models {
		if m.TotalCases == 0 {
			continue
		}
		out = append(out, HistoryEntry{RunID: opts.RunID, Date: opts.Generated, Model: m.Model, PassAt1: m.PassAt1,
			CI: m.PassAt1CI, Cases: m.TotalCases})
	}
	return out
}

func compareHistory(a, b HistoryEntry) int {
	return cmp.Or(strings.Compare(a.Date, b.Date), strings.Compare(a.RunID, b.RunID), strings.Compare(a.Model, b.Model))
}

// MergeHistory adds entries to old: an entry whose (run_id, model) is
// already present replaces it (the latest write of a run wins), the others
// are appended. The result is sorted by date, run_id, model.
func MergeHistory(old, entries []HistoryEntry) []HistoryEntry {
	type key struct{ run, model string }
	idx := map[key]int{}
	out := make([]HistoryEntry, 0, len(old)+len(entries))
	for _, e := range append(slices.Clone(old), entries...) {
		k := key{e.RunID, e.Model}
		if i, ok := idx[k]; ok {
			out[i] = e
			continue
		}
		idx[k] = len(out)
		out = append(out, e)
	}
	slices.SortStableFunc(out, compareHistory)
	return out
}

// ReadHistory strictly decodes results/history.json (a JSON list of
// HistoryEntry); a missing file is an empty history.
func ReadHistory(path string) ([]HistoryEntry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return []HistoryEntry{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var out []HistoryEntry
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("read history %s: %w", path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("read history %s: data after the list", path)
	}
	if out == nil {
		out = []HistoryEntry{}
	}
	return out, nil
}

// HistoryJSON renders a history list.
func HistoryJSON(h []HistoryEntry) ([]byte, error) {
	if h == nil {
		h = []HistoryEntry{}
	}
	data, err := marshal(h)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", HistoryFile, err)
	}
	return data, nil
}

// AppendHistory merges the run's entries into the history file at path
// (MergeHistory) and writes it atomically. Writing the same run twice
// leaves the file as it was; an unreadable history is an error, never
// overwritten.
func AppendHistory(path string, rep *score.Report, opts Options) error {
	if err := checkRunID(opts.RunID); err != nil {
		return err
	}
	old, err := ReadHistory(path)
	if err != nil {
		return err
	}
	data, err := HistoryJSON(MergeHistory(old, HistoryEntries(rep, opts)))
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, data)
}

// CodeExt returns the file extension of generated code of an output kind
// (platform.OutputKind): .c, .conf (kconfig), .overlay (devicetree), .rules
// (udev), .bb (bitbake), .txt otherwise.
func CodeExt(kind string) string {
	switch kind {
	case "c":
		return ".c"
	case "kconfig":
		return ".conf"
	case "devicetree":
		return ".overlay"
	case "udev":
		return ".rules"
	case "bitbake":
		return ".bb"
	}
	return ".txt"
}

// safeName makes s a single path component: every byte that is not an ASCII
// letter, digit, '.', '-' or '_' becomes '_' ("claude-code://sonnet" becomes
// "claude-code___sonnet"), and a name of only dots gets a leading '_'.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	out := string(b)
	if strings.Trim(out, ".") == "" {
		out = "_" + out
	}
	return out
}

// DetailsWriter writes each result's generated code to
// results/runs/<run-id>/details/<model>/<case_id>_<attempt><ext>, one
// result at a time (nothing is kept but the model directory names). Results
// of a scenario other than generation are named
// <case_id>_<scenario>[_<mutation>]_<attempt><ext>. Results without code
// are skipped. It is not safe for concurrent use.
type DetailsWriter struct {
	dir    string
	kindOf func(caseID string) string
	// dirs maps a model directory name to its model, to refuse two models
	// that sanitise to the same name.
	dirs map[string]string
}

// NewDetailsWriter returns a writer under resultsDir for run opts.RunID;
// kindOf gives a case's output kind (platform.OutputKind of the case), nil
// meaning "c" for every case.
func NewDetailsWriter(resultsDir string, opts Options, kindOf func(caseID string) string) (*DetailsWriter, error) {
	if err := checkRunID(opts.RunID); err != nil {
		return nil, err
	}
	if kindOf == nil {
		kindOf = func(string) string { return "c" }
	}
	return &DetailsWriter{dir: filepath.Join(resultsDir, "runs", opts.RunID, DetailsDir), kindOf: kindOf, dirs: map[string]string{}}, nil
}

// DetailsPath returns the path of a result's code file relative to the
// details directory.
func DetailsPath(r *result.EvalResult, kind string) string {
	name := r.CaseID
	if r.Scenario != "" && r.Scenario != score.DefaultScenario {
		name += "_" + r.Scenario
		if r.Mutation != "" {
			name += "_" + r.Mutation
		}
	}
	name += "_" + strconv.Itoa(r.Attempt)
	return filepath.Join(safeName(r.Model), safeName(name)+CodeExt(kind))
}

// Add writes r's generated code (atomically). Two different models whose
// names sanitise to the same directory are an error.
func (d *DetailsWriter) Add(r *result.EvalResult) error {
	if r.GeneratedCode == "" {
		return nil
	}
	md := safeName(r.Model)
	if prev, ok := d.dirs[md]; ok && prev != r.Model {
		return fmt.Errorf("write details: models %q and %q both map to directory %q", prev, r.Model, md)
	}
	d.dirs[md] = r.Model
	return WriteFileAtomic(filepath.Join(d.dir, DetailsPath(r, d.kindOf(r.CaseID))), []byte(r.GeneratedCode))
}

// CalibrationSchemaVersion is the schema_version of calibration.json.
const CalibrationSchemaVersion = 1

// CalibrationDoc is the shape of results/calibration.json.
type CalibrationDoc struct {
	SchemaVersion int     `json:"schema_version"`
	RunID         *string `json:"run_id"`
	Generated     *string `json:"generated"`
	// EasyAbove and HardBelow are the empirical label thresholds.
	EasyAbove float64 `json:"easy_above"`
	HardBelow float64 `json:"hard_below"`
	analysis.Calibration
}

// CalibrationJSON renders calibration.json.
func CalibrationJSON(cal analysis.Calibration, opts Options) ([]byte, error) {
	data, err := marshal(CalibrationDoc{SchemaVersion: CalibrationSchemaVersion, RunID: optString(opts.RunID),
		Generated: optString(opts.Generated), EasyAbove: analysis.EasyAbove, HardBelow: analysis.HardBelow, Calibration: cal})
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", CalibrationJSONFile, err)
	}
	return data, nil
}

func calibrationFlags(c analysis.CaseCalibration) string {
	var f []string
	if c.Mislabelled {
		f = append(f, "MISLABELLED")
	}
	if c.Floor {
		f = append(f, "FLOOR")
	}
	if c.Ceiling {
		f = append(f, "CEILING")
	}
	return strings.Join(f, " ")
}

// CalibrationMarkdown renders CALIBRATION.md: the rules, counts, one row per
// task (sorted by task) and the flagged tasks.
func CalibrationMarkdown(cal analysis.Calibration, opts Options) []byte {
	w := &mdWriter{}
	w.line("# EmbedEval Difficulty Calibration")
	w.line()
	runLine(w, opts)
	w.line(fmt.Sprintf("Models: %s. Pass rate = mean over models of each model's share of passed judged samples; ",
		mdescape.Text(strings.Join(cal.Models, ", "))),
		"b (difficulty) = 1 − pass rate; a (discrimination) = standard deviation of the per-model shares. ",
		"Empirical label: easy > 80%, medium 40–80%, hard < 40%. FLOOR: every model failed every sample; CEILING: every model passed every sample.")
	w.line()
	w.line(fmt.Sprintf("%d cases: %d mislabelled, %d floor, %d ceiling.", len(cal.Cases), cal.Mislabelled, cal.Floor, cal.Ceiling))
	w.line()
	if len(cal.Cases) == 0 {
		return []byte(w.b.String())
	}
	w.header("Case", "Category", "Assigned", "Empirical", "Pass Rate", "b", "a", "Models", "Flags")
	for _, c := range cal.Cases {
		w.row(mdescape.Text(c.TaskKey.String()), mdescape.Text(c.Category), mdescape.Text(c.Difficulty), c.Empirical, pct(c.PassRate),
			fixed(c.B, 3), fixed(c.A, 3), itoa(c.Models), calibrationFlags(c))
	}
	w.line()
	for _, sec := range []struct {
		title string
		pick  func(analysis.CaseCalibration) bool
	}{
		{"Mislabelled", func(c analysis.CaseCalibration) bool { return c.Mislabelled }},
		{"Floor (all models fail)", func(c analysis.CaseCalibration) bool { return c.Floor }},
		{"Ceiling (all models pass)", func(c analysis.CaseCalibration) bool { return c.Ceiling }},
	} {
		w.line("## ", sec.title)
		w.line()
		n := 0
		for _, c := range cal.Cases {
			if sec.pick(c) {
				w.line("- ", mdescape.Text(c.TaskKey.String()), " (assigned ", mdescape.Text(c.Difficulty), ", empirical ", c.Empirical, ", ", pct(c.PassRate), ")")
				n++
			}
		}
		if n == 0 {
			w.line("None.")
		}
		w.line()
	}
	return []byte(w.b.String())
}

// WriteCalibration writes results/calibration.json and results/CALIBRATION.md.
func WriteCalibration(resultsDir string, cal analysis.Calibration, opts Options) error {
	data, err := CalibrationJSON(cal, opts)
	if err != nil {
		return err
	}
	if err := WriteFileAtomic(filepath.Join(resultsDir, CalibrationJSONFile), data); err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(resultsDir, CalibrationFile), CalibrationMarkdown(cal, opts))
}

// AblationMarkdown renders ablation.md: pass rate per model and
// configuration, layer contributions, and how many samples rest on fewer
// layers (partial) or on none (unjudged) per configuration.
func AblationMarkdown(ab analysis.Ablation, opts Options) []byte {
	w := &mdWriter{}
	w.line("# EmbedEval Layer Ablation")
	w.line()
	runLine(w, opts)
	w.line("Every judged result is re-judged as if only the configuration's layers had run: it passes when every one of ",
		"those layers that ran passed. Skipped or errored layers never count as a pass; a sample with one is *partial* ",
		"(judged on fewer layers — e.g. layers halted after an earlier failure), a sample with none is *unjudged* and left out. ",
		"L4 (mutation) grades the checks, not the code, and never fails a result, so Full equals the official verdict. ",
		"Pass rate is pass@1 re-judged (mean over cases); sanity cases are left out.")
	w.line()
	all := append(slices.Clone(ab.Models), ab.All)
	head := []string{"Model"}
	for _, c := range ab.All.Configs {
		head = append(head, c.Name)
	}
	w.line("## Pass rate by configuration")
	w.line()
	w.header(head...)
	for _, m := range all {
		row := []string{mdescape.Text(m.Model)}
		for _, c := range m.Configs {
			row = append(row, pct(c.PassRate))
		}
		w.row(row...)
	}
	w.line()
	w.line("## Layer contribution")
	w.line()
	w.line("Delta = pass rate without the layer minus pass rate with it (positive: the layer rejects code the smaller configuration accepts).")
	w.line()
	head = []string{"Model"}
	for _, c := range ab.All.Contributions {
		head = append(head, fmt.Sprintf("%s (%s → %s)", c.Layer, c.From, c.To))
	}
	w.header(head...)
	for _, m := range all {
		row := []string{mdescape.Text(m.Model)}
		for _, c := range m.Contributions {
			row = append(row, signedPP(c.Delta))
		}
		w.row(row...)
	}
	w.line()
	w.line("## Samples per configuration")
	w.line()
	w.header("Model", "Configuration", "Judged", "Passed", "Partial", "Unjudged")
	for _, m := range all {
		for _, c := range m.Configs {
			w.row(mdescape.Text(m.Model), c.Name, itoa(c.Judged), itoa(c.Passed), itoa(c.Partial), itoa(c.Unjudged))
		}
	}
	return []byte(w.b.String())
}

// WriteAblation writes results/runs/<run-id>/ablation.md.
func WriteAblation(resultsDir string, ab analysis.Ablation, opts Options) error {
	if err := checkRunID(opts.RunID); err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(resultsDir, "runs", opts.RunID, AblationFile), AblationMarkdown(ab, opts))
}
