// Package llm holds the model providers behind one interface, chosen by a
// model spec string, and the extraction of code from a model's reply. It
// does not evaluate code.
//
// Model specs (Specs returns this as help text):
//
//	reference               the case's own reference solution (sanity baseline; offline)
//	mock                    a fixed reply (offline)
//	replay:<file>           recorded replies from a JSON-lines file (package replay)
//	claude-code://<model>   the Claude Code CLI: claude -p --output-format json --model <model>
//	                        (subscription login from HOME; package claudecode)
//	openai:<model>          an OpenAI-compatible chat completions API through openai-go:
//	                        OpenAI, vLLM, Ollama, LiteLLM, OpenRouter. Key OPENAI_API_KEY
//	                        (optional off api.openai.com), base URL from Options.BaseURL,
//	                        else OPENAI_BASE_URL, else https://api.openai.com/v1/
//	anthropic:<model>       the Anthropic Messages API through anthropic-sdk-go. Key
//	                        ANTHROPIC_API_KEY (required), base URL from Options.BaseURL,
//	                        else ANTHROPIC_BASE_URL, else https://api.anthropic.com/
//
// New builds the offline models; Open builds every kind. Keys come from
// environment variables only (through Options.Getenv), never from files,
// and never appear in errors or logs. The networked models (openai,
// anthropic, claude-code) make one call per attempt inside package retry
// (per-call timeout, retries with backoff honouring Retry-After, a
// concurrency limit per Model, InfraError at the end) and, with a cache
// directory, behind package cache. Every provider reads at most
// Options.MaxReplyBytes of a reply (package replycap for HTTP), within the
// call's timeout; a larger reply is refused, not retried and not cached.
// Costs come from the provider's report (claude-code) or the price table of
// package prices.
//
// The contract types (Request, Reply, Message, Usage, Model, InfraError)
// live in package contract, so the provider subpackages can implement them;
// they are aliased here under their usual names.
package llm

import (
	"context"
	"fmt"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/llm/contract"
)

// Message is one turn of a conversation (see contract.Message).
type Message = contract.Message

// Request is one generation request (see contract.Request).
type Request = contract.Request

// Usage counts the tokens of one call (see contract.Usage).
type Usage = contract.Usage

// Reply is a model's answer (see contract.Reply).
type Reply = contract.Reply

// ReplyTooLargeError is a reply refused for passing the reply cap (see
// contract.ReplyTooLargeError).
type ReplyTooLargeError = contract.ReplyTooLargeError

// DefaultMaxReplyBytes is the default reply cap (--max-reply-bytes).
const DefaultMaxReplyBytes = contract.DefaultMaxReplyBytes

// Model generates a reply for a request (see contract.Model).
type Model = contract.Model

// InfraError is the error of a call that gave no reply because of the
// infrastructure (see contract.InfraError); recognise it with errors.As.
type InfraError = contract.InfraError

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
	data, err := cases.ReadFile(req.Case.ReferencePath)
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
