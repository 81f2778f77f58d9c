package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/embedeval/embedeval-go/internal/llm/replay"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/llm"
	"github.com/embedeval/embedeval-go/internal/prompt"
	"github.com/embedeval/embedeval-go/internal/result"
)

// bundled is the corpus shipped with the repository.
const bundled = "../../cases"

func bundledCases(t *testing.T, ids ...string) []*cases.Case {
	t.Helper()
	sel := cases.LoadCorpus(bundled, "").Select(cases.Filter{IDs: ids})
	require.Len(t, sel, len(ids))
	return sel
}

// staticLayers keeps the tests independent of the toolchains on the machine.
func staticLayers(t *testing.T) eval.LayerSet {
	t.Helper()
	set, err := eval.ParseLayers("L0,L3,L4")
	require.NoError(t, err)
	return set
}

// fakeModel answers with a function of the request and records every request.
type fakeModel struct {
	name   string
	answer func(req llm.Request) (llm.Reply, error)
	mu     sync.Mutex
	reqs   []llm.Request
}

func (m *fakeModel) Name() string { return m.name }

func (m *fakeModel) Generate(_ context.Context, req llm.Request) (llm.Reply, error) {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	m.mu.Unlock()
	return m.answer(req)
}

func (m *fakeModel) calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.reqs)
}

func reference(t *testing.T, c *cases.Case) string {
	t.Helper()
	data, err := os.ReadFile(c.ReferencePath)
	require.NoError(t, err)
	return string(data)
}

func fenced(code string) llm.Reply {
	return llm.Reply{Text: "Here you are:\n```\n" + code + "```\n", Usage: llm.Usage{InputTokens: 100, OutputTokens: 10}, CostUSD: 0.5, Duration: 2 * time.Second}
}

func TestFeedbackRounds(t *testing.T) {
	sel := bundledCases(t, "kconfig-001")
	ref := reference(t, sel[0])
	broken := "CONFIG_I2C=y\n"
	for _, tc := range []struct {
		name       string
		rounds     int
		wantStatus result.Status
		wantRounds int
		wantCalls  int
	}{
		{"a broken first answer is fixed in one round", 3, result.StatusPassed, 1, 2},
		{"without rounds the first answer stands", 0, result.StatusFailed, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &fakeModel{name: "fake", answer: func(req llm.Request) (llm.Reply, error) {
				if req.Turn == 0 {
					return fenced(broken), nil
				}
				return fenced(ref), nil
			}}
			var replies []ReplayRecord
			rs, err := Run(context.Background(), Options{Cases: sel, Model: m, FeedbackRounds: tc.rounds, Layers: staticLayers(t),
				OnReply: func(r ReplayRecord) { replies = append(replies, r) }})
			require.NoError(t, err)
			require.Len(t, rs, 1)
			r := rs[0]
			require.Equal(t, tc.wantStatus, r.Status)
			require.Equal(t, tc.wantRounds, r.FeedbackRounds)
			require.Zero(t, r.Turns)
			require.Equal(t, tc.wantCalls, m.calls())
			require.Equal(t, &result.TokenUsage{InputTokens: 100 * tc.wantCalls, OutputTokens: 10 * tc.wantCalls}, r.TokenUsage)
			require.InDelta(t, 0.5*float64(tc.wantCalls), r.CostUSD, 1e-9)
			require.InDelta(t, 2*float64(tc.wantCalls), r.GenerationSeconds, 1e-9)
			require.Len(t, replies, tc.wantCalls)
			if tc.wantCalls == 2 {
				second := m.reqs[1]
				require.Equal(t, 1, second.Turn)
				require.Len(t, second.Messages, 3)
				require.Equal(t, m.reqs[0].Prompt, second.Messages[0].Content, "the original task opens the conversation")
				require.Equal(t, "assistant", second.Messages[1].Role)
				require.Contains(t, second.Messages[2].Content, "Your code failed the static checks (L0).")
				require.Contains(t, second.Messages[2].Content, "Fix the code")
				require.Equal(t, 1, replies[1].Turn)
			}
		})
	}
}

