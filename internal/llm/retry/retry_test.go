package retry

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/llm/contract"
)

// scripted fails with the given errors in order, then answers.
type scripted struct {
	mu    sync.Mutex
	errs  []error
	calls int
}

func (s *scripted) Name() string { return "openai:m" }

func (s *scripted) Generate(context.Context, contract.Request) (contract.Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if len(s.errs) > 0 {
		err := s.errs[0]
		s.errs = s.errs[1:]
		return contract.Reply{}, err
	}
	return contract.Reply{Text: "ok"}, nil
}

func TestClassification(t *testing.T) {
	urlErr := &url.Error{Op: "Post", URL: "http://127.0.0.1/v1", Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}}
	for _, tc := range []struct {
		name      string
		err       error
		retryable bool
		status    int
	}{
		{"429", &StatusError{Status: 429}, true, 429},
		{"408", &StatusError{Status: 408}, true, 408},
		{"409", &StatusError{Status: 409}, true, 409},
		{"500", &StatusError{Status: 500}, true, 500},
		{"529", &StatusError{Status: 529}, true, 529},
		{"400", &StatusError{Status: 400}, false, 400},
		{"401", &StatusError{Status: 401}, false, 401},
		{"403", &StatusError{Status: 403}, false, 403},
		{"404", &StatusError{Status: 404}, false, 404},
		{"network", fmt.Errorf("openai: %w", urlErr), true, 0},
		{"transient", Transient(errors.New("cli exit 1")), true, 0},
		{"other", errors.New("malformed"), false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inner := &scripted{errs: []error{tc.err}}
			m := Wrap(inner, Options{MaxRetries: 1, Sleep: func(context.Context, time.Duration) error { return nil }})
			reply, err := m.Generate(context.Background(), contract.Request{})
			if tc.retryable {
				require.NoError(t, err)
				require.Equal(t, "ok", reply.Text)
				require.Equal(t, 2, inner.calls)
				return
			}
			var infra *contract.InfraError
			require.ErrorAs(t, err, &infra)
			require.Equal(t, contract.InfraError{Model: "openai:m", Attempts: 1, Status: tc.status, Err: tc.err}, *infra)
			require.Equal(t, 1, inner.calls)
		})
	}
}

func TestBackoffIsFullJitterCapped(t *testing.T) {
	for _, tc := range []struct {
		rand float64
		want []time.Duration
	}{
		{0, []time.Duration{0, 0, 0, 0, 0}},
		{0.5, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}},
		{0.999, []time.Duration{1998 * time.Millisecond, 3996 * time.Millisecond, 7992 * time.Millisecond, 9990 * time.Millisecond, 9990 * time.Millisecond}},
	} {
		var waits []time.Duration
		errs := make([]error, 5)
		for i := range errs {
			errs[i] = &StatusError{Status: 503}
		}
		m := Wrap(&scripted{errs: errs}, Options{MaxRetries: 5, BaseDelay: 2 * time.Second, MaxDelay: 10 * time.Second,
			Rand:  func() float64 { return tc.rand },
			Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }})
		_, err := m.Generate(context.Background(), contract.Request{})
		require.NoError(t, err)
		require.Equal(t, tc.want, waits, "rand %v", tc.rand)
	}
}

func TestRetryAfterBeyondLimitStops(t *testing.T) {
	inner := &scripted{errs: []error{&StatusError{Status: 429, RetryAfter: "3600", Message: "quota"}}}
	var waits []time.Duration
	m := Wrap(inner, Options{MaxRetryAfter: time.Minute, Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }})
	_, err := m.Generate(context.Background(), contract.Request{})
	require.EqualError(t, err, "model openai:m: failed after 1 attempt (last status 429): HTTP 429 Too Many Requests: quota (server asks to retry after 1h0m0s, more than the 1m0s allowed)")
	require.Empty(t, waits)
	require.Equal(t, 1, inner.calls)
}

func TestNoRetries(t *testing.T) {
	inner := &scripted{errs: []error{&StatusError{Status: 503}, &StatusError{Status: 503}}}
	m := Wrap(inner, Options{MaxRetries: -1})
	_, err := m.Generate(context.Background(), contract.Request{})
	require.EqualError(t, err, "model openai:m: failed after 1 attempt (last status 503): HTTP 503 Service Unavailable")
	require.Equal(t, 1, inner.calls)
}

func TestOversizedReplyNotRetried(t *testing.T) {
	// Even when the transport dressed it as a transient failure.
	tooLarge := &contract.ReplyTooLargeError{Limit: 4 << 20}
	inner := &scripted{errs: []error{Transient(fmt.Errorf("openai: %w", tooLarge)), nil}}
	m := Wrap(inner, Options{MaxRetries: 3, Sleep: func(context.Context, time.Duration) error { return nil }})
	_, err := m.Generate(context.Background(), contract.Request{})
	require.EqualError(t, err, "model openai:m: failed after 1 attempt: openai: model reply exceeds 4 MiB cap (--max-reply-bytes)")
	var infra *contract.InfraError
	require.ErrorAs(t, err, &infra)
	require.False(t, infra.Retryable)
	require.Equal(t, 1, inner.calls)
}

// slow answers after d of the injected clock.
type slow struct {
	clock *fakeClock
	d     time.Duration
}

func (s slow) Name() string { return "m" }
func (s slow) Generate(context.Context, contract.Request) (contract.Reply, error) {
	s.clock.advance(s.d)
	return contract.Reply{Text: "ok", Duration: time.Hour}, nil
}

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestDurationIsTimeInCalls(t *testing.T) {
	clock := &fakeClock{now: time.Unix(0, 0)}
	m := Wrap(slow{clock: clock, d: 1500 * time.Millisecond}, Options{Now: clock.Now})
	reply, err := m.Generate(context.Background(), contract.Request{})
	require.NoError(t, err)
	require.Equal(t, 1500*time.Millisecond, reply.Duration)
}

func TestSlotWaitRespectsContext(t *testing.T) {
	block := make(chan struct{})
	started := make(chan struct{})
	inner := blocking{started: started, release: block}
	m := Wrap(inner, Options{Concurrency: 1, MaxRetries: -1})
	go func() { _, _ = m.Generate(context.Background(), contract.Request{}) }()
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := m.Generate(ctx, contract.Request{})
	require.ErrorIs(t, err, context.Canceled)
	require.Contains(t, err.Error(), "waiting for a free call slot")
	close(block)
}

type blocking struct {
	started chan struct{}
	release chan struct{}
}

func (b blocking) Name() string { return "m" }
func (b blocking) Generate(context.Context, contract.Request) (contract.Reply, error) {
	close(b.started)
	<-b.release
	return contract.Reply{}, nil
}
