package llm

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/embedeval/embedeval-go/internal/llm/anthropic"
	"github.com/embedeval/embedeval-go/internal/llm/cache"
	"github.com/embedeval/embedeval-go/internal/llm/claudecode"
	"github.com/embedeval/embedeval-go/internal/llm/openai"
	"github.com/embedeval/embedeval-go/internal/llm/prices"
	"github.com/embedeval/embedeval-go/internal/llm/replay"
	"github.com/embedeval/embedeval-go/internal/llm/retry"
)

// PriceTable is the model price table (see package prices).
type PriceTable = prices.Table

// Spec prefixes.
const (
	prefixReplay     = "replay:"
	prefixClaudeCode = "claude-code://"
	prefixOpenAI     = "openai:"
	prefixAnthropic  = "anthropic:"
)

// Environment variables read through Options.Getenv.
const (
	EnvOpenAIKey        = "OPENAI_API_KEY"
	EnvOpenAIBaseURL    = "OPENAI_BASE_URL"
	EnvAnthropicKey     = "ANTHROPIC_API_KEY"
	EnvAnthropicBaseURL = "ANTHROPIC_BASE_URL"
)

// Options configures Open. The zero value works: real environment, default
// HTTP client, defaults of package retry, embedded prices, no cache, no logs.
type Options struct {
	// HTTPClient makes the API requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Getenv reads API keys and base URLs (and the CLI's environment); nil
	// means os.Getenv.
	Getenv func(string) string
	// BaseURL overrides OPENAI_BASE_URL / ANTHROPIC_BASE_URL.
	BaseURL string
	// Timeout bounds each call, reading the reply included; zero means
	// retry.DefaultTimeout.
	Timeout time.Duration
	// MaxReplyBytes caps what is read of one reply (HTTP body, CLI output,
	// replay entry); zero means contract.DefaultMaxReplyBytes (4 MiB). A
	// larger reply is an InfraError wrapping a *ReplyTooLargeError, not
	// retried, not cached; a replay file holding one is refused by Open.
	MaxReplyBytes int64
	// MaxRetries is how often a transient failure is retried; zero means
	// retry.DefaultMaxRetries, negative means never.
	MaxRetries int
	// Concurrency is the most calls in flight through one Model; zero means
	// retry.DefaultConcurrency.
	Concurrency int
	// CacheDir holds the response cache; empty means no cache (--no-cache).
	CacheDir string
	// Prices turns usage into cost; nil means the embedded data/prices.yaml.
	Prices *PriceTable
	// Logger receives retry, cache and price warnings; nil discards them.
	Logger *slog.Logger
	// ClaudePath is the Claude Code CLI; empty means "claude" in PATH.
	ClaudePath string
	// Sleep, Now and Rand replace the backoff wait, the clock and the jitter
	// source (tests); nil means the real ones.
	Sleep func(ctx context.Context, d time.Duration) error
	Now   func() time.Time
	Rand  func() float64
}

// Specs returns the help text of the model specs.
func Specs() string {
	return `Model specs:
  reference              the case's reference solution (offline sanity baseline)
  mock                   a fixed reply (offline)
  replay:<file>          recorded replies, JSON lines keyed by case_id, attempt, turn
  claude-code://<model>  the Claude Code CLI (claude -p --output-format json --model <model>),
                         using its subscription login; no API key
  openai:<model>         any OpenAI-compatible chat completions API (OpenAI, vLLM, Ollama,
                         LiteLLM, OpenRouter); key from OPENAI_API_KEY (optional for servers
                         other than api.openai.com); base URL from --base-url, else
                         OPENAI_BASE_URL, else https://api.openai.com/v1/
  anthropic:<model>      the Anthropic Messages API; key from ANTHROPIC_API_KEY; base URL
                         from --base-url, else ANTHROPIC_BASE_URL, else https://api.anthropic.com/
Keys are read from the environment only. Examples: openai:gpt-4o,
anthropic:claude-sonnet-4-5, claude-code://sonnet, replay:runs/r1/replies.jsonl,
openai:qwen2.5-coder with OPENAI_BASE_URL=http://localhost:11434/v1 (Ollama).
`
}