func TestFeedbackRoundsIgnoreLaterLayers(t *testing.T) {
	// Only L0/L1 failures get feedback rounds; agent mode answers any layer.
	sel := bundledCases(t, "kconfig-001")
	calls := 0
	rs, err := Run(context.Background(), Options{Cases: sel, Layers: staticLayers(t), FeedbackRounds: 2,
		Model: &fakeModel{name: "fake", answer: func(llm.Request) (llm.Reply, error) { calls++; return fenced("CONFIG_I2C=y\n"), nil }}})
	require.NoError(t, err)
	require.Equal(t, 3, calls, "an L0 failure uses every round")
	require.Equal(t, 2, rs[0].FeedbackRounds)
	require.Equal(t, result.StatusFailed, rs[0].Status)
}

func TestAgentMode(t *testing.T) {
	sel := bundledCases(t, "gpio-basic-001")
	ref := reference(t, sel[0])
	for _, tc := range []struct {
		name       string
		maxTurns   int
		wantStatus result.Status
		wantTurns  int
	}{
		{"fixed on the third turn", 5, result.StatusPassed, 3},
		{"out of turns", 2, result.StatusFailed, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &fakeModel{name: "agent", answer: func(req llm.Request) (llm.Reply, error) {
				switch req.Turn {
				case 0:
					return llm.Reply{Text: llm.MockReply}, nil
				case 1:
					// Passes L0 but not L3: agent feedback covers every layer.
					return fenced(strings.ReplaceAll(ref, "GPIO_INT_EDGE_TO_ACTIVE", "GPIO_INT_LEVEL_ACTIVE")), nil
				}
				return fenced(ref), nil
			}}
			rs, err := Run(context.Background(), Options{Cases: sel, Model: m, MaxTurns: tc.maxTurns, Layers: staticLayers(t)})
			require.NoError(t, err)
			require.Equal(t, tc.wantStatus, rs[0].Status)
			require.Equal(t, tc.wantTurns, rs[0].Turns)
			require.Zero(t, rs[0].FeedbackRounds)
			if tc.maxTurns > 2 {
				require.Contains(t, m.reqs[2].Messages[4].Content, "(L3)", "the L3 failure of turn 2 is fed back")
				require.Contains(t, m.reqs[2].Messages[4].Content, "edge_triggered_interrupt")
			}
		})
	}
}

func TestBugfixScenario(t *testing.T) {
	sel := bundledCases(t, "kconfig-001")
	ref, err := llm.New("reference")
	require.NoError(t, err)
	m := &fakeModel{name: "reference", answer: func(req llm.Request) (llm.Reply, error) { return ref.Generate(context.Background(), req) }}
	rs, err := Run(context.Background(), Options{Cases: sel, Model: m, Scenario: Bugfix, Samples: 2, Layers: staticLayers(t)})
	require.NoError(t, err)
	rt, err := checks.NewRuntime(checks.Limits{}, nil)
	require.NoError(t, err)
	cc, ps := eval.LoadCaseChecks(context.Background(), rt, sel[0])
	require.Empty(t, ps)
	require.Len(t, rs, 2*len(cc.Negatives.Negatives), "every negative of kconfig-001 changes the reference")
	for _, r := range rs {
		require.Equal(t, "bugfix", r.Scenario)
		require.NotEmpty(t, r.Mutation)
		require.Equal(t, result.StatusPassed, r.Status, "the reference fixes every seeded bug: %s", r.Mutation)
	}
	var immediate string
	for _, req := range m.reqs {
		if strings.Contains(req.Prompt, "CONFIG_LOG_MODE_IMMEDIATE=y") {
			immediate = req.Prompt
		}
	}
	require.NotEmpty(t, immediate, "the immediate_log_mode mutant is in a prompt")
	require.Contains(t, immediate, "contains a bug")
	require.Contains(t, immediate, "Output the complete fixed prj.conf")
	require.NotContains(t, immediate, "CONFIG_LOG_MODE_DEFERRED=y", "the prompt holds the mutated reference, not the original")
}

