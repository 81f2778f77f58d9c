package validate

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/eval"
)

func TestRejectHeader(t *testing.T) {
	defect, names, ok := rejectHeader("/* defect: sleeps in the GPIO callback\n * breaks: \"...\"\n * must_fail: callback_does_not_block, x\n */\nint main(void) {}\n")
	assert.True(t, ok)
	assert.Equal(t, "sleeps in the GPIO callback", defect)
	assert.Equal(t, []string{"callback_does_not_block", "x"}, names)
	_, _, ok = rejectHeader("int main(void) {}\n")
	assert.False(t, ok)
	_, names, ok = rejectHeader("# must_fail: L1\nSRC_URI = \"x\"\n")
	assert.True(t, ok)
	assert.Equal(t, []string{"L1"}, names)
}

// blindFreeCopy copies the bundled gpio-basic-001 into root without its own
// blind set.
func blindFreeCopy(t *testing.T, root string) string {
	dir := filepath.Join(root, "zephyr", "gpio-basic-001")
	copyTree(t, "../../cases/zephyr/gpio-basic-001", dir)
	blind, err := filepath.Glob(filepath.Join(dir, "checks", "accept", "blind-*"))
	require.NoError(t, err)
	for _, p := range append(blind, filepath.Join(dir, "checks", "reject"), filepath.Join(dir, "checks", "blind.yaml")) {
		require.NoError(t, os.RemoveAll(p))
	}
	return dir
}

