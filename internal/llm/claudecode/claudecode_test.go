package claudecode

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/llm/contract"
	"github.com/embedeval/embedeval-go/internal/llm/prices"
	"github.com/embedeval/embedeval-go/internal/llm/retry"
)

const oauthToken = "sk-ant-oat01-secret-token-value"

func standIn(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	require.NoError(t, err)
	return p
}

// env is the caller's environment as the tests inject it.
func env(home string) func(string) string {
	vars := map[string]string{
		"PATH":                    os.Getenv("PATH"),
		"HOME":                    home,
		"GITHUB_TOKEN":            "ghp_never_passed",
		"ANTHROPIC_API_KEY":       "sk-ant-never-passed",
		"CLAUDE_CODE_OAUTH_TOKEN": oauthToken,
	}
	return func(k string) string { return vars[k] }
}

func TestGenerateSingleTurn(t *testing.T) {
	home := t.TempDir()
	m, err := New(Config{Spec: "claude-code://claude-sonnet-4-5", Model: "claude-sonnet-4-5", Path: standIn(t, "claude-ok"), Getenv: env(home)})
	require.NoError(t, err)
	reply, err := m.Generate(context.Background(), contract.Request{System: "be terse", Prompt: "write blinky"})
	require.NoError(t, err)
	code, seen, ok := strings.Cut(reply.Text, "```\n")
	require.True(t, ok, reply.Text)
	require.Equal(t, "```c\nint main(void) { return 0; }\n", code)
	fields := map[string]string{}
	for _, f := range strings.Fields(seen) {
		k, v, _ := strings.Cut(f, "=")
		fields[k] = v
	}
	require.Equal(t, home, fields["HOME"], "the CLI finds its login in the caller's HOME")
	require.True(t, strings.HasPrefix(filepath.Base(fields["PWD"]), "embedeval-claude-"), "runs in a fresh directory: %s", fields["PWD"])
	require.NoDirExists(t, fields["PWD"], "the directory is removed afterwards")
	require.Equal(t, "unset", fields["GITHUB_TOKEN"])
	require.Equal(t, "unset", fields["ANTHROPIC_API_KEY"], "no silent switch to API billing")
	require.Equal(t, oauthToken, fields["OAUTH"], "the subscription token is the CLI's own credential")
	require.Equal(t, "1", fields["TRAFFIC"])
	require.Equal(t, contract.Usage{InputTokens: 162, OutputTokens: 40}, reply.Usage)
	require.InDelta(t, 0.0123, reply.CostUSD, 1e-12)
	require.True(t, reply.CostKnown)
}

func TestGenerateConversationArrayOutput(t *testing.T) {
	table, err := prices.Parse([]byte("default: {input: 0, output: 0}\nmodels:\n  opus: {input: 5, output: 25}\n"), "p.yaml")
	require.NoError(t, err)
	m, err := New(Config{Spec: "claude-code://opus", Model: "opus", Path: standIn(t, "claude-chat"), Getenv: env(t.TempDir()), Prices: table})
	require.NoError(t, err)
	reply, err := m.Generate(context.Background(), contract.Request{Messages: []contract.Message{
		{Role: "user", Content: "write blinky"}, {Role: "assistant", Content: "int x;"}, {Role: "user", Content: "it does not compile"},
	}})
	require.NoError(t, err)
	require.Equal(t, "fixed", reply.Text)
	require.Equal(t, contract.Usage{InputTokens: 1000, OutputTokens: 2000}, reply.Usage)
	require.InDelta(t, (1000*5.0+2000*25.0)/1e6, reply.CostUSD, 1e-12, "no total_cost_usd: the price table")
}

