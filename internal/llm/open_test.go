package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
)

const (
	openaiKey    = "sk-proj-TESTKEY-abcdef0123456789"
	anthropicKey = "sk-ant-api03-TESTKEY-abcdef0123456789"
)

// wire is one provider's wire format: where requests go, how a good answer
// looks, and how the key arrives.
type wire struct {
	name    string
	spec    string
	path    string
	envKey  string
	envBase string
	key     string
	// base turns the server URL into the provider's base URL.
	base func(url string) string
	// ok is a successful response body with the given text.
	ok func(text string) string
}

func wires() []wire {
	return []wire{
		{
			name: "openai", spec: "openai:gpt-4o", path: "/v1/chat/completions",
			envKey: EnvOpenAIKey, envBase: EnvOpenAIBaseURL, key: openaiKey,
			base: func(u string) string { return u + "/v1" },
			ok: func(text string) string {
				b, _ := json.Marshal(map[string]any{
					"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o-2024-08-06",
					"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
						"message": map[string]any{"role": "assistant", "content": text}}},
					"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 20, "total_tokens": 30},
				})
				return string(b)
			},
		},
		{
			name: "anthropic", spec: "anthropic:claude-sonnet-4-5", path: "/v1/messages",
			envKey: EnvAnthropicKey, envBase: EnvAnthropicBaseURL, key: anthropicKey,
			base: func(u string) string { return u },
			ok: func(text string) string {
				b, _ := json.Marshal(map[string]any{
					"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
					"content": []any{map[string]any{"type": "text", "text": text}}, "stop_reason": "end_turn",
					"usage": map[string]any{"input_tokens": 10, "output_tokens": 20},
				})
				return string(b)
			},
		},
	}
}

// response is one scripted answer of the fake API.
type response struct {
	status int
	header http.Header
	body   string
	// hang blocks until the client gives up.
	hang bool
}

// fakeAPI serves scripted responses in order (the last one repeats), counts
// requests and measures the most in flight at once.
type fakeAPI struct {
	t        *testing.T
	w        wire
	mu       sync.Mutex
	script   []response
	requests int
	bodies   []map[string]any
	auth     []string
	inFlight atomic.Int32
	maxIn    atomic.Int32
	// hold, when set, keeps each request until that many are in flight (or
	// a second passes), so a broken limit shows as a larger maximum.
	hold int32
	url  string
}

