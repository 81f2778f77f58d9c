package chart

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg"

	"github.com/embedeval/embedeval-go/internal/score"
)

var (
	update = flag.Bool("update", false, "rewrite the golden files in testdata")
	outDir = flag.String("out", "", "also write the charts of the test report to this directory, to look at")
)

// cat is one category score for a fixture: n judged samples, c passed.
type cat struct {
	name string
	c, n int
}

func model(name string, cats ...cat) score.ModelScore {
	m := score.ModelScore{Model: name, CategoryScores: []score.CategoryScore{}}
	for _, x := range cats {
		b := score.Breakdown{TotalSamples: x.n, PassedSamples: x.c, TotalCases: 1}
		if x.n > 0 {
			b.PassAt1 = float64(x.c) / float64(x.n)
			b.PassAt1CI[0], b.PassAt1CI[1] = score.Wilson(b.PassAt1, x.n, 1.96)
		}
		m.CategoryScores = append(m.CategoryScores, score.CategoryScore{Category: x.name, Breakdown: b})
		m.JudgedSamples += x.n
		m.PassedSamples += x.c
	}
	if m.JudgedSamples > 0 {
		m.PassAt1 = float64(m.PassedSamples) / float64(m.JudgedSamples)
		m.PassAt1CI[0], m.PassAt1CI[1] = score.Wilson(m.PassAt1, m.JudgedSamples, 1.96)
	}
	return m
}

func report(ms ...score.ModelScore) *score.Report {
	rep := &score.Report{Models: ms}
	for _, m := range ms {
		for _, c := range m.CategoryScores {
			if !slices.ContainsFunc(rep.Categories, func(x score.CategoryScore) bool { return x.Category == c.Category }) {
				rep.Categories = append(rep.Categories, score.CategoryScore{Category: c.Category})
			}
		}
	}
	return rep
}

// testReport has 3 models × 5 categories. Ranked by pass@1 the models are
// zeta-large (82%), alpha://mini (50%), mid-7b (20%) — not name order. Two
// cells have no data: alpha://mini has no gpio-basic score at all, and
// mid-7b's isr-concurrency results were all errors (0 judged samples).
func testReport() *score.Report {
	return report(
		model("alpha://mini",
			cat{"device-tree", 5, 10}, cat{"isr-concurrency", 4, 10}, cat{"kconfig", 5, 10}, cat{"uart", 6, 10}),
		model("mid-7b",
			cat{"device-tree", 0, 10}, cat{"gpio-basic", 3, 10}, cat{"isr-concurrency", 0, 0}, cat{"kconfig", 5, 10}, cat{"uart", 1, 10}),
		model("zeta-large",
			cat{"device-tree", 10, 10}, cat{"gpio-basic", 9, 10}, cat{"isr-concurrency", 7, 10}, cat{"kconfig", 6, 10}, cat{"uart", 9, 10}),
	)
}

var testCats = []string{"device-tree", "gpio-basic", "isr-concurrency", "kconfig", "uart"}

func render(t *testing.T, c *Chart, write func(*bytes.Buffer, *Chart) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, write(&buf, c))
	require.NotZero(t, buf.Len())
	return buf.Bytes()
}

func svgOf(t *testing.T, c *Chart) []byte {
	return render(t, c, func(b *bytes.Buffer, c *Chart) error { return WriteSVG(b, c) })
}

func pngOf(t *testing.T, c *Chart) []byte {
	return render(t, c, func(b *bytes.Buffer, c *Chart) error { return WritePNG(b, c) })
}

