// Package backoff holds the parts of retrying a remote call that do not
// depend on whom is called: waiting with a context, the exponential ceiling
// of the wait before retry n, and reading a Retry-After header. The GitHub
// publisher (internal/github) and the model wrapper (internal/llm/retry)
// build their retry loops on it; each keeps its own classification of
// which failures are transient.
package backoff

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Sleep waits d, or returns ctx's error when ctx is done first. A d of zero
// or less returns at once (with ctx's error, if any).
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Ceiling is the exponential bound on the wait before retry n (0-based):
// min(maxDelay, base·2ⁿ), without overflowing for large n.
func Ceiling(base, maxDelay time.Duration, n int) time.Duration {
	if n < 0 {
		n = 0
	}
	if n >= 62 {
		return maxDelay
	}
	if d := base << n; d > 0 && d>>n == base && d < maxDelay {
		return d
	}
	return maxDelay
}

// ParseRetryAfter reads a Retry-After value: delay seconds (possibly
// fractional) or an HTTP date (relative to now; a past date is zero). ok is
// false when the value is empty, negative or unreadable.
func ParseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(value, 64); err == nil {
		if secs < 0 || secs > float64(1<<62)/float64(time.Second) {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	when, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	if d := when.Sub(now); d > 0 {
		return d, true
	}
	return 0, true
}
