package llm

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// streamAPI answers every request with a body streamed in flushed chunks:
// total bytes, or without end when total is negative, pausing between
// chunks. It reports, per request, how many bytes it got written before the
// client went away or the body was complete.
type streamAPI struct {
	url      string
	requests atomic.Int32
	written  chan int64
}

type stream struct {
	status int
	// total is the body's size; negative means endless.
	total int64
	// announce sends Content-Length: total.
	announce bool
	pause    time.Duration
}

func newStreamAPI(t *testing.T, s stream) *streamAPI {
	t.Helper()
	api := &streamAPI{written: make(chan int64, 16)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api.requests.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		if s.announce {
			w.Header().Set("Content-Length", strconv.FormatInt(s.total, 10))
		}
		w.WriteHeader(s.status)
		flusher := w.(http.Flusher)
		chunk := []byte(strings.Repeat("a", 32<<10))
		var n int64
		for s.total < 0 || n < s.total {
			part := chunk
			if s.total >= 0 {
				part = chunk[:min(int64(len(chunk)), s.total-n)]
			}
			k, err := w.Write(part)
			n += int64(k)
			if err != nil {
				break
			}
			flusher.Flush()
			if s.pause > 0 {
				select {
				case <-time.After(s.pause):
				case <-r.Context().Done():
				}
			}
			if r.Context().Err() != nil {
				break
			}
		}
		api.written <- n
	}))
	t.Cleanup(srv.Close)
	api.url = srv.URL
	return api
}

// wrote waits (generously) for one handler to end and returns what it wrote.
func (a *streamAPI) wrote(t *testing.T) int64 {
	t.Helper()
	select {
	case n := <-a.written:
		return n
	case <-time.After(20 * time.Second):
		t.Fatal("the server kept writing: the client never stopped reading or closed the connection")
		return 0
	}
}

// generate calls m and fails the test if the call does not return within a
// generous bound (instead of hanging).
func generate(t *testing.T, m Model, req Request) (Reply, error) {
	t.Helper()
	type answer struct {
		reply Reply
		err   error
	}
	done := make(chan answer, 1)
	go func() {
		reply, err := m.Generate(context.Background(), req)
		done <- answer{reply, err}
	}()
	select {
	case a := <-done:
		return a.reply, a.err
	case <-time.After(20 * time.Second):
		t.Fatal("the model call did not return")
		return Reply{}, nil
	}
}

func (a *streamAPI) env(w wire) func(string) string {
	vars := map[string]string{w.envKey: w.key, w.envBase: w.base(a.url)}
	return func(k string) string { return vars[k] }
}

func TestOversizedReplyRefused(t *testing.T) {
	const size = 50 << 20
	// What may be in flight when the client stops reading: socket buffers
	// on both ends of the loopback connection and the server's own buffer.
	const slack = 16 << 20
	for _, w := range wires() {
		for _, tc := range []struct {
			name string
			s    stream
		}{
			{"streamed", stream{status: 200, total: size}},
			{"announced by Content-Length", stream{status: 200, total: size, announce: true}},
			{"error body", stream{status: 500, total: size}},
		} {
			t.Run(w.name+"/"+tc.name, func(t *testing.T) {
				api := newStreamAPI(t, tc.s)
				cache := t.TempDir()
				var s sleeps
				m, err := Open(w.spec, Options{Getenv: api.env(w), CacheDir: cache, Sleep: s.sleep})
				require.NoError(t, err)
				_, err = generate(t, m, Request{Prompt: "p", Attempt: 1})
				var infra *InfraError
				require.ErrorAs(t, err, &infra)
				var tooLarge *ReplyTooLargeError
				require.ErrorAs(t, err, &tooLarge)
				require.Contains(t, err.Error(), "model reply exceeds 4 MiB cap (--max-reply-bytes)")
				require.False(t, infra.Retryable, "an oversized reply is not retried")
				require.Equal(t, 1, infra.Attempts)

				written := api.wrote(t)
				require.Less(t, written, int64(size), "the client went away before the body was complete")
				require.LessOrEqual(t, written, int64(DefaultMaxReplyBytes+slack), "the client stopped reading at the cap")
				require.EqualValues(t, 1, api.requests.Load())
				require.Empty(t, s.all())
				stored, err := filepath.Glob(filepath.Join(cache, "*", "*.json"))
				require.NoError(t, err)
				require.Empty(t, stored, "nothing is cached")
			})
		}
	}
}

