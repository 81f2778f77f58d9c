package contract

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
)

func TestInfraErrorMessage(t *testing.T) {
	cause := errors.New("HTTP 500 Internal Server Error")
	for _, tc := range []struct {
		err  InfraError
		want string
	}{
		{InfraError{Model: "openai:m", Attempts: 4, Status: 500, Retryable: true, Err: cause}, "model openai:m: gave up after 4 attempts (last status 500): HTTP 500 Internal Server Error"},
		{InfraError{Model: "openai:m", Attempts: 1, Status: 401, Err: cause}, "model openai:m: failed after 1 attempt (last status 401): HTTP 500 Internal Server Error"},
		{InfraError{Model: "claude-code://x", Attempts: 0, Err: context.Canceled}, "model claude-code://x: failed after 0 attempts: context canceled"},
	} {
		require.EqualError(t, &tc.err, tc.want)
	}
	var wrapped error = fmt.Errorf("case a: %w", &InfraError{Model: "m", Attempts: 1, Err: context.DeadlineExceeded})
	var infra *InfraError
	require.ErrorAs(t, wrapped, &infra)
	require.ErrorIs(t, wrapped, context.DeadlineExceeded)
}

func TestConversationAndCaseID(t *testing.T) {
	require.Equal(t, []Message{{Role: "user", Content: "p"}}, Request{Prompt: "p"}.Conversation())
	msgs := []Message{{Role: "user", Content: "a"}, {Role: "assistant", Content: "b"}, {Role: "user", Content: "c"}}
	require.Equal(t, msgs, Request{Prompt: "ignored", Messages: msgs}.Conversation())
	require.Empty(t, Request{}.CaseID())
	c := &cases.Case{}
	c.Meta.ID = "zephyr-x"
	require.Equal(t, "zephyr-x", Request{Case: c}.CaseID())
}

func TestReplyTooLargeMessage(t *testing.T) {
	require.EqualError(t, &ReplyTooLargeError{Limit: DefaultMaxReplyBytes}, "model reply exceeds 4 MiB cap (--max-reply-bytes)")
	for n, want := range map[int64]string{0: "0 bytes", 1000: "1000 bytes", 1 << 10: "1 KiB", 1536 << 10: "1.5 MiB", 64 << 20: "64 MiB", 2 << 30: "2 GiB"} {
		require.Equal(t, want, SizeText(n), n)
	}
	require.EqualValues(t, DefaultMaxReplyBytes, MaxReplyBytes(0))
	require.EqualValues(t, DefaultMaxReplyBytes, MaxReplyBytes(-1))
	require.EqualValues(t, 10, MaxReplyBytes(10))
}