func TestMain(m *testing.M) {
	flag.Parse()
	if *outDir != "" {
		if _, err := WriteFiles(*outDir, testReport()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}

func TestHeatmapData(t *testing.T) {
	d, err := heatmapData(testReport())
	require.NoError(t, err)
	require.Equal(t, []string{"zeta-large", "alpha://mini", "mid-7b"}, d.models)
	require.Equal(t, testCats, d.cats)
	require.Equal(t, []float64{1, 0.9, 0.7, 0.6, 0.9}, d.cells[0])
	require.True(t, math.IsNaN(d.cells[1][1]), "alpha://mini has no gpio-basic score")
	require.True(t, math.IsNaN(d.cells[2][2]), "mid-7b has no judged isr-concurrency sample")
	require.Equal(t, 0.0, d.cells[2][0])
}

func TestRankingTiesByName(t *testing.T) {
	common := 0.9
	b := model("b", cat{"x", 1, 2})
	a := model("a", cat{"x", 1, 2})
	c := model("c", cat{"x", 0, 2})
	c.PassAt1Comparable = &common // ranks by pass@1 on common cases, as the leaderboard
	var names []string
	for _, m := range ranked([]score.ModelScore{b, a, c}) {
		names = append(names, m.Model)
	}
	require.Equal(t, []string{"c", "a", "b"}, names)
}

func TestHeatmapSVGContents(t *testing.T) {
	c, err := Heatmap(testReport())
	require.NoError(t, err)
	svg := string(svgOf(t, c))
	require.True(t, strings.HasPrefix(svg, "<?xml"))
	require.Contains(t, svg, "pass@1 by category and model")
	for _, m := range []string{"zeta-large", "alpha://mini", "mid-7b"} {
		require.Contains(t, svg, ">"+m+"</text>")
	}
	require.Less(t, strings.Index(svg, ">zeta-large<"), strings.Index(svg, ">alpha://mini<"), "columns in rank order")
	require.Less(t, strings.Index(svg, ">alpha://mini<"), strings.Index(svg, ">mid-7b<"), "columns in rank order")
	for _, cat := range testCats {
		require.Contains(t, svg, ">"+cat+"</text>")
	}
	for _, p := range []string{"100.0%", "90.0%", "70.0%", "60.0%", "50.0%", "40.0%", "0.0%", "30.0%", "10.0%"} {
		require.Contains(t, svg, ">"+p+"</text>")
	}
	require.Equal(t, 2, strings.Count(svg, ">–</text>"), "one dash per cell without data")
	require.Contains(t, svg, ">no data</text>")
	require.Contains(t, svg, svgFontFallback)
	require.NotContains(t, svg, svgFontFamily, "every font-family has its fallbacks")
}

// dominant is the most frequent colour in r (pixel coordinates) of img.
func dominant(img image.Image, r image.Rectangle) color.RGBA {
	counts := map[color.RGBA]int{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			counts[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	var best color.RGBA
	for c, n := range counts {
		if n > counts[best] || (n == counts[best] && c.R+c.G+c.B < best.R+best.G+best.B) {
			best = c
		}
	}
	return best
}

func isGreen(c color.RGBA) bool { return int(c.G) > int(c.R)+60 && int(c.G) > int(c.B)+40 }
func isRed(c color.RGBA) bool   { return int(c.R) > int(c.G)+100 && int(c.R) > int(c.B)+100 }
func isGrey(c color.RGBA) bool {
	return c.R == c.G && c.G == c.B && c.R > 150 && c.R < 240
}

func TestHeatmapPNG(t *testing.T) {
	l, err := layoutHeatmap(testReport())
	require.NoError(t, err)
	c, err := Heatmap(testReport())
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(pngOf(t, c)))
	require.NoError(t, err)
	w, h := c.PixelSize()
	cw, ch := c.Size()
	require.Equal(t, image.Rect(0, 0, w, h), img.Bounds())
	require.Equal(t, int(math.Round(float64(cw)*DPI/72)), w)
	require.Equal(t, int(math.Round(float64(ch)*DPI/72)), h)

	// cell is the middle 60% of a cell, in pixels (y down).
	cell := func(i, j int) image.Rectangle {
		r := l.cellRect(i, j)
		px := func(v vg.Length) int { return int(math.Round(float64(v) * DPI / 72)) }
		cx, cy := (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2
		dx, dy := l.cellW*0.3, l.cellH*0.3
		return image.Rect(px(cx-dx), px(l.h-cy-dy), px(cx+dx), px(l.h-cy+dy))
	}
	for _, tc := range []struct {
		name string
		i, j int
		is   func(color.RGBA) bool
	}{
		{"device-tree zeta-large 100%", 0, 0, isGreen},
		{"gpio-basic zeta-large 90%", 1, 0, isGreen},
		{"device-tree mid-7b 0%", 0, 2, isRed},
		{"uart mid-7b 10%", 4, 2, isRed},
		{"gpio-basic alpha://mini missing", 1, 1, isGrey},
		{"isr-concurrency mid-7b unjudged", 2, 2, isGrey},
	} {
		got := dominant(img, cell(tc.i, tc.j))
		require.True(t, tc.is(got), "%s: colour %v", tc.name, got)
	}
	require.Equal(t, rgb(0x1a9850), dominant(img, cell(0, 0)), "100% is the scale's green end")
	require.Equal(t, rgb(0xd73027), dominant(img, cell(0, 2)), "0% is the scale's red end")
	require.Equal(t, rgb(noDataColor), dominant(img, cell(1, 1)))
}

func TestBarsSVGContents(t *testing.T) {
	c, err := PassAtOneBars(testReport())
	require.NoError(t, err)
	svg := string(svgOf(t, c))
	require.Contains(t, svg, ">pass@1 per model</text>")
	for _, want := range []string{"zeta-large", "alpha://mini", "mid-7b", "0%", "100%"} {
		require.Contains(t, svg, ">"+want+"</text>")
	}
	// zeta-large: 41 of 50; the interval is score.Wilson's.
	lo, hi := score.Wilson(0.82, 50, 1.96)
	note := fmt.Sprintf("82.0%%  [%.1f–%.1f]  n=50", lo*100, hi*100)
	require.Contains(t, svg, ">"+note+"</text>")
	require.Less(t, strings.Index(svg, ">82.0%"), strings.Index(svg, ">50.0%"), "labels in rank order")
	require.NotContains(t, svg, "common", "no common-case note when case sets agree")

	img, err := png.Decode(bytes.NewReader(pngOf(t, c)))
	require.NoError(t, err)
	w, h := c.PixelSize()
	require.Equal(t, image.Rect(0, 0, w, h), img.Bounds())
}

func TestBarsCommonCases(t *testing.T) {
	rep := testReport()
	common := 0.95
	rep.Models[1].PassAt1Comparable = &common // mid-7b ranks first on the common cases
	l, err := layoutBars(rep)
	require.NoError(t, err)
	require.Equal(t, "mid-7b", l.rows[0].model)
	require.Contains(t, l.rows[0].note, "· common 95.0%")
	require.Contains(t, l.subtitle, "common cases")
}

func TestDeterministic(t *testing.T) {
	shuffled := testReport()
	slices.Reverse(shuffled.Models)
	for name, chart := range map[string]func(*score.Report) (*Chart, error){"heatmap": Heatmap, "bars": PassAtOneBars} {
		a, err := chart(testReport())
		require.NoError(t, err)
		b, err := chart(shuffled)
		require.NoError(t, err)
		require.Equal(t, svgOf(t, a), svgOf(t, a), "%s: same chart, same SVG", name)
		require.Equal(t, svgOf(t, a), svgOf(t, b), "%s: model order in the report does not matter", name)
		require.Equal(t, pngOf(t, a), pngOf(t, b), "%s: byte-identical PNG", name)
	}
}

func TestEmptyReport(t *testing.T) {
	for _, rep := range []*score.Report{nil, {}, {Models: []score.ModelScore{}}} {
		_, err := Heatmap(rep)
		require.ErrorIs(t, err, ErrNoModels)
		_, err = PassAtOneBars(rep)
		require.ErrorIs(t, err, ErrNoModels)
		dir := filepath.Join(t.TempDir(), "charts")
		names, err := WriteFiles(dir, rep)
		require.ErrorIs(t, err, ErrNoModels)
		require.Nil(t, names)
		require.NoDirExists(t, dir, "nothing written on error")
	}
	require.Error(t, WriteSVG(&bytes.Buffer{}, nil))
	require.Error(t, WritePNG(&bytes.Buffer{}, &Chart{}))
}

func TestNoCategories(t *testing.T) {
	rep := report(model("solo"))
	_, err := Heatmap(rep)
	require.ErrorContains(t, err, "no category scores")
	c, err := PassAtOneBars(rep)
	require.NoError(t, err, "a model without judged samples still gets a 0% bar")
	require.Contains(t, string(svgOf(t, c)), ">0.0%  [0.0–0.0]  n=0</text>")
	dir := filepath.Join(t.TempDir(), "charts")
	names, err := WriteFiles(dir, rep)
	require.NoError(t, err, "a run of sanity cases only has nothing to chart, which is not an error")
	require.Nil(t, names)
	require.NoDirExists(t, dir)
}

func TestWriteFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "runs", "r1")
	names, err := WriteFiles(dir, testReport())
	require.NoError(t, err)
	require.Equal(t, []string{"heatmap.svg", "heatmap.png", "pass_at_1.svg", "pass_at_1.png"}, names)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 4, "no temporary files left behind")

	heat, err := Heatmap(testReport())
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(dir, "heatmap.svg"))
	require.NoError(t, err)
	require.Equal(t, svgOf(t, heat), got)
	got, err = os.ReadFile(filepath.Join(dir, "pass_at_1.png"))
	require.NoError(t, err)
	_, err = png.Decode(bytes.NewReader(got))
	require.NoError(t, err)

	// Rewriting replaces the files in place.
	names2, err := WriteFiles(dir, report(model("other", cat{"x", 1, 1})))
	require.NoError(t, err)
	require.Equal(t, names, names2)
	got, err = os.ReadFile(filepath.Join(dir, "heatmap.svg"))
	require.NoError(t, err)
	require.Contains(t, string(got), ">other</text>")
	require.NotContains(t, string(got), "zeta-large")
}

