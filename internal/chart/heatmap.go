package chart

import (
	"errors"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/embedeval/embedeval-go/internal/score"
)

// Heatmap draws the category × model pass@1 heatmap of rep: one row per
// category (sorted by name), one column per model in leaderboard order
// (best first), each cell filled on the fixed red (0%) → yellow (50%) →
// green (100%) scale and labelled with its pass@1 ("51.4%"). A model with no
// judged samples in a category gets a grey cell labelled "–". The title is
// above, the colour bar with a "no data" swatch below.
//
// Categories are the rows because there are many of them (24 in the
// corpus) and the page scrolls down, while models — usually 2 to 10 — are
// the columns, which must fit the width of a pull request page: the chart
// aims at hmTargetW points (900 pixels). Model names stand flat above their
// columns when they fit in cells up to 110 points wide; otherwise they are
// set at 45°, and the columns (38–64 points) are as wide as the target
// width allows. Rows are 22 points tall, shrinking to 16 past about 60
// categories. Past about 13 models with long names the chart grows wider
// than the target. Names longer than 40 characters are shortened with "…".
//
// It fails with ErrNoModels for a nil report or one without models, and
// with ErrNoCategories when no model has any category score.
func Heatmap(rep *score.Report) (*Chart, error) {
	l, err := layoutHeatmap(rep)
	if err != nil {
		return nil, err
	}
	return &Chart{width: l.w, height: l.h, paint: l.paint}, nil
}

// heatData is what the heatmap shows: cells[i][j] is the pass@1 of models[i]
// in cats[j], NaN when the model has no judged sample there.
type heatData struct {
	models []string
	cats   []string
	cells  [][]float64
}

// ErrNoCategories is the heatmap's error for a report without category scores:
// a run of sanity-tier cases only (they are excluded from the breakdowns).
var ErrNoCategories = errors.New("chart: heatmap: the report has no category scores")

func heatmapData(rep *score.Report) (heatData, error) {
	if err := checkReport(rep); err != nil {
		return heatData{}, err
	}
	var d heatData
	for _, c := range rep.Categories {
		d.cats = append(d.cats, c.Category)
	}
	for _, m := range rep.Models {
		for _, c := range m.CategoryScores {
			d.cats = append(d.cats, c.Category)
		}
	}
	slices.Sort(d.cats)
	d.cats = slices.Compact(d.cats)
	if len(d.cats) == 0 {
		return heatData{}, ErrNoCategories
	}
	for _, m := range ranked(rep.Models) {
		row := make([]float64, len(d.cats))
		for j := range row {
			row[j] = math.NaN()
		}
		for _, c := range m.CategoryScores {
			if c.TotalSamples > 0 {
				j, _ := slices.BinarySearch(d.cats, c.Category)
				row[j] = c.PassAt1
			}
		}
		d.models = append(d.models, m.Model)
		d.cells = append(d.cells, row)
	}
	return d, nil
}

// Heatmap geometry, in points.
const (
	hmPad          = 12
	hmTargetW      = 675 // 900 pixels: the width of a pull request's body
	hmMinCellW     = 38  // "100.0%" and a margin
	hmMaxCellW     = 64  // rotated names: wider columns gain nothing
	hmMinFlatCellW = 54
	hmMaxFlatCellW = 110
	hmCellH        = 22
	hmTinyCellH    = 16
	hmMaxGridH     = 1320
	hmLabelGap     = 6
	hmLegendGap    = 16
	hmLegendW      = 160
	hmLegendH      = 10
	hmSwatchGap    = 18
	hmBarSteps     = 50
	hmTitleSize    = 14
	hmSubSize      = 9
	hmLabelSize    = 10
	hmCellSize     = 9
	hmTickSize     = 9
	hmRotateBy     = math.Pi / 4
	hmNoDataText   = "–"
)

// heatLayout is the heatmap's data and where everything goes. Canvas
// coordinates have their origin at the bottom left, y up. Row i of the grid
// is category cats[i], column j is model models[j].
type heatLayout struct {
	heatData
	w, h         vg.Length
	gridLeft     vg.Length // x of the grid's left edge
	gridTop      vg.Length // y of the grid's top edge
	cellW, cellH vg.Length
	rotate       bool // model names at 45°
	legendTop    vg.Length
	title, sub   string
}

