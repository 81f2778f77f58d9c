package entrypoints

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultLoads(t *testing.T) {
	k, err := Default()
	require.NoError(t, err)
	assert.Equal(t, "isr", k["gpio_init_callback"])
	assert.Equal(t, "thread", k["xTaskCreate"])
	assert.Equal(t, "init", k[".probe"])
}

func TestLoadRejectsBadEntriesWithTheirLine(t *testing.T) {
	for name, tc := range map[string]struct{ doc, want string }{
		"unknown kind": {"registrations:\n  - {via: f, kind: task, source: s}\n", "x.yaml:2: registrations[0]: f: kind \"task\""},
		"not ident":    {"registrations:\n  - {via: \"f()\", kind: isr, source: s}\n", "x.yaml:2: registrations[0]: via \"f()\""},
		"no source":    {"registrations:\n  - {via: f, kind: isr}\n", "x.yaml:2: registrations[0]: missing source"},
		"duplicate":    {"registrations:\n  - {via: f, kind: isr, source: s}\n  - {via: f, kind: isr, source: s}\n", "x.yaml:3: registrations[1]: duplicate via \"f\" (first at line 2)"},
		"unknown key":  {"registrations:\n  - {via: f, kind: isr, source: s, arg: 1}\n", "x.yaml:2: registrations[0]: unknown key \"arg\""},
		"top key":      {"calls: []\n", "x.yaml:1: unknown top-level key \"calls\""},
		"not a list":   {"registrations: 3\n", "x.yaml:1: registrations: want a list"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Load([]byte(tc.doc), "x.yaml")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
