// Package claudecode is the provider for "claude-code://<model>": it runs the
// Claude Code CLI non-interactively, one process per Generate, and parses its
// JSON result. The CLI uses the caller's Claude subscription login, so this
// provider needs no API key.
//
// The command line is
//
//	claude -p --output-format json --model <model> --tools "" --strict-mcp-config --no-session-persistence [--system-prompt <system>]
//
// -p (print mode) answers once and exits; --output-format json prints one
// JSON result (text, usage, total_cost_usd; newer CLIs may print an array of
// events, whose "result" event is used); --tools "" and --strict-mcp-config
// leave the model no tools and no MCP servers, so it can only answer in
// text and never runs anything; --no-session-persistence keeps runs out of
// the user's session history. The prompt goes on stdin (no argument-length
// limit). A multi-turn conversation is sent as one transcript with
// [user]/[assistant] headers, since print mode takes one prompt.
//
// Environment: the CLI is trusted code, but it gets only what it needs,
// read through the caller's getenv: PATH, HOME (the user's real home, where
// the CLI keeps its login: ~/.claude/ and ~/.claude.json), USER, LOGNAME,
// locale and time zone, TMPDIR, XDG_* and CLAUDE_CONFIG_DIR (where the login
// may live instead), the proxy variables and NODE_EXTRA_CA_CERTS (to reach
// the API from behind a proxy), and CLAUDE_CODE_OAUTH_TOKEN (the
// subscription token of `claude setup-token`, for CI). ANTHROPIC_API_KEY and
// every other variable are not passed, so a run never switches silently
// from the subscription to API billing and no unrelated token is exposed.
// The process runs in an empty temporary directory (no project files or
// CLAUDE.md are read), in its own process group, which is killed as a whole
// when ctx is done (the per-call timeout of package retry) or when its output
// passes Config.MaxReplyBytes.
package claudecode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/embedeval/embedeval-go/internal/llm/contract"
	"github.com/embedeval/embedeval-go/internal/llm/prices"
	"github.com/embedeval/embedeval-go/internal/llm/retry"
	"github.com/embedeval/embedeval-go/internal/llm/secret"
)

// DefaultPath is the CLI looked up in PATH when Config.Path is empty.
const DefaultPath = "claude"

// maxStderr caps the diagnostics kept for error messages (the rest is
// discarded); the CLI's output is capped by Config.MaxReplyBytes.
const maxStderr = 8 << 10

// waitDelay is how long Wait waits for the output pipes after the process
// group was killed.
const waitDelay = 2 * time.Second

// passThrough lists the variables the CLI receives when set.
func passThrough() []string {
	return []string{
		"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR",
		"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "CLAUDE_CONFIG_DIR",
		"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "NODE_EXTRA_CA_CERTS",
		"CLAUDE_CODE_OAUTH_TOKEN",
	}
}