func TestSizeScales(t *testing.T) {
	small, err := layoutHeatmap(report(model("m", cat{"c", 1, 1})))
	require.NoError(t, err)
	mid, err := layoutHeatmap(testReport())
	require.NoError(t, err)
	require.Greater(t, mid.h, small.h)
	require.GreaterOrEqual(t, mid.w, small.w)
	require.False(t, mid.rotate, "short model names are set flat")

	var ms []score.ModelScore
	for i := range 40 {
		var cs []cat
		for j := range 120 {
			cs = append(cs, cat{fmt.Sprintf("a-rather-long-category-name-%03d", j), (i + j) % 7, 6})
		}
		ms = append(ms, model(fmt.Sprintf("model-%03d-%s", i, strings.Repeat("x", 50)), cs...))
	}
	big, err := layoutHeatmap(report(ms...))
	require.NoError(t, err)
	require.True(t, big.rotate, "long names in narrow columns are set at 45°")
	require.Equal(t, vg.Length(hmMinCellW), big.cellW)
	require.Equal(t, vg.Length(hmTinyCellH), big.cellH)
	require.LessOrEqual(t, utfLen(big.models[0]), maxLabelRunes)
	require.True(t, strings.HasSuffix(big.models[0], "…"))
	require.Less(t, big.w, vg.Length(40*hmMinCellW+600))
	require.Less(t, big.h, vg.Length(120*hmTinyCellH+600))

	bars, err := layoutBars(report(ms...))
	require.NoError(t, err)
	require.Equal(t, vg.Length(brRowH), bars.rowH)
	for _, l := range []*heatLayout{small, mid, big} {
		require.Zero(t, math.Mod(float64(l.w), 3), "whole pixels at 96 DPI")
		require.Zero(t, math.Mod(float64(l.h), 3))
	}
}

