package vocabyaml

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestListAndNames(t *testing.T) {
	d, err := Parse([]byte("a:\n  - {name: f, source: s}\n  - {name: g, source: t}\nb:\n  - {api: h, args: [1, 2], source: s}\nc: K\n"), "x.yaml", "a", "b", "c")
	require.NoError(t, err)
	names, err := d.Names("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"f", "g"}, names)
	es, err := d.List("b", "api", "args", "source")
	require.NoError(t, err)
	idx, err := es[0].Indexes("args")
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2}, idx)
	id, err := d.Identifier("c")
	require.NoError(t, err)
	assert.Equal(t, "K", id)
}

func TestRejectsBadShapesWithTheirLine(t *testing.T) {
	for name, tc := range map[string]struct{ doc, want string }{
		"not a mapping": {"- a\n", "x.yaml: want a mapping with keys a, b"},
		"unknown key":   {"a: []\nz: []\n", "x.yaml:2: unknown top-level key \"z\" (want a, b)"},
		"duplicate key": {"a: []\na: []\n", "x.yaml:2: duplicate top-level key a"},
		"not a list":    {"a: 3\n", "x.yaml:1: a: want a list of {name, source} entries"},
		"missing":       {"b: []\n", "x.yaml:1: missing top-level key a"},
		"entry shape":   {"a:\n  - f\n", "x.yaml:2: a[0]: want a mapping {name, source}"},
		"entry key":     {"a:\n  - {name: f, source: s, arg: 1}\n", "x.yaml:2: a[0]: unknown key \"arg\""},
		"missing field": {"a:\n  - {name: f}\n", "x.yaml:2: a[0]: missing source"},
		"empty source":  {"a:\n  - {name: f, source: \" \"}\n", "x.yaml:2: a[0]: has no source"},
		"not ident":     {"a:\n  - {name: \"f()\", source: s}\n", "x.yaml:2: a[0]: name \"f()\" is not a C identifier"},
		"not string":    {"a:\n  - {name: [f], source: s}\n", "x.yaml:2: a[0]: name must be a string"},
		"duplicate":     {"a:\n  - {name: f, source: s}\n  - {name: f, source: s}\n", "x.yaml:3: a[1]: duplicate name \"f\" (first at line 2)"},
	} {
		t.Run(name, func(t *testing.T) {
			d, err := Parse([]byte(tc.doc), "x.yaml", "a", "b")
			if err == nil {
				_, err = d.Names("a")
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestIndexes(t *testing.T) {
	for name, tc := range map[string]struct{ args, want string }{
		"empty":    {"[]", "args must be a non-empty list"},
		"negative": {"[-1]", "args -1 is not an argument index"},
		"string":   {"[\"1\"]", "args must be an argument index"},
		"twice":    {"[1, 1]", "args lists 1 twice"},
		"too big":  {"[64]", "args 64 is not an argument index"},
	} {
		t.Run(name, func(t *testing.T) {
			d, err := Parse([]byte("b:\n  - {api: h, args: "+tc.args+", source: s}\n"), "x.yaml", "b")
			require.NoError(t, err)
			es, err := d.List("b", "api", "args", "source")
			require.NoError(t, err)
			_, err = es[0].Indexes("args")
			require.Error(t, err)
			assert.Contains(t, err.Error(), "x.yaml:2: b[0]: "+tc.want)
		})
	}
}
