// Package bytesize writes byte counts for messages, in binary units: the
// one format every limit and cap of the project reports its sizes in.
package bytesize

import "fmt"

// Format renders n in the largest binary unit it reaches: "4 MiB" when it
// is a whole number of that unit, "1.5 KiB" otherwise, "1000 bytes" below
// 1 KiB.
func Format(n int64) string {
	units := []string{"GiB", "MiB", "KiB"}
	for i, u := range units {
		shift := uint(10 * (len(units) - i))
		if n >= 1<<shift {
			if n%(1<<shift) == 0 {
				return fmt.Sprintf("%d %s", n>>shift, u)
			}
			return fmt.Sprintf("%.1f %s", float64(n)/float64(int64(1)<<shift), u)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}
