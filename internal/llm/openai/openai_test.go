package openai

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

const testKey = "sk-test-0123456789abcdef"

// completion is a chat.completion body as the OpenAI API sends it.
func completion(content string) string {
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-123", "object": "chat.completion", "created": 1700000000, "model": "gpt-4o-2024-08-06",
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": "stop", "logprobs": nil,
			"message": map[string]any{"role": "assistant", "content": content, "refusal": nil},
		}},
		"usage": map[string]any{"prompt_tokens": 120, "completion_tokens": 45, "total_tokens": 165},
	})
	return string(b)
}

type seen struct {
	method, path, auth, contentType string
	body                            map[string]any
}

func server(t *testing.T, status int, body string, got *seen) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		if got != nil {
			got.method, got.path, got.auth, got.contentType = r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type")
			require.NoError(t, json.Unmarshal(raw, &got.body))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func TestGenerateWireFormat(t *testing.T) {
	table, err := prices.Default()
	require.NoError(t, err)
	for _, tc := range []struct {
		name            string
		maxCompletion   bool
		req             contract.Request
		wantTokensField string
		wantMessages    []any
	}{
		{
			name: "single prompt with system",
			req:  contract.Request{System: "be terse", Prompt: "write blinky", Temperature: 0.2, MaxTokens: 512},
			wantMessages: []any{
				map[string]any{"role": "system", "content": "be terse"},
				map[string]any{"role": "user", "content": "write blinky"},
			},
			wantTokensField: "max_tokens",
		},
		{
			name:          "conversation, max_completion_tokens",
			maxCompletion: true,
			req: contract.Request{Messages: []contract.Message{
				{Role: "user", Content: "a"}, {Role: "assistant", Content: "b"}, {Role: "user", Content: "c"},
			}, Temperature: 0.7, MaxTokens: 100},
			wantMessages: []any{
				map[string]any{"role": "user", "content": "a"},
				map[string]any{"role": "assistant", "content": "b"},
				map[string]any{"role": "user", "content": "c"},
			},
			wantTokensField: "max_completion_tokens",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got seen
			base := server(t, 200, completion("```c\nint x;\n```"), &got)
			m, err := New(Config{Spec: "openai:gpt-4o", Model: "gpt-4o", BaseURL: base, APIKey: testKey, Prices: table, MaxCompletionTokens: tc.maxCompletion})
			require.NoError(t, err)
			reply, err := m.Generate(context.Background(), tc.req)
			require.NoError(t, err)
			require.Equal(t, "```c\nint x;\n```", reply.Text)
			require.Equal(t, contract.Usage{InputTokens: 120, OutputTokens: 45}, reply.Usage)
			require.True(t, reply.CostKnown)
			require.InDelta(t, (120*2.50+45*10.0)/1e6, reply.CostUSD, 1e-12)

			require.Equal(t, http.MethodPost, got.method)
			require.Equal(t, "/v1/chat/completions", got.path)
			require.Equal(t, "Bearer "+testKey, got.auth)
			require.Equal(t, "application/json", got.contentType)
			require.Equal(t, "gpt-4o", got.body["model"])
			require.Equal(t, tc.wantMessages, got.body["messages"])
			require.InDelta(t, tc.req.Temperature, got.body["temperature"], 1e-9)
			require.EqualValues(t, tc.req.MaxTokens, got.body[tc.wantTokensField])
			other := map[string]string{"max_tokens": "max_completion_tokens", "max_completion_tokens": "max_tokens"}[tc.wantTokensField]
			require.NotContains(t, got.body, other)
		})
	}
}

func TestGenerateDefaultsOmitted(t *testing.T) {
	var got seen
	base := server(t, 200, completion("ok"), &got)
	m, err := New(Config{Spec: "openai:llama3", Model: "llama3", BaseURL: base})
	require.NoError(t, err)
	reply, err := m.Generate(context.Background(), contract.Request{Prompt: "p"})
	require.NoError(t, err)
	require.False(t, reply.CostKnown, "no price table")
	require.Empty(t, got.auth, "no key, no Authorization header")
	for _, k := range []string{"temperature", "max_tokens", "max_completion_tokens"} {
		require.NotContains(t, got.body, k)
	}
}

func TestGenerateBadReplies(t *testing.T) {
	emptyChoices := `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":0,"total_tokens":1}}`
	for _, tc := range []struct {
		name    string
		status  int
		body    string
		want    string
		status2 int // StatusError status, 0 when not an HTTP failure
	}{
		{"malformed JSON", 200, `{"id": "x", "choices": [`, "openai: ", 0},
		{"empty choices", 200, emptyChoices, "openai: the reply has no choices", 0},
		{"empty content", 200, completion(""), `openai: the reply is empty (finish_reason "stop")`, 0},
		{"unauthorized", 401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`, "HTTP 401 Unauthorized: Incorrect API key provided", 401},
		{"rate limited", 429, `{"error":{"message":"Rate limit reached","type":"requests"}}`, "HTTP 429 Too Many Requests: Rate limit reached", 429},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(Config{Spec: "openai:m", Model: "m", BaseURL: server(t, tc.status, tc.body, nil), APIKey: testKey})
			require.NoError(t, err)
			_, err = m.Generate(context.Background(), contract.Request{Prompt: "p"})
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
			var se *retry.StatusError
			if tc.status2 == 0 {
				require.NotErrorAs(t, err, &se)
				return
			}
			require.ErrorAs(t, err, &se)
			require.Equal(t, tc.status2, se.Status)
		})
	}
}

func TestRetryAfterHeaders(t *testing.T) {
	for _, tc := range []struct {
		header http.Header
		want   string
	}{
		{http.Header{"Retry-After": {"7"}}, "7"},
		{http.Header{"Retry-After-Ms": {"1500"}, "Retry-After": {"2"}}, "1.5"},
		{http.Header{}, ""},
	} {
		require.Equal(t, tc.want, retryAfter(tc.header))
	}
}
