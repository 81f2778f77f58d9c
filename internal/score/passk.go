package score

import "math"

// PassAtK is the unbiased pass@k estimator of Chen et al. (2021) for one task
// with n judged samples of which c are correct: 1 - C(n-c, k) / C(n, k),
// computed as the product 1 - prod_{i=n-c+1..n} (1 - k/i), which neither
// overflows nor loses precision for large n. When n < k the estimator is
// undefined and the empirical estimate is returned instead: 1 if any sample
// is correct, else 0. n <= 0 or k <= 0 gives 0; c is clamped to [0, n].
func PassAtK(n, c, k int) float64 {
	if n <= 0 || k <= 0 {
		return 0
	}
	c = min(max(c, 0), n)
	if n < k {
		if c > 0 {
			return 1
		}
		return 0
	}
	if n-c < k {
		return 1
	}
	prod := 1.0
	for i := n - c + 1; i <= n; i++ {
		prod *= 1 - float64(k)/float64(i)
	}
	return 1 - prod
}

// Z95 is the standard normal quantile for a two-sided 95% interval.
const Z95 = 1.96

// Wilson returns the Wilson score interval for an observed proportion p over
// n trials with quantile z: (center ± spread) / (1 + z²/n), where
// center = p + z²/2n and spread = z·sqrt(p(1-p)/n + z²/4n²). The bounds are
// clamped to [0, 1]; n <= 0 gives (0, 0).
func Wilson(p float64, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 0
	}
	p = math.Min(math.Max(p, 0), 1)
	nf := float64(n)
	z2 := z * z
	denom := 1 + z2/nf
	center := p + z2/(2*nf)
	spread := z * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo = math.Max(0, (center-spread)/denom)
	hi = math.Min(1, (center+spread)/denom)
	return lo, hi
}
