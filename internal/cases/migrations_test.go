package cases

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDecodeMigrations(t *testing.T) {
	good := "renames:\n  - from: old_name\n    to: new_name\n    since: \"2026-11-01\"\n    reason: \"clearer\"\n"
	rs, ps := DecodeMigrations("m.yaml", []byte(good))
	require.Empty(t, ps)
	require.Equal(t, []Rename{{From: "old_name", To: "new_name", Since: "2026-11-01", Reason: "clearer", Line: 2}}, rs)

	for in, want := range map[string]string{
		"renames: {}\n": `m.yaml:1:10: renames must be a list of {from, to, since, reason} [migrations]`,
		"renamed: []\n": `m.yaml:1:1: unknown key "renamed" (the file holds only renames) [migrations]`,
		"renames:\n  - from: a\n    to: a\n    since: \"2026-01-01\"\n    reason: x\n": `m.yaml:2:5: rename from "a" to itself [migrations]`,
		"renames:\n  - from: a\n    to: b\n    since: yesterday\n    reason: x\n":      `m.yaml:2:5: since "yesterday" is not an ISO date (YYYY-MM-DD) [migrations]`,
		"renames:\n  - from: a\n    to: b\n":                                           `m.yaml:2:5: a rename needs from, to, since and reason [migrations]`,
		"renames:\n  - from: a\n    too: b\n":                                          `m.yaml:3:5: unknown key "too" in a rename (want from, to, since, reason) [migrations]`,
	} {
		_, ps := DecodeMigrations("m.yaml", []byte(in))
		require.NotEmpty(t, ps, in)
		require.Equal(t, want, ps[0].String(), in)
	}
}
