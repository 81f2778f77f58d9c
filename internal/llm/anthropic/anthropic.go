// Package anthropic is the provider for the Anthropic Messages API (POST
// {base}/v1/messages) through the official anthropic-sdk-go. One Generate
// makes exactly one HTTP request (the SDK's own retries are off; package
// retry adds ours) and reads at most Config.MaxReplyBytes of the response
// (package replycap). It reads no environment variables and no credential
// files: the caller passes the key and base URL. Request.Temperature is not
// sent: the Messages API version of the SDK has no such parameter.
package anthropic

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/embedeval/embedeval-go/internal/llm/contract"
	"github.com/embedeval/embedeval-go/internal/llm/prices"
	"github.com/embedeval/embedeval-go/internal/llm/replycap"
	"github.com/embedeval/embedeval-go/internal/llm/retry"
	"github.com/embedeval/embedeval-go/internal/llm/secret"
)

// DefaultBaseURL is the Anthropic API.
const DefaultBaseURL = "https://api.anthropic.com/"

// DefaultMaxTokens is the token limit sent when a request sets none; the
// Messages API requires one.
const DefaultMaxTokens = 8192

// Config describes one Anthropic model.
type Config struct {
	// Spec is the model spec, the Model's Name.
	Spec string
	// Model is the model id sent in the request.
	Model string
	// BaseURL is the API root (without /v1); empty means DefaultBaseURL.
	BaseURL string
	// APIKey is the credential; required.
	APIKey string
	// HTTPClient makes the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Prices turns usage into cost; nil records no cost.
	Prices *prices.Table
	// MaxReplyBytes caps what is read of a response body (a reply or an
	// error); zero means contract.DefaultMaxReplyBytes. A larger response
	// is a *contract.ReplyTooLargeError.
	MaxReplyBytes int64
}

// Model is an Anthropic model. It is safe for concurrent use.
type Model struct {
	cfg Config
	svc sdk.MessageService
}

// New returns the model of cfg.
func New(cfg Config) (*Model, error) {
	if cfg.Model == "" {
		return nil, errors.New("anthropic: empty model id")
	}
	if cfg.APIKey == "" {
		return nil, errors.New("anthropic: no API key")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	client := sdk.NewClient(
		// No ANTHROPIC_* variable, profile or credential file is consulted.
		option.WithoutEnvironmentDefaults(),
		option.WithHTTPClient(cfg.HTTPClient),
		option.WithBaseURL(cfg.BaseURL),
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(0),
		option.WithMiddleware(replycap.Middleware(cfg.MaxReplyBytes)),
	)
	return &Model{cfg: cfg, svc: client.Messages}, nil
}

// Name is the model spec.
func (m *Model) Name() string { return m.cfg.Spec }

// Generate sends one Messages request.
func (m *Model) Generate(ctx context.Context, req contract.Request) (contract.Reply, error) {
	params := sdk.MessageNewParams{Model: m.cfg.Model, MaxTokens: DefaultMaxTokens}
	if req.MaxTokens > 0 {
		params.MaxTokens = int64(req.MaxTokens)
	}
	if req.System != "" {
		params.System = []sdk.TextBlockParam{{Text: req.System}}
	}
	// Request.Temperature is not sent: the API version this SDK speaks
	// (anthropic-version 2026-10-21) has no temperature parameter.
	for _, msg := range req.Conversation() {
		block := sdk.NewTextBlock(msg.Content)
		switch msg.Role {
		case "user":
			params.Messages = append(params.Messages, sdk.NewUserMessage(block))
		case "assistant":
			params.Messages = append(params.Messages, sdk.NewAssistantMessage(block))
		default:
			return contract.Reply{}, fmt.Errorf("anthropic: message role %q (expected user or assistant)", msg.Role)
		}
	}
	msg, err := m.svc.New(ctx, params)
	if err != nil {
		return contract.Reply{}, m.callError(err)
	}
	var text strings.Builder
	for _, block := range msg.Content {
		if block.Type == "text" {
			text.WriteString(block.Text)
		}
	}
	if strings.TrimSpace(text.String()) == "" {
		return contract.Reply{}, fmt.Errorf("anthropic: the reply has no text (stop_reason %q, %d content blocks)", msg.StopReason, len(msg.Content))
	}
	u := msg.Usage
	reply := contract.Reply{
		Text: text.String(),
		Usage: contract.Usage{
			InputTokens:  int(u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens),
			OutputTokens: int(u.OutputTokens),
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
		return fmt.Errorf("anthropic: %w", tooLarge)
	}
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		se := &retry.StatusError{Status: apiErr.StatusCode, Message: apiErr.Message}
		if se.Message == "" {
			se.Message = snippet(apiErr.RawJSON())
		}
		se.Message = secret.String(se.Message, m.cfg.APIKey)
		if apiErr.Response != nil {
			se.RetryAfter = apiErr.Response.Header.Get("Retry-After")
		}
		return se
	}
	return secret.Error(fmt.Errorf("anthropic: %w", err), m.cfg.APIKey)
}

// snippet shortens a response body for an error message.
func snippet(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