func utfLen(s string) int { return len([]rune(s)) }

func TestScaleColor(t *testing.T) {
	require.Equal(t, rgb(0xd73027), scaleColor(0))
	require.Equal(t, rgb(0xfee08b), scaleColor(0.5))
	require.Equal(t, rgb(0x1a9850), scaleColor(1))
	require.Equal(t, scaleColor(0), scaleColor(-1), "clamped")
	require.Equal(t, scaleColor(1), scaleColor(2), "clamped")
	require.Equal(t, scaleColor(0), scaleColor(math.NaN()))
	mid := scaleColor(0.125)
	require.Greater(t, mid.G, rgb(0xd73027).G)
	require.Less(t, mid.G, rgb(0xfc8d59).G)
	require.Equal(t, rgb(0xffffff), textOn(scaleColor(0)), "white on red")
	require.Equal(t, rgb(darkText), textOn(scaleColor(0.5)), "dark on yellow")
}

// smallReport keeps the golden files small: 2 models × 2 categories, one
// cell without data.
func smallReport() *score.Report {
	return report(
		model("model-a", cat{"gpio", 3, 4}, cat{"uart", 4, 4}),
		model("model-b", cat{"gpio", 1, 4}),
	)
}

func TestGoldenSVG(t *testing.T) {
	for name, chart := range map[string]func(*score.Report) (*Chart, error){"heatmap_small.svg": Heatmap, "pass_at_1_small.svg": PassAtOneBars} {
		c, err := chart(smallReport())
		require.NoError(t, err)
		got := svgOf(t, c)
		path := filepath.Join("testdata", name)
		if *update {
			require.NoError(t, os.WriteFile(path, got, 0o644))
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "run go test ./internal/chart -update to create it")
		require.Equal(t, string(want), string(got), "%s differs; if intended, run go test ./internal/chart -update", name)
	}
}

