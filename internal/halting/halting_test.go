package halting

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/data"
)

func TestDefault(t *testing.T) {
	calls, err := Default()
	require.NoError(t, err)
	for _, name := range []string{"abort", "NVIC_SystemReset", "k_panic", "k_oops", "sys_reboot", "esp_restart", "panic", "BUG", "__builtin_trap", "CODE_UNREACHABLE"} {
		assert.True(t, calls.Contains(name), name)
	}
	for _, name := range []string{"Error_Handler", "configASSERT", "assert", "vTaskSuspendAll", "HAL_Delay"} {
		assert.False(t, calls.Contains(name), "%s must not be assumed to halt", name)
	}
	entries, err := Load(data.HaltingCallsYAML(), "data/halting_calls.yaml")
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotEmpty(t, e.Source, e.Name)
		assert.Positive(t, e.Line, e.Name)
	}
	b := data.HaltingCallsYAML()
	b[0] = '!'
	assert.NotEqual(t, byte('!'), data.HaltingCallsYAML()[0], "callers must get a copy")
}

func TestLoadRejects(t *testing.T) {
	tests := map[string]string{
		"":                          "t.yaml: want a mapping with keys calls",
		"- a\n":                     "t.yaml: want a mapping with keys calls",
		"names: []\n":               `t.yaml:1: unknown top-level key "names" (want calls)`,
		"calls: []\ncalls: []\n":    "duplicate top-level key calls",
		"calls: {}\n":               "t.yaml:1: calls: want a list",
		"calls:\n  - abort\n":       "t.yaml:2: calls[0]: want a mapping {name, source}",
		"calls:\n  - name: abort\n": "t.yaml:2: calls[0]: missing source",
		"calls:\n  - name: k panic\n    source: x\n":                       `calls[0]: name "k panic" is not a C identifier`,
		"calls:\n  - name: [a]\n    source: x\n":                           "t.yaml:2: calls[0]: name must be a string",
		"calls:\n  - name: a\n    source: x\n    kind: y\n":                `t.yaml:4: calls[0]: unknown key "kind" (allowed: name, source)`,
		"calls:\n  - name: a\n    source: x\n  - name: a\n    source: y\n": `t.yaml:4: calls[1]: duplicate name "a" (first at line 2)`,
		"calls: [\n": "t.yaml: yaml:",
	}
	for doc, msg := range tests {
		_, err := Load([]byte(doc), "t.yaml")
		require.Error(t, err, doc)
		assert.Contains(t, err.Error(), msg, doc)
	}
	entries, err := Load([]byte("calls:\n  - name: halt\n    source: \"app.h: noreturn\"\n"), "t.yaml")
	require.NoError(t, err)
	assert.Equal(t, []Entry{{Name: "halt", Source: "app.h: noreturn", Line: 2}}, entries)
}
