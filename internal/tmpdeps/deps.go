// Package tmpdeps pins modules that work in progress will import; it is
// removed when they land.
package tmpdeps

import (
	_ "gonum.org/v1/plot"
	_ "gonum.org/v1/plot/vg/vgimg"
	_ "gonum.org/v1/plot/vg/vgsvg"
)
