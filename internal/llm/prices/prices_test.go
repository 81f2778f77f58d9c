package prices

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/llm/contract"
)

func TestEmbeddedTable(t *testing.T) {
	table, err := Default()
	require.NoError(t, err)
	require.Contains(t, table.Notice, "informational")
	require.Equal(t, Price{}, table.Default, "unknown models cost nothing")
	ids := table.Models()
	for _, want := range []string{"gpt-4o", "gpt-4o-mini", "claude-sonnet-4-5", "claude-haiku-4-5"} {
		require.Contains(t, ids, want)
	}
}

func TestCost(t *testing.T) {
	table, err := Parse([]byte(`
notice: test
default: {input: 0, output: 0}
models:
  gpt-4o: {input: 2.5, output: 10}
  gpt-4o-mini: {input: 0.15, output: 0.6}
  claude-sonnet-4-5: {input: 3, output: 15}
`), "p.yaml")
	require.NoError(t, err)
	usage := contract.Usage{InputTokens: 1_000_000, OutputTokens: 500_000}
	for _, tc := range []struct {
		model string
		usd   float64
		known bool
	}{
		{"gpt-4o", 2.5 + 5, true},
		{"gpt-4o-mini", 0.15 + 0.3, true},
		{"gpt-4o-2024-08-06", 2.5 + 5, true},
		{"gpt-4o-mini-2024-07-18", 0.15 + 0.3, true},
		{"openai/gpt-4o", 2.5 + 5, true},
		{"claude-sonnet-4-5-20250929", 3 + 7.5, true},
		{"gpt-4oo", 0, false},
		{"llama3", 0, false},
	} {
		usd, known := table.Cost(tc.model, usage)
		require.Equal(t, tc.known, known, tc.model)
		require.InDelta(t, tc.usd, usd, 1e-9, tc.model)
	}
}

func TestUnknownModelWarnedOnce(t *testing.T) {
	var logs bytes.Buffer
	table, err := Parse([]byte("default: {input: 1, output: 2}\n"), "p.yaml")
	require.NoError(t, err)
	table.WithLogger(slog.New(slog.NewTextHandler(&logs, nil)))
	for range 3 {
		usd, known := table.Cost("mystery", contract.Usage{InputTokens: 1_000_000, OutputTokens: 1_000_000})
		require.False(t, known)
		require.InDelta(t, 3.0, usd, 1e-9, "the default price applies")
	}
	table.Cost("other", contract.Usage{})
	require.Equal(t, 1, strings.Count(logs.String(), "model=mystery"))
	require.Equal(t, 1, strings.Count(logs.String(), "model=other"))
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"models: {}\n", "p.yaml:1: missing field default"},
		{"default: {input: 0, output: 0}\ncurrency: EUR\n", `p.yaml:2: unknown field "currency" (expected notice, default, models)`},
		{"default: {input: 0, output: 0}\nmodels:\n  m: {input: 1}\n", "p.yaml:3: model m: missing field output"},
		{"default: {input: 0, output: 0}\nmodels:\n  m: {input: 1, output: -2}\n", "p.yaml:3: model m: output: expected a price of zero or more, found -2"},
		{"default: {input: 0, output: 0}\nmodels:\n  m: {input: cheap, output: 1}\n", `p.yaml:3: model m: input: expected a number of USD per million tokens, found "cheap"`},
		{"default: {input: 0, output: 0}\nmodels:\n  m: {input: 1, output: 1, cached: 0.1}\n", `p.yaml:3: model m: unknown field "cached" (expected input, output)`},
		{"default: {input: 0, output: 0}\nmodels:\n  m: {input: 1, output: 1}\n  m: {input: 2, output: 2}\n", `p.yaml:4: model "m" appears twice`},
		{"default: {input: 0, output: 0}\ndefault: {input: 0, output: 0}\n", `p.yaml:2: "default" appears twice`},
		{"default: [1, 2]\n", "p.yaml:1: default: expected a mapping with input and output"},
		{"- a\n", "p.yaml:1: expected a mapping with notice, default and models"},
		{"default: {input: 0\n", "p.yaml:1: did not find expected ',' or '}'"},
		{"notice: [x]\ndefault: {input: 0, output: 0}\n", "p.yaml:1: notice: expected a string"},
	} {
		_, err := Parse([]byte(tc.src), "p.yaml")
		require.Error(t, err, tc.src)
		require.Contains(t, err.Error(), tc.want, tc.src)
	}
}