// Open returns the model of a spec (see Specs). The networked models get
// retries, timeouts and a concurrency limit, and the cache when
// opts.CacheDir is set.
func Open(spec string, opts Options) (Model, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	switch spec {
	case "reference", "mock":
		return New(spec)
	}
	kind, name, ok := splitSpec(spec)
	if !ok {
		return nil, fmt.Errorf("unknown model spec %q\n%s", spec, Specs())
	}
	if name == "" {
		return nil, fmt.Errorf("model spec %q names no model (expected %s<name>)", spec, kind)
	}
	if kind == prefixReplay {
		return replay.Open(spec, name, opts.MaxReplyBytes)
	}
	if opts.Prices == nil {
		table, err := prices.Default()
		if err != nil {
			return nil, fmt.Errorf("price table: %w", err)
		}
		opts.Prices = table.WithLogger(opts.Logger)
	}
	var (
		inner Model
		id    cache.Identity
		err   error
	)
	switch kind {
	case prefixOpenAI:
		inner, id, err = openOpenAI(spec, name, opts)
	case prefixAnthropic:
		inner, id, err = openAnthropic(spec, name, opts)
	case prefixClaudeCode:
		inner, err = claudecode.New(claudecode.Config{Spec: spec, Model: name, Path: opts.ClaudePath, Getenv: opts.Getenv, Prices: opts.Prices,
			MaxReplyBytes: opts.MaxReplyBytes})
		id = cache.Identity{Provider: "claude-code", Model: name}
	}
	if err != nil {
		return nil, err
	}
	var m Model = retry.Wrap(inner, retry.Options{
		MaxRetries:  opts.MaxRetries,
		Timeout:     opts.Timeout,
		Concurrency: opts.Concurrency,
		Sleep:       opts.Sleep,
		Now:         opts.Now,
		Rand:        opts.Rand,
		Logger:      opts.Logger,
	})
	if opts.CacheDir != "" {
		m = cache.Wrap(m, opts.CacheDir, id, opts.Logger).WithMaxReplyBytes(opts.MaxReplyBytes)
	}
	return m, nil
}

// splitSpec returns a spec's prefix and the name after it.
func splitSpec(spec string) (kind, name string, ok bool) {
	for _, p := range []string{prefixReplay, prefixClaudeCode, prefixOpenAI, prefixAnthropic} {
		if rest, found := strings.CutPrefix(spec, p); found {
			return p, rest, true
		}
	}
	return "", "", false
}

func openOpenAI(spec, name string, opts Options) (Model, cache.Identity, error) {
	base := firstNonEmpty(opts.BaseURL, opts.Getenv(EnvOpenAIBaseURL), openai.DefaultBaseURL)
	official := sameURL(base, openai.DefaultBaseURL)
	key := opts.Getenv(EnvOpenAIKey)
	if key == "" && official {
		return nil, cache.Identity{}, fmt.Errorf("model %s: %s is not set (the OpenAI API needs a key; other servers may not, set %s or --base-url for them)", spec, EnvOpenAIKey, EnvOpenAIBaseURL)
	}
	m, err := openai.New(openai.Config{
		Spec: spec, Model: name, BaseURL: base, APIKey: key, HTTPClient: opts.HTTPClient,
		Prices: opts.Prices, MaxCompletionTokens: official, MaxReplyBytes: opts.MaxReplyBytes,
	})
	if err != nil {
		return nil, cache.Identity{}, fmt.Errorf("model %s: %w", spec, err)
	}
	return m, cache.Identity{Provider: "openai", Model: name, BaseURL: normalURL(base)}, nil
}

func openAnthropic(spec, name string, opts Options) (Model, cache.Identity, error) {
	base := firstNonEmpty(opts.BaseURL, opts.Getenv(EnvAnthropicBaseURL), anthropic.DefaultBaseURL)
	key := opts.Getenv(EnvAnthropicKey)
	if key == "" {
		return nil, cache.Identity{}, fmt.Errorf("model %s: %s is not set", spec, EnvAnthropicKey)
	}
	m, err := anthropic.New(anthropic.Config{Spec: spec, Model: name, BaseURL: base, APIKey: key, HTTPClient: opts.HTTPClient, Prices: opts.Prices,
		MaxReplyBytes: opts.MaxReplyBytes})
	if err != nil {
		return nil, cache.Identity{}, fmt.Errorf("model %s: %w", spec, err)
	}
	return m, cache.Identity{Provider: "anthropic", Model: name, BaseURL: normalURL(base)}, nil
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// normalURL drops a trailing slash, so the cache key does not depend on it.
func normalURL(u string) string { return strings.TrimRight(u, "/") }

func sameURL(a, b string) bool { return normalURL(a) == normalURL(b) }
