package ctext

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSampleZephyrApp runs the helpers together over one realistic file.
func TestSampleZephyrApp(t *testing.T) {
	code := sampleC()
	require.True(t, APIInFunction(code, "main", "k_msleep"))
	require.False(t, APIInFunction(code, "button_pressed", "k_msleep"))
	require.False(t, HasWord(code, "Copyright"))
	require.True(t, ScopedContains(code, `"app.h"`, ScopeCodeOnly))
	body, ok := FunctionBody(code, "button_pressed")
	require.True(t, ok)
	require.Contains(t, body, `printk("pressed at %" PRIu32 "\n", k_cycle_get_32());`)
	require.NotContains(t, body, "// count")
}