func newFakeAPI(t *testing.T, w wire, script ...response) *fakeAPI {
	f := &fakeAPI{t: t, w: w, script: script}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	f.url = srv.URL
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	n := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	for {
		m := f.maxIn.Load()
		if n <= m || f.maxIn.CompareAndSwap(m, n) {
			break
		}
	}
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	f.mu.Lock()
	i := f.requests
	f.requests++
	f.bodies = append(f.bodies, body)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	resp := f.script[min(i, len(f.script)-1)]
	f.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != f.w.path {
		http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	if f.hold > 0 {
		deadline := time.Now().Add(time.Second)
		for f.inFlight.Load() < f.hold && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if resp.hang {
		<-r.Context().Done()
		return
	}
	for k, v := range resp.header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(resp.status)
	_, _ = io.WriteString(w, resp.body)
}

func (f *fakeAPI) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

// env returns a getenv with the provider's key and base URL.
func (f *fakeAPI) env() func(string) string {
	vars := map[string]string{f.w.envKey: f.w.key, f.w.envBase: f.w.base(f.url)}
	return func(k string) string { return vars[k] }
}

// sleeps records the backoff waits instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return nil
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

func testCase() *cases.Case {
	c := &cases.Case{}
	c.Meta.ID = "zephyr-gpio-001"
	return c
}

func TestOpenSuccessThroughEnvironment(t *testing.T) {
	// The process environment points elsewhere: only the injected getenv
	// may be read, by us and by the SDKs.
	for _, k := range []string{EnvOpenAIBaseURL, EnvAnthropicBaseURL} {
		t.Setenv(k, "http://127.0.0.1:1/wrong")
	}
	for _, k := range []string{EnvOpenAIKey, EnvAnthropicKey, "ANTHROPIC_AUTH_TOKEN"} {
		t.Setenv(k, "sk-wrong-process-environment")
	}
	for _, w := range wires() {
		t.Run(w.name, func(t *testing.T) {
			api := newFakeAPI(t, w, response{status: 200, body: w.ok("```c\nint x;\n```")})
			m, err := Open(w.spec, Options{Getenv: api.env()})
			require.NoError(t, err)
			require.Equal(t, w.spec, m.Name())
			reply, err := m.Generate(context.Background(), Request{Case: testCase(), Prompt: "write it", Attempt: 1, MaxTokens: 300})
			require.NoError(t, err)
			require.Equal(t, "int x;\n", ExtractFor(reply.Text, "c"))
			require.Equal(t, Usage{InputTokens: 10, OutputTokens: 20}, reply.Usage)
			require.True(t, reply.CostKnown)
			require.Positive(t, reply.CostUSD)
			require.False(t, reply.Cached)
			require.Equal(t, 1, api.count())
			require.Equal(t, "Bearer "+w.key, api.auth[0])
			require.EqualValues(t, 300, api.bodies[0]["max_tokens"], "a server other than api.openai.com gets max_tokens")
		})
	}
}

func TestOpenBaseURLOptionWinsOverEnvironment(t *testing.T) {
	for _, w := range wires() {
		t.Run(w.name, func(t *testing.T) {
			api := newFakeAPI(t, w, response{status: 200, body: w.ok("ok")})
			env := map[string]string{w.envKey: w.key, w.envBase: "http://127.0.0.1:1/nowhere"}
			m, err := Open(w.spec, Options{Getenv: func(k string) string { return env[k] }, BaseURL: w.base(api.url)})
			require.NoError(t, err)
			_, err = m.Generate(context.Background(), Request{Prompt: "p", Attempt: 1})
			require.NoError(t, err)
			require.Equal(t, 1, api.count())
		})
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, w := range wires() {
		for _, tc := range []struct {
			name  string
			value string
			want  time.Duration
		}{
			{"seconds", "7", 7 * time.Second},
			{"HTTP date", now.Add(30 * time.Second).Format(http.TimeFormat), 30 * time.Second},
		} {
			t.Run(w.name+"/"+tc.name, func(t *testing.T) {
				api := newFakeAPI(t, w,
					response{status: 429, header: http.Header{"Retry-After": {tc.value}}, body: `{"error":{"message":"slow down","type":"rate_limit_error"}}`},
					response{status: 200, body: w.ok("ok")})
				var s sleeps
				m, err := Open(w.spec, Options{Getenv: api.env(), Sleep: s.sleep, Now: func() time.Time { return now }, Rand: func() float64 { return 0.999 }})
				require.NoError(t, err)
				reply, err := m.Generate(context.Background(), Request{Prompt: "p", Attempt: 1})
				require.NoError(t, err)
				require.Equal(t, "ok", reply.Text)
				require.Equal(t, 2, api.count())
				require.Equal(t, []time.Duration{tc.want}, s.all())
			})
		}
	}
}

func TestServerErrorsUntilInfraError(t *testing.T) {
	for _, w := range wires() {
		t.Run(w.name, func(t *testing.T) {
			api := newFakeAPI(t, w, response{status: 500, body: `{"error":{"message":"internal","type":"api_error"}}`})
			var s sleeps
			m, err := Open(w.spec, Options{Getenv: api.env(), MaxRetries: 3, Sleep: s.sleep, Rand: func() float64 { return 0.5 }})
			require.NoError(t, err)
			_, err = m.Generate(context.Background(), Request{Prompt: "p", Attempt: 1})
			var infra *InfraError
			require.ErrorAs(t, err, &infra)
			require.Equal(t, 4, infra.Attempts)
			require.Equal(t, 500, infra.Status)
			require.True(t, infra.Retryable)
			require.Equal(t, 4, api.count(), "only our retries: the SDK's are off")
			require.Equal(t, []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}, s.all(),
				"full jitter over base·2ⁿ, here at half the ceiling")
			require.Equal(t, fmt.Sprintf("model %s: gave up after 4 attempts (last status 500): HTTP 500 Internal Server Error: internal", w.spec), err.Error())
		})
	}
}

func TestNotRetried(t *testing.T) {
	for _, w := range wires() {
		for _, tc := range []struct {
			name   string
			resp   response
			status int
			want   string
		}{
			{"unauthorized", response{status: 401, body: `{"error":{"message":"invalid key","type":"authentication_error"}}`}, 401, "HTTP 401 Unauthorized: invalid key"},
			{"bad request", response{status: 400, body: `{"error":{"message":"max_tokens too large","type":"invalid_request_error"}}`}, 400, "HTTP 400 Bad Request"},
			{"malformed JSON", response{status: 200, body: `{"id": "x", "content": [`}, 0, "after 1 attempt"},
		} {
			t.Run(w.name+"/"+tc.name, func(t *testing.T) {
				api := newFakeAPI(t, w, tc.resp)
				var s sleeps
				m, err := Open(w.spec, Options{Getenv: api.env(), Sleep: s.sleep})
				require.NoError(t, err)
				_, err = m.Generate(context.Background(), Request{Prompt: "p", Attempt: 1})
				var infra *InfraError
				require.ErrorAs(t, err, &infra)
				require.Equal(t, 1, infra.Attempts)
				require.Equal(t, tc.status, infra.Status)
				require.False(t, infra.Retryable)
				require.Contains(t, err.Error(), tc.want)
				require.Equal(t, 1, api.count())
				require.Empty(t, s.all())
			})
		}
	}
}

func TestRetryableStatuses(t *testing.T) {
	for _, status := range []int{408, 409, 429, 502, 503, 529} {
		w := wires()[0]
		api := newFakeAPI(t, w, response{status: status, body: `{"error":{"message":"x"}}`}, response{status: 200, body: w.ok("ok")})
		var s sleeps
		m, err := Open(w.spec, Options{Getenv: api.env(), Sleep: s.sleep})
		require.NoError(t, err)
		_, err = m.Generate(context.Background(), Request{Prompt: "p", Attempt: 1})
		require.NoError(t, err, "status %d", status)
		require.Equal(t, 2, api.count(), "status %d", status)
	}
}

func TestHangingServerTimesOut(t *testing.T) {
	for _, w := range wires() {
		t.Run(w.name, func(t *testing.T) {
			api := newFakeAPI(t, w, response{hang: true})
			var s sleeps
			m, err := Open(w.spec, Options{Getenv: api.env(), Timeout: 150 * time.Millisecond, MaxRetries: 1, Sleep: s.sleep})
			require.NoError(t, err)
			_, err = m.Generate(context.Background(), Request{Prompt: "p", Attempt: 1})
			var infra *InfraError
			require.ErrorAs(t, err, &infra)
			require.True(t, infra.Retryable)
			require.Equal(t, 2, infra.Attempts)
			require.Zero(t, infra.Status)
			require.Contains(t, err.Error(), "no answer within the per-call timeout of 150ms")
			require.Equal(t, 2, api.count())
		})
	}
}

func TestCallerCancellationStops(t *testing.T) {
	w := wires()[0]
	api := newFakeAPI(t, w, response{status: 503, body: `{}`})
	ctx, cancel := context.WithCancel(context.Background())
	m, err := Open(w.spec, Options{Getenv: api.env(), Sleep: func(context.Context, time.Duration) error {
		cancel()
		return context.Canceled
	}})
	require.NoError(t, err)
	_, err = m.Generate(ctx, Request{Prompt: "p", Attempt: 1})
	var infra *InfraError
	require.ErrorAs(t, err, &infra)
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 1, api.count())
}

func TestCacheHitMakesNoRequest(t *testing.T) {
	for _, w := range wires() {
		t.Run(w.name, func(t *testing.T) {
			api := newFakeAPI(t, w, response{status: 200, body: w.ok("cached answer")})
			dir := t.TempDir()
			open := func() Model {
				m, err := Open(w.spec, Options{Getenv: api.env(), CacheDir: dir})
				require.NoError(t, err)
				return m
			}
			req := Request{Case: testCase(), System: "s", Prompt: "p", Attempt: 1, Temperature: 0.5, MaxTokens: 100}
			first, err := open().Generate(context.Background(), req)
			require.NoError(t, err)
			require.False(t, first.Cached)
			second, err := open().Generate(context.Background(), req)
			require.NoError(t, err)
			require.True(t, second.Cached)
			require.Equal(t, first.Text, second.Text)
			require.Equal(t, first.Usage, second.Usage)
			require.Equal(t, 1, api.count(), "the hit made no request")

			req.Attempt = 2
			third, err := open().Generate(context.Background(), req)
			require.NoError(t, err)
			require.False(t, third.Cached, "another sample is another generation")
			require.Equal(t, 2, api.count())

			noCache, err := Open(w.spec, Options{Getenv: api.env()})
			require.NoError(t, err)
			_, err = noCache.Generate(context.Background(), req)
			require.NoError(t, err)
			require.Equal(t, 3, api.count(), "no cache directory, no cache")
		})
	}
}

func TestConcurrencyLimit(t *testing.T) {
	for _, w := range wires() {
		t.Run(w.name, func(t *testing.T) {
			const limit, callers = 3, 12
			api := newFakeAPI(t, w, response{status: 200, body: w.ok("ok")})
			api.hold = limit
			m, err := Open(w.spec, Options{Getenv: api.env(), Concurrency: limit})
			require.NoError(t, err)
			var wg sync.WaitGroup
			errs := make(chan error, callers)
			for i := range callers {
				wg.Go(func() {
					_, err := m.Generate(context.Background(), Request{Prompt: fmt.Sprint("p", i), Attempt: 1})
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				require.NoError(t, err)
			}
			require.Equal(t, callers, api.count())
			require.EqualValues(t, limit, api.maxIn.Load(), "at most %d requests in flight, and the limit is reached", limit)
		})
	}
}

func TestKeyNeverInErrorsOrLogs(t *testing.T) {
	for _, w := range wires() {
		t.Run(w.name, func(t *testing.T) {
			// A hostile proxy echoing the credential in its error bodies.
			srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				auth := r.Header.Get("Authorization") + r.Header.Get("X-Api-Key")
				rw.Header().Set("Content-Type", "application/json")
				rw.WriteHeader(http.StatusInternalServerError)
				fmt.Fprintf(rw, `{"error":{"message":"bad credential %s","type":"x"}}`, auth)
			}))
			t.Cleanup(srv.Close)
			var logs bytes.Buffer
			logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			env := map[string]string{w.envKey: w.key, w.envBase: w.base(srv.URL)}
			m, err := Open(w.spec, Options{Getenv: func(k string) string { return env[k] }, Logger: logger, MaxRetries: 2,
				Sleep: func(context.Context, time.Duration) error { return nil }})
			require.NoError(t, err)
			_, err = m.Generate(context.Background(), Request{Prompt: "p", Attempt: 1})
			require.Error(t, err)
			require.Contains(t, err.Error(), "bad credential Bearer [REDACTED]", "the message is kept, the key is not")
			for _, text := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err), logs.String()} {
				require.NotContains(t, text, w.key)
				require.NotContains(t, text, "TESTKEY")
			}
			require.Contains(t, logs.String(), "retrying", "the retries were logged")
		})
	}
}