func TestBlindSolutionsAreJudged(t *testing.T) {
	root := t.TempDir()
	dir := blindFreeCopy(t, root)
	ref, err := os.ReadFile(filepath.Join(dir, "reference", "main.c"))
	require.NoError(t, err)
	sleepy := strings.Replace(string(ref), "\tgpio_pin_toggle_dt(&led);\n", "\tgpio_pin_toggle_dt(&led);\n\tk_msleep(20);\n", 1)
	require.NotEqual(t, string(ref), sleepy)
	write := func(rel, text string) {
		p := filepath.Join(dir, "checks", rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	write("accept/blind-1.c", string(ref))
	write("reject/blind-1.c", "/* defect: sleeps in the callback\n * must_fail: callback_does_not_block\n */\n"+sleepy)
	write("reject/blind-2.c", "/* defect: sleeps in the callback\n * must_fail: edge_triggered_interrupt\n */\n"+sleepy)
	write("reject/blind-3.c", "/* defect: none at all\n * must_fail: callback_does_not_block\n */\n"+string(ref))
	write("reject/blind-4.c", "/* defect: names nothing */\n"+sleepy)
	write("reject/blind-5.c", "/* must_fail: no_such_check */\n"+sleepy)
	write("reject/blind-6.c", "/* defect: only the run shows it\n * must_fail: L2\n */\n"+string(ref))

	set, err := eval.ParseLayers("L0,L3,L4")
	require.NoError(t, err)
	rep, err := Run(context.Background(), Options{CasesDir: root, Layers: set, Filter: cases.Filter{IDs: []string{"gpio-basic-001"}}, RequireBlind: true})
	require.NoError(t, err)
	require.Len(t, rep.Cases, 1)
	c := rep.Cases[0]
	require.Len(t, c.Rejects, 6)
	assert.True(t, c.Rejects[0].Caught)
	assert.Equal(t, []string{"callback_does_not_block"}, c.Rejects[0].CaughtBy)
	assert.False(t, c.Rejects[1].Caught, "failed, but not on its named check")
	assert.Contains(t, c.Rejects[1].FailedOther, "callback_does_not_block")
	assert.False(t, c.Rejects[2].Caught)
	assert.Empty(t, c.Rejects[2].FailedOther)
	assert.Equal(t, []string{"L2"}, c.Rejects[5].NotRun, "L2 is not selected: the reject is not judged, neither caught nor missed")
	assert.False(t, c.Rejects[5].Caught)
	assert.Equal(t, BlindCounts{Accepts: 1, AcceptsPassed: 1, Rejects: 6, RejectsCaught: 1, RejectsWrong: 2, RejectsMissed: 1, RejectsInvalid: 1, RejectsNotJudged: 1, FirstRound: map[string]int{}}, c.Blind)
	var msgs []string
	for _, p := range c.Problems {
		// The record of who wrote what is TestBlindRecord's subject.
		if p.Rule == BlindRule && !strings.Contains(p.Message, "no entry in checks/blind.yaml") {
			msgs = append(msgs, filepath.Base(p.File)+": "+p.Message)
		}
	}
	sort.Strings(msgs)
	assert.Equal(t, []string{
		"blind-2.c: rejected solution is caught for another reason: callback_does_not_block failed, not the named edge_triggered_interrupt",
		"blind-3.c: rejected solution passes: none of callback_does_not_block fails on it",
		"blind-4.c: rejected solution has no \"must_fail: <check>[, <check>]\" line in its first 40 lines",
		"blind-5.c: must_fail names \"no_such_check\", which is not a check of this case",
		"blind-5.c: rejected solution is caught for another reason: callback_does_not_block failed, not the named no_such_check",
		"blind-6.c: rejected solution not judged here: L2 did not run (no named check failed on it)",
		"gpio-basic-001: case has 1 blind accepts and 6 blind rejects, want at least 2 and 3 (checks/accept/blind-<n>.<ext>, checks/reject/blind-<n>.<ext>)",
	}, msgs)
	assert.False(t, c.OK)
}

// TestScenarioRejectsNeedL2 validates a bundled case whose blind rejects are
// caught only by scenario runs, without L2: they are not judged here (the
// real-toolchain test judges them), neither caught nor missed.
func TestScenarioRejectsNeedL2(t *testing.T) {
	set, err := eval.ParseLayers("L0,L3,L4")
	require.NoError(t, err)
	rep, err := Run(context.Background(), Options{CasesDir: "../../cases", Layers: set, Filter: cases.Filter{IDs: []string{"ota-005"}}, RequireBlind: true})
	require.NoError(t, err)
	require.Len(t, rep.Cases, 1)
	c := rep.Cases[0]
	require.True(t, c.OK, "%v", c.Problems)
	require.Len(t, c.Rejects, 3)
	for _, r := range c.Rejects {
		assert.False(t, r.Caught, r.File)
		assert.NotEmpty(t, r.NotRun, r.File)
		for _, n := range r.NotRun {
			assert.True(t, strings.HasPrefix(n, "scenario_"), "%s: %s", r.File, n)
		}
	}
	assert.Equal(t, 3, c.Blind.RejectsNotJudged)
}

func TestBlindRecord(t *testing.T) {
	root := t.TempDir()
	dir := blindFreeCopy(t, root)
	ref, err := os.ReadFile(filepath.Join(dir, "reference", "main.c"))
	require.NoError(t, err)
	write := func(rel, text string) {
		p := filepath.Join(dir, "checks", rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	write("reject/blind-1.c", "/* defect: none\n * must_fail: callback_does_not_block\n */\n"+string(ref))
	write("accept/blind-1.c", string(ref))
	problems := func() []string {
		set, err := eval.ParseLayers("L0,L3")
		require.NoError(t, err)
		rep, err := Run(context.Background(), Options{CasesDir: root, Layers: set, Filter: cases.Filter{IDs: []string{"gpio-basic-001"}}})
		require.NoError(t, err)
		var out []string
		for _, p := range rep.Cases[0].Problems {
			if strings.HasPrefix(p.Rule, BlindRule) {
				out = append(out, string(p.Severity)+" "+filepath.Base(p.File)+": "+p.Message)
			}
		}
		sort.Strings(out)
		return out
	}
	assert.Equal(t, []string{
		"error blind-1.c: blind solution has no entry in checks/blind.yaml (author, first_round, decision)",
		"error blind-1.c: blind solution has no entry in checks/blind.yaml (author, first_round, decision)",
		"error blind-1.c: rejected solution passes: none of callback_does_not_block fails on it",
	}, problems())
	write("blind.yaml", "solutions:\n  - file: accept/blind-1.c\n    author: a1\n    first_round: passed\n    decision: kept\n"+
		"  - file: reject/blind-1.c\n    author: a2\n    first_round: missed\n    decision: pending\n    reason: the check reads spelling\n"+
		"  - file: reject/blind-9.c\n    author: a2\n")
	assert.Equal(t, []string{
		"error blind.yaml: reject/blind-9.c is listed but not present",
		"warning blind-1.c: pending adjudication: rejected solution passes: none of callback_does_not_block fails on it",
	}, problems())
	write("blind.yaml", "solutions:\n  - file: accept/blind-1.c\n    author: \"\"\n  - file: other/x.c\n    author: a\n  - file: reject/blind-1.c\n    author: a\n    decision: maybe\n")
	got := problems()
	assert.Contains(t, got, "error blind.yaml: accept/blind-1.c: author missing (a short id of who wrote it)")
	assert.Contains(t, got, "error blind.yaml: file \"other/x.c\" is not accept/blind-<n>.<ext> or reject/blind-<n>.<ext>")
	assert.Contains(t, got, "error blind.yaml: reject/blind-1.c: decision \"maybe\" is not one of pending, kept, check-fixed, check-added, moved-to-reject, moved-to-accept, prompt-fixed")
}
