package result

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckDetailAdditiveFields keeps the contract's shape for a record that
// neither is inconclusive nor cites a requirement, and names the additive
// fields when they are set.
func TestCheckDetailAdditiveFields(t *testing.T) {
	plain, err := json.Marshal(CheckDetail{CheckName: "a", Passed: true, CheckType: "constraint", Weight: 1})
	require.NoError(t, err)
	require.Equal(t, `{"check_name":"a","passed":true,"expected":null,"actual":null,"check_type":"constraint","weight":1}`, string(plain))

	cited := CheckDetail{CheckName: "a", Passed: true, CheckType: "constraint", Weight: 1, Requirement: Ptr("Toggle the LED every 500 ms.")}
	data, err := json.Marshal(cited)
	require.NoError(t, err)
	require.Equal(t, `{"check_name":"a","passed":true,"expected":null,"actual":null,"check_type":"constraint","weight":1,"requirement":"Toggle the LED every 500 ms."}`, string(data))
	var back CheckDetail
	require.NoError(t, json.Unmarshal(data, &back))
	require.Equal(t, cited, back)
}
