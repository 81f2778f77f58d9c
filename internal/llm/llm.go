// Package llm holds the model providers behind one interface, chosen by a
// model spec string, and the extraction of code from a model's reply. This
// release has the offline providers only: "reference" (the case's own
// reference solution, the harness's sanity baseline) and "mock" (a fixed
// reply). It does not evaluate code.
package llm

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

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
	// reply came from the response cache (no call was made).
	Usage    Usage
	CostUSD  float64
	Duration time.Duration
	Cached   bool
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

// New returns the model for a spec: "reference" or "mock". Other specs are
// refused with the list of known ones.
func New(spec string) (Model, error) {
	switch spec {
	case "reference":
		return referenceModel{}, nil
	case "mock":
		return mockModel{}, nil
	}
	return nil, fmt.Errorf("unknown model %q (this build knows: reference, mock)", spec)
}

type referenceModel struct{}

func (referenceModel) Name() string { return "reference" }

// Generate returns the case's reference solution inside a fenced block, the way
// a model would answer.
func (referenceModel) Generate(_ context.Context, req Request) (Reply, error) {
	data, err := os.ReadFile(req.Case.ReferencePath)
	if err != nil {
		return Reply{}, fmt.Errorf("read reference of %s: %w", req.Case.Meta.ID, err)
	}
	return Reply{Text: "```\n" + string(data) + "```\n"}, nil
}

type mockModel struct{}

func (mockModel) Name() string { return "mock" }

// MockReply is the fixed answer of the mock model.
const MockReply = "Here is the code:\n\n```c\n#include <stdio.h>\n\nint main(void)\n{\n\tprintf(\"hello\\n\");\n\treturn 0;\n}\n```\n"

// Generate returns MockReply.
func (mockModel) Generate(context.Context, Request) (Reply, error) {
	return Reply{Text: MockReply}, nil
}

// ExtractCode returns the content of the first fenced code block of a reply,
// or the whole reply when it has none. An unterminated fence runs to the end.
func ExtractCode(reply string) string {
	text := strings.ReplaceAll(reply, "\r\n", "\n")
	start := strings.Index(text, "```")
	if start < 0 {
		return text
	}
	rest := text[start+3:]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return ""
	}
	body := rest[nl+1:]
	if end := strings.Index(body, "```"); end >= 0 {
		body = body[:end]
	}
	return body
}