func TestInfraErrors(t *testing.T) {
	sel := bundledCases(t, "kconfig-001", "gpio-basic-001")
	down := errors.New("503 service unavailable")
	m := &fakeModel{name: "flaky", answer: func(req llm.Request) (llm.Reply, error) {
		if req.Case.Meta.ID == "kconfig-001" {
			return llm.Reply{}, down
		}
		return llm.Reply{Text: llm.MockReply}, nil
	}}
	rs, err := Run(context.Background(), Options{Cases: sel, Model: m, Layers: staticLayers(t)})
	require.NoError(t, err)
	require.Len(t, rs, 2)
	require.Equal(t, "gpio-basic-001", rs[0].CaseID)
	require.Equal(t, result.StatusFailed, rs[0].Status)
	bad := rs[1]
	require.Equal(t, result.StatusError, bad.Status, "a model that cannot answer is an error, never a failure")
	require.False(t, bad.Passed)
	require.Contains(t, bad.InfraError, "503 service unavailable")
	require.Nil(t, bad.FailedAtLayer)
	s := Summarize(rs)
	rate, judged := s.PassRate()
	require.Equal(t, 1, s.Errors)
	require.Equal(t, 1, judged, "errors are not judged")
	require.Zero(t, rate)

	// An error in a feedback round is an error too, not the earlier failure.
	m2 := &fakeModel{name: "flaky2", answer: func(req llm.Request) (llm.Reply, error) {
		if req.Turn > 0 {
			return llm.Reply{}, down
		}
		return llm.Reply{Text: llm.MockReply}, nil
	}}
	rs, err = Run(context.Background(), Options{Cases: sel[:1], Model: m2, FeedbackRounds: 2, Layers: staticLayers(t)})
	require.NoError(t, err)
	require.Equal(t, result.StatusError, rs[0].Status)
	require.Contains(t, rs[0].InfraError, "(turn 1)")
	require.Equal(t, 1, rs[0].FeedbackRounds)
}

func TestSeveralModelsAndPrompt(t *testing.T) {
	sel := bundledCases(t, "kconfig-001")
	a := &fakeModel{name: "a", answer: func(llm.Request) (llm.Reply, error) { return llm.Reply{Text: llm.MockReply}, nil }}
	b := &fakeModel{name: "b", answer: func(llm.Request) (llm.Reply, error) { return llm.Reply{Text: llm.MockReply}, nil }}
	rs, err := Run(context.Background(), Options{Cases: sel, Models: []llm.Model{b, a}, Samples: 2, Temperature: 0.7, MaxTokens: 512,
		Prompt: prompt.Options{ContextPack: "PACK"}, Layers: staticLayers(t)})
	require.NoError(t, err)
	var got []string
	for _, r := range rs {
		got = append(got, KeyOf(r).String())
	}
	require.Equal(t, []string{"a kconfig-001 #1", "a kconfig-001 #2", "b kconfig-001 #1", "b kconfig-001 #2"}, got)
	req := a.reqs[0]
	require.Equal(t, 0.7, req.Temperature)
	require.Equal(t, 512, req.MaxTokens)
	require.True(t, strings.HasPrefix(req.Prompt, "PACK\n"))
	require.Contains(t, req.Prompt, "Target board: native_sim\nSDK version: zephyr 4.1.0\n")

	_, err = Run(context.Background(), Options{Cases: sel, Models: []llm.Model{a, a}})
	require.EqualError(t, err, `model "a" is given twice`)
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	require.NoError(t, sc.Err())
	return out
}

