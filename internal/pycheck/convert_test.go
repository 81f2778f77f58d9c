package pycheck

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func fieldsOf(t *testing.T, src string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(src), &m))
	return m
}

// TestAdditiveFields: a Python check reports inconclusive and requirement
// as a Starlark one does.
func TestAdditiveFields(t *testing.T) {
	d, err := toDetail(fieldsOf(t, `{"check_name":"period","passed":false,"inconclusive":true,"requirement":"blink the LED every 500 ms forever"}`))
	require.NoError(t, err)
	require.True(t, d.Passed, "an inconclusive check never fails the solution")
	require.True(t, d.Inconclusive)
	require.False(t, d.Failed())
	require.NotNil(t, d.Requirement)
	require.Equal(t, "blink the LED every 500 ms forever", *d.Requirement)

	d, err = toDetail(fieldsOf(t, `{"check_name":"period","passed":false,"inconclusive":null,"extra":1}`))
	require.NoError(t, err)
	require.False(t, d.Passed)
	require.False(t, d.Inconclusive)
	require.Nil(t, d.Requirement)

	_, err = toDetail(fieldsOf(t, `{"check_name":"period","passed":true,"inconclusive":"yes"}`))
	require.EqualError(t, err, `check "period": inconclusive must be True or False, got "yes"`)
	_, err = toDetail(fieldsOf(t, `{"check_name":"period","passed":true,"requirement":3}`))
	require.EqualError(t, err, `check "period": requirement must be a string, got 3`)
}

// TestModuleDetails: the records of a mutant's modules are checked module
// by module, so the two modules of a flat-layout case may share a name, while
// one module may not report a name twice.
func TestModuleDetails(t *testing.T) {
	a := fieldsOf(t, `{"check_name":"timer_started","passed":true}`)
	b := fieldsOf(t, `{"check_name":"period","passed":false}`)
	ds, err := moduleDetails([]map[string]json.RawMessage{a, a, b}, []int{1, 2})
	require.NoError(t, err)
	require.Len(t, ds, 3)
	_, err = moduleDetails([]map[string]json.RawMessage{a, a, b}, []int{2, 1})
	require.ErrorContains(t, err, `check_name "timer_started" twice`)
	_, err = moduleDetails([]map[string]json.RawMessage{a, a}, nil)
	require.ErrorContains(t, err, "twice", "without sizes the records are one module's")
	_, err = moduleDetails([]map[string]json.RawMessage{a, a}, []int{-1, 3})
	require.ErrorContains(t, err, "twice", "sizes that do not add up are ignored")
}
