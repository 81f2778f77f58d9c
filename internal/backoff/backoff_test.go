package backoff

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestCeiling(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want time.Duration
	}{
		{-1, time.Second}, {0, time.Second}, {1, 2 * time.Second}, {5, 32 * time.Second},
		{6, time.Minute}, {40, time.Minute}, {62, time.Minute}, {1000, time.Minute},
	} {
		require.Equal(t, tc.want, Ceiling(time.Second, time.Minute, tc.n), "n=%d", tc.n)
	}
	// A base whose shift overflows is capped, not negative.
	require.Equal(t, time.Hour, Ceiling(time.Duration(1)<<60, time.Hour, 10))
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"  ", 0, false},
		{"7", 7 * time.Second, true},
		{" 1.5 ", 1500 * time.Millisecond, true},
		{"-3", 0, false},
		{"1e300", 0, false},
		{"soon", 0, false},
		{"Wed, 02 Dec 2026 10:00:30 GMT", 30 * time.Second, true},
		{"Wed, 02 Dec 2026 09:00:00 GMT", 0, true},
	} {
		got, ok := ParseRetryAfter(tc.in, now)
		require.Equal(t, tc.ok, ok, "%q", tc.in)
		require.Equal(t, tc.want, got, "%q", tc.in)
	}
}

func TestSleep(t *testing.T) {
	require.NoError(t, Sleep(context.Background(), time.Millisecond))
	require.NoError(t, Sleep(context.Background(), 0))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, Sleep(ctx, time.Hour), context.Canceled)
	require.ErrorIs(t, Sleep(ctx, 0), context.Canceled)
}
