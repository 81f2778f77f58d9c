// Package retry makes model calls survive the real world: it wraps a Model
// whose Generate makes exactly one call and adds a per-call timeout, retries
// with exponential backoff and full jitter on transient failures (HTTP 408,
// 409, 429, 5xx, timeouts, network errors, errors marked Transient; never a
// contract.ReplyTooLargeError) honouring Retry-After, a limit on concurrent
// calls shared by every goroutine using the wrapped Model, and the
// conversion of the final failure into a contract.InfraError. It knows nothing about wire formats: providers report
// HTTP failures as StatusError.
package retry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/embedeval/embedeval-go/internal/backoff"
	"github.com/embedeval/embedeval-go/internal/llm/contract"
)

// Defaults used for zero Options fields.
const (
	DefaultMaxRetries    = 3
	DefaultTimeout       = 10 * time.Minute
	DefaultConcurrency   = 4
	DefaultBaseDelay     = time.Second
	DefaultMaxDelay      = time.Minute
	DefaultMaxRetryAfter = 5 * time.Minute
)

// Options configures Wrap. Zero fields take the defaults above.
type Options struct {
	// MaxRetries is how many times a failed call is repeated; negative means
	// never.
	MaxRetries int
	// Timeout bounds each call.
	Timeout time.Duration
	// Concurrency is the most calls in flight at once.
	Concurrency int
	// BaseDelay and MaxDelay shape the backoff: before retry n (0-based) the
	// wait is uniform in [0, min(MaxDelay, BaseDelay·2ⁿ)).
	BaseDelay, MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After that is waited for; a server
	// asking for more ends the retries.
	MaxRetryAfter time.Duration
	// Sleep waits d or until ctx is done (tests inject a recorder).
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock, for Retry-After dates and durations.
	Now func() time.Time
	// Rand returns a number in [0, 1), for the jitter.
	Rand func() float64
	// Logger receives a warning per retry; nil discards.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	switch {
	case o.MaxRetries == 0:
		o.MaxRetries = DefaultMaxRetries
	case o.MaxRetries < 0:
		o.MaxRetries = 0
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.BaseDelay <= 0 {
		o.BaseDelay = DefaultBaseDelay
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = DefaultMaxDelay
	}
	if o.MaxRetryAfter <= 0 {
		o.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if o.Sleep == nil {
		o.Sleep = backoff.Sleep
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// StatusError is an HTTP answer with a failure status. Providers build it
// from their SDK's error, with a message already free of credentials.
type StatusError struct {
	// Status is the HTTP status code.
	Status int
	// RetryAfter is the raw Retry-After header, if any.
	RetryAfter string
	// Message is a short description (the API's error message).
	Message string
}

// Error names the status and the message.
func (e *StatusError) Error() string {
	msg := fmt.Sprintf("HTTP %d", e.Status)
	if text := http.StatusText(e.Status); text != "" {
		msg += " " + text
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// transientError marks a failure worth retrying that is not an HTTP status.
type transientError struct{ err error }

func (e *transientError) Error() string { return e.err.Error() }
func (e *transientError) Unwrap() error { return e.err }

// Transient marks err as worth retrying (e.g. a CLI that exited with an
// error). Nil stays nil.
func Transient(err error) error {
	if err == nil {
		return nil
	}
	return &transientError{err: err}
}

// RetryableStatus reports whether an HTTP status is worth retrying: 408, 409,
// 429 and every 5xx.
func RetryableStatus(status int) bool {
	switch status {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests:
		return true
	}
	return status >= 500
}

// classify says whether err is transient and which status it carries.
func classify(err error) (retryable bool, status int, retryAfter string) {
	// An oversized reply would come again, at the same cost.
	var tooLarge *contract.ReplyTooLargeError
	if errors.As(err, &tooLarge) {
		return false, 0, ""
	}
	var se *StatusError
	if errors.As(err, &se) {
		return RetryableStatus(se.Status), se.Status, se.RetryAfter
	}
	var te *transientError
	if errors.As(err, &te) {
		return true, 0, ""
	}
	// Transport failures: the request or the answer got lost on the way.
	// (A body that is not valid JSON is not one: the SDKs report a truncated
	// document as io.ErrUnexpectedEOF too, and a server sending one will send
	// it again.)
	var ue *url.Error
	var oe *net.OpError
	if errors.As(err, &ue) || errors.As(err, &oe) {
		return true, 0, ""
	}
	var to interface{ Timeout() bool }
	if errors.As(err, &to) && to.Timeout() {
		return true, 0, ""
	}
	return false, 0, ""
}

// Model is a contract.Model with timeouts, retries and a concurrency limit.
// It is safe for concurrent use.
type Model struct {
	inner contract.Model
	opts  Options
	slots chan struct{}
}

// Wrap returns inner with the behaviour of opts. inner must make one call
// per Generate (no retries of its own).
func Wrap(inner contract.Model, opts Options) *Model {
	opts = opts.withDefaults()
	return &Model{inner: inner, opts: opts, slots: make(chan struct{}, opts.Concurrency)}
}

// Name is the inner model's name.
func (m *Model) Name() string { return m.inner.Name() }

// Generate calls the inner model until it answers, the failure is permanent,
// or the retries run out. Every error it returns is a *contract.InfraError.
func (m *Model) Generate(ctx context.Context, req contract.Request) (contract.Reply, error) {
	var spent time.Duration
	for attempt := 1; ; attempt++ {
		reply, took, err := m.once(ctx, req)
		spent += took
		if err == nil {
			reply.Duration = spent
			return reply, nil
		}
		infra := &contract.InfraError{Model: m.Name(), Attempts: attempt, Err: err}
		if ctx.Err() != nil {
			infra.Err = fmt.Errorf("%w (%v)", ctx.Err(), err)
			return contract.Reply{}, infra
		}
		retryable, status, retryAfter := classify(err)
		infra.Status, infra.Retryable = status, retryable
		if !retryable || attempt > m.opts.MaxRetries {
			return contract.Reply{}, infra
		}
		wait := m.backoff(attempt - 1)
		if d, ok := backoff.ParseRetryAfter(retryAfter, m.opts.Now()); ok {
			if d > m.opts.MaxRetryAfter {
				infra.Err = fmt.Errorf("%w (server asks to retry after %s, more than the %s allowed)", err, d, m.opts.MaxRetryAfter)
				return contract.Reply{}, infra
			}
			wait = d
		}
		m.opts.Logger.Warn("model call failed, retrying",
			"model", m.Name(), "attempt", attempt, "status", status, "wait", wait, "error", err.Error())
		if err := m.opts.Sleep(ctx, wait); err != nil {
			infra.Err = fmt.Errorf("waiting to retry: %w (last failure: %v)", err, infra.Err)
			return contract.Reply{}, infra
		}
	}
}

// once makes one call inside a concurrency slot and the per-call timeout,
// which is in force until the inner model returns, so also while the
// provider reads the reply's body.
func (m *Model) once(ctx context.Context, req contract.Request) (contract.Reply, time.Duration, error) {
	select {
	case m.slots <- struct{}{}:
	case <-ctx.Done():
		return contract.Reply{}, 0, fmt.Errorf("waiting for a free call slot: %w", ctx.Err())
	}
	defer func() { <-m.slots }()
	callCtx, cancel := context.WithTimeout(ctx, m.opts.Timeout)
	defer cancel()
	start := m.opts.Now()
	reply, err := m.inner.Generate(callCtx, req)
	took := m.opts.Now().Sub(start)
	var tooLarge *contract.ReplyTooLargeError
	if err != nil && ctx.Err() == nil && errors.Is(callCtx.Err(), context.DeadlineExceeded) && !errors.As(err, &tooLarge) {
		err = &timeoutError{limit: m.opts.Timeout, err: err}
	}
	return reply, took, err
}

// timeoutError is a call that outlived the per-call timeout; it is retried.
type timeoutError struct {
	limit time.Duration
	err   error
}

func (e *timeoutError) Error() string {
	return fmt.Sprintf("no answer within the per-call timeout of %s", e.limit)
}
func (e *timeoutError) Unwrap() error { return e.err }

// Timeout marks the error as a timeout, which is retried.
func (e *timeoutError) Timeout() bool { return true }

// backoff returns the full-jitter wait before retry n (0-based).
func (m *Model) backoff(n int) time.Duration {
	return time.Duration(m.opts.Rand() * float64(backoff.Ceiling(m.opts.BaseDelay, m.opts.MaxDelay, n)))
}
