package ctext

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSampleZephyrApp runs the helpers together over one realistic file.
func TestSampleZephyrApp(t *testing.T) {
	src := NewSource(sampleC())
	require.True(t, src.APIInFunction("main", "k_msleep"))
	require.False(t, src.APIInFunction("button_pressed", "k_msleep"))
	require.False(t, src.HasWord("Copyright"))
	require.True(t, src.ScopedContains(`"app.h"`, ScopeCodeOnly))
	body, ok := src.FunctionBody("button_pressed")
	require.True(t, ok)
	require.Contains(t, body, `printk("pressed at %" PRIu32 "\n", k_cycle_get_32());`)
	require.NotContains(t, body, "// count")
}