func TestEndlessReplyEndsAtCallTimeout(t *testing.T) {
	for _, w := range wires() {
		t.Run(w.name, func(t *testing.T) {
			// 32 KiB every 20 ms stays far below the cap within the timeout.
			api := newStreamAPI(t, stream{status: 200, total: -1, pause: 20 * time.Millisecond})
			m, err := Open(w.spec, Options{Getenv: api.env(w), Timeout: time.Second, MaxRetries: -1})
			require.NoError(t, err)
			_, err = generate(t, m, Request{Prompt: "p", Attempt: 1})
			var infra *InfraError
			require.ErrorAs(t, err, &infra)
			require.Contains(t, err.Error(), "no answer within the per-call timeout of 1s")
			require.ErrorIs(t, err, context.DeadlineExceeded)
			require.NotErrorAs(t, err, new(*ReplyTooLargeError))
			require.Positive(t, api.wrote(t), "the body was being sent when the timeout ended the call")
		})
	}
}

func TestReplyCapOption(t *testing.T) {
	for _, w := range wires() {
		t.Run(w.name, func(t *testing.T) {
			text := "```c\n" + strings.Repeat("/* padding */\n", 5000) + "int x;\n```"
			api := newFakeAPI(t, w, response{status: 200, body: w.ok(text)})
			cache := t.TempDir()

			// A cap below the reply refuses it, naming the cap.
			m, err := Open(w.spec, Options{Getenv: api.env(), MaxReplyBytes: 64 << 10, CacheDir: cache})
			require.NoError(t, err)
			_, err = m.Generate(context.Background(), Request{Prompt: "p", Attempt: 1})
			require.ErrorContains(t, err, "model reply exceeds 64 KiB cap (--max-reply-bytes)")
			stored, err := filepath.Glob(filepath.Join(cache, "*", "*.json"))
			require.NoError(t, err)
			require.Empty(t, stored)

			// The default cap takes it, whole.
			m, err = Open(w.spec, Options{Getenv: api.env(), CacheDir: cache})
			require.NoError(t, err)
			reply, err := m.Generate(context.Background(), Request{Prompt: "p", Attempt: 1})
			require.NoError(t, err)
			require.Equal(t, text, reply.Text)
			require.Equal(t, 2, api.count())

			// Cached now; a lower cap does not answer from the cache with it.
			m, err = Open(w.spec, Options{Getenv: api.env(), MaxReplyBytes: 64 << 10, CacheDir: cache})
			require.NoError(t, err)
			_, err = m.Generate(context.Background(), Request{Prompt: "p", Attempt: 1})
			require.ErrorContains(t, err, "model reply exceeds 64 KiB cap (--max-reply-bytes)")
			require.Equal(t, 3, api.count(), "the cached reply over the cap was a miss")
		})
	}
}

func TestReplayReplyCap(t *testing.T) {
	file := filepath.Join(t.TempDir(), "r.jsonl")
	line := fmt.Sprintf(`{"case_id":"zephyr-gpio-001","attempt":1,"reply":%q}`+"\n", strings.Repeat("x", 2000))
	require.NoError(t, os.WriteFile(file, []byte(line), 0o644))
	_, err := Open("replay:"+file, Options{MaxReplyBytes: 1000})
	require.ErrorContains(t, err, "r.jsonl:1: model reply exceeds 1000 bytes cap (--max-reply-bytes)")
	m, err := Open("replay:"+file, Options{})
	require.NoError(t, err)
	reply, err := m.Generate(context.Background(), Request{Case: testCase(), Attempt: 1})
	require.NoError(t, err)
	require.Len(t, reply.Text, 2000)
}
