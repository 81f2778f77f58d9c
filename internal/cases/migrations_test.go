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
		"renamed: []\n": `m.yaml:1:1: unknown key "renamed" (the file holds renames and retired) [migrations]`,
		"renames:\n  - from: a\n    to: a\n    since: \"2026-01-01\"\n    reason: x\n": `m.yaml:2:5: rename from "a" to itself [migrations]`,
		"renames:\n  - from: a\n    to: b\n    since: yesterday\n    reason: x\n":      `m.yaml:2:5: since "yesterday" is not an ISO date (YYYY-MM-DD) [migrations]`,
		"renames:\n  - from: a\n    to: b\n":                                           `m.yaml:2:5: a rename needs from, to, since and reason [migrations]`,
		"renames:\n  - from: a\n    too: b\n":                                          `m.yaml:3:5: unknown key "too" in renames (want from, to, since, reason) [migrations]`,
		"retired:\n  - name: a\n    since: \"2026-01-01\"\n":                           `m.yaml:2:5: a retirement needs name, since and reason [migrations]`,
		"retired:\n  - name: a\n    to: b\n":                                           `m.yaml:3:5: unknown key "to" in retired (want name, since, reason) [migrations]`,
		"retired: x\n":                                                                 `m.yaml:1:10: retired must be a list of {name, since, reason} [migrations]`,
		"{}\n":                                                                         `m.yaml:1:1: missing renames list [migrations]`,
	} {
		_, ps := DecodeMigrations("m.yaml", []byte(in))
		require.NotEmpty(t, ps, in)
		require.Equal(t, want, ps[0].String(), in)
	}
}

func TestDecodeRetirements(t *testing.T) {
	in := "renames:\n  - from: a\n    to: b\n    since: \"2026-11-01\"\n    reason: clearer\nretired:\n  - name: c\n    since: \"2026-12-01\"\n    reason: no text of the case asks for it\n"
	rs, ps := DecodeMigrations("m.yaml", []byte(in))
	require.Empty(t, ps)
	require.Equal(t, []Rename{
		{From: "a", To: "b", Since: "2026-11-01", Reason: "clearer", Line: 2},
		{From: "c", Retired: true, Since: "2026-12-01", Reason: "no text of the case asks for it", Line: 7},
	}, rs)
	rs, ps = DecodeMigrations("m.yaml", []byte("retired:\n  - name: c\n    since: \"2026-12-01\"\n    reason: r\n"))
	require.Empty(t, ps, "a file may hold retirements alone")
	require.Len(t, rs, 1)
}
