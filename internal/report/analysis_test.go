package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/analysis"
	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/score"
)

// analysisCases: gpio-basic-001 is passed by everyone (ceiling), dma-001
// failed by everyone (floor), linux-driver-001 is labelled easy but hard in
// practice (mislabelled), kconfig-001 and device-tree-001 skip L1/L2,
// uart-001 is sanity.
func analysisCases() []cases.Metadata {
	return []cases.Metadata{
		{ID: "gpio-basic-001", Category: "gpio-basic", Difficulty: "easy", Tier: "core"},
		{ID: "dma-001", Category: "dma", Difficulty: "hard", Tier: "core"},
		{ID: "isr-concurrency-001", Category: "isr-concurrency", Difficulty: "medium", Tier: "challenge"},
		{ID: "linux-driver-001", Category: "linux-driver", Difficulty: "easy", Tier: "core"},
		{ID: "sensor-driver-001", Category: "sensor-driver", Difficulty: "medium", Tier: "core"},
		{ID: "kconfig-001", Category: "kconfig", Difficulty: "medium", Tier: "core", L1Skip: true},
		{ID: "device-tree-001", Category: "device-tree", Difficulty: "medium", Tier: "core", L2Skip: true},
		{ID: "uart-001", Category: "uart", Difficulty: "easy", Tier: "sanity"},
	}
}

func analysisKind(caseID string) string {
	switch caseID {
	case "kconfig-001":
		return "kconfig"
	case "device-tree-001":
		return "devicetree"
	}
	return "c"
}

var analysisModels = []string{"claude-code://sonnet", "gpt-4o", "mock"}

// analysisOutcomes gives, per model and case, one outcome per attempt over
// two runs of two attempts (attempts 0-1 and 2-3): "P" passed; "F<n>" failed
// at layer n, followed by ":" and the failed checks (or, for L1, the
// compiler message); "E" an infrastructure error.
func analysisOutcomes() map[string]map[string][]string {
	return map[string]map[string][]string{
		"claude-code://sonnet": {
			"gpio-basic-001":      {"P", "P", "P", "P"},
			"dma-001":             {"F1:main.c:12:3: error: implicit declaration of function 'dma_start_fast'", "F1:undefined reference to `dma_go'", "F1:main.c:12:3: error: implicit declaration of function 'dma_start_fast'", "F0:no_foreign_platform_apis"},
			"isr-concurrency-001": {"P", "F3:isr_no_blocking_api,tick_counter_volatile", "P", "F3:isr_no_blocking_api"},
			"linux-driver-001":    {"F3:init_failures_unwound", "F3:init_failures_unwound,buffer_released", "P", "F3:init_failures_unwound"},
			"sensor-driver-001":   {"P", "P", "P", "F2"},
			"kconfig-001":         {"P", "P", "P", "P"},
			"device-tree-001":     {"P", "P", "P", "P"},
			"uart-001":            {"P", "P", "P", "P"},
		},
		"gpt-4o": {
			"gpio-basic-001":      {"P", "P", "P", "P"},
			"dma-001":             {"F0:no_foreign_platform_apis", "F0:no_foreign_platform_apis,startup_order_correct", "F0:no_foreign_platform_apis", "F1:main.c:3: error: expected ';'"},
			"isr-concurrency-001": {"F0:startup_order_correct", "F0:startup_order_correct", "P", "P"},
			"linux-driver-001":    {"F3:buffer_released", "F3:buffer_released", "F3:buffer_released", "P"},
			"sensor-driver-001":   {"F2", "F2", "P", "F2"},
			"kconfig-001":         {"P", "F0:mystery_symbol_check", "P", "P"},
			"device-tree-001":     {"P", "P", "F3:unit_address_matches_reg", "P"},
			"uart-001":            {"P", "P", "P", "F0:uart_init_result_checked"},
		},
		"mock": {
			"gpio-basic-001":      {"P", "P"},
			"dma-001":             {"F0:mystery_check", "E"},
			"isr-concurrency-001": {"F3:isr_no_blocking_api", "F3:isr_no_blocking_api"},
			"linux-driver-001":    {"F3:init_failures_unwound", "P"},
			"sensor-driver-001":   {"F2", "F2"},
			"kconfig-001":         {"F0:mystery_symbol_check", "F0:mystery_symbol_check"},
			"device-tree-001":     {"P", "P"},
			"uart-001":            {"E", "E"},
		},
	}
}

