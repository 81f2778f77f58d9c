package github

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// expected is one request the fake API expects and its reply. Query lists
// the query parameters the request must carry exactly (nil: none); Body is
// the JSON the request must carry, compared semantically ("" means no
// body).
type expected struct {
	Method, Path, Query, Body string
	Status                    int
	Reply                     string
	Header                    map[string]string
}

// registry is a fake GitHub API serving a fixed sequence of expected
// requests, in the style of cli/cli's httpmock: a request that is not the
// next expected one fails the test, and so does an expected request never
// made. The token must be sent on every request.
type registry struct {
	t     *testing.T
	token string
	// url is the fake API's root.
	url  string
	mu   sync.Mutex
	want []expected
	next int
}

// newRegistry starts the fake API and returns a Publisher talking to it
// with a recorded (never real) sleep.
func newRegistry(t *testing.T, want ...expected) (*registry, *Publisher, *[]time.Duration) {
	t.Helper()
	r := &registry{t: t, token: "test-token-123", want: want}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	t.Cleanup(r.verify)
	r.url = srv.URL + "/"
	c, err := NewClient(r.token, ClientOptions{BaseURL: r.url, HTTPClient: srv.Client()})
	require.NoError(t, err)
	var slept []time.Duration
	p := &Publisher{Client: c, Owner: "octo", Repo: "bench", Retry: RetryPolicy{
		Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil },
		Now:   func() time.Time { return time.Unix(1_700_000_000, 0) },
	}}
	return r, p, &slept
}

func (r *registry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	body, _ := io.ReadAll(req.Body)
	got := fmt.Sprintf("%s %s?%s %s", req.Method, req.URL.Path, req.URL.RawQuery, body)
	if r.next >= len(r.want) {
		r.t.Errorf("unexpected request %d: %s", r.next+1, got)
		http.Error(w, `{"message":"unexpected request"}`, http.StatusTeapot)
		return
	}
	e := r.want[r.next]
	r.next++
	ok := true
	fail := func(format string, args ...any) {
		ok = false
		r.t.Errorf("request %d (%s): "+format, append([]any{r.next, got}, args...)...)
	}
	if req.Method != e.Method || req.URL.Path != e.Path {
		fail("want %s %s", e.Method, e.Path)
	}
	if req.URL.RawQuery != e.Query {
		fail("want query %q", e.Query)
	}
	if auth := req.Header.Get("Authorization"); auth != "Bearer "+r.token {
		fail("Authorization header %q", auth)
	}
	switch {
	case e.Body == "" && len(body) > 0:
		fail("want no body")
	case e.Body != "":
		var a, b any
		if err := json.Unmarshal([]byte(e.Body), &a); err != nil {
			r.t.Errorf("bad expected body %q: %v", e.Body, err)
		}
		if err := json.Unmarshal(body, &b); err != nil {
			fail("body is not JSON: %v", err)
		} else if !jsonEqual(a, b) {
			fail("want body %s", e.Body)
		}
	}
	if !ok {
		http.Error(w, `{"message":"request did not match"}`, http.StatusTeapot)
		return
	}
	for k, v := range e.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	status := e.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, e.Reply)
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// verify fails the test when an expected request was never made.
func (r *registry) verify() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.next < len(r.want) {
		var missing []string
		for _, e := range r.want[r.next:] {
			missing = append(missing, e.Method+" "+e.Path)
		}
		r.t.Errorf("expected requests not made: %s", strings.Join(missing, ", "))
	}
}
