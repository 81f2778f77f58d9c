package prompt

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/<name>.golden (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	require.Equal(t, string(want), got)
}

func testCase(t *testing.T) *cases.Case {
	t.Helper()
	dir := filepath.Join("testdata", "case")
	return &cases.Case{
		Entry:         cases.Entry{Dir: dir, Name: "gpio-basic-900"},
		Meta:          cases.Metadata{ID: "gpio-basic-900", SDK: "zephyr", SDKVersion: "4.1.0"},
		PromptPath:    filepath.Join(dir, "prompt.md"),
		ReferencePath: filepath.Join(dir, "reference", "main.c"),
	}
}

func TestGeneration(t *testing.T) {
	c := testCase(t)
	for _, tc := range []struct {
		name   string
		target Target
		opts   Options
	}{
		{"generation", Target{Board: "native_sim"}, Options{}},
		{"generation_pack", Target{Board: "nrf52840dk/nrf52840"}, Options{ContextPack: "API notes:\r\n- use gpio_pin_toggle_dt\r\n"}},
		{"generation_reorder", Target{}, Options{Variant: Reorder}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Generation(c, tc.target, tc.opts)
			require.NoError(t, err)
			golden(t, tc.name, got)
		})
	}
	missing := testCase(t)
	missing.PromptPath = filepath.Join("testdata", "nope.md")
	_, err := Generation(missing, Target{}, Options{})
	require.ErrorContains(t, err, "prompt of gpio-basic-900: read testdata/nope.md: no such file or directory")
}

func TestGenerationFencesContextSafely(t *testing.T) {
	got, err := Generation(testCase(t), Target{}, Options{})
	require.NoError(t, err)
	require.Contains(t, got, "### include/notes.txt\n\n````text\nA line with ``` three backticks inside.\n````\n",
		"a context file holding a fence is wrapped in a longer one")
	require.True(t, strings.HasSuffix(got, "Target board: native_sim\nSDK version: zephyr 4.1.0\n"), got)
}

func TestBugfix(t *testing.T) {
	buggy := "#include <zephyr/kernel.h>\n\nint main(void)\n{\n\tint x = 0;\n\treturn x;\n}\n"
	got, err := Bugfix(testCase(t), Target{Board: "native_sim"}, buggy, Options{})
	require.NoError(t, err)
	golden(t, "bugfix", got)
}

func TestFeedback(t *testing.T) {
	layer0, layer1, layer3 := 0, 1, 3
	for _, tc := range []struct {
		name string
		r    result.EvalResult
	}{
		{"feedback_l0", result.EvalResult{FailedAtLayer: &layer0, Layers: []result.LayerResult{{Layer: 0, Name: "static", Status: result.StatusFailed, Details: []result.CheckDetail{
			{CheckName: "kernel_header", Passed: true, Expected: result.Ptr("present"), Actual: result.Ptr("present")},
			{CheckName: "uses_dt_alias", Passed: false, Expected: result.Ptr("DT_ALIAS(led0)"), Actual: result.Ptr("missing")},
			{CheckName: "no_busy_wait", Passed: false},
		}}}}},
		{"feedback_l1", result.EvalResult{FailedAtLayer: &layer1, Layers: []result.LayerResult{
			{Layer: 0, Name: "static", Status: result.StatusPassed},
			{Layer: 1, Name: "compile", Status: result.StatusFailed, Reason: "build failed:\nsrc/main.c:4:2: error: 'led' undeclared (first use in this function)\n    4 |  led = 1;\n      |  ^~~"},
		}}},
		{"feedback_l3", result.EvalResult{FailedAtLayer: &layer3, Layers: []result.LayerResult{
			{Layer: 3, Name: "heuristic", Status: result.StatusFailed, Details: []result.CheckDetail{{CheckName: "toggle_in_callback", Passed: false, Expected: result.Ptr("gpio_pin_toggle_dt in the callback"), Actual: result.Ptr("in main")}}},
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) { golden(t, tc.name, Feedback(tc.r)) })
	}
	require.Empty(t, Feedback(result.EvalResult{Status: result.StatusPassed}), "nothing failed, nothing to say")
}

func TestVariants(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "case", "prompt.md"))
	require.NoError(t, err)
	for _, v := range Variants() {
		t.Run(v.String(), func(t *testing.T) {
			got := v.Apply(string(raw))
			require.NotEqual(t, string(raw), got, "every variant changes this prompt")
			require.Equal(t, got, v.Apply(string(raw)), "deterministic")
			golden(t, "variant_"+v.String(), got)
		})
	}
	require.Equal(t, string(raw), Original.Apply(string(raw)))
}

func TestVariantEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name    string
		variant Variant
		in      string
		want    string
	}{
		{"reorder without a requirements heading reverses the first list only", Reorder,
			"Do this:\n- a\n- b\n\nThen:\n- c\n- d\n", "Do this:\n- b\n- a\n\nThen:\n- c\n- d\n"},
		{"reorder keeps continuation lines and numbered items", Reorder,
			"## Requirements\n1. one\n   more\n2. two\n", "## Requirements\n2. two\n1. one\n   more\n"},
		{"reorder leaves fenced code alone", Reorder,
			"## Requirements\n```\n- x\n- y\n```\n", "## Requirements\n```\n- x\n- y\n```\n"},
		{"rephrase swaps in one pass and spares code", Rephrase,
			"Write it. Implement it. Create `Write` and Build.\n```\nWrite\n```\nwrite stays\n",
			"Implement it. Write it. Build `Write` and Create.\n```\nWrite\n```\nwrite stays\n"},
		{"remove strips bullets and bold forms, any case", Remove,
			"Task.\n\n- **Output ONLY** the file.\n- keep\n", "Task.\n\n- keep\n"},
		{"remove keeps a prompt without the instruction", Remove, "Task.\n", "Task.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) { require.Equal(t, tc.want, tc.variant.Apply(tc.in)) })
	}
}