// fixedEnv is set for every run: no update checks or telemetry side trips.
func fixedEnv() []string {
	return []string{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"}
}

// Config describes one model behind the CLI.
type Config struct {
	// Spec is the model spec, the Model's Name.
	Spec string
	// Model is passed to --model (an alias such as "sonnet" or a full id).
	Model string
	// Path is the CLI executable; empty means DefaultPath, looked up in this
	// process's PATH.
	Path string
	// Getenv reads the caller's environment; nil means os.Getenv.
	Getenv func(string) string
	// Prices estimates the cost when the CLI reports none; nil records none.
	Prices *prices.Table
	// MaxReplyBytes caps the CLI's output (its JSON result); zero means
	// contract.DefaultMaxReplyBytes. A CLI printing more is killed and the
	// call fails with a *contract.ReplyTooLargeError.
	MaxReplyBytes int64
}

// Model runs the Claude Code CLI. It is safe for concurrent use.
type Model struct {
	cfg Config
}

// New returns the model of cfg.
func New(cfg Config) (*Model, error) {
	if cfg.Model == "" {
		return nil, errors.New("claude-code: empty model name")
	}
	if cfg.Path == "" {
		cfg.Path = DefaultPath
	}
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	cfg.MaxReplyBytes = contract.MaxReplyBytes(cfg.MaxReplyBytes)
	return &Model{cfg: cfg}, nil
}

// Name is the model spec.
func (m *Model) Name() string { return m.cfg.Spec }

// Args returns the CLI arguments for a request (without the program name).
func (m *Model) Args(req contract.Request) []string {
	args := []string{"-p", "--output-format", "json", "--model", m.cfg.Model,
		"--tools", "", "--strict-mcp-config", "--no-session-persistence"}
	if req.System != "" {
		args = append(args, "--system-prompt", req.System)
	}
	return args
}

// Env returns the environment of the CLI process, in a fixed order: the
// pass-through variables that are set, then the fixed ones.
func (m *Model) Env() []string {
	var env []string
	for _, name := range passThrough() {
		if v := m.cfg.Getenv(name); v != "" {
			env = append(env, name+"="+v)
		}
	}
	return append(env, fixedEnv()...)
}

// Stdin renders the request as the CLI's prompt: the prompt itself, or a
// transcript of a multi-turn conversation.
func Stdin(req contract.Request) string {
	conv := req.Conversation()
	if len(conv) == 1 {
		return conv[0].Content
	}
	var b strings.Builder
	b.WriteString("This is a conversation so far; answer its last user message.\n")
	for _, msg := range conv {
		fmt.Fprintf(&b, "\n[%s]\n%s\n", msg.Role, msg.Content)
	}
	return b.String()
}

// Generate runs the CLI once.
func (m *Model) Generate(ctx context.Context, req contract.Request) (contract.Reply, error) {
	dir, err := os.MkdirTemp("", "embedeval-claude-")
	if err != nil {
		return contract.Reply{}, fmt.Errorf("claude-code: working directory: %w", err)
	}
	defer os.RemoveAll(dir)

	// runCtx also ends when the output passes the cap: the process group is
	// killed then, instead of printing on until the call's timeout.
	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	cmd := exec.CommandContext(runCtx, m.cfg.Path, m.Args(req)...)
	cmd.Dir = dir
	cmd.Env = m.Env()
	cmd.Stdin = strings.NewReader(Stdin(req))
	stdout := &capped{limit: m.cfg.MaxReplyBytes, onOver: stopRun}
	stderr := &capped{limit: maxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// The whole group: the CLI's own children die with it.
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = waitDelay

	runErr := cmd.Run()
	if ctx.Err() != nil {
		return contract.Reply{}, fmt.Errorf("claude-code: %s killed: %w", m.cfg.Path, ctx.Err())
	}
	if errors.Is(runErr, exec.ErrNotFound) || errors.Is(runErr, os.ErrNotExist) {
		return contract.Reply{}, fmt.Errorf("claude-code: the claude CLI was not found (%q); install Claude Code or set its path: %w", m.cfg.Path, runErr)
	}
	if stdout.over {
		return contract.Reply{}, fmt.Errorf("claude-code: %w", &contract.ReplyTooLargeError{Limit: m.cfg.MaxReplyBytes})
	}
	res, parseErr := parseResult(stdout.buf.Bytes())
	if runErr != nil {
		// Exit codes say little (rate limits, overload, network, login); the
		// result or stderr says more. All are retried.
		detail := strings.TrimSpace(stderr.buf.String())
		if parseErr == nil && res.Result != "" {
			detail = res.Result
		}
		return contract.Reply{}, retry.Transient(m.redact(fmt.Errorf("claude-code: the CLI failed (%v): %s", runErr, snippet(detail))))
	}
	if parseErr != nil {
		return contract.Reply{}, m.redact(fmt.Errorf("claude-code: %w", parseErr))
	}
	if res.IsError || (res.Subtype != "" && res.Subtype != "success") {
		return contract.Reply{}, retry.Transient(m.redact(fmt.Errorf("claude-code: the CLI reports an error (%s): %s", res.Subtype, snippet(res.Result))))
	}
	if strings.TrimSpace(res.Result) == "" {
		return contract.Reply{}, errors.New("claude-code: the reply is empty")
	}
	reply := contract.Reply{
		Text: res.Result,
		Usage: contract.Usage{
			InputTokens:  res.Usage.InputTokens + res.Usage.CacheCreationInputTokens + res.Usage.CacheReadInputTokens,
			OutputTokens: res.Usage.OutputTokens,
		},
	}
	switch {
	case res.TotalCostUSD != nil:
		reply.CostUSD, reply.CostKnown = *res.TotalCostUSD, true
	case m.cfg.Prices != nil:
		reply.CostUSD, reply.CostKnown = m.cfg.Prices.Cost(m.cfg.Model, reply.Usage)
	}
	return reply, nil
}

func (m *Model) redact(err error) error {
	return secret.Error(err, m.cfg.Getenv("CLAUDE_CODE_OAUTH_TOKEN"))
}

// Result is the part of the CLI's JSON result that is read.
type Result struct {
	Type         string   `json:"type"`
	Subtype      string   `json:"subtype"`
	IsError      bool     `json:"is_error"`
	Result       string   `json:"result"`
	TotalCostUSD *float64 `json:"total_cost_usd"`
	Usage        struct {
		InputTokens              int `json:"input_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
		OutputTokens             int `json:"output_tokens"`
	} `json:"usage"`
}

// parseResult reads the CLI output: one result object, or an array of
// events holding one of type "result".
func parseResult(out []byte) (Result, error) {
	out = bytes.TrimSpace(out)
	if len(out) == 0 {
		return Result{}, errors.New("the CLI printed nothing")
	}
	if out[0] == '[' {
		var events []json.RawMessage
		if err := json.Unmarshal(out, &events); err != nil {
			return Result{}, fmt.Errorf("the CLI output is not JSON: %w (output starts %q)", err, snippet(string(out)))
		}
		for i := len(events) - 1; i >= 0; i-- {
			var r Result
			if err := json.Unmarshal(events[i], &r); err == nil && r.Type == "result" {
				return r, nil
			}
		}
		return Result{}, errors.New("the CLI output has no result event")
	}
	var r Result
	if err := json.Unmarshal(out, &r); err != nil {
		return Result{}, fmt.Errorf("the CLI output is not JSON: %w (output starts %q)", err, snippet(string(out)))
	}
	if r.Type != "result" {
		return Result{}, fmt.Errorf("the CLI output is a %q object, not a result", r.Type)
	}
	return r, nil
}

// capped keeps the first limit bytes written and notes any overflow. With
// onOver set, an overflow calls it once and fails the write (the copy from
// the process stops); without, the rest is discarded.
type capped struct {
	buf    bytes.Buffer
	limit  int64
	over   bool
	onOver func()
}

// errOverCap stops the copy of an output that passed its cap.
var errOverCap = errors.New("output over its cap")

func (c *capped) Write(p []byte) (int, error) {
	if c.over && c.onOver != nil {
		return 0, errOverCap
	}
	if room := c.limit - int64(c.buf.Len()); room < int64(len(p)) {
		c.buf.Write(p[:max(room, 0)])
		if !c.over && c.onOver != nil {
			c.over = true
			c.onOver()
			return int(max(room, 0)), errOverCap
		}
		c.over = true
		return len(p), nil
	}
	return c.buf.Write(p)
}

// snippet shortens text for an error message.
func snippet(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