// placedText is one text of the chart: what, where and in which style.
type placedText struct {
	sty text.Style
	at  vg.Point
	s   string
}

func (l *heatLayout) styles() (title, sub, row, col, cell, tick text.Style) {
	title = textStyle(hmTitleSize, true, rgb(darkText), text.XLeft, text.YTop)
	sub = textStyle(hmSubSize, false, rgb(mutedText), text.XLeft, text.YTop)
	row = textStyle(hmLabelSize, false, rgb(darkText), text.XRight, text.YCenter)
	col = textStyle(hmLabelSize, false, rgb(darkText), text.XCenter, text.YBottom)
	if l.rotate {
		col.XAlign, col.YAlign, col.Rotation = text.XLeft, text.YCenter, hmRotateBy
	}
	cell = textStyle(hmCellSize, false, rgb(darkText), text.XCenter, text.YCenter)
	tick = textStyle(hmTickSize, false, rgb(darkText), text.XCenter, text.YTop)
	return
}

func layoutHeatmap(rep *score.Report) (*heatLayout, error) {
	d, err := heatmapData(rep)
	if err != nil {
		return nil, err
	}
	l := &heatLayout{heatData: d}
	for i := range l.models {
		l.models[i] = label(l.models[i])
	}
	for j := range l.cats {
		l.cats[j] = label(l.cats[j])
	}
	nCats, nModels := vg.Length(len(l.cats)), vg.Length(len(l.models))
	l.title = "pass@1 by category and model"
	l.sub = "columns: models in leaderboard order · grey “–”: no judged samples"
	titleSty, subSty, rowSty, _, _, tickSty := l.styles()

	l.gridLeft = hmPad + maxWidth(rowSty, l.cats...) + hmLabelGap
	room := hmTargetW - hmPad - l.gridLeft // for the grid and what sticks out right of it

	flat := textStyle(hmLabelSize, false, nil, text.XCenter, text.YBottom)
	modelW := maxWidth(flat, l.models...)
	l.cellW = max(modelW+12, hmMinFlatCellW)
	if l.cellW > hmMaxFlatCellW || nModels*l.cellW > room {
		// Rotated names: the widest columns that keep the names' ends
		// within the target width, at least hmMinCellW.
		l.rotate = true
		_, _, _, colSty, _, _ := l.styles()
		l.cellW = min(hmMaxCellW, room/nModels)
		for j, m := range l.models {
			l.cellW = min(l.cellW, (room-colSty.Rectangle(m).Max.X)/(vg.Length(j)+0.5))
		}
		l.cellW = max(l.cellW, hmMinCellW)
	}
	l.cellH = hmCellH
	if nCats*l.cellH > hmMaxGridH {
		l.cellH = max(hmMaxGridH/nCats, hmTinyCellH)
	}
	_, _, _, colSty, _, _ := l.styles()

	// How far the model names reach above and right of the grid.
	var above, right vg.Length
	for j, m := range l.models {
		r := colSty.Rectangle(m)
		above = max(above, r.Max.Y)
		right = max(right, (vg.Length(j)+0.5)*l.cellW+r.Max.X)
	}
	above += hmLabelGap
	gridW, gridH := nModels*l.cellW, nCats*l.cellH
	legendW := hmLegendW + hmSwatchGap + hmLegendH + 4 + tickSty.Width("no data")
	legendH := hmLegendH + 3 + tickSty.Height("100%")

	w := max(l.gridLeft+max(gridW, right)+hmPad,
		2*hmPad+legendW,
		2*hmPad+titleSty.Width(l.title),
		2*hmPad+subSty.Width(l.sub))
	titleH := titleSty.Height(l.title) + 4 + subSty.Height(l.sub) + 10
	h := hmPad + titleH + above + gridH + hmLegendGap + legendH + hmPad
	l.w, l.h = roundUp3(w), roundUp3(h)
	l.gridTop = l.h - hmPad - titleH - above
	l.legendTop = l.gridTop - gridH - hmLegendGap
	return l, nil
}

