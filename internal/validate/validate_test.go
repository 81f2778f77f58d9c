package validate

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/result"
)

var update = flag.Bool("update", false, "rewrite golden files")

// badCorpus holds one good case and one case per kind of bad input, each
// with its exact expected message in testdata/bad/want.txt.
const badCorpus = "testdata/bad/cases"

func runBad(t *testing.T, filter cases.Filter) *Report {
	t.Helper()
	rep, err := Run(context.Background(), Options{
		CasesDir: badCorpus, Filter: filter, Layers: eval.AllLayers, Jobs: 2,
		Limits: checks.Limits{MaxSteps: 200_000},
	})
	require.NoError(t, err)
	return rep
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}

func TestBadInputsExactMessages(t *testing.T) {
	rep := runBad(t, cases.Filter{})
	var out bytes.Buffer
	require.NoError(t, WriteText(&out, rep, true))
	golden(t, "testdata/bad/want.txt", out.Bytes())
	require.False(t, rep.OK())
}

func TestOneBrokenCaseDoesNotStopOthers(t *testing.T) {
	rep := runBad(t, cases.Filter{})
	byID := map[string]CaseReport{}
	for _, c := range rep.Cases {
		byID[c.ID] = c
	}
	good := byID["timer-001"]
	require.True(t, good.OK, "the good case validates among the broken ones: %v", good.Problems)
	require.Equal(t, &Coverage{Checks: []string{"kernel_header", "timer_started"}, Defended: []string{"kernel_header", "timer_started"}, Undefended: []string{}}, good.Coverage)
	require.Len(t, good.Negatives, 2)
	require.Equal(t, 22, rep.Summary.Cases)
	require.Equal(t, 1, rep.Summary.OK)
}

func TestValidateIsDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	require.NoError(t, WriteJSON(&a, runBad(t, cases.Filter{})))
	require.NoError(t, WriteJSON(&b, runBad(t, cases.Filter{})))
	require.Equal(t, a.String(), b.String())
}

func TestLayerSelection(t *testing.T) {
	set, err := eval.ParseLayers("L0")
	require.NoError(t, err)
	rep, err := Run(context.Background(), Options{CasesDir: badCorpus, Filter: cases.Filter{IDs: []string{"timer-016"}}, Layers: set})
	require.NoError(t, err)
	require.Len(t, rep.Cases, 1)
	c := rep.Cases[0]
	require.True(t, c.OK, "with only L0 selected, the broken negative is not exercised: %v", c.Problems)
	require.Equal(t, "not selected (--layers)", c.Layers[4].Reason)
	require.Equal(t, "not selected (--layers)", c.Layers[3].Reason)
}

func TestHugeReferenceIsRejected(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(badCorpus, "zephyr", "timer-001")
	dst := filepath.Join(dir, "zephyr", "timer-001")
	copyTree(t, src, dst)
	huge := strings.Repeat("/* filler */\n", 10<<20/13+1)
	require.NoError(t, os.WriteFile(filepath.Join(dst, "reference", "main.c"), []byte(huge), 0o644))
	rep, err := Run(context.Background(), Options{CasesDir: dir})
	require.NoError(t, err)
	require.Len(t, rep.Cases, 1)
	require.Len(t, rep.Cases[0].Problems, 1)
	require.Equal(t, fmt.Sprintf("%s: file is %d bytes; the limit is 1048576 bytes [layout]", filepath.Join(dst, "reference", "main.c"), len(huge)), rep.Cases[0].Problems[0].String())
}

func copyTree(t interface {
	require.TestingT
	Helper()
}, src, dst string) {
	t.Helper()
	require.NoError(t, filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		return os.WriteFile(target, data, 0o644)
	}))
}