func TestGenerateFailures(t *testing.T) {
	for _, tc := range []struct {
		name, script, path string
		want               string
		transient          bool
	}{
		{name: "malformed JSON", script: "claude-garbage", want: "claude-code: the CLI output is not JSON: unexpected end of JSON input"},
		{name: "argv mismatch exits 2", script: "claude-chat", want: "claude-code: the CLI failed (exit status 2): stand-in: unexpected argv", transient: true},
		{name: "error result", script: "claude-fail", want: "claude-code: the CLI failed (exit status 1): API Error: 529", transient: true},
		{name: "missing CLI", path: "/nonexistent/claude", want: `claude-code: the claude CLI was not found ("/nonexistent/claude")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path
			if path == "" {
				path = standIn(t, tc.script)
			}
			m, err := New(Config{Spec: "claude-code://claude-sonnet-4-5", Model: "claude-sonnet-4-5", Path: path, Getenv: env(t.TempDir())})
			require.NoError(t, err)
			_, err = m.Generate(context.Background(), contract.Request{Prompt: "p"})
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
			require.NotContains(t, err.Error(), oauthToken)
			// Wrapped for retries, transient failures are repeated.
			w := retry.Wrap(m, retry.Options{MaxRetries: 2, Sleep: func(context.Context, time.Duration) error { return nil }})
			_, err = w.Generate(context.Background(), contract.Request{Prompt: "p"})
			var infra *contract.InfraError
			require.ErrorAs(t, err, &infra)
			require.Equal(t, tc.transient, infra.Retryable)
			require.Equal(t, map[bool]int{true: 3, false: 1}[tc.transient], infra.Attempts)
			require.NotContains(t, err.Error(), oauthToken)
		})
	}
}

func TestGenerateHangKilledAtTimeout(t *testing.T) {
	home := t.TempDir()
	m, err := New(Config{Spec: "claude-code://x", Model: "x", Path: standIn(t, "claude-hang"), Getenv: env(home)})
	require.NoError(t, err)
	w := retry.Wrap(m, retry.Options{MaxRetries: -1, Timeout: 300 * time.Millisecond})
	_, err = w.Generate(context.Background(), contract.Request{Prompt: "p"})
	var infra *contract.InfraError
	require.ErrorAs(t, err, &infra)
	require.True(t, infra.Retryable)
	require.Equal(t, 1, infra.Attempts)
	require.Contains(t, err.Error(), "no answer within the per-call timeout of 300ms")

	raw, err := os.ReadFile(filepath.Join(home, "child.pid"))
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return gone(pid) }, 5*time.Second, 20*time.Millisecond,
		"the CLI's child %d was killed with its process group", pid)
}

func TestGenerateEndlessOutputStoppedByCap(t *testing.T) {
	m, err := New(Config{Spec: "claude-code://x", Model: "x", Path: standIn(t, "claude-flood"), Getenv: env(t.TempDir()), MaxReplyBytes: 64 << 10})
	require.NoError(t, err)
	// A generous deadline that only a CLI printing past the cap unchecked
	// would reach.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = m.Generate(ctx, contract.Request{Prompt: "p"})
	require.NoError(t, ctx.Err(), "the cap stopped the CLI, not the deadline")
	require.EqualError(t, err, "claude-code: model reply exceeds 64 KiB cap (--max-reply-bytes)")

	w := retry.Wrap(m, retry.Options{MaxRetries: 3, Timeout: 30 * time.Second, Sleep: func(context.Context, time.Duration) error { return nil }})
	_, err = w.Generate(context.Background(), contract.Request{Prompt: "p"})
	var infra *contract.InfraError
	require.ErrorAs(t, err, &infra)
	require.ErrorAs(t, err, new(*contract.ReplyTooLargeError))
	require.False(t, infra.Retryable)
	require.Equal(t, 1, infra.Attempts, "an oversized reply is not retried")
}

func TestDefaultReplyCap(t *testing.T) {
	m, err := New(Config{Spec: "claude-code://x", Model: "x"})
	require.NoError(t, err)
	require.EqualValues(t, contract.DefaultMaxReplyBytes, m.cfg.MaxReplyBytes)
}

// gone reports whether a process no longer runs (absent or a zombie).
func gone(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return strings.HasPrefix(rest, "Z")
}

func TestParseResult(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{``, "the CLI printed nothing"},
		{`[{"type":"system"}]`, "the CLI output has no result event"},
		{`{"type":"assistant"}`, `the CLI output is a "assistant" object, not a result`},
		{`[1,`, "the CLI output is not JSON: unexpected end of JSON input"},
	} {
		_, err := parseResult([]byte(tc.in))
		require.Error(t, err, tc.in)
		require.Contains(t, err.Error(), tc.want)
	}
}

func FuzzParseResult(f *testing.F) {
	f.Add(`{"type":"result","subtype":"success","result":"x","usage":{"input_tokens":1,"output_tokens":2}}`)
	f.Add(`[{"type":"system"},{"type":"result","result":"y"}]`)
	f.Add(`[`)
	f.Fuzz(func(t *testing.T, out string) {
		r, err := parseResult([]byte(out))
		if err == nil {
			require.Equal(t, "result", r.Type, "only a result is accepted")
		}
	})
}
