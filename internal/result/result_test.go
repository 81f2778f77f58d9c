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

func TestLayerNames(t *testing.T) {
	long := []string{"static_analysis", "compile_gate", "runtime_execution", "static_heuristic", "test_quality_proof"}
	short := []string{"static", "compile", "runtime", "heuristic", "mutation"}
	for n := LayerStatic; n <= LayerMutation; n++ {
		require.Equal(t, long[n], LayerName(n))
		require.Equal(t, short[n], LayerShortName(n))
		for _, name := range []string{long[n], short[n]} {
			got, ok := LayerNumber(name)
			require.True(t, ok, name)
			require.Equal(t, n, got)
		}
	}
	_, ok := LayerNumber("Static")
	require.False(t, ok)

	r := EvalResult{Layers: []LayerResult{{Layer: 0, Name: "static"}, {Layer: 3, Name: "static_heuristic"}, {Layer: 1, Name: "heuristic"}, {Layer: 2, Name: "custom"}}}
	r.NormalizeLayerNames()
	require.Equal(t, []string{"static_analysis", "static_heuristic", "heuristic", "custom"},
		[]string{r.Layers[0].Name, r.Layers[1].Name, r.Layers[2].Name, r.Layers[3].Name},
		"only a short name matching its layer number is rewritten")
}
