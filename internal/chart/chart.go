package chart

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/embedeval/embedeval-go/internal/atomicfile"
	"github.com/embedeval/embedeval-go/internal/mdescape"
	"github.com/embedeval/embedeval-go/internal/score"
)

// DPI is the resolution of PNG output in dots per inch. At 96 DPI one point
// is 4/3 pixels, and chart sizes are multiples of 3 points, so PNG sizes
// are whole pixels that match the SVG's size in a browser.
const DPI = 96

// File names written by WriteFiles, relative to its directory.
const (
	HeatmapSVG = "heatmap.svg"
	HeatmapPNG = "heatmap.png"
	BarsSVG    = "pass_at_1.svg"
	BarsPNG    = "pass_at_1.png"
)

// Error is an error of this package that callers may test for with
// errors.Is; it is a constant so the package keeps no mutable state.
type Error string

// Error returns the message.
func (e Error) Error() string { return string(e) }

// ErrNoModels is returned for a nil report or one without models.
const ErrNoModels Error = "chart: the report has no models to chart"

// Chart is a drawing of a fixed size, ready to be rendered with WriteSVG or
// WritePNG. Its zero value is not usable; get one from Heatmap or
// PassAtOneBars.
type Chart struct {
	width, height vg.Length
	paint         func(c draw.Canvas)
}

// svgFontFamily is how vgsvg names the font of every text element, and
// svgFontFallback what it is replaced with: a family list, so that viewers
// without Liberation Sans use a metric-compatible font rather than their
// default serif face.
const (
	svgFontFamily   = "font-family:Liberation Sans;"
	svgFontFallback = "font-family:Liberation Sans,Arial,Helvetica,sans-serif;"
)

func svgBytes(c *Chart) ([]byte, error) {
	if c == nil || c.paint == nil {
		return nil, errors.New("chart: nil chart")
	}
	cv := vgsvg.New(c.width, c.height)
	c.paint(draw.New(cv))
	var buf bytes.Buffer
	if _, err := cv.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart: render SVG: %w", err)
	}
	return bytes.ReplaceAll(buf.Bytes(), []byte(svgFontFamily), []byte(svgFontFallback)), nil
}

func pngBytes(c *Chart) ([]byte, error) {
	if c == nil || c.paint == nil {
		return nil, errors.New("chart: nil chart")
	}
	cv := vgimg.NewWith(vgimg.UseWH(c.width, c.height), vgimg.UseDPI(DPI), vgimg.UseBackgroundColor(color.White))
	c.paint(draw.New(cv))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: cv}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart: render PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// WriteFiles renders both charts of rep and writes heatmap.svg, heatmap.png,
