package github

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	gh "github.com/google/go-github/v83/github"

	"github.com/embedeval/embedeval-go/internal/backoff"
)

// Defaults for zero RetryPolicy fields.
const (
	DefaultMaxAttempts   = 5
	DefaultBaseDelay     = 2 * time.Second
	DefaultMaxDelay      = time.Minute
	DefaultMaxRetryAfter = 5 * time.Minute
	// secondaryLimitWait is how long to wait after a secondary rate limit
	// that names no time: GitHub asks for at least a minute.
	secondaryLimitWait = time.Minute
)

// RetryPolicy says how API calls are repeated after transient failures:
// server errors (5xx), 429, rate limits (primary, waiting until the reset;
// secondary, waiting for Retry-After or a minute) and network errors.
// Before retry n (0-based) the wait is min(MaxDelay, BaseDelay·2ⁿ), or what
// the server asked for. Anything else — a 4xx, a cancelled context — fails at
// once. Zero fields take the defaults above.
type RetryPolicy struct {
	// MaxAttempts is the most times one call is made (1 means no retry).
	MaxAttempts int
	// BaseDelay and MaxDelay shape the exponential backoff.
	BaseDelay, MaxDelay time.Duration
	// MaxRetryAfter is the longest wait the server may ask for; a longer one
	// ends the retries.
	MaxRetryAfter time.Duration
	// Sleep waits d or until ctx is done; tests inject a recorder.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock, for primary rate limit resets.
	Now func() time.Time
	// Logger receives one line per retry; nil discards.
	Logger *slog.Logger
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = DefaultMaxAttempts
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultBaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultMaxDelay
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if p.Sleep == nil {
		p.Sleep = backoff.Sleep
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	if p.Logger == nil {
		p.Logger = slog.New(slog.DiscardHandler)
	}
	return p
}

// do makes call until it succeeds, fails for good or the attempts run out.
// what names the operation in errors and logs. The final error is passed
// through explain (see permission.go) and wrapped with what.
func (p RetryPolicy) do(ctx context.Context, what string, call func() error) error {
	p = p.withDefaults()
	for attempt := 0; ; attempt++ {
		err := call()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", what, ctx.Err())
		}
		wait, transient := p.delay(err, attempt)
		if !transient || attempt+1 >= p.MaxAttempts {
			if transient {
				return fmt.Errorf("%s: giving up after %d attempts: %w", what, attempt+1, explain(err))
			}
			return fmt.Errorf("%s: %w", what, explain(err))
		}
		if wait > p.MaxRetryAfter {
			return fmt.Errorf("%s: the server asks to wait %s, more than the %s allowed: %w", what, wait.Round(time.Second), p.MaxRetryAfter, err)
		}
		p.Logger.Warn("GitHub API call failed, retrying", "call", what, "attempt", attempt+1, "wait", wait, "error", err.Error())
		if err := p.Sleep(ctx, wait); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
}

// delay classifies err: whether it is transient and how long to wait before
// retry number attempt.
func (p RetryPolicy) delay(err error, attempt int) (time.Duration, bool) {
	exp := backoff.Ceiling(p.BaseDelay, p.MaxDelay, attempt)
	var rl *gh.RateLimitError
	if errors.As(err, &rl) {
		wait := rl.Rate.Reset.Sub(p.Now())
		return max(wait, p.BaseDelay), true
	}
	var abuse *gh.AbuseRateLimitError
	if errors.As(err, &abuse) {
		if abuse.RetryAfter != nil && *abuse.RetryAfter > 0 {
			return *abuse.RetryAfter, true
		}
		return max(exp, secondaryLimitWait), true
	}
	var er *gh.ErrorResponse
	if errors.As(err, &er) {
		if er.Response == nil {
			return 0, false
		}
		code := er.Response.StatusCode
		ra, hasRA := backoff.ParseRetryAfter(er.Response.Header.Get("Retry-After"), p.Now())
		switch {
		case code >= 500 || code == http.StatusTooManyRequests:
			if hasRA {
				return ra, true
			}
			return exp, true
		case code == http.StatusForbidden && hasRA:
			// A secondary rate limit GitHub did not document as such.
			return ra, true
		}
		return 0, false
	}
	var ue *url.Error
	var ne net.Error
	if errors.As(err, &ue) || errors.As(err, &ne) {
		return exp, true
	}
	return 0, false
}
