package replycap

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/llm/contract"
)

// closeRecorder is a body that records whether it was closed.
type closeRecorder struct {
	io.Reader
	closed bool
}

func (c *closeRecorder) Close() error {
	c.closed = true
	return nil
}

func TestBodyUpToTheLimitReads(t *testing.T) {
	src := &closeRecorder{Reader: strings.NewReader(strings.Repeat("x", 100))}
	b := Body(context.Background(), src, 100)
	data, err := io.ReadAll(b)
	require.NoError(t, err, "exactly the limit is allowed")
	require.Len(t, data, 100)
	require.NoError(t, b.Close())
	require.True(t, src.closed)
}

func TestBodyOverTheLimitFails(t *testing.T) {
	src := &closeRecorder{Reader: strings.NewReader(strings.Repeat("x", 101))}
	b := Body(context.Background(), src, 100)
	data, err := io.ReadAll(b)
	var tooLarge *contract.ReplyTooLargeError
	require.ErrorAs(t, err, &tooLarge)
	require.EqualValues(t, 100, tooLarge.Limit)
	require.LessOrEqual(t, len(data), 100, "nothing past the limit is handed on")
	require.True(t, src.closed, "the body is closed at once: nothing more is received")
	_, err = b.Read(make([]byte, 10))
	require.ErrorAs(t, err, &tooLarge, "every later read fails too")
}

func TestBodyClosedWhenContextEnds(t *testing.T) {
	// A reader that blocks until its pipe is closed: a server that keeps
	// the body open without sending anything.
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	b := Body(ctx, pr, 1<<20)
	done := make(chan error, 1)
	go func() {
		_, err := b.Read(make([]byte, 10))
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		require.ErrorIs(t, err, context.Canceled)
	case <-time.After(20 * time.Second):
		t.Fatal("a read blocked on the body did not end when the context was done")
	}
}

func TestMiddlewareRefusesAnnouncedSize(t *testing.T) {
	src := &closeRecorder{Reader: strings.NewReader("{}")}
	req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1/v1", nil)
	require.NoError(t, err)
	next := func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, ContentLength: 50 << 20, Body: src}, nil
	}
	res, err := Middleware(0)(req, next)
	require.Nil(t, res)
	require.EqualError(t, err, "model reply exceeds 4 MiB cap (--max-reply-bytes)")
	require.True(t, src.closed)
}

func TestMiddlewareWrapsBodyAndPassesErrors(t *testing.T) {
	req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1/v1", nil)
	require.NoError(t, err)
	next := func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, ContentLength: -1, Body: io.NopCloser(strings.NewReader(strings.Repeat("x", 11)))}, nil
	}
	res, err := Middleware(10)(req, next)
	require.NoError(t, err)
	_, err = io.ReadAll(res.Body)
	require.EqualError(t, err, "model reply exceeds 10 bytes cap (--max-reply-bytes)")

	boom := errors.New("connection refused")
	_, err = Middleware(10)(req, func(*http.Request) (*http.Response, error) { return nil, boom })
	require.ErrorIs(t, err, boom)
}
