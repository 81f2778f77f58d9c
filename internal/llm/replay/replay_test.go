package replay

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/llm/contract"
)

func caseWithID(id string) *cases.Case {
	c := &cases.Case{}
	c.Meta.ID = id
	return c
}

func write(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "replies.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

func TestGenerateByKey(t *testing.T) {
	path := write(t, `{"case_id":"a","attempt":1,"reply":"first","input_tokens":10,"output_tokens":20}

{"case_id":"a","attempt":1,"turn":1,"model":"openai:gpt-4o","reply":"second turn","input_tokens":1,"output_tokens":2,"cost_usd":0.5}
{"case_id":"a","attempt":2,"turn":0,"reply":"","input_tokens":0,"output_tokens":0}
`)
	m, err := Open("replay:"+path, path, 0)
	require.NoError(t, err)
	require.Equal(t, "replay:"+path, m.Name())
	require.Equal(t, 3, m.Len())
	for _, tc := range []struct {
		req  contract.Request
		want contract.Reply
	}{
		{contract.Request{Case: caseWithID("a"), Attempt: 1}, contract.Reply{Text: "first", Usage: contract.Usage{InputTokens: 10, OutputTokens: 20}}},
		{contract.Request{Case: caseWithID("a"), Attempt: 1, Turn: 1}, contract.Reply{Text: "second turn", Usage: contract.Usage{InputTokens: 1, OutputTokens: 2}, CostUSD: 0.5, CostKnown: true}},
		{contract.Request{Case: caseWithID("a"), Attempt: 2}, contract.Reply{}},
	} {
		got, err := m.Generate(context.Background(), tc.req)
		require.NoError(t, err)
		require.Equal(t, tc.want, got)
	}
	_, err = m.Generate(context.Background(), contract.Request{Case: caseWithID("b"), Attempt: 1})
	require.EqualError(t, err, "replay: "+path+" has no reply for case b attempt 1 turn 0")
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`{"case_id":"a","attempt":1,"reply":"x"}` + "\n" + `{"case_id":"a","attempt":1,"reply":"y"}`, "r.jsonl:2: case a attempt 1 turn 0 is already recorded at line 1"},
		{`{"case_id":"a","attempt":1,"reply":"x"` + "\n", "r.jsonl:1: unexpected EOF"},
		{"\n\nnot json\n", "r.jsonl:3: invalid character 'o' in literal null (expecting 'u')"},
		{`{"case_id":"a","attempt":1,"reply":"x","temperature":0}`, `r.jsonl:1: json: unknown field "temperature"`},
		{`{"case_id":"a","attempt":1}`, "r.jsonl:1: missing field reply"},
		{`{"case_id":"a","reply":"x"}`, "r.jsonl:1: missing field attempt"},
		{`{"attempt":1,"reply":"x"}`, "r.jsonl:1: case_id is empty"},
		{`{"case_id":"a","attempt":0,"reply":"x"}`, "r.jsonl:1: attempt is 0 (expected 1 or more)"},
		{`{"case_id":"a","attempt":1,"turn":-1,"reply":"x"}`, "r.jsonl:1: turn is -1 (expected 0 or more)"},
		{`{"case_id":"a","attempt":1,"reply":"x"} {"case_id":"b"}`, "r.jsonl:1: more than one JSON value on the line"},
		{`{"case_id":"a","attempt":"1","reply":"x"}`, "r.jsonl:1: json: cannot unmarshal string into Go struct field"},
	} {
		_, err := Parse(strings.NewReader(tc.src), "r.jsonl", 0)
		require.Error(t, err, tc.src)
		require.Contains(t, err.Error(), tc.want, tc.src)
	}
}

func TestParseReplyCap(t *testing.T) {
	line := func(reply string) string {
		return `{"case_id":"a","attempt":1,"reply":"` + reply + `"}` + "\n"
	}
	entries, err := Parse(strings.NewReader(line(strings.Repeat("x", 100))), "r.jsonl", 100)
	require.NoError(t, err, "a reply at the cap is taken")
	require.Len(t, entries[Key{CaseID: "a", Attempt: 1}].Reply, 100)

	_, err = Parse(strings.NewReader(line(strings.Repeat("x", 101))), "r.jsonl", 100)
	require.EqualError(t, err, "r.jsonl:1: model reply exceeds 100 bytes cap (--max-reply-bytes)")
	require.ErrorAs(t, err, new(*contract.ReplyTooLargeError))

	// A line too long to hold a reply under the cap is not read whole.
	_, err = Parse(strings.NewReader(line(strings.Repeat("x", 1<<20))), "r.jsonl", 100)
	require.ErrorContains(t, err, "r.jsonl:1: bufio.Scanner: token too long")
}

