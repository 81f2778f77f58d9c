// Package contract defines what passes between the runner and a model
// provider: Request, Message, Reply, Usage, the Model interface,
// InfraError, the error a provider returns when no reply could be had, and
// the reply cap (DefaultMaxReplyBytes, ReplyTooLargeError). Package llm
// re-exports these names; the provider subpackages implement Model. It
// makes no calls and holds no state.
package contract

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/embedeval/embedeval-go/internal/bytesize"
	"github.com/embedeval/embedeval-go/internal/cases"
)

// Message is one turn of a conversation.
type Message struct {
	// Role is "user" or "assistant".
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one generation request.
type Request struct {
	// Case is the case the request is for (offline providers read its files;
	// replay keys on its id).
	Case *cases.Case
	// Prompt is the full user prompt of a single-turn request.
	Prompt string
	// Messages, when not empty, is a multi-turn conversation (feedback rounds,
	// agent mode) and replaces Prompt; the last message is the user's.
	Messages []Message
	// System is an optional system prompt.
	System string
	// Attempt is the sample index (1-based), part of the cache key so that
	// samples of one case are independent generations.
	Attempt int
	// Turn is the conversation turn (0 for the first), part of replay keys.
	Turn int
	// Temperature and MaxTokens are passed to the provider; zero means its
	// default.
	Temperature float64
	MaxTokens   int
}

// Conversation returns the request as messages: Messages, or Prompt as one
// user message.
func (r Request) Conversation() []Message {
	if len(r.Messages) > 0 {
		return r.Messages
	}
	return []Message{{Role: "user", Content: r.Prompt}}
}

// CaseID returns the id of the request's case, or "" when it has none.
func (r Request) CaseID() string {
	if r.Case == nil {
		return ""
	}
	return r.Case.Meta.ID
}

// Usage counts the tokens of one call.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Reply is a model's answer.
type Reply struct {
	// Text is the raw reply.
	Text string
	// Usage, CostUSD and Duration describe the call; Cached is set when the
	// reply came from the response cache (no call was made). Duration is the
	// time spent in calls to the provider, summed over retries; waiting for a
	// concurrency slot or a backoff is not counted. For a cached reply they are
	// the values of the original call.
	Usage    Usage
	CostUSD  float64
	Duration time.Duration
	Cached   bool
	// CostKnown tells whether CostUSD came from a price (the provider's own
	// report or the price table); false means the model had no price and
	// CostUSD is the table's default.
	CostKnown bool
}

// Model generates a reply for a request.
type Model interface {
	// Name is the model spec as given by the user.
	Name() string
	// Generate answers one request. An error means no reply could be had
	// (after any retries): the caller records an infrastructure error, never
	// a model failure.
	Generate(ctx context.Context, req Request) (Reply, error)
}

// InfraError is the error of a model call that gave no reply because of the
// infrastructure: an API that kept failing, refused the credentials, timed
// out, or answered with something that is not a reply. The runner records it
// as an infrastructure error, never as a model failure. Its message never
// holds a credential.
type InfraError struct {
	// Model is the model spec.
	Model string
	// Attempts is how many calls were made (0 when none could be started).
	Attempts int
	// Status is the HTTP status of the last call, 0 when there was none (a
	// network error, a timeout, a process that failed).
	Status int
	// Retryable tells whether the last failure was of a transient kind (the
	// retries ran out) rather than a permanent one (bad request, auth).
	Retryable bool
	// Err is the last failure.
	Err error
}

// Error describes the failure with the attempts and the last status.
func (e *InfraError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model %s: ", e.Model)
	switch {
	case e.Retryable && e.Attempts > 1:
		fmt.Fprintf(&b, "gave up after %d attempts", e.Attempts)
	case e.Attempts == 1:
		b.WriteString("failed after 1 attempt")
	default:
		fmt.Fprintf(&b, "failed after %d attempts", e.Attempts)
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, " (last status %d)", e.Status)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the last failure.
func (e *InfraError) Unwrap() error { return e.Err }

// DefaultMaxReplyBytes is the default cap on what is read of one model reply
// (--max-reply-bytes): the bytes of the HTTP response body or of the CLI's
// output, which hold the reply text and its envelope.
const DefaultMaxReplyBytes = 4 << 20

// MaxReplyBytes returns limit, or DefaultMaxReplyBytes when limit is not
// positive.
func MaxReplyBytes(limit int64) int64 {
	if limit <= 0 {
		return DefaultMaxReplyBytes
	}
	return limit
}

// ReplyTooLargeError is a reply refused because it is larger than the cap.
// Providers stop reading at the cap, and the reply is neither returned nor
// cached nor recorded. It is not worth retrying: a model (or an endpoint)
// that sent that much will send it again.
type ReplyTooLargeError struct {
	// Limit is the cap in bytes.
	Limit int64
}

// Error names the cap and the option that sets it.
func (e *ReplyTooLargeError) Error() string {
	return fmt.Sprintf("model reply exceeds %s cap (--max-reply-bytes)", SizeText(e.Limit))
}

// SizeText renders a byte count for messages (bytesize.Format).
func SizeText(n int64) string { return bytesize.Format(n) }
