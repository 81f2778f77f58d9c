package chart

import (
	"io"

	"gonum.org/v1/plot/vg"
)

// Reached only from tests (issue 17: test-only code stays out of the binaries).

// Size is the chart's width and height in points (1/72 inch).
func (c *Chart) Size() (width, height vg.Length) { return c.width, c.height }

// PixelSize is the width and height in pixels of the chart's PNG.
func (c *Chart) PixelSize() (width, height int) {
	px := func(l vg.Length) int { return int(float64(l)/72*DPI + 0.5) }
	return px(c.width), px(c.height)
}

// WriteSVG renders c as an SVG document to w.
func WriteSVG(w io.Writer, c *Chart) error {
	data, err := svgBytes(c)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// WritePNG renders c as a PNG image at DPI to w.
func WritePNG(w io.Writer, c *Chart) error {
	data, err := pngBytes(c)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}