// analysisResult builds one result from an outcome, the way the evaluator
// would: L0 and L3 carry named checks, layers after a failure are skipped
// (halted), L1/L2 are skipped where the case opts out, L4 runs on passing
// code.
func analysisResult(model string, m cases.Metadata, attempt int, outcome string) result.EvalResult {
	r := result.EvalResult{CaseID: m.ID, Model: model, Attempt: attempt, Scenario: "generation",
		GeneratedCode: fmt.Sprintf("/* %s %s attempt %d */\n", model, m.ID, attempt)}
	if outcome == "E" {
		r.Status, r.InfraError, r.GeneratedCode = result.StatusError, "model API returned 529 after 3 retries", ""
		for n := 0; n <= result.LayerMutation; n++ {
			r.Layers = append(r.Layers, result.LayerResult{Layer: n, Name: result.LayerName(n), Status: result.StatusSkipped, Reason: "no code", Details: []result.CheckDetail{}})
		}
		return r
	}
	failAt, detail := -1, ""
	if strings.HasPrefix(outcome, "F") {
		failAt = int(outcome[1] - '0')
		detail = strings.TrimPrefix(outcome[2:], ":")
	}
	halted := false
	for n := 0; n <= result.LayerMutation; n++ {
		l := result.LayerResult{Layer: n, Name: result.LayerName(n), Details: []result.CheckDetail{}}
		switch {
		case halted:
			l.Status, l.Reason = result.StatusSkipped, "halted"
		case n == 1 && m.L1Skip:
			l.Status, l.Reason = result.StatusSkipped, "case opts out (l1_skip: true)"
		case n == 2 && m.L1Skip:
			l.Status, l.Reason = result.StatusSkipped, "needs L1, which was skipped"
		case n == 2 && m.L2Skip:
			l.Status, l.Reason = result.StatusSkipped, "case opts out (l2_skip: true)"
		case n == failAt:
			l.Status = result.StatusFailed
		default:
			l.Status = result.StatusPassed
		}
		if (n == 0 || n == 3) && l.Status != result.StatusSkipped {
			name := "code_present"
			if n == 3 {
				name = "behaviour_plausible"
			}
			l.Details = append(l.Details, result.CheckDetail{CheckName: name, Passed: true, CheckType: "constraint", Weight: 1})
			if n == failAt {
				for _, c := range strings.Split(detail, ",") {
					l.Details = append(l.Details, result.CheckDetail{CheckName: c, Passed: false, CheckType: "constraint", Weight: 1})
				}
			}
		}
		if n == 1 && n == failAt {
			l.Error = result.Ptr(detail)
		}
		if n == 2 && n == failAt {
			l.Details = append(l.Details, result.CheckDetail{CheckName: "expected_output", Passed: false,
				Expected: result.Ptr("temp=21.5"), Actual: result.Ptr("temp=0.0"), CheckType: "runtime", Weight: 1})
		}
		l.Passed = l.Status == result.StatusPassed
		if l.Status == result.StatusFailed {
			halted = true
			f := n
			r.FailedAtLayer = &f
		}
		r.Layers = append(r.Layers, l)
	}
	if r.FailedAtLayer != nil {
		r.Status = result.StatusFailed
	} else {
		r.Status, r.Passed = result.StatusPassed, true
	}
	return r
}

// analysisResults is the golden result set, run by run (attempts 0-1 then
// 2-3), model by model.
func analysisResults() []result.EvalResult {
	var out []result.EvalResult
	outcomes := analysisOutcomes()
	for run := range 2 {
		for _, model := range analysisModels {
			for _, m := range analysisCases() {
				outs := outcomes[model][m.ID]
				for a := 2 * run; a < 2*run+2 && a < len(outs); a++ {
					out = append(out, analysisResult(model, m, a, outs[a]))
				}
			}
		}
	}
	return out
}

// analyse feeds results to a Scorer, a Collector and (when dw is set) a
// DetailsWriter, one at a time, as a streaming caller would.
func analyse(t testing.TB, rs []result.EvalResult, dw *DetailsWriter) (*score.Report, *analysis.Analysis) {
	t.Helper()
	lookup := score.LookupFrom(analysisCases())
	s, c := score.New(lookup), analysis.NewCollector(lookup)
	for i := range rs {
		require.NoError(t, s.Add(&rs[i]))
		require.NoError(t, c.Add(&rs[i]))
		if dw != nil {
			require.NoError(t, dw.Add(&rs[i]))
		}
	}
	return s.Finish(), c.Finish()
}

var analysisOpts = Options{RunID: "2026-04-20_analysis", Generated: "2026-04-20T08:00:00Z", NRuns: 2}

func testGaps(t testing.TB, rep *score.Report) []analysis.Gap {
	t.Helper()
	ext, err := analysis.DefaultExternalBenchmarks()
	require.NoError(t, err)
	return analysis.EmbedGaps(rep.Models, ext, analysis.DefaultBenchmark)
}

func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	gp := filepath.Join("testdata", "golden", golden)
	if *update {
		require.NoError(t, os.WriteFile(gp, got, 0o644))
	}
	want, err := os.ReadFile(gp)
	require.NoError(t, err, "run go test ./internal/report -update to create the golden files")
	require.Equal(t, string(want), string(got))
}