func TestResumeInProcess(t *testing.T) {
	sel := bundledCases(t, "kconfig-001", "gpio-basic-001")
	dir := t.TempDir()
	m := &fakeModel{name: "counting", answer: func(llm.Request) (llm.Reply, error) { return llm.Reply{Text: llm.MockReply}, nil }}
	ro := RunOptions{Models: []string{"counting"}, Samples: 5, Scenario: "generation", Layers: "L0,L3,L4"}
	man := NewManifest("r1", "test", ro, sel, time.Unix(0, 0))

	// First attempt: interrupted after 3 results.
	arch, err := OpenArchive(dir, man, nil)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err = Run(ctx, Options{Cases: sel, Model: m, Samples: 5, Jobs: 1, Layers: staticLayers(t), Archive: arch,
		OnResult: func(result.EvalResult) {
			if n++; n == 3 {
				cancel()
			}
		}})
	require.ErrorContains(t, err, "run interrupted")
	require.NoError(t, arch.Close())
	first := readLines(t, filepath.Join(dir, "runs", "r1", ResultsFile))
	// The worker may finish one more unit before it sees the cancellation.
	require.GreaterOrEqual(t, len(first), 3, "finished results are on disk")
	require.Less(t, len(first), 10, "the run was interrupted")
	callsBefore := m.calls()

	// A torn last line from a crash mid-write.
	path := filepath.Join(dir, "runs", "r1", ResultsFile)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"case_id":"kconfig-001","mod`)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	// Resume: a new options value is refused, naming it.
	other := ro
	other.Samples = 6
	_, err = OpenArchive(dir, NewManifest("r1", "test", other, sel, time.Now()), nil)
	require.ErrorIs(t, err, ErrOptionsDiffer)
	require.ErrorContains(t, err, "samples: run has 5, now 6")
	_, err = OpenArchive(dir, NewManifest("r1", "test", ro, sel[:1], time.Now()), nil)
	require.ErrorContains(t, err, "cases of the run not selected now: kconfig-001")

	var warnings []string
	arch, err = OpenArchive(dir, NewManifest("r1", "test2", ro, sel, time.Now()), func(s string) { warnings = append(warnings, s) })
	require.NoError(t, err)
	require.Len(t, arch.Previous(), len(first))
	require.Len(t, warnings, 2)
	require.Contains(t, warnings[0], "started by embedeval test; resuming with test2")
	require.Contains(t, warnings[1], fmt.Sprintf("results.jsonl:%d: incomplete last line", len(first)+1))
	fresh := 0
	all, err := Run(context.Background(), Options{Cases: sel, Model: m, Samples: 5, Jobs: 2, Layers: staticLayers(t), Archive: arch,
		OnResult: func(result.EvalResult) { fresh++ }})
	require.NoError(t, err)
	require.Equal(t, 10-len(first), fresh, "only what was not finished is done")
	require.Equal(t, callsBefore+10-len(first), m.calls())
	require.NoError(t, arch.Finish(all))
	final := readLines(t, path)
	require.Len(t, final, 10)
	seen := map[Key]bool{}
	for _, l := range final {
		var r result.EvalResult
		require.NoError(t, json.Unmarshal([]byte(l), &r))
		require.False(t, seen[KeyOf(r)], "duplicate %s", KeyOf(r))
		seen[KeyOf(r)] = true
	}
	for _, l := range first {
		require.Contains(t, final, l, "a result finished before the interruption is kept as it was")
	}
	man2 := arch.Manifest()
	require.Len(t, man2.ResumedAt, 1)
	require.Equal(t, time.Unix(0, 0).UTC(), man2.StartedAt)
}

func TestJournalRejectsACorruptMiddleLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ResultsFile)
	good := `{"case_id":"a","model":"m","attempt":1,"status":"passed"}` + "\n"
	for _, tc := range []struct {
		name, content, wantErr string
		wantLen                int
		wantSize               int
	}{
		{"corrupt middle line", good + "garbage\n" + good, "results.jsonl:2: invalid result record", 0, 0},
		{"invalid complete last line is torn", good + "{\"case_id\":\n", "", 1, len(good)},
		{"duplicates keep the first", good + good, "", 1, 2 * len(good)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(path, []byte(tc.content), 0o644))
			rs, err := readJournal(path, func(string) {})
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				raw, _ := os.ReadFile(path)
				require.Equal(t, tc.content, string(raw), "a corrupt file is not touched")
				return
			}
			require.NoError(t, err)
			require.Len(t, rs, tc.wantLen)
			st, err := os.Stat(path)
			require.NoError(t, err)
			require.EqualValues(t, tc.wantSize, st.Size())
		})
	}
}

