// Package openai is the provider for OpenAI-compatible chat completions
// (POST {base}/chat/completions) through the official openai-go SDK: OpenAI
// itself, and vLLM, Ollama, LiteLLM, OpenRouter and other servers speaking
// the same protocol. One Generate makes exactly one HTTP request (the SDK's
// own retries are off; package retry adds ours) and reads at most
// Config.MaxReplyBytes of the response (package replycap). It reads no
// environment variables: the caller passes the key and base URL.
package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/embedeval/embedeval-go/internal/llm/contract"
	"github.com/embedeval/embedeval-go/internal/llm/prices"
	"github.com/embedeval/embedeval-go/internal/llm/replycap"
	"github.com/embedeval/embedeval-go/internal/llm/retry"
	"github.com/embedeval/embedeval-go/internal/llm/secret"
)

// DefaultBaseURL is the OpenAI API.
const DefaultBaseURL = "https://api.openai.com/v1/"

// Config describes one model behind an OpenAI-compatible endpoint.
type Config struct {
	// Spec is the model spec, the Model's Name.
	Spec string
	// Model is the model id sent in the request.
	Model string
	// BaseURL is the API root ending in /v1; empty means DefaultBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token; empty sends none (local servers).
	APIKey string
	// HTTPClient makes the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Prices turns usage into cost; nil records no cost.
	Prices *prices.Table
	// MaxReplyBytes caps what is read of a response body (a reply or an
	// error); zero means contract.DefaultMaxReplyBytes. A larger response
	// is a *contract.ReplyTooLargeError.
	MaxReplyBytes int64
	// MaxCompletionTokens sends the token limit as max_completion_tokens (what
	// current OpenAI models require) instead of max_tokens (what most
	// compatible servers read).
	MaxCompletionTokens bool
}

// Model is an OpenAI-compatible chat model. It is safe for concurrent use.
type Model struct {
	cfg Config
	svc oai.ChatCompletionService
}

// New returns the model of cfg.
func New(cfg Config) (*Model, error) {
	if cfg.Model == "" {
		return nil, errors.New("openai: empty model id")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	// The service is built from explicit options only, so nothing is read
	// from OPENAI_* variables behind the caller's back.
	opts := []option.RequestOption{
		option.WithHTTPClient(cfg.HTTPClient),
		option.WithBaseURL(cfg.BaseURL),
		option.WithMaxRetries(0),
		option.WithMiddleware(replycap.Middleware(cfg.MaxReplyBytes)),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	return &Model{cfg: cfg, svc: oai.NewChatCompletionService(opts...)}, nil
}

// Name is the model spec.
func (m *Model) Name() string { return m.cfg.Spec }

// Generate sends one chat completion request.
func (m *Model) Generate(ctx context.Context, req contract.Request) (contract.Reply, error) {
	params := oai.ChatCompletionNewParams{Model: m.cfg.Model}
	if req.System != "" {
		params.Messages = append(params.Messages, oai.SystemMessage(req.System))
	}
	for _, msg := range req.Conversation() {
		switch msg.Role {
		case "user":
			params.Messages = append(params.Messages, oai.UserMessage(msg.Content))
		case "assistant":
			params.Messages = append(params.Messages, oai.AssistantMessage(msg.Content))
		default:
			return contract.Reply{}, fmt.Errorf("openai: message role %q (expected user or assistant)", msg.Role)
		}
	}
	if req.Temperature != 0 {
		params.Temperature = oai.Float(req.Temperature)
	}
	if req.MaxTokens > 0 {
		if m.cfg.MaxCompletionTokens {
			params.MaxCompletionTokens = oai.Int(int64(req.MaxTokens))
		} else {
			params.MaxTokens = oai.Int(int64(req.MaxTokens))
		}
	}
	comp, err := m.svc.New(ctx, params)
	if err != nil {
		return contract.Reply{}, m.callError(err)
	}
	if len(comp.Choices) == 0 {
		return contract.Reply{}, errors.New("openai: the reply has no choices")
	}
	choice := comp.Choices[0]
	text := choice.Message.Content
	if text == "" {
		text = choice.Message.Refusal
	}
	if strings.TrimSpace(text) == "" {
		return contract.Reply{}, fmt.Errorf("openai: the reply is empty (finish_reason %q)", choice.FinishReason)
	}
	reply := contract.Reply{
		Text: text,
		Usage: contract.Usage{
			InputTokens:  int(comp.Usage.PromptTokens),
			OutputTokens: int(comp.Usage.CompletionTokens),
		},
	}
	if m.cfg.Prices != nil {
		reply.CostUSD, reply.CostKnown = m.cfg.Prices.Cost(m.cfg.Model, reply.Usage)
	}
	return reply, nil
}

// callError turns an SDK error into a StatusError (HTTP failures) or a
// wrapped error, with the key redacted.
func (m *Model) callError(err error) error {
	var tooLarge *contract.ReplyTooLargeError
	if errors.As(err, &tooLarge) {
		return fmt.Errorf("openai: %w", tooLarge)
	}
	var apiErr *oai.Error
	if errors.As(err, &apiErr) {
		se := &retry.StatusError{Status: apiErr.StatusCode, Message: apiErr.Message}
		if se.Message == "" {
			se.Message = snippet(apiErr.RawJSON())
		}
		se.Message = secret.String(se.Message, m.cfg.APIKey)
		if apiErr.Response != nil {
			se.RetryAfter = retryAfter(apiErr.Response.Header)
		}
		return se
	}
	return secret.Error(fmt.Errorf("openai: %w", err), m.cfg.APIKey)
}

// retryAfter returns Retry-After, or retry-after-ms converted to seconds.
func retryAfter(h http.Header) string {
	if ms := h.Get("Retry-After-Ms"); ms != "" {
		var v float64
		if _, err := fmt.Sscan(ms, &v); err == nil && v >= 0 {
			return fmt.Sprintf("%g", v/1000)
		}
	}
	return h.Get("Retry-After")
}

// snippet shortens a response body for an error message.
func snippet(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
