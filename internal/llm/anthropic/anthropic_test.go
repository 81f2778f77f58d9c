package anthropic

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/llm/contract"
	"github.com/embedeval/embedeval-go/internal/llm/prices"
	"github.com/embedeval/embedeval-go/internal/llm/retry"
)

const testKey = "sk-ant-test-0123456789abcdef"

// message is a Messages API response body.
func message(content []any) string {
	b, _ := json.Marshal(map[string]any{
		"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
		"content": content, "stop_reason": "end_turn", "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 200, "output_tokens": 80, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	})
	return string(b)
}

func text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

type seen struct {
	method, path, auth, apiKey, version string
	body                                map[string]any
}

func server(t *testing.T, status int, body string, got *seen) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		if got != nil {
			got.method, got.path = r.Method, r.URL.Path
			got.auth, got.apiKey, got.version = r.Header.Get("Authorization"), r.Header.Get("X-Api-Key"), r.Header.Get("Anthropic-Version")
			require.NoError(t, json.Unmarshal(raw, &got.body))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestGenerateWireFormat(t *testing.T) {
	table, err := prices.Default()
	require.NoError(t, err)
	for _, tc := range []struct {
		name          string
		req           contract.Request
		wantMaxTokens float64
		wantSystem    any
		wantMessages  []any
	}{
		{
			name:          "prompt with system and limit",
			req:           contract.Request{System: "be terse", Prompt: "write blinky", Temperature: 0.3, MaxTokens: 1024},
			wantMaxTokens: 1024,
			wantSystem:    []any{map[string]any{"type": "text", "text": "be terse"}},
			wantMessages: []any{
				map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "write blinky"}}},
			},
		},
		{
			name: "conversation, default limit",
			req: contract.Request{Messages: []contract.Message{
				{Role: "user", Content: "a"}, {Role: "assistant", Content: "b"}, {Role: "user", Content: "c"},
			}},
			wantMaxTokens: DefaultMaxTokens,
			wantMessages: []any{
				map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "a"}}},
				map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "b"}}},
				map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "c"}}},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got seen
			base := server(t, 200, message([]any{text("Here:\n"), map[string]any{"type": "thinking", "thinking": "hmm", "signature": "s"}, text("```c\nint x;\n```")}), &got)
			m, err := New(Config{Spec: "anthropic:claude-sonnet-4-5", Model: "claude-sonnet-4-5", BaseURL: base, APIKey: testKey, Prices: table})
			require.NoError(t, err)
			reply, err := m.Generate(context.Background(), tc.req)
			require.NoError(t, err)
			require.Equal(t, "Here:\n```c\nint x;\n```", reply.Text, "text blocks joined, thinking left out")
			require.Equal(t, contract.Usage{InputTokens: 200, OutputTokens: 80}, reply.Usage)
			require.True(t, reply.CostKnown)
			require.InDelta(t, (200*3.0+80*15.0)/1e6, reply.CostUSD, 1e-12)

			require.Equal(t, http.MethodPost, got.method)
			require.Equal(t, "/v1/messages", got.path)
			require.Equal(t, "Bearer "+testKey, got.auth, "this SDK version sends the API key as a bearer token")
			require.Empty(t, got.apiKey)
			require.Equal(t, "2026-10-21", got.version)
			require.Equal(t, "claude-sonnet-4-5", got.body["model"])
			require.InDelta(t, tc.wantMaxTokens, got.body["max_tokens"], 0)
			require.Equal(t, tc.wantMessages, got.body["messages"])
			require.Equal(t, tc.wantSystem, got.body["system"])
			require.NotContains(t, got.body, "temperature", "the API version has no temperature")
		})
	}
}

func TestGenerateBadReplies(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		body   string
		want   string
		httpSt int
	}{
		{"malformed JSON", 200, `{"id":"msg","content":[{"type":"text"`, "anthropic: ", 0},
		{"empty content", 200, message([]any{}), `anthropic: the reply has no text (stop_reason "end_turn", 0 content blocks)`, 0},
		{"blank text", 200, message([]any{text("  \n")}), `anthropic: the reply has no text`, 0},
		{"unauthorized", 401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`, "HTTP 401 Unauthorized: invalid x-api-key", 401},
		{"overloaded", 529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "HTTP 529: Overloaded", 529},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(Config{Spec: "anthropic:m", Model: "m", BaseURL: server(t, tc.status, tc.body, nil), APIKey: testKey})
			require.NoError(t, err)
			_, err = m.Generate(context.Background(), contract.Request{Prompt: "p"})
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
			var se *retry.StatusError
			if tc.httpSt == 0 {
				require.NotErrorAs(t, err, &se)
				return
			}
			require.ErrorAs(t, err, &se)
			require.Equal(t, tc.httpSt, se.Status)
		})
	}
}

func TestNewNeedsKeyAndModel(t *testing.T) {
	_, err := New(Config{Model: "m"})
	require.EqualError(t, err, "anthropic: no API key")
	_, err = New(Config{APIKey: testKey})
	require.EqualError(t, err, "anthropic: empty model id")
}