// pass_at_1.svg and pass_at_1.png into dir (created when missing), each
// through a temporary file in dir that is synced and renamed over the
// target. Everything is rendered before anything is written, so an error in
// rendering leaves dir untouched. It returns the file names relative to
// dir, in that order, for the leaderboard to link. A report without
// category scores (only sanity-tier cases) has nothing to chart: no file is
// written and no name returned.
func WriteFiles(dir string, rep *score.Report) ([]string, error) {
	heat, err := Heatmap(rep)
	if errors.Is(err, ErrNoCategories) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	bars, err := PassAtOneBars(rep)
	if err != nil {
		return nil, err
	}
	type file struct {
		name   string
		render func(*Chart) ([]byte, error)
		chart  *Chart
	}
	files := []file{
		{HeatmapSVG, svgBytes, heat},
		{HeatmapPNG, pngBytes, heat},
		{BarsSVG, svgBytes, bars},
		{BarsPNG, pngBytes, bars},
	}
	data := make([][]byte, len(files))
	for i, f := range files {
		if data[i], err = f.render(f.chart); err != nil {
			return nil, fmt.Errorf("chart: %s: %w", f.name, err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	names := make([]string, len(files))
	for i, f := range files {
		if err := writeFileAtomic(filepath.Join(dir, f.name), data[i]); err != nil {
			return nil, err
		}
		names[i] = f.name
	}
	return names, nil
}

// writeFileAtomic writes data to path atomically (atomicfile.WriteFile).
func writeFileAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	return nil
}

// checkReport rejects reports there is nothing to chart for.
func checkReport(rep *score.Report) error {
	if rep == nil || len(rep.Models) == 0 {
		return ErrNoModels
	}
	return nil
}

// ranked orders models as the leaderboard ranks them: pass@1 (pass@1 on
// the common cases when the models saw different case sets) descending,
// then model name.
func ranked(ms []score.ModelScore) []score.ModelScore {
	out := slices.Clone(ms)
	slices.SortStableFunc(out, func(a, b score.ModelScore) int {
		return cmp.Or(cmp.Compare(rankKey(b), rankKey(a)), strings.Compare(a.Model, b.Model))
	})
	return out
}

func rankKey(m score.ModelScore) float64 {
	if m.PassAt1Comparable != nil {
		return *m.PassAt1Comparable
	}
	return m.PassAt1
}

// pct formats a rate in [0, 1] as the leaderboard does: "51.4%".
func pct(v float64) string { return strconv.FormatFloat(v*100, 'f', 1, 64) + "%" }

// maxLabelRunes bounds model and category labels; longer names are cut
// with an ellipsis so one long name cannot squeeze the chart.
const maxLabelRunes = 40

// label is s as a chart label: cleaned by mdescape.Plain (control and
// bidirectional characters become spaces, invalid UTF-8 and characters XML
// forbids become U+FFFD; vgsvg escapes the markup characters itself) and
// cut to maxLabelRunes.
func label(s string) string {
	s = mdescape.Plain(s)
	if utf8.RuneCountInString(s) <= maxLabelRunes {
		return s
	}
	r := []rune(s)
	return string(r[:maxLabelRunes-1]) + "…"
}

// Colours of the charts, as 0xRRGGBB.
const (
	noDataColor = 0xd9d9d9
	mutedText   = 0x595959
	darkText    = 0x1a1a1a
	gridColor   = 0xe0e0e0
)

// rgb is the opaque colour 0xRRGGBB.
func rgb(hex uint32) color.RGBA {
	return color.RGBA{R: uint8(hex >> 16), G: uint8(hex >> 8), B: uint8(hex), A: 0xff}
}

// scaleStops is ColorBrewer's 5-class RdYlGn, red at 0 and green at 1.
func scaleStops() [5]color.RGBA {
	return [5]color.RGBA{rgb(0xd73027), rgb(0xfc8d59), rgb(0xfee08b), rgb(0x91cf60), rgb(0x1a9850)}
}

// scaleColor maps a rate in [0, 1] (clamped) onto the fixed red → yellow →
// green scale, interpolating linearly in RGB between the stops.
func scaleColor(v float64) color.RGBA {
	if math.IsNaN(v) {
		v = 0
	}
	v = math.Min(math.Max(v, 0), 1)
	stops := scaleStops()
	pos := v * float64(len(stops)-1)
	i := min(int(pos), len(stops)-2)
	f := pos - float64(i)
	a, b := stops[i], stops[i+1]
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + f*(float64(y)-float64(x)))) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// textOn picks white or near-black text, whichever contrasts more with bg
// (WCAG relative luminance; the two are equal at about 0.18).
func textOn(bg color.RGBA) color.RGBA {
	lin := func(c uint8) float64 {
		s := float64(c) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	l := 0.2126*lin(bg.R) + 0.7152*lin(bg.G) + 0.0722*lin(bg.B)
	if l < 0.18 {
		return rgb(0xffffff)
	}
	return rgb(darkText)
}

// textStyle is Liberation Sans at size points in colour c, aligned by xa, ya.
func textStyle(size vg.Length, bold bool, c color.Color, xa text.XAlignment, ya text.YAlignment) text.Style {
	f := font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return text.Style{Color: c, Font: f, XAlign: xa, YAlign: ya, Handler: plot.DefaultTextHandler}
}

// roundUp3 rounds l up to a whole multiple of 3 points (4 pixels at DPI).
func roundUp3(l vg.Length) vg.Length { return vg.Length(math.Ceil(float64(l)/3-1e-9) * 3) }

// rect is the closed path of the rectangle [x0, x1] × [y0, y1].
func rect(x0, y0, x1, y1 vg.Length) []vg.Point {
	return []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
}

// maxWidth is the widest of the labels in sty.
func maxWidth(sty text.Style, labels ...string) vg.Length {
	var w vg.Length
	for _, l := range labels {
		w = max(w, sty.Width(l))
	}
	return w
}

// fillBackground paints the whole canvas white, so SVGs read the same on
// dark pages as PNGs do.
func fillBackground(c draw.Canvas) {
	c.FillPolygon(color.White, rect(c.Min.X, c.Min.Y, c.Max.X, c.Max.Y))
}
