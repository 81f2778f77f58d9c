package errconv

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultLoads(t *testing.T) {
	c, err := Default()
	require.NoError(t, err)
	assert.True(t, c.CheckMacro("ESP_ERROR_CHECK"))
	assert.True(t, c.NoticeMacro("ESP_ERROR_CHECK_WITHOUT_ABORT"))
	assert.False(t, c.CheckMacro("ESP_ERROR_CHECK_WITHOUT_ABORT"), "it does not leave")
	assert.True(t, c.NoReturn("Error_Handler"))
	assert.True(t, c.FailureValue("HAL_ERROR"))
	assert.False(t, c.FailureValue("HAL_OK"))
	assert.True(t, c.SuccessValue("HAL_OK"))
	assert.True(t, c.SuccessValue("pdPASS"))
	assert.False(t, c.SuccessValue("pdFALSE"))
	assert.True(t, c.ErrorTest("IS_ERR"))
	assert.True(t, c.Hint("unlikely"))
	assert.False(t, c.Hint("IS_ERR"))
	var none *Conventions
	assert.False(t, none.NoReturn("abort"))
}

func TestLoadRejectsBadEntriesWithTheirLine(t *testing.T) {
	const ok = "check_macros: []\nnotice_macros: []\nno_return_calls: []\nfailure_values: []\nsuccess_values: []\nerror_tests: []\n"
	for name, tc := range map[string]struct{ doc, want string }{
		"missing list": {ok, "x.yaml:1: missing top-level key hints"},
		"unknown key":  {ok + "hints: []\nextra: []\n", "x.yaml:8: unknown top-level key \"extra\""},
		"not ident":    {ok + "hints:\n  - {name: \"a b\", source: s}\n", "x.yaml:8: hints[0]: name \"a b\" is not a C identifier"},
		"no source":    {ok + "hints:\n  - {name: likely}\n", "x.yaml:8: hints[0]: missing source"},
		"duplicate":    {ok + "hints:\n  - {name: likely, source: s}\n  - {name: likely, source: s}\n", "x.yaml:9: hints[1]: duplicate name \"likely\" (first at line 8)"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Load([]byte(tc.doc), "x.yaml")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := Load([]byte(ok+"hints: []\n"), "x.yaml")
	require.NoError(t, err)
}
