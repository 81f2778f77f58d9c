package validate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/result"
)

// requirementMessages validates the bad corpus's cases ids and returns, per
// case, its requirement problems as strings.
func requirementMessages(t *testing.T, required bool, ids ...string) (map[string][]string, *Report) {
	t.Helper()
	rep, err := Run(context.Background(), Options{
		CasesDir: badCorpus, Filter: cases.Filter{IDs: ids}, Layers: eval.AllLayers,
		Limits: checks.Limits{MaxSteps: 200_000}, RequireRequirements: required,
	})
	require.NoError(t, err)
	require.Len(t, rep.Cases, len(ids))
	out := map[string][]string{}
	for _, c := range rep.Cases {
		out[c.ID] = []string{}
		for _, p := range c.Problems {
			if p.Rule == RequirementRule {
				out[c.ID] = append(out[c.ID], p.String())
			}
		}
	}
	return out, rep
}

// TestRequirementsAreQuoted validates timer-023, whose checks cite a quote
// spanning a line break and backticks in prompt.md, a quote across Markdown
// emphasis, a quote of a context/ file, a five-word quote, a quote of
// something the prompt does not say, and nothing.
func TestRequirementsAreQuoted(t *testing.T) {
	const dir = "testdata/bad/cases/zephyr/timer-023/checks/"
	got, rep := requirementMessages(t, false, "timer-023", "timer-001")
	require.Equal(t, map[string][]string{
		"timer-001": {},
		"timer-023": {
			dir + `behavior.star: check "timer_period": requirement is not quoted from prompt.md or context/: "Start a 250 ms periodic timer with k_timer_start()." [requirement]`,
			dir + `static.star: check "timer_api_named": requirement has 5 words, want at least 6: "Start a 100 ms periodic" [requirement]`,
		},
	}, got, "timer_started, kernel_header and expiry_short quote correctly; a check citing nothing is fine by default")
	byID := map[string]CaseReport{}
	for _, c := range rep.Cases {
		byID[c.ID] = c
	}
	require.Equal(t, [2]int{5, 6}, [2]int{byID["timer-023"].ChecksWithRequirement, byID["timer-023"].ChecksTotal})
	require.Equal(t, [2]int{0, 2}, [2]int{byID["timer-001"].ChecksWithRequirement, byID["timer-001"].ChecksTotal})
	require.Len(t, byID["timer-023"].Variants, 1, "the accepted variant's records are held to the same rules, and a finding is reported once")
	require.True(t, byID["timer-023"].Variants[0].Passed)

	var js bytes.Buffer
	require.NoError(t, WriteJSON(&js, rep))
	require.Contains(t, js.String(), "\"checks_with_requirement\": 5,\n      \"checks_total\": 6,")
	require.Contains(t, js.String(), "\"checks_with_requirement\": 0,\n      \"checks_total\": 2,")
}

func TestRequireRequirements(t *testing.T) {
	got, _ := requirementMessages(t, true, "timer-023", "timer-001")
	require.Equal(t, []string{
		`testdata/bad/cases/zephyr/timer-001/checks/behavior.star: check "timer_started": no requirement; every check must quote the text of prompt.md or context/ it enforces (--require-requirements) [requirement]`,
		`testdata/bad/cases/zephyr/timer-001/checks/static.star: check "kernel_header": no requirement; every check must quote the text of prompt.md or context/ it enforces (--require-requirements) [requirement]`,
	}, got["timer-001"])
	require.Contains(t, got["timer-023"],
		`testdata/bad/cases/zephyr/timer-023/checks/behavior.star: check "no_busy_wait": no requirement; every check must quote the text of prompt.md or context/ it enforces (--require-requirements) [requirement]`)
	require.Len(t, got["timer-023"], 3, "the two bad quotes and the missing one")
}

func TestNormalizeQuote(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Start a 100 ms\n`k_timer_start()` timer.", "Start a 100 ms ktimerstart() timer."},
		{"  The **must**  be\r\n\tdone _now_.  ", "The must be done now."},
		{"a\u00a0b\u2003c", "a b c"},
		{"Keep Case, and punctuation: (x) - y!", "Keep Case, and punctuation: (x) - y!"},
		{" \n\t ", ""},
	} {
		require.Equal(t, tt.want, normalizeQuote(tt.in), "%q", tt.in)
	}
}

func TestRequirementSourcesAndDedup(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	write("prompt.md", "Blink the LED on GPIO 13 twice per second.\n")
	write("context/boards/pins.md", "The LED is wired active low on this board.\n")
	write("context/.notes.md", "Hidden notes are never part of the prompt text.\n")
	c := &cases.Case{Entry: cases.Entry{Dir: dir}, PromptPath: filepath.Join(dir, "prompt.md")}
	rec := func(file, name string, req *string) citedRecord {
		return citedRecord{file: file, detail: result.CheckDetail{CheckName: name, Passed: true, Requirement: req}}
	}
	recs := []citedRecord{
		rec("s.star", "blink", result.Ptr("Blink the LED on GPIO 13")),
		rec("b.star", "active_low", result.Ptr("The LED is wired active low")),
		rec("b.star", "hidden", result.Ptr("Hidden notes are never part of the prompt")),
		rec("b.star", "case", result.Ptr("blink the LED on GPIO 13")),
		rec("b.star", "bare", nil),
		// The same check on an accepted variant: the same finding once, a
		// different one reported too.
		rec("b.star", "hidden", result.Ptr("Hidden notes are never part of the prompt")),
		rec("b.star", "hidden", result.Ptr("Hidden notes are never part of it")),
	}
	var got []string
	for _, p := range requirementProblems(c, recs, false) {
		got = append(got, p.Message)
	}
	require.Equal(t, []string{
		`check "hidden": requirement is not quoted from prompt.md or context/: "Hidden notes are never part of the prompt"`,
		`check "case": requirement is not quoted from prompt.md or context/: "blink the LED on GPIO 13"`,
		`check "hidden": requirement is not quoted from prompt.md or context/: "Hidden notes are never part of it"`,
	}, got, "nested context files count, hidden ones do not; the match is case-sensitive")

	cited, total := requirementCounts(recs)
	require.Equal(t, [2]int{4, 5}, [2]int{cited, total})

	require.NoError(t, os.Remove(filepath.Join(dir, "prompt.md")))
	ps := requirementProblems(c, []citedRecord{recs[0], recs[1], recs[4]}, true)
	require.Len(t, ps, 2, "an unreadable prompt is one error, and the other rules still apply")
	require.Equal(t, dir, ps[0].File)
	require.Contains(t, ps[0].Message, "cannot read the texts requirements quote: prompt: ")
	require.Equal(t, `b.star: check "bare": no requirement; every check must quote the text of prompt.md or context/ it enforces (--require-requirements) [requirement]`, ps[1].String())
	require.Empty(t, requirementProblems(c, recs[4:5], false), "nothing is read when no record cites")
}
