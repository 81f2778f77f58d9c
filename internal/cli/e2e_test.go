package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/result"
)

func readResults(t *testing.T, path string) []result.EvalResult {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []result.EvalResult
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var r result.EvalResult
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		out = append(out, r)
	}
	require.NoError(t, sc.Err())
	return out
}

// comparable drops what legitimately differs between a run and its replay:
// the model's name and wall-clock durations.
func comparable(t *testing.T, rs []result.EvalResult) string {
	t.Helper()
	for i := range rs {
		rs[i].Model = ""
		rs[i].TotalTimeSeconds, rs[i].GenerationSeconds = 0, 0
		for j := range rs[i].Layers {
			rs[i].Layers[j].DurationSeconds = 0
		}
	}
	data, err := json.Marshal(rs)
	require.NoError(t, err)
	return string(data)
}

// TestReplayReproducesARun records every reply of a run and replays it: every
// result field the model output determines comes back byte for byte.
func TestReplayReproducesARun(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "replies.jsonl")
	code, _, errOut := runCLI(t, "run", "--cases", badCorpus, "--case", "timer-001,timer-019", "--model", "mock", "--model", "reference",
		"--samples", "2", "--output-dir", dir, "--run-id", "rec", "--replay-record", rec)
	require.Equal(t, ExitOK, code, errOut)
	recorded := readResults(t, filepath.Join(dir, "runs", "rec", "results.jsonl"))
	require.Len(t, recorded, 8)

	// Replay the reference model's part of the recording.
	refOnly := filepath.Join(dir, "reference.jsonl")
	data, err := os.ReadFile(rec)
	require.NoError(t, err)
	var kept []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.Contains(line, `"model":"reference"`) {
			kept = append(kept, line)
		}
	}
	require.Len(t, kept, 4)
	require.NoError(t, os.WriteFile(refOnly, []byte(strings.Join(kept, "\n")+"\n"), 0o644))
	code, _, errOut = runCLI(t, "run", "--cases", badCorpus, "--case", "timer-001,timer-019", "--model", "replay:"+refOnly,
		"--samples", "2", "--output-dir", dir, "--run-id", "replayed")
	require.Equal(t, ExitOK, code, errOut)
	replayed := readResults(t, filepath.Join(dir, "runs", "replayed", "results.jsonl"))

	var original []result.EvalResult
	for _, r := range recorded {
		if r.Model == "reference" {
			original = append(original, r)
		}
	}
	require.Equal(t, comparable(t, original), comparable(t, replayed))
}

// TestOpenAIProviderEndToEnd runs the real openai: provider against a local
// server speaking the chat-completions wire format.
func TestOpenAIProviderEndToEnd(t *testing.T) {
	ref, err := os.ReadFile(filepath.Join(badCorpus, "zephyr", "timer-001", "reference", "main.c"))
	require.NoError(t, err)
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		require.Equal(t, "/v1/chat/completions", r.URL.Path)
		require.Equal(t, "Bearer sk-test", r.Header.Get("Authorization"))
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		require.NoError(t, json.Unmarshal(body, &req))
		require.Equal(t, "coder-1", req.Model)
		require.Contains(t, req.Messages[len(req.Messages)-1].Content, "Target board: native_sim")
		reply := "Here you go:\n\n```c\n" + string(ref) + "```\n"
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "c1", "object": "chat.completion", "created": 1, "model": req.Model,
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": reply}}},
			"usage":   map[string]any{"prompt_tokens": 120, "completion_tokens": 80, "total_tokens": 200},
		})
	}))
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", "sk-test")
	dir := t.TempDir()
	args := []string{"run", "--cases", badCorpus, "--case", "timer-001", "--model", "openai:coder-1", "--base-url", srv.URL + "/v1",
		"--output-dir", dir, "--run-id", "oa", "--cache-dir", filepath.Join(dir, "cache")}
	code, out, errOut := runCLI(t, args...)
	require.Equal(t, ExitOK, code, errOut)
	require.Contains(t, out, "openai:coder-1: 1 results, 1 passed")
	rs := readResults(t, filepath.Join(dir, "runs", "oa", "results.jsonl"))
	require.Len(t, rs, 1)
	require.Equal(t, result.StatusPassed, rs[0].Status)
	require.Equal(t, &result.TokenUsage{InputTokens: 120, OutputTokens: 80}, rs[0].TokenUsage)
	require.Equal(t, int32(1), calls.Load())

	// A second run with another id is answered from the response cache.
	args[len(args)-3] = "oa2"
	code, _, errOut = runCLI(t, args...)
	require.Equal(t, ExitOK, code, errOut)
	require.Equal(t, int32(1), calls.Load(), "a cache hit makes no request")
}
