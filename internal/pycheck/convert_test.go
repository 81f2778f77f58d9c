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
