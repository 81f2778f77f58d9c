package score

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

// passAtKExact computes 1 - C(n-c,k)/C(n,k) with big rationals.
func passAtKExact(n, c, k int) float64 {
	if n-c < k {
		return 1
	}
	num := new(big.Int).Binomial(int64(n-c), int64(k))
	den := new(big.Int).Binomial(int64(n), int64(k))
	f, _ := new(big.Rat).SetFrac(num, den).Float64()
	return 1 - f
}

func TestPassAtK(t *testing.T) {
	tests := []struct {
		name    string
		n, c, k int
		want    float64
	}{
		{"all correct", 10, 10, 1, 1},
		{"none correct", 10, 0, 5, 0},
		{"pass@1 is c/n", 10, 3, 1, 0.3},
		{"n<k with a correct sample falls back to 1", 2, 1, 5, 1},
		{"n<k without a correct sample falls back to 0", 2, 0, 5, 0},
		{"n-c<k is certain", 5, 3, 3, 1},
		{"n=5 c=1 k=3", 5, 1, 3, 0.6},
		{"no samples", 0, 0, 1, 0},
		{"c clamped", 3, 7, 1, 1},
		{"k zero", 3, 1, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.InDelta(t, tt.want, PassAtK(tt.n, tt.c, tt.k), 1e-12)
		})
	}
}

func TestPassAtKMatchesBinomials(t *testing.T) {
	for n := 1; n <= 40; n++ {
		for c := 0; c <= n; c++ {
			for _, k := range []int{1, 3, 5, 10} {
				if n < k {
					continue
				}
				require.InDelta(t, passAtKExact(n, c, k), PassAtK(n, c, k), 1e-12, "n=%d c=%d k=%d", n, c, k)
			}
		}
	}
	// Large n stays finite and in range where binomials would overflow float64.
	v := PassAtK(5000, 1, 5)
	require.False(t, math.IsNaN(v))
	require.InDelta(t, 0.001, v, 1e-6)
}

func TestWilson(t *testing.T) {
	tests := []struct {
		name   string
		p      float64
		n      int
		lo, hi float64
	}{
		// Reference values computed from the closed form by hand.
		{"half of ten", 0.5, 10, 0.236593, 0.763407},
		{"zero of twenty", 0, 20, 0, 0.161125},
		{"all of twenty", 1, 20, 0.838875, 1},
		{"no samples", 0.5, 0, 0, 0},
		{"methodology example", 0.895, 200, 0.845, 0.930},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := Wilson(tt.p, tt.n, Z95)
			require.InDelta(t, tt.lo, lo, 1e-3)
			require.InDelta(t, tt.hi, hi, 1e-3)
			if tt.n > 0 {
				require.LessOrEqual(t, lo, tt.p+1e-12)
				require.GreaterOrEqual(t, hi, tt.p-1e-12)
			}
		})
	}
}
