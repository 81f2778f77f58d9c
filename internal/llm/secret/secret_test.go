package secret

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestString(t *testing.T) {
	for _, tc := range []struct {
		in      string
		secrets []string
		want    string
	}{
		{"key sk-abcdef123 leaked twice: sk-abcdef123", []string{"sk-abcdef123"}, "key [REDACTED] leaked twice: [REDACTED]"},
		{"nothing here", []string{"sk-abcdef123"}, "nothing here"},
		{"short x stays", []string{"x", ""}, "short x stays"},
	} {
		require.Equal(t, tc.want, String(tc.in, tc.secrets...))
	}
}

func TestError(t *testing.T) {
	require.NoError(t, Error(nil, "sk-abcdef123"))
	plain := errors.New("no secret")
	require.Same(t, plain, Error(plain, "sk-abcdef123"))

	err := Error(fmt.Errorf("call with sk-abcdef123: %w", context.DeadlineExceeded), "sk-abcdef123")
	require.EqualError(t, err, "call with [REDACTED]: context deadline exceeded")
	require.ErrorIs(t, err, context.DeadlineExceeded, "the chain still matches")
	require.Nil(t, errors.Unwrap(err), "unwrapping cannot reach the unredacted message")
	require.NotContains(t, fmt.Sprintf("%+v %#v", err, err), "sk-abcdef123")
}
