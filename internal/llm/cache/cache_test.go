package cache

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/llm/contract"
)

// counting is a model that counts its calls and answers with the prompt.
type counting struct {
	calls atomic.Int32
	fail  bool
}

func (c *counting) Name() string { return "openai:m" }

func (c *counting) Generate(_ context.Context, req contract.Request) (contract.Reply, error) {
	c.calls.Add(1)
	if c.fail {
		return contract.Reply{}, errors.New("boom")
	}
	return contract.Reply{Text: "answer to " + req.Prompt, Usage: contract.Usage{InputTokens: 5, OutputTokens: 7},
		CostUSD: 0.25, CostKnown: true, Duration: 1500 * time.Millisecond}, nil
}

var id = Identity{Provider: "openai", Model: "m", BaseURL: "http://127.0.0.1/v1"}

func TestHitAndMiss(t *testing.T) {
	dir := t.TempDir()
	inner := &counting{}
	m := Wrap(inner, dir, id, nil)
	req := contract.Request{Prompt: "p", Attempt: 1}
	first, err := m.Generate(context.Background(), req)
	require.NoError(t, err)
	require.False(t, first.Cached)
	second, err := Wrap(inner, dir, id, nil).Generate(context.Background(), req)
	require.NoError(t, err)
	require.Equal(t, int32(1), inner.calls.Load())
	first.Cached = true
	require.Equal(t, first, second, "the stored reply, marked cached")

	key := Key(id, req)
	require.FileExists(t, filepath.Join(dir, key[:2], key+".json"))
	leftovers, err := filepath.Glob(filepath.Join(dir, key[:2], ".*.tmp-*"))
	require.NoError(t, err)
	require.Empty(t, leftovers, "no temporary files left behind")
}

func TestKeyCoversEveryInput(t *testing.T) {
	base := contract.Request{System: "s", Prompt: "p", Attempt: 1, Temperature: 0.5, MaxTokens: 100}
	keys := map[string]string{"base": Key(id, base)}
	add := func(name string, i Identity, r contract.Request) {
		k := Key(i, r)
		for other, ok := range keys {
			require.NotEqual(t, ok, k, "%s collides with %s", name, other)
		}
		keys[name] = k
	}
	for name, mutate := range map[string]func(*Identity, *contract.Request){
		"provider":    func(i *Identity, _ *contract.Request) { i.Provider = "anthropic" },
		"model":       func(i *Identity, _ *contract.Request) { i.Model = "m2" },
		"base url":    func(i *Identity, _ *contract.Request) { i.BaseURL = "http://other/v1" },
		"system":      func(_ *Identity, r *contract.Request) { r.System = "s2" },
		"prompt":      func(_ *Identity, r *contract.Request) { r.Prompt = "p2" },
		"attempt":     func(_ *Identity, r *contract.Request) { r.Attempt = 2 },
		"temperature": func(_ *Identity, r *contract.Request) { r.Temperature = 0.7 },
		"max tokens":  func(_ *Identity, r *contract.Request) { r.MaxTokens = 200 },
		"conversation": func(_ *Identity, r *contract.Request) {
			r.Messages = []contract.Message{{Role: "user", Content: "p"}, {Role: "assistant", Content: "a"}, {Role: "user", Content: "q"}}
		},
	} {
		i, r := id, base
		mutate(&i, &r)
		add(name, i, r)
	}
	// The same conversation given as Prompt or as one message is one request.
	require.Equal(t, keys["base"], Key(id, contract.Request{System: "s", Messages: []contract.Message{{Role: "user", Content: "p"}}, Attempt: 1, Temperature: 0.5, MaxTokens: 100}))
	// Turn is not part of the key: the conversation already says it.
	turn := base
	turn.Turn = 3
	require.Equal(t, keys["base"], Key(id, turn))
}

func TestCorruptFileIsAMissAndOverwritten(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content string
		warning string
	}{
		{"not JSON", "{garbage", "cache file corrupt"},
		{"other key", `{"version":1,"key":"0000","reply":{"text":"stale"}}`, "cache file does not match its key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var logs bytes.Buffer
			inner := &counting{}
			m := Wrap(inner, dir, id, slog.New(slog.NewTextHandler(&logs, nil)))
			req := contract.Request{Prompt: "p", Attempt: 1}
			path := m.Path(Key(id, req))
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(tc.content), 0o644))

			reply, err := m.Generate(context.Background(), req)
			require.NoError(t, err)
			require.False(t, reply.Cached)
			require.Equal(t, "answer to p", reply.Text)
			require.Contains(t, logs.String(), tc.warning)
			require.Contains(t, logs.String(), path)

			again, err := m.Generate(context.Background(), req)
			require.NoError(t, err)
			require.True(t, again.Cached, "the file was overwritten with a good entry")
			require.Equal(t, int32(1), inner.calls.Load())
		})
	}
}

func TestFailuresAreNotStored(t *testing.T) {
	dir := t.TempDir()
	inner := &counting{fail: true}
	m := Wrap(inner, dir, id, nil)
	for range 2 {
		_, err := m.Generate(context.Background(), contract.Request{Prompt: "p", Attempt: 1})
		require.EqualError(t, err, "boom")
	}
	require.Equal(t, int32(2), inner.calls.Load())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, entries)
}

// fixed answers with a fixed text.
type fixed string

func (fixed) Name() string { return "openai:m" }

func (f fixed) Generate(context.Context, contract.Request) (contract.Reply, error) {
	return contract.Reply{Text: string(f)}, nil
}

func TestOversizedReplyNotStored(t *testing.T) {
	dir := t.TempDir()
	req := contract.Request{Prompt: "p", Attempt: 1}
	m := Wrap(fixed(strings.Repeat("x", 101)), dir, id, nil).WithMaxReplyBytes(100)
	_, err := m.Generate(context.Background(), req)
	require.EqualError(t, err, "model openai:m: model reply exceeds 100 bytes cap (--max-reply-bytes)")
	require.NoFileExists(t, m.Path(Key(id, req)))

	// Stored under a larger cap, the reply is a miss under the smaller one.
	_, err = Wrap(fixed(strings.Repeat("x", 101)), dir, id, nil).Generate(context.Background(), req)
	require.NoError(t, err)
	require.FileExists(t, m.Path(Key(id, req)))
	var logs bytes.Buffer
	inner := &counting{}
	small := Wrap(inner, dir, id, slog.New(slog.NewTextHandler(&logs, nil))).WithMaxReplyBytes(100)
	reply, err := small.Generate(context.Background(), req)
	require.NoError(t, err)
	require.Equal(t, "answer to p", reply.Text)
	require.Equal(t, int32(1), inner.calls.Load())
	require.Contains(t, logs.String(), "cached reply exceeds the reply cap")
}

func TestHugeCacheFileNotRead(t *testing.T) {
	dir := t.TempDir()
	req := contract.Request{Prompt: "p", Attempt: 1}
	var logs bytes.Buffer
	inner := &counting{}
	m := Wrap(inner, dir, id, slog.New(slog.NewTextHandler(&logs, nil))).WithMaxReplyBytes(100)
	path := m.Path(Key(id, req))
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	require.NoError(t, os.Truncate(path, 1<<30)) // sparse: no real bytes
	reply, err := m.Generate(context.Background(), req)
	require.NoError(t, err)
	require.False(t, reply.Cached)
	require.Equal(t, int32(1), inner.calls.Load())
	require.Contains(t, logs.String(), "more than a reply under the 100 bytes cap can take")
}