// benchCategories are the corpus's 24 categories.
var benchCategories = []string{
	"adc", "ble", "boot", "device-tree", "dma", "gpio-basic", "isr-concurrency", "kconfig", "linux-driver",
	"linux-userspace", "memory-opt", "networking", "ota", "power-mgmt", "pwm", "security", "sensor-driver",
	"spi-i2c", "storage", "threading", "timer", "uart", "watchdog", "yocto",
}

// benchModels are model names as users write them; the last is 36
// characters long.
var benchModels = []string{
	"claude-sonnet-4-5", "gpt-4o-mini", "openai:gpt-4.1", "claude-code://sonnet", "llama-3.1-70b-instruct",
	"qwen2.5-coder-32b", "deepseek-coder-v2", "gemini-2.5-pro", "mistral-large-2411", "anthropic/claude-3-5-sonnet-20241022",
}

// benchReport is n models × the 24 categories, 12 samples each, with
// deterministic scores; every seventh cell has no judged sample.
func benchReport(names ...string) *score.Report {
	var ms []score.ModelScore
	for i, name := range names {
		var cs []cat
		for j, c := range benchCategories {
			if (i*len(benchCategories)+j)%7 == 3 {
				cs = append(cs, cat{c, 0, 0})
				continue
			}
			cs = append(cs, cat{c, (i*5 + j*7) % 13, 12})
		}
		ms = append(ms, model(name, cs...))
	}
	return report(ms...)
}

// svgTexts parses an SVG strictly (encoding/xml rejects malformed markup
// and characters XML forbids) and returns the content of its text elements.
func svgTexts(t *testing.T, svg []byte) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var texts []string
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "the SVG is well-formed XML")
		switch tok := tok.(type) {
		case xml.StartElement:
			require.NotEqual(t, "script", strings.ToLower(tok.Name.Local), "no script element")
			inText = tok.Name.Local == "text"
			if inText {
				texts = append(texts, "")
			}
		case xml.CharData:
			if inText {
				texts[len(texts)-1] += string(tok)
			}
		case xml.EndElement:
			inText = false
		}
	}
	return texts
}

