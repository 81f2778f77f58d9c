// Package replycap bounds what an HTTP provider reads of a model's reply:
// at most a cap of bytes, and nothing once the call's context is done. It
// plugs into the official SDKs as a middleware, so whatever the SDK does
// with the body (decode a reply, read an error), it reads through the cap.
// It holds no state beyond each response it wraps.
package replycap

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/embedeval/embedeval-go/internal/llm/contract"
)

// Next sends a request on; it is the SDKs' option.MiddlewareNext.
type Next = func(*http.Request) (*http.Response, error)

// Middleware returns an SDK middleware (option.Middleware of openai-go and
// anthropic-sdk-go) that refuses a response announcing more than limit
// bytes (Content-Length) before reading any of it, and hands the SDK a body
// that fails with a *contract.ReplyTooLargeError past limit bytes and is
// closed as soon as the request's context is done. A limit that is not
// positive means contract.DefaultMaxReplyBytes.
func Middleware(limit int64) func(*http.Request, Next) (*http.Response, error) {
	limit = contract.MaxReplyBytes(limit)
	return func(req *http.Request, next Next) (*http.Response, error) {
		res, err := next(req)
		if err != nil || res == nil || res.Body == nil {
			return res, err
		}
		if res.ContentLength > limit {
			_ = res.Body.Close()
			return nil, &contract.ReplyTooLargeError{Limit: limit}
		}
		res.Body = Body(req.Context(), res.Body, limit)
		return res, nil
	}
}

// Body wraps rc so that reading more than limit bytes fails with a
// *contract.ReplyTooLargeError (and closes rc: nothing more is received),
// and so that rc is closed when ctx is done, which ends a read blocked on a
// server that keeps the body open; reads then fail with ctx's error. Close
// closes rc once.
func Body(ctx context.Context, rc io.ReadCloser, limit int64) io.ReadCloser {
	b := &body{rc: rc, ctx: ctx, limit: limit, left: limit}
	b.stop = context.AfterFunc(ctx, func() { _ = b.closeOnce() })
	return b
}

type body struct {
	rc    io.ReadCloser
	ctx   context.Context
	limit int64
	// left is how many more bytes may be read; err ends every later read.
	// Only the reader touches them.
	left int64
	err  error
	stop func() bool

	once     sync.Once
	closeErr error
}

func (b *body) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if err := b.ctx.Err(); err != nil {
		return 0, b.fail(fmt.Errorf("reading the reply: %w", err))
	}
	// One byte more than allowed tells a reply of exactly limit bytes from
	// a longer one.
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	if int64(n) > b.left {
		n = int(b.left)
		b.left = 0
		return n, b.fail(&contract.ReplyTooLargeError{Limit: b.limit})
	}
	b.left -= int64(n)
	if err != nil && err != io.EOF && b.ctx.Err() != nil {
		// The read failed because the context ended it (the body was closed
		// under it, or the transport gave up): say so.
		err = fmt.Errorf("reading the reply: %w", b.ctx.Err())
	}
	return n, err
}

// fail makes err the answer of every later read and stops receiving.
func (b *body) fail(err error) error {
	b.err = err
	_ = b.Close()
	return err
}

func (b *body) Close() error {
	b.stop()
	return b.closeOnce()
}

func (b *body) closeOnce() error {
	b.once.Do(func() { b.closeErr = b.rc.Close() })
	return b.closeErr
}
