package isrshare

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultLoads(t *testing.T) {
	v, err := Default()
	require.NoError(t, err)
	assert.Contains(t, v.Enter, "irq_lock")
	assert.Contains(t, v.Exit, "irq_unlock")
	assert.Contains(t, v.Enable, "NVIC_EnableIRQ")
	assert.Contains(t, v.Objects, "k_spinlock")
}

func TestLoadRejectsBadEntriesWithTheirLine(t *testing.T) {
	for name, tc := range map[string]struct{ doc, want string }{
		"missing list": {"enter: []\nexit: []\nobjects: []\n", "x.yaml:1: missing top-level key enable"},
		"bad name":     {"enter:\n  - {name: \"a b\", source: s}\nexit: []\nenable: []\nobjects: []\n", "x.yaml:2: enter[0]: name \"a b\" is not a C identifier"},
		"no source":    {"enter: []\nexit:\n  - {name: f}\nenable: []\nobjects: []\n", "x.yaml:3: exit[0]: missing source"},
		"duplicate":    {"enter: []\nexit: []\nenable:\n  - {name: f, source: s}\n  - {name: f, source: s}\nobjects: []\n", "x.yaml:5: enable[1]: duplicate name \"f\" (first at line 4)"},
		"unknown top":  {"leave: []\n", "x.yaml:1: unknown top-level key \"leave\""},
		"unknown key":  {"enter:\n  - {name: f, source: s, depth: 1}\nexit: []\nenable: []\nobjects: []\n", "x.yaml:2: enter[0]: unknown key \"depth\""},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Load([]byte(tc.doc), "x.yaml")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