func TestOpenErrors(t *testing.T) {
	none := func(string) string { return "" }
	for _, tc := range []struct {
		spec string
		opts Options
		want string
	}{
		{"gpt-4o", Options{Getenv: none}, `unknown model spec "gpt-4o"`},
		{"openai:", Options{Getenv: none}, `model spec "openai:" names no model (expected openai:<name>)`},
		{"openai:gpt-4o", Options{Getenv: none}, "model openai:gpt-4o: OPENAI_API_KEY is not set"},
		{"anthropic:claude-sonnet-4-5", Options{Getenv: none}, "model anthropic:claude-sonnet-4-5: ANTHROPIC_API_KEY is not set"},
		{"replay:/nonexistent/r.jsonl", Options{Getenv: none}, "replay: open /nonexistent/r.jsonl: no such file or directory"},
	} {
		_, err := Open(tc.spec, tc.opts)
		require.Error(t, err, tc.spec)
		require.Contains(t, err.Error(), tc.want)
	}
	// A local OpenAI-compatible server needs no key.
	_, err := Open("openai:llama3", Options{Getenv: none, BaseURL: "http://127.0.0.1:11434/v1"})
	require.NoError(t, err)
}

func TestOpenOfflineAndReplay(t *testing.T) {
	for _, spec := range []string{"reference", "mock"} {
		m, err := Open(spec, Options{})
		require.NoError(t, err)
		require.Equal(t, spec, m.Name())
	}
	file := filepath.Join(t.TempDir(), "r.jsonl")
	require.NoError(t, os.WriteFile(file, []byte(`{"case_id":"zephyr-gpio-001","attempt":1,"reply":"recorded","input_tokens":3,"output_tokens":4}`+"\n"), 0o644))
	m, err := Open("replay:"+file, Options{CacheDir: t.TempDir()})
	require.NoError(t, err)
	reply, err := m.Generate(context.Background(), Request{Case: testCase(), Attempt: 1})
	require.NoError(t, err)
	require.Equal(t, Reply{Text: "recorded", Usage: Usage{InputTokens: 3, OutputTokens: 4}}, reply)
}

func TestOpenClaudeCode(t *testing.T) {
	path, err := filepath.Abs("claudecode/testdata/claude-ok")
	require.NoError(t, err)
	env := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir()}
	m, err := Open("claude-code://claude-sonnet-4-5", Options{ClaudePath: path, Getenv: func(k string) string { return env[k] }, CacheDir: t.TempDir()})
	require.NoError(t, err)
	reply, err := m.Generate(context.Background(), Request{System: "be terse", Prompt: "write blinky", Attempt: 1})
	require.NoError(t, err)
	require.Equal(t, "int main(void) { return 0; }\n", ExtractFor(reply.Text, "c"))
	require.InDelta(t, 0.0123, reply.CostUSD, 1e-12)
}

func TestSpecsNamesEveryKind(t *testing.T) {
	help := Specs()
	for _, s := range []string{"reference", "mock", "replay:<file>", "claude-code://<model>", "openai:<model>", "anthropic:<model>",
		EnvOpenAIKey, EnvOpenAIBaseURL, EnvAnthropicKey, EnvAnthropicBaseURL} {
		require.True(t, strings.Contains(help, s), "Specs() mentions %s", s)
	}
}