func TestHeatmapModels(t *testing.T) {
	for _, n := range []int{2, 10} {
		t.Run(fmt.Sprintf("%d models", n), func(t *testing.T) {
			rep := benchReport(benchModels[:n]...)
			c, err := Heatmap(rep)
			require.NoError(t, err)
			svg := svgOf(t, c)
			golden(t, fmt.Sprintf("heatmap_%d_models.svg", n), svg)
			if *outDir != "" {
				require.NoError(t, os.WriteFile(filepath.Join(*outDir, fmt.Sprintf("heatmap_%d_models.png", n)), pngOf(t, c), 0o644))
			}
			w, h := c.PixelSize()
			t.Logf("%d models: %d × %d pixels", n, w, h)
			require.LessOrEqual(t, w, 900, "fits a pull request page")
			require.Contains(t, string(svg), fmt.Sprintf(`<svg width="%gpt" height="%gpt"`, float64(w)*72/DPI, float64(h)*72/DPI))

			texts := svgTexts(t, svg)
			for _, name := range append(slices.Clone(benchModels[:n]), benchCategories...) {
				require.Equal(t, 1, countOf(texts, name), "%q is labelled exactly once", name)
			}
			l, err := layoutHeatmap(rep)
			require.NoError(t, err)
			checkNoCollisions(t, l)
		})
	}
}

func countOf(texts []string, s string) int {
	n := 0
	for _, x := range texts {
		if x == s {
			n++
		}
	}
	return n
}

// checkNoCollisions asserts that no two texts of the heatmap overlap and
// that every text lies on the canvas. Rotated model names are checked by
// their spacing: parallel lines cellW·sin 45° apart, each one line tall,
// and by their bounding boxes against every flat text.
func checkNoCollisions(t *testing.T, l *heatLayout) {
	t.Helper()
	type box struct {
		r    vg.Rectangle
		s    string
		turn bool
	}
	var boxes []box
	for _, p := range l.texts() {
		r := p.sty.Rectangle(p.s)
		r.Min, r.Max = r.Min.Add(p.at), r.Max.Add(p.at)
		require.True(t, r.Min.X >= 0 && r.Min.Y >= 0 && r.Max.X <= l.w && r.Max.Y <= l.h, "%q at %v is off the %v × %v canvas", p.s, r, l.w, l.h)
		boxes = append(boxes, box{r, p.s, p.sty.Rotation != 0})
	}
	overlap := func(a, b vg.Rectangle) bool {
		return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
	}
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			a, b := boxes[i], boxes[j]
			if a.turn && b.turn {
				continue
			}
			require.False(t, overlap(a.r, b.r), "%q %v overlaps %q %v", a.s, a.r, b.s, b.r)
		}
	}
	if l.rotate {
		_, _, _, col, _, _ := l.styles()
		require.Greater(t, float64(l.cellW)*math.Sin(hmRotateBy), float64(col.Height("Mg")), "rotated names do not touch")
	} else {
		for j, m := range l.models {
			_, _, _, col, _, _ := l.styles()
			require.Less(t, col.Width(m), l.cellW, "flat name of column %d fits its column", j)
		}
	}
	_, _, _, _, cell, _ := l.styles()
	require.Less(t, cell.Width("100.0%"), l.cellW-4, "cell values fit their cells")
}

func TestHeatmapHostileNames(t *testing.T) {
	hostile := []string{"<script>alert(1)</script>", "R&D &amp; co", "a\"b'c", "line\nbreak\u202e\x00", "bad\xffutf8\uFFFE"}
	rep := report(
		model(hostile[0], cat{"gpio", 1, 2}, cat{hostile[1], 2, 2}),
		model(hostile[2], cat{"gpio", 0, 2}, cat{hostile[3], 1, 2}),
		model(hostile[4], cat{"gpio", 2, 2}),
	)
	c, err := Heatmap(rep)
	require.NoError(t, err)
	svg := svgOf(t, c)
	require.NotContains(t, string(svg), "<script")
	texts := svgTexts(t, svg)
	for _, want := range []string{"<script>alert(1)</script>", "R&D &amp; co", "a\"b'c", "line break  ", "bad\uFFFDutf8\uFFFD", "gpio"} {
		require.Equal(t, 1, countOf(texts, want), "%q renders as text exactly once in %q", want, texts)
	}
	l, err := layoutHeatmap(rep)
	require.NoError(t, err)
	checkNoCollisions(t, l)
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./internal/chart -update to create it")
	require.Equal(t, string(want), string(got), "%s differs; if intended, run go test ./internal/chart -update", name)
}