// NewEntry records the reply to a request, for Append.
func NewEntry(model string, req contract.Request, reply contract.Reply) Entry {
	return Entry{
		CaseID:       req.CaseID(),
		Attempt:      req.Attempt,
		Turn:         req.Turn,
		Model:        model,
		Reply:        reply.Text,
		InputTokens:  reply.Usage.InputTokens,
		OutputTokens: reply.Usage.OutputTokens,
		CostUSD:      reply.CostUSD,
	}
}

func TestAppendRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	var wg sync.WaitGroup
	for i := 1; i <= 20; i++ {
		wg.Go(func() {
			req := contract.Request{Case: caseWithID("zephyr-gpio-001"), Attempt: i, Turn: i % 3}
			reply := contract.Reply{Text: "```c\nint x;\n```\n\"quoted\"", Usage: contract.Usage{InputTokens: i, OutputTokens: 2 * i}, CostUSD: 0.01}
			require.NoError(t, w.Append(NewEntry("openai:gpt-4o", req, reply)))
		})
	}
	wg.Wait()
	require.Equal(t, 20, strings.Count(buf.String(), "\n"), "one line per entry")
	entries, err := Parse(&buf, "mem", 0)
	require.NoError(t, err)
	require.Len(t, entries, 20)
	e := entries[Key{CaseID: "zephyr-gpio-001", Attempt: 7, Turn: 1}]
	require.Equal(t, Entry{CaseID: "zephyr-gpio-001", Attempt: 7, Turn: 1, Model: "openai:gpt-4o",
		Reply: "```c\nint x;\n```\n\"quoted\"", InputTokens: 7, OutputTokens: 14, CostUSD: 0.01}, e)
}

func TestAppendRefusesBadEntries(t *testing.T) {
	var buf bytes.Buffer
	require.EqualError(t, Append(&buf, Entry{Attempt: 1}), "replay entry: case_id is empty")
	require.EqualError(t, Append(&buf, Entry{CaseID: "a"}), "replay entry: attempt is 0 (expected 1 or more)")
	require.Empty(t, buf.String())
}

func FuzzParse(f *testing.F) {
	f.Add(`{"case_id":"a","attempt":1,"reply":"x"}`)
	f.Add("\n{}\n")
	f.Fuzz(func(t *testing.T, src string) {
		entries, err := Parse(strings.NewReader(src), "f", 0)
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "f:"), "errors name the file: %v", err)
			return
		}
		for k, e := range entries {
			require.Equal(t, k, Key{e.CaseID, e.Attempt, e.Turn})
			require.NotEmpty(t, e.CaseID)
		}
	})
}

// TestNameIsTheRecordedModel: a replay file whose entries all record one
// model is named by it (leaderboards, PR bodies and charts then show the
// model, not the file's path); mixed or missing names keep the spec.
func TestNameIsTheRecordedModel(t *testing.T) {
	one := write(t, `{"case_id":"a","attempt":1,"model":"openai:gpt-4o","reply":"x","input_tokens":1,"output_tokens":1}
{"case_id":"b","attempt":1,"model":"openai:gpt-4o","reply":"y","input_tokens":1,"output_tokens":1}
`)
	m, err := Open("replay:"+one, one, 0)
	require.NoError(t, err)
	require.Equal(t, "openai:gpt-4o", m.Name())

	mixed := write(t, `{"case_id":"a","attempt":1,"model":"openai:gpt-4o","reply":"x","input_tokens":1,"output_tokens":1}
{"case_id":"b","attempt":1,"model":"anthropic:claude","reply":"y","input_tokens":1,"output_tokens":1}
`)
	m, err = Open("replay:"+mixed, mixed, 0)
	require.NoError(t, err)
	require.Equal(t, "replay:"+mixed, m.Name())

	empty := write(t, "")
	m, err = Open("replay:"+empty, empty, 0)
	require.NoError(t, err)
	require.Equal(t, "replay:"+empty, m.Name())
}