func TestAnalysisGoldenFiles(t *testing.T) {
	dir := t.TempDir()
	dw, err := NewDetailsWriter(dir, analysisOpts, analysisKind)
	require.NoError(t, err)
	rep, an := analyse(t, analysisResults(), dw)
	require.NoError(t, WriteAnalysis(dir, rep, an, testGaps(t, rep), analysisOpts))
	require.NoError(t, WriteCalibration(dir, an.Calibration, analysisOpts))
	require.NoError(t, WriteAblation(dir, an.Ablation, analysisOpts))
	runDir := filepath.Join(dir, "runs", analysisOpts.RunID)
	files := []struct{ golden, path string }{
		{"analysis_report.md", filepath.Join(runDir, FailureReportFile)},
		{"SAFE_GUIDE.md", filepath.Join(dir, SafeGuideFile)},
		{"TEST_RESULTS.md", filepath.Join(dir, TestResultsFile)},
		{"history.json", filepath.Join(dir, HistoryFile)},
		{"calibration.json", filepath.Join(dir, CalibrationJSONFile)},
		{"CALIBRATION.md", filepath.Join(dir, CalibrationFile)},
		{"ablation.md", filepath.Join(runDir, AblationFile)},
	}
	for _, f := range files {
		t.Run(f.golden, func(t *testing.T) {
			got, err := os.ReadFile(f.path)
			require.NoError(t, err)
			checkGolden(t, f.golden, got)
		})
	}
	// No temporary files are left next to the reports.
	for _, d := range []string{dir, runDir} {
		entries, err := os.ReadDir(d)
		require.NoError(t, err)
		for _, e := range entries {
			require.False(t, strings.HasPrefix(e.Name(), "."), e.Name())
		}
	}
}

func TestAnalysisGoldenInputIsCovered(t *testing.T) {
	rep, an := analyse(t, analysisResults(), nil)
	// Every taxonomy pattern occurs.
	for _, r := range an.TaxonomyAll.Rows {
		require.Positive(t, r.Failures, r.Pattern)
	}
	cal := an.Calibration
	require.Positive(t, cal.Floor)
	require.Positive(t, cal.Ceiling)
	require.Positive(t, cal.Mislabelled)
	// Skipped layers: partial verdicts in every configuration but L0 only.
	for _, c := range an.Ablation.All.Configs[1:] {
		require.Positive(t, c.Partial, c.Name)
	}
	// Three models, two runs, errors, a sanity case.
	require.Len(t, rep.Models, 3)
	require.Positive(t, an.Counts.Errors)
	require.Equal(t, 4, rep.NSamplesPerCase)
	// Full re-judging reproduces pass@1.
	for i, m := range rep.Models {
		full := an.Ablation.Models[i].Configs[len(analysis.Configs())-1]
		require.Equal(t, m.Model, an.Ablation.Models[i].Model)
		require.InDelta(t, m.PassAt1, full.PassRate, 1e-12, m.Model)
	}
	// Results in another order give the same files.
	rs := analysisResults()
	for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
	}
	rep2, an2 := analyse(t, rs, nil)
	require.Equal(t, FailureReportMarkdown(rep, an, testGaps(t, rep), analysisOpts), FailureReportMarkdown(rep2, an2, testGaps(t, rep2), analysisOpts))
	require.Equal(t, AblationMarkdown(an.Ablation, analysisOpts), AblationMarkdown(an2.Ablation, analysisOpts))
	c1, err := CalibrationJSON(an.Calibration, analysisOpts)
	require.NoError(t, err)
	c2, err := CalibrationJSON(an2.Calibration, analysisOpts)
	require.NoError(t, err)
	require.Equal(t, string(c1), string(c2))
}

func TestDetailsFiles(t *testing.T) {
	dir := t.TempDir()
	dw, err := NewDetailsWriter(dir, analysisOpts, analysisKind)
	require.NoError(t, err)
	analyse(t, analysisResults(), dw)
	base := filepath.Join(dir, "runs", analysisOpts.RunID, DetailsDir)
	tests := []struct {
		path string
		want string
	}{
		{"claude-code___sonnet/gpio-basic-001_0.c", "/* claude-code://sonnet gpio-basic-001 attempt 0 */\n"},
		{"gpt-4o/kconfig-001_3.conf", "/* gpt-4o kconfig-001 attempt 3 */\n"},
		{"mock/device-tree-001_1.overlay", "/* mock device-tree-001 attempt 1 */\n"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			got, err := os.ReadFile(filepath.Join(base, filepath.FromSlash(tc.path)))
			require.NoError(t, err)
			require.Equal(t, tc.want, string(got))
		})
	}
	// Errored results without code get no file.
	_, err = os.Stat(filepath.Join(base, "mock", "dma-001_1.c"))
	require.ErrorIs(t, err, os.ErrNotExist)
	// Two models that map to the same directory are refused.
	r := analysisResult("claude-code:/:sonnet", analysisCases()[0], 0, "P")
	require.ErrorContains(t, dw.Add(&r), "both map to directory")
}