// TestBundledCorpusValidates keeps the repository's own cases valid: every
// case passes, every check is defended by a must_fail negative, every case
// ships an accepted variant that passes and is not a near-copy of the
// reference, and every case carries its settled blind set.
func TestBundledCorpusValidates(t *testing.T) {
	// The corpus policy: every check quotes its requirement, every check is
	// defended by a must_fail negative, every case has at least 2 blind
	// accepts that pass and 3 blind rejects each caught by a check it names.
	rep, err := Run(context.Background(), Options{CasesDir: "../../cases", RequireRequirements: true, RequireBlind: true})
	require.NoError(t, err)
	require.NotEmpty(t, rep.Cases)
	for _, c := range rep.Cases {
		var errs []string
		for _, p := range c.Problems {
			if p.Severity == "error" || p.Rule == SimilarityRule {
				errs = append(errs, p.String())
			}
		}
		require.True(t, c.OK, "%s: %v", c.ID, errs)
		require.NotNil(t, c.Coverage, c.ID)
		require.Empty(t, c.Coverage.Undefended, "%s: checks no negative defends", c.ID)
		require.NotEmpty(t, c.Variants, "%s: no accepted variant", c.ID)
		require.Equal(t, c.ChecksTotal, c.ChecksWithRequirement, "%s: checks without a requirement", c.ID)
		b := c.Blind
		require.GreaterOrEqual(t, b.Accepts, 2, "%s: blind accepts", c.ID)
		require.GreaterOrEqual(t, b.Rejects, 3, "%s: blind rejects", c.ID)
		require.Equal(t, b.Accepts, b.AcceptsPassed, "%s: blind accepts that fail", c.ID)
		// Rejects only a layer catches are judged by TestLocalPlatformsForReal,
		// which runs L1 and L2.
		require.Equal(t, b.Rejects, b.RejectsCaught+b.RejectsNotJudged, "%s: blind rejects not caught by a check they name", c.ID)
		require.Zero(t, b.Pending, "%s: blind solutions awaiting adjudication (checks/blind.yaml)", c.ID)
	}
	require.Empty(t, rep.Problems)
}

func TestMinCoverage(t *testing.T) {
	run := func(min float64) []string {
		rep, err := Run(context.Background(), Options{CasesDir: badCorpus, Filter: cases.Filter{IDs: []string{"timer-011"}},
			Layers: eval.LayerSet(0b11001), MinCoverage: min})
		require.NoError(t, err)
		require.Len(t, rep.Cases, 1)
		var out []string
		for _, p := range rep.Cases[0].Problems {
			if p.Rule == "coverage" {
				out = append(out, p.Message)
			}
		}
		return out
	}
	require.Empty(t, run(0), "not enforced by default")
	require.Empty(t, run(50), "1 of 2 defended is 50%")
	require.Equal(t, []string{"L4 coverage 1/2 (50.0%) is below the required 100%: no must_fail negative defends timer_started"}, run(100))
}

// TestInconclusiveIsNotACatch validates a case whose behavior checks say
// "inconclusive" on what they cannot decide: a Kconfig period in the
// reference, a call through a function pointer in one mutant.
func TestInconclusiveIsNotACatch(t *testing.T) {
	rep, err := Run(context.Background(), Options{CasesDir: "testdata/inconclusive/cases", Layers: eval.AllLayers})
	require.NoError(t, err)
	require.Len(t, rep.Cases, 1)
	c := rep.Cases[0]
	require.Equal(t, LayerSummary{Layer: 0, Name: "static_analysis", Status: "passed"}, c.Layers[0])
	require.Equal(t, LayerSummary{Layer: 3, Name: "static_heuristic", Status: "passed", Reason: "1 check inconclusive"}, c.Layers[3],
		"an inconclusive check does not fail the reference")
	require.Equal(t, "1 seeded bug(s) not caught by the checks they name (1 inconclusive on the mutant)", c.Layers[4].Reason)
	require.Equal(t, []NegativeReport{
		{Name: "no_header", Outcome: "applied", MustFail: []result.CheckVerdict{{CheckName: "kernel_header", Caught: true}}},
		{Name: "blink_too_slow", Outcome: "applied", MustFail: []result.CheckVerdict{{CheckName: "period_in_range", Caught: true}}},
		{Name: "sleep_via_pointer", Outcome: "applied", MustFail: []result.CheckVerdict{{CheckName: "sleep_called", Inconclusive: true}}},
	}, c.Negatives, "a known period out of range is caught despite the unknown one; a check made inconclusive is not")
	var msgs []string
	for _, p := range c.Problems {
		msgs = append(msgs, p.String())
	}
	require.Equal(t, []string{
		`testdata/inconclusive/cases/zephyr/timer-001/checks/negatives.star:17:23: negative "sleep_via_pointer": must_fail check "sleep_called" is inconclusive on the mutated reference, which is not a catch [negatives]`,
	}, msgs)
	require.False(t, c.OK)
}
