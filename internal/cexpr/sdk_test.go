package cexpr

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/data"
)

func TestEmbeddedSDKTablesLoad(t *testing.T) {
	tables, err := LoadSDKTables(data.SDKMacrosYAML(), "data/sdk_macros.yaml")
	require.NoError(t, err)
	assert.Equal(t, "0", tables.Objects["HAL_OK"])
	assert.Equal(t, []string{"h", "l"}, tables.Functions["GENMASK"].Params)
	assert.Equal(t, "uint32_t", tables.Types["TickType_t"])
	assert.Equal(t, "0", BuiltinObjects()["HAL_OK"], "the evaluator knows the SDK constants")
	assert.Equal(t, "255", BuiltinObjects()["UINT8_MAX"], "and the C standard's")
	v, err := EvalValue("BIT(3) | HAL_TIMEOUT", Env{})
	require.NoError(t, err)
	assert.Equal(t, uint64(11), v.Bits)
	m := Builtins()
	delete(m, "BIT")
	assert.Contains(t, Builtins(), "BIT", "accessors hand out copies")
}

func TestLoadSDKTablesRejectsBadEntriesWithTheirLine(t *testing.T) {
	for name, tc := range map[string]struct{ doc, want string }{
		"missing list": {"objects: []\nfunctions: []\n", "x.yaml:1: missing top-level key types"},
		"bad param":    {"objects: []\nfunctions:\n  - {name: F, params: \"a b\", body: x, source: s}\ntypes: []\n", `x.yaml:3: functions[0]: parameter "a b" is not a C identifier`},
		"empty value":  {"objects:\n  - {name: X, value: \" \", source: s}\nfunctions: []\ntypes: []\n", "x.yaml:2: objects[0]: empty value"},
		"duplicate":    {"objects:\n  - {name: X, value: \"1\", source: s}\n  - {name: X, value: \"2\", source: s}\nfunctions: []\ntypes: []\n", `x.yaml:3: objects[1]: duplicate name "X"`},
		"no source":    {"objects: []\nfunctions: []\ntypes:\n  - {name: T, type: int}\n", "x.yaml:4: types[0]: missing source"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := LoadSDKTables([]byte(tc.doc), "x.yaml")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
