package analysis

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/result"
)

func TestMatchCheck(t *testing.T) {
	tests := []struct {
		name, ctype string
		want        Pattern
		ok          bool
	}{
		{"no_foreign_platform_apis", "constraint", CrossPlatform, true},
		{"isr_no_blocking_api", "constraint", MissingSafety, true},
		{"tick_counter_volatile", "constraint", MissingSafety, true},
		{"callback_does_not_block", "constraint", MissingSafety, true},
		{"startup_order_correct", "constraint", OrderViolation, true},
		{"exit_releases_in_reverse_order", "constraint", OrderViolation, true},
		{"peripheral_clocks_enabled_before_init", "constraint", OrderViolation, true},
		{"init_failures_unwound", "constraint", HappyPathBias, true},
		{"nvs_handle_closed_on_every_path", "constraint", HappyPathBias, true},
		{"uart_init_result_checked", "constraint", HappyPathBias, true},
		{"buffer_released", "constraint", ResourceImbalance, true},
		{"dma_channel_freed", "constraint", ResourceImbalance, true},
		// "free" is a word, not a substring: freertos does not match.
		{"freertos_headers_included", "constraint", Unknown, false},
		{"output_matches", "runtime", SemanticMismatch, true},
		{"value_is_42", "runtime", SemanticMismatch, true},
		{"Cross-Platform/API", "", CrossPlatform, true},
		{"", "", Unknown, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := MatchCheck(tc.name, tc.ctype)
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.ok, ok)
		})
	}
}

func TestClassify(t *testing.T) {
	const m, c = "m", "dma-001"
	l1 := func(err string, failed ...string) result.EvalResult {
		return mk(m, c, 0, layer(0, result.StatusPassed), ls{n: 1, st: result.StatusFailed, err: err, failed: failed},
			ls{n: 2, st: result.StatusSkipped}, ls{n: 3, st: result.StatusSkipped}, ls{n: 4, st: result.StatusSkipped})
	}
	tests := []struct {
		name  string
		res   result.EvalResult
		want  Pattern
		conf  float64
		total int
	}{
		{"passed result", pass(m, c, 0), "", 0, 0},
		{"happy path", failAt(m, c, 0, 0, "init_failures_unwound"), HappyPathBias, 1, 1},
		{"resource", failAt(m, c, 0, 3, "buffer_released", "dma_channel_freed"), ResourceImbalance, 1, 2},
		{"order", failAt(m, c, 0, 0, "startup_order_correct"), OrderViolation, 1, 1},
		{"cross platform", failAt(m, c, 0, 0, "no_foreign_platform_apis"), CrossPlatform, 1, 1},
		{"missing safety majority", failAt(m, c, 0, 3, "isr_no_blocking_api", "tick_counter_volatile", "buffer_released"), MissingSafety, 2.0 / 3, 3},
		{"tie goes to the earlier pattern", failAt(m, c, 0, 3, "buffer_released", "init_failures_unwound"), HappyPathBias, 0.5, 2},
		{"unknown loses ties", failAt(m, c, 0, 0, "mystery_check", "startup_order_correct"), OrderViolation, 0.5, 2},
		{"unmapped check", failAt(m, c, 0, 0, "mystery_check"), Unknown, 1, 1},
		{"L1 implicit declaration", l1("main.c:17:5: error: implicit declaration of function 'k_sleep_ms'"), APIHallucination, 1, 1},
		{"L1 undefined reference in reason", mk(m, c, 0, layer(0, result.StatusPassed), ls{n: 1, st: result.StatusFailed, reason: "ld: undefined reference to `foo'"}), APIHallucination, 1, 1},
		{"L1 other compile error", l1("main.c:3: error: expected ';'"), Unknown, 1, 1},
		{"L2 runtime", failAt(m, c, 0, 2), SemanticMismatch, 1, 1},
		{"L2 runtime check", mk(m, c, 0, layer(0, result.StatusPassed), layer(1, result.StatusPassed), ls{n: 2, st: result.StatusFailed, failed: []string{"value_matches"}, ctype: "runtime"}), SemanticMismatch, 1, 1},
		{"L4 failure ignored", mk(m, c, 0, layer(0, result.StatusFailed, "startup_order_correct"), layer(4, result.StatusFailed, "isr_a", "isr_b")), OrderViolation, 1, 1},
		{"mutation checks ignored", mk(m, c, 0, ls{n: 0, st: result.StatusFailed, failed: []string{"isr_x"}, ctype: result.CheckTypeMutation}), Unknown, 1, 1},
		{"L0 size limit without checks", mk(m, c, 0, ls{n: 0, st: result.StatusFailed, reason: "generated code is 9 bytes"}), Unknown, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Classify(&tc.res)
			if tc.want == "" {
				require.False(t, ok)
				return
			}
			require.True(t, ok)
			require.Equal(t, tc.want, got.Pattern)
			require.InDelta(t, tc.conf, got.Confidence, 1e-12)
			require.Equal(t, tc.total, got.Total)
		})
	}
}

func TestPatternsAndRules(t *testing.T) {
	ps := Patterns()
	require.Len(t, ps, 8)
	require.Equal(t, Unknown, ps[len(ps)-1])
	for _, p := range ps {
		require.NotEmpty(t, PatternDescription(p))
	}
	// Every pattern but unknown (and api_hallucination's compiler markers) is
	// reachable through the keyword table.
	seen := map[Pattern]bool{}
	for _, r := range KeywordRules() {
		seen[r.Pattern] = true
		require.NotEmpty(t, r.Keywords)
	}
	for _, p := range ps[:len(ps)-1] {
		require.True(t, seen[p], p)
	}
}