// cellRect is the rectangle of row i (category, 0 = top), column j (model,
// 0 = left).
func (l *heatLayout) cellRect(i, j int) vg.Rectangle {
	x0 := l.gridLeft + vg.Length(j)*l.cellW
	y1 := l.gridTop - vg.Length(i)*l.cellH
	return vg.Rectangle{Min: vg.Point{X: x0, Y: y1 - l.cellH}, Max: vg.Point{X: x0 + l.cellW, Y: y1}}
}

// value is the pass@1 of row i (category), column j (model), NaN when the
// model has no judged sample there.
func (l *heatLayout) value(i, j int) float64 { return l.cells[j][i] }

// texts lists every text of the chart with its place and style: the title
// and subtitle, the model names above the columns, the category names left
// of the rows, the cells' values and the legend's.
func (l *heatLayout) texts() []placedText {
	titleSty, subSty, rowSty, colSty, cellSty, tickSty := l.styles()
	top := l.h - hmPad
	out := []placedText{
		{titleSty, vg.Point{X: hmPad, Y: top}, l.title},
		{subSty, vg.Point{X: hmPad, Y: top - titleSty.Height(l.title) - 4}, l.sub},
	}
	for j, m := range l.models {
		r := l.cellRect(0, j)
		out = append(out, placedText{colSty, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: l.gridTop + hmLabelGap}, m})
	}
	for i, c := range l.cats {
		r := l.cellRect(i, 0)
		out = append(out, placedText{rowSty, vg.Point{X: l.gridLeft - hmLabelGap, Y: (r.Min.Y + r.Max.Y) / 2}, c})
		for j := range l.models {
			r := l.cellRect(i, j)
			sty, txt := cellSty, hmNoDataText
			sty.Color = rgb(mutedText)
			if v := l.value(i, j); !math.IsNaN(v) {
				sty.Color, txt = textOn(scaleColor(v)), pct(v)
			}
			out = append(out, placedText{sty, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}, txt})
		}
	}
	barBottom := l.legendTop - hmLegendH
	for q := 0; q <= 4; q++ {
		x := hmPad + vg.Length(q)*hmLegendW/4
		out = append(out, placedText{tickSty, vg.Point{X: x, Y: barBottom - 3}, strconv.Itoa(25*q) + "%"})
	}
	noData := tickSty
	noData.XAlign, noData.YAlign = text.XLeft, text.YCenter
	swLeft := vg.Length(hmPad + hmLegendW + hmSwatchGap)
	out = append(out, placedText{noData, vg.Point{X: swLeft + hmLegendH + 4, Y: l.legendTop - hmLegendH/2}, "no data"})
	return out
}

func (l *heatLayout) paint(c draw.Canvas) {
	fillBackground(c)
	const inset = 0.75 // white gap between cells
	for i := range l.cats {
		for j := range l.models {
			r := l.cellRect(i, j)
			fill := rgb(noDataColor)
			if v := l.value(i, j); !math.IsNaN(v) {
				fill = scaleColor(v)
			}
			c.FillPolygon(fill, rect(r.Min.X+inset, r.Min.Y+inset, r.Max.X-inset, r.Max.Y-inset))
		}
	}

	// Colour bar: hmBarSteps bands left to right, each overlapping the
	// next a little so no seam shows between them.
	barLeft, barRight := vg.Length(hmPad), vg.Length(hmPad+hmLegendW)
	barBottom := l.legendTop - hmLegendH
	step := vg.Length(hmLegendW) / hmBarSteps
	for k := range hmBarSteps {
		x0 := barLeft + vg.Length(k)*step
		x1 := min(x0+step+0.5, barRight)
		c.FillPolygon(scaleColor((float64(k)+0.5)/hmBarSteps), rect(x0, barBottom, x1, l.legendTop))
	}
	outline := draw.LineStyle{Color: rgb(mutedText), Width: 0.5}
	box := rect(barLeft, barBottom, barRight, l.legendTop)
	c.StrokeLines(outline, append(box, box[0]))
	swLeft := barRight + hmSwatchGap
	c.FillPolygon(rgb(noDataColor), rect(swLeft, barBottom, swLeft+hmLegendH, l.legendTop))

	for _, t := range l.texts() {
		c.FillText(t.sty, t.at, t.s)
	}
}