func TestDetailsPath(t *testing.T) {
	tests := []struct {
		name string
		res  result.EvalResult
		kind string
		want string
	}{
		{"generation", result.EvalResult{Model: "gpt-4o", CaseID: "dma-001", Attempt: 2}, "c", "gpt-4o/dma-001_2.c"},
		{"bugfix", result.EvalResult{Model: "gpt-4o", CaseID: "dma-001", Attempt: 0, Scenario: "bugfix", Mutation: "drop_volatile"}, "c", "gpt-4o/dma-001_bugfix_drop_volatile_0.c"},
		{"udev", result.EvalResult{Model: "m", CaseID: "linux-userspace-001", Attempt: 1}, "udev", "m/linux-userspace-001_1.rules"},
		{"bitbake", result.EvalResult{Model: "m", CaseID: "yocto-001", Attempt: 1}, "bitbake", "m/yocto-001_1.bb"},
		{"other", result.EvalResult{Model: "..", CaseID: "x-001", Attempt: 1}, "", "_../x-001_1.txt"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, filepath.FromSlash(tc.want), DetailsPath(&tc.res, tc.kind))
		})
	}
}

func TestHistoryIdempotent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, HistoryFile)
	rep, _ := analyse(t, analysisResults(), nil)
	first := Options{RunID: "2026-04-19_a", Generated: "2026-04-19T08:00:00Z"}
	second := Options{RunID: "2026-04-20_b", Generated: "2026-04-20T08:00:00Z"}

	require.NoError(t, AppendHistory(path, rep, second))
	require.NoError(t, AppendHistory(path, rep, first))
	once, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, o := range []Options{first, second, first} {
		require.NoError(t, AppendHistory(path, rep, o))
		again, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Equal(t, string(once), string(again))
	}
	h, err := ReadHistory(path)
	require.NoError(t, err)
	require.Len(t, h, 6)
	require.Equal(t, "2026-04-19_a", h[0].RunID)
	require.Equal(t, "2026-04-20_b", h[5].RunID)
}

func TestHistoryMerge(t *testing.T) {
	e := func(run, date, model string, p float64) HistoryEntry {
		return HistoryEntry{RunID: run, Date: date, Model: model, PassAt1: p}
	}
	tests := []struct {
		name     string
		old, add []HistoryEntry
		want     []HistoryEntry
	}{
		{"empty", nil, nil, []HistoryEntry{}},
		{"append sorted", []HistoryEntry{e("r2", "2", "m", 0.5)}, []HistoryEntry{e("r1", "1", "m", 0.4)},
			[]HistoryEntry{e("r1", "1", "m", 0.4), e("r2", "2", "m", 0.5)}},
		{"same run and model replaced", []HistoryEntry{e("r1", "1", "m", 0.4), e("r1", "1", "n", 0.1)}, []HistoryEntry{e("r1", "1", "m", 0.6)},
			[]HistoryEntry{e("r1", "1", "m", 0.6), e("r1", "1", "n", 0.1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, MergeHistory(tc.old, tc.add))
		})
	}
}

func TestHistoryBadFile(t *testing.T) {
	rep, _ := analyse(t, analysisResults(), nil)
	tests := []struct {
		name, content, wantErr string
	}{
		{"not json", "{", "read history"},
		{"unknown field", `[{"run_id":"r","total_score":1}]`, `unknown field "total_score"`},
		{"trailing data", "[] []", "data after the list"},
		{"object", `{"runs":[]}`, "cannot unmarshal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), HistoryFile)
			require.NoError(t, os.WriteFile(path, []byte(tc.content), 0o644))
			require.ErrorContains(t, AppendHistory(path, rep, analysisOpts), tc.wantErr)
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, tc.content, string(got), "a bad history is never overwritten")
		})
	}
	require.ErrorContains(t, AppendHistory(filepath.Join(t.TempDir(), HistoryFile), rep, Options{}), "run id is required")
}

func TestCodeExt(t *testing.T) {
	for kind, want := range map[string]string{"c": ".c", "kconfig": ".conf", "devicetree": ".overlay", "udev": ".rules", "bitbake": ".bb", "other": ".txt"} {
		require.Equal(t, want, CodeExt(kind), kind)
	}
}

func TestSignedPP(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{0.125, "+12.5 pp"}, {-0.25, "-25.0 pp"}, {0, "+0.0 pp"}, {-0.00001, "+0.0 pp"}} {
		require.Equal(t, tc.want, signedPP(tc.v))
	}
}
