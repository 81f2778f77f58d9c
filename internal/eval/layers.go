package eval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/embedeval/embedeval-go/internal/result"
)

// LayerSet is the set of layers selected to run.
type LayerSet uint8

// AllLayers selects L0 through L4.
const AllLayers LayerSet = 0b11111

// Has reports whether layer n is selected.
func (s LayerSet) Has(n int) bool { return s&(1<<n) != 0 }

// String renders the set as "L0,L1,...".
func (s LayerSet) String() string {
	var parts []string
	for n := 0; n <= result.LayerMutation; n++ {
		if s.Has(n) {
			parts = append(parts, "L"+strconv.Itoa(n))
		}
	}
	return strings.Join(parts, ",")
}

// ParseLayers reads a comma-separated list of layers: "L0,L3", "0,3,4", layer
// names, short or long ("static,heuristic", "static_analysis") or "all".
func ParseLayers(s string) (LayerSet, error) {
	if strings.TrimSpace(s) == "" || s == "all" {
		return AllLayers, nil
	}
	var set LayerSet
	for _, part := range strings.Split(s, ",") {
		p := strings.ToLower(strings.TrimSpace(part))
		n := -1
		for i := 0; i <= result.LayerMutation; i++ {
			if p == "l"+strconv.Itoa(i) || p == strconv.Itoa(i) || p == result.LayerName(i) || p == result.LayerShortName(i) {
				n = i
			}
		}
		if n < 0 {
			return 0, fmt.Errorf("unknown layer %q (want L0..L4, 0..4, static, compile, runtime, heuristic, mutation, or static_analysis, compile_gate, runtime_execution, static_heuristic, test_quality_proof)", part)
		}
		set |= 1 << n
	}
	return set, nil
}