// TestJournalOfAnOlderBinary: a results.jsonl whose layers carry the short
// names of earlier versions (static, heuristic, ...) resumes, and its
// records take the seed's names, which the final rewrite writes.
func TestJournalOfAnOlderBinary(t *testing.T) {
	path := filepath.Join(t.TempDir(), ResultsFile)
	line := `{"case_id":"a","model":"m","attempt":1,"status":"failed","passed":false,"failed_at_layer":3,"layers":[` +
		`{"layer":0,"name":"static","passed":true,"status":"passed","details":[]},` +
		`{"layer":3,"name":"heuristic","passed":false,"status":"failed","details":[]},` +
		`{"layer":4,"name":"mutation","passed":false,"status":"skipped","details":[]}]}` + "\n"
	require.NoError(t, os.WriteFile(path, []byte(line), 0o644))
	rs, err := readJournal(path, func(w string) { t.Errorf("unexpected warning: %s", w) })
	require.NoError(t, err)
	require.Len(t, rs, 1)
	var names []string
	for _, l := range rs[0].Layers {
		names = append(names, l.Name)
	}
	require.Equal(t, []string{"static_analysis", "static_heuristic", "test_quality_proof"}, names)
}

func TestTracker(t *testing.T) {
	dir := t.TempDir()
	sel := bundledCases(t, "kconfig-001", "gpio-basic-001", "timer-001")
	tr, err := LoadTracker(dir)
	require.NoError(t, err)
	require.Len(t, tr.Changed(sel), 3, "nothing run yet: everything")
	tr.Record("r1", sel, []result.EvalResult{
		{CaseID: "gpio-basic-001", Status: result.StatusPassed},
		{CaseID: "kconfig-001", Status: result.StatusPassed},
		{CaseID: "kconfig-001", Status: result.StatusFailed},
		{CaseID: "timer-001", Status: result.StatusError},
	})
	require.NoError(t, tr.Save(dir))
	back, err := LoadTracker(dir)
	require.NoError(t, err)
	byID := map[string]*cases.Case{}
	for _, c := range sel {
		byID[c.Meta.ID] = c
	}
	require.Equal(t, TrackerEntry{Hash: byID["kconfig-001"].Hash, LastRunID: "r1", Passed: false}, back["kconfig-001"])
	require.True(t, back["gpio-basic-001"].Passed)
	_, ok := back["timer-001"]
	require.False(t, ok, "a case with only errors is not recorded, so it is retried")
	changed := *byID["kconfig-001"]
	changed.Hash = "sha256:other"
	var ids []string
	for _, c := range back.Changed([]*cases.Case{byID["gpio-basic-001"], &changed, byID["timer-001"]}) {
		ids = append(ids, c.Meta.ID)
	}
	require.Equal(t, []string{"kconfig-001", "timer-001"}, ids)
}

func TestProgress(t *testing.T) {
	clock := time.Unix(1000, 0)
	now := func() time.Time { return clock }
	var plain strings.Builder
	p := NewProgress(&plain, false, func(r result.EvalResult) string { return "line " + r.CaseID }, now)
	p.Start(2)
	p.Add(result.EvalResult{CaseID: "a", Status: result.StatusPassed})
	require.Equal(t, "line a\n", plain.String())

	var tty strings.Builder
	p = NewProgress(&tty, true, nil, now)
	p.Start(4)
	clock = clock.Add(10 * time.Second)
	p.Add(result.EvalResult{Status: result.StatusPassed})
	p.Add(result.EvalResult{Status: result.StatusError})
	require.Equal(t, "[2/4] pass 100.0% (1/1 judged)  errors 1  ETA 10s", p.Status())
	p.Add(result.EvalResult{Status: result.StatusFailed})
	p.Finish()
	require.Equal(t, "\r\x1b[K[1/4] pass 100.0% (1/1 judged)  errors 0  ETA 30s"+
		"\r\x1b[K[2/4] pass 100.0% (1/1 judged)  errors 1  ETA 10s"+
		"\r\x1b[K[3/4] pass 50.0% (1/2 judged)  errors 1  ETA 3s\n", tty.String())
}

func TestReplayLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "replay.jsonl")
	l, err := OpenReplayLog(path)
	require.NoError(t, err)
	l.Write(ReplayRecord{CaseID: "a", Attempt: 1, Turn: 0, Model: "m", Reply: "x", InputTokens: 3, OutputTokens: 4, CostUSD: 0.0125})
	l.Write(ReplayRecord{CaseID: "a", Attempt: 1, Turn: 1, Model: "m", Reply: "y", InputTokens: 5, OutputTokens: 6})
	require.NoError(t, l.Close())
	require.Equal(t, []string{
		`{"case_id":"a","attempt":1,"model":"m","reply":"x","input_tokens":3,"output_tokens":4,"cost_usd":0.0125}`,
		`{"case_id":"a","attempt":1,"turn":1,"model":"m","reply":"y","input_tokens":5,"output_tokens":6}`,
	}, readLines(t, path))
	// The replay model reads the cost back: a replayed run costs what the
	// recorded one did, not $0.
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	entries, err := replay.Parse(f, path, 0)
	require.NoError(t, err)
	require.Equal(t, 0.0125, entries[replay.Key{CaseID: "a", Attempt: 1, Turn: 0}].CostUSD)

	// A record the replay model could not read back is refused, and the
	// error is kept for Close.
	bad, err := OpenReplayLog(filepath.Join(t.TempDir(), "bad.jsonl"))
	require.NoError(t, err)
	bad.Write(ReplayRecord{CaseID: "a", Attempt: 0})
	require.ErrorContains(t, bad.Close(), "attempt is 0")
}

func TestSensitivity(t *testing.T) {
	sel := bundledCases(t, "kconfig-001", "gpio-basic-001")
	refs := map[string]string{}
	for _, c := range sel {
		refs[c.Meta.ID] = reference(t, c)
	}
	// The model passes only when told to output only the file.
	m := &fakeModel{name: "fussy", answer: func(req llm.Request) (llm.Reply, error) {
		if strings.Contains(req.Prompt, "Output only") {
			return fenced(refs[req.Case.Meta.ID]), nil
		}
		return llm.Reply{Text: llm.MockReply}, nil
	}}
	rep, err := Sensitivity(context.Background(), Options{Cases: sel, Model: m, Layers: staticLayers(t)}, prompt.Variants(), 7)
	require.NoError(t, err)
	require.Equal(t, []string{"reorder", "rephrase", "remove"}, rep.Variants)
	require.Len(t, rep.Cases, 2)
	require.Equal(t, "gpio-basic-001", rep.Cases[0].CaseID)
	for _, c := range rep.Cases {
		require.Equal(t, result.StatusPassed, c.Original)
		require.Equal(t, result.StatusFailed, c.Variants[2].Status, "remove strips the instruction")
		require.False(t, *c.Variants[2].Agrees)
		require.InDelta(t, 2.0/3.0, *c.Robustness, 1e-9)
	}
	require.InDelta(t, 2.0/3.0, *rep.MeanRobustness, 1e-9)
	require.Equal(t, 8, m.calls(), "two cases × (original + three variants)")
}

func TestSampleCases(t *testing.T) {
	var cs []*cases.Case
	for _, id := range []string{"e-001", "a-001", "d-001", "c-001", "b-001", "f-001", "g-001", "h-001"} {
		cs = append(cs, &cases.Case{Meta: cases.Metadata{ID: id}})
	}
	ids := func(sel []*cases.Case) []string {
		var out []string
		for _, c := range sel {
			out = append(out, c.Meta.ID)
		}
		return out
	}
	a := ids(SampleCases(cs, 3, 1))
	require.Len(t, a, 3)
	require.IsNonDecreasing(t, a)
	require.Equal(t, a, ids(SampleCases(cs, 3, 1)), "same seed, same sample")
	differs := false
	for seed := uint64(2); seed < 10; seed++ {
		if strings.Join(ids(SampleCases(cs, 3, seed)), ",") != strings.Join(a, ",") {
			differs = true
		}
	}
	require.True(t, differs, "the seed matters")
	require.Equal(t, []string{"a-001", "b-001", "c-001", "d-001", "e-001", "f-001", "g-001", "h-001"}, ids(SampleCases(cs, 0, 1)))
}
