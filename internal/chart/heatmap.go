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

// Heatmap draws the model × category pass@1 heatmap of rep: one row per
// model in leaderboard order (best first), one column per category
// (sorted by name), each cell filled on the fixed red (0%) → yellow (50%) →
// green (100%) scale and labelled with its pass@1 ("51.4%"). A model with no
// judged samples in a category gets a grey cell labelled "–". A colour bar
// with a "no data" swatch sits at the right, the title above.
//
// Cells are 26 points tall and wide enough for the longest category name
// (54–110 points); when a name needs more, the names are set at 45° and
// the cells are 54 points wide; past about 30
// categories or 55 models the cells shrink down to 44 × 18 points, after
// which the chart grows. Names longer than 40 characters are shortened with
// "…".
//
// It fails with ErrNoModels for a nil report or one without models, and
// with an error when no model has any category score.
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
	hmPad        = 12
	hmMinCellW   = 54
	hmMaxCellW   = 110
	hmTinyCellW  = 44
	hmCellH      = 26
	hmTinyCellH  = 18
	hmMaxGridW   = 1600
	hmMaxGridH   = 1400
	hmLabelGap   = 6
	hmBarGap     = 24
	hmBarW       = 12
	hmMinBarH    = 110
	hmMaxBarH    = 240
	hmSwatchGap  = 14
	hmBarSteps   = 50
	hmTitleSize  = 14
	hmSubSize    = 9
	hmLabelSize  = 10
	hmCellSize   = 9
	hmTickSize   = 9
	hmRotateBy   = math.Pi / 4
	hmNoDataText = "–"
)

// heatLayout is the heatmap's data and where everything goes. Canvas
// coordinates have their origin at the bottom left, y up.
type heatLayout struct {
	heatData
	w, h            vg.Length
	gridLeft        vg.Length // x of the grid's left edge
	gridTop         vg.Length // y of the grid's top edge
	cellW, cellH    vg.Length
	rotate          bool // category names at 45°
	barLeft, barTop vg.Length
	barH            vg.Length
	title, subtitle string
}

func (l *heatLayout) styles() (title, sub, row, col, cell, tick text.Style) {
	title = textStyle(hmTitleSize, true, rgb(darkText), text.XLeft, text.YTop)
	sub = textStyle(hmSubSize, false, rgb(mutedText), text.XLeft, text.YTop)
	row = textStyle(hmLabelSize, false, rgb(darkText), text.XRight, text.YCenter)
	col = textStyle(hmLabelSize, false, rgb(darkText), text.XCenter, text.YTop)
	if l.rotate {
		col.XAlign, col.YAlign, col.Rotation = text.XRight, text.YCenter, hmRotateBy
	}
	cell = textStyle(hmCellSize, false, rgb(darkText), text.XCenter, text.YCenter)
	tick = textStyle(hmTickSize, false, rgb(darkText), text.XLeft, text.YCenter)
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
	nRows, nCols := vg.Length(len(l.models)), vg.Length(len(l.cats))
	l.title = "pass@1 by model and category"
	l.subtitle = "rows: models in leaderboard order · grey “–”: no judged samples"

	catW := maxWidth(textStyle(hmLabelSize, false, nil, text.XCenter, text.YTop), l.cats...)
	l.cellW = max(catW+12, hmMinCellW)
	if l.cellW > hmMaxCellW { // the names go at 45° and need no width
		l.cellW = hmMinCellW
	}
	if nCols*l.cellW > hmMaxGridW {
		l.cellW = max(hmMaxGridW/nCols, hmTinyCellW)
	}
	l.cellW = max(l.cellW, textStyle(hmCellSize, false, nil, text.XCenter, text.YCenter).Width("100.0%")+8)
	l.rotate = catW+8 > l.cellW
	l.cellH = hmCellH
	if nRows*l.cellH > hmMaxGridH {
		l.cellH = max(hmMaxGridH/nRows, hmTinyCellH)
	}
	titleSty, subSty, rowSty, colSty, _, tickSty := l.styles()

	gridW, gridH := nCols*l.cellW, nRows*l.cellH

	// Room below the grid for the category names, and how far left of the
	// grid they reach (only rotated names reach left).
	var below, leftReach vg.Length
	for j, c := range l.cats {
		r := colSty.Rectangle(c)
		below = max(below, -r.Min.Y)
		leftReach = max(leftReach, -(r.Min.X + (vg.Length(j)+0.5)*l.cellW))
	}
	below += hmLabelGap

	l.gridLeft = hmPad + max(maxWidth(rowSty, l.models...)+hmLabelGap+2, leftReach)
	titleH := titleSty.Height(l.title) + 4 + subSty.Height(l.subtitle) + 12

	l.barLeft = l.gridLeft + gridW + hmBarGap
	l.barH = min(max(gridH, hmMinBarH), hmMaxBarH)
	legendW := max(hmBarW+3+3+maxWidth(tickSty, "100%"), hmBarW+4+tickSty.Width("no data"))

	w := max(l.barLeft+legendW+hmPad,
		2*hmPad+titleSty.Width(l.title),
		2*hmPad+subSty.Width(l.subtitle))
	h := hmPad + titleH + max(gridH+below, l.barH+hmSwatchGap+hmBarW) + hmPad
	l.w, l.h = roundUp3(w), roundUp3(h)
	l.gridTop = l.h - hmPad - titleH
	l.barTop = l.gridTop
	return l, nil
}

// cellRect is the rectangle of row i (0 = top), column j (0 = left).
func (l *heatLayout) cellRect(i, j int) vg.Rectangle {
	x0 := l.gridLeft + vg.Length(j)*l.cellW
	y1 := l.gridTop - vg.Length(i)*l.cellH
	return vg.Rectangle{Min: vg.Point{X: x0, Y: y1 - l.cellH}, Max: vg.Point{X: x0 + l.cellW, Y: y1}}
}

func (l *heatLayout) paint(c draw.Canvas) {
	fillBackground(c)
	titleSty, subSty, rowSty, colSty, cellSty, tickSty := l.styles()

	top := l.h - hmPad
	c.FillText(titleSty, vg.Point{X: hmPad, Y: top}, l.title)
	c.FillText(subSty, vg.Point{X: hmPad, Y: top - titleSty.Height(l.title) - 4}, l.subtitle)

	const inset = 0.75 // white gap between cells
	for i, m := range l.models {
		r := l.cellRect(i, 0)
		c.FillText(rowSty, vg.Point{X: l.gridLeft - hmLabelGap, Y: (r.Min.Y + r.Max.Y) / 2}, m)
		for j := range l.cats {
			r := l.cellRect(i, j)
			fill, txt, ink := rgb(noDataColor), hmNoDataText, rgb(mutedText)
			if v := l.cells[i][j]; !math.IsNaN(v) {
				fill, txt = scaleColor(v), pct(v)
				ink = textOn(fill)
			}
			c.FillPolygon(fill, rect(r.Min.X+inset, r.Min.Y+inset, r.Max.X-inset, r.Max.Y-inset))
			sty := cellSty
			sty.Color = ink
			c.FillText(sty, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}, txt)
		}
	}
	gridBottom := l.gridTop - vg.Length(len(l.models))*l.cellH
	for j, cat := range l.cats {
		r := l.cellRect(0, j)
		c.FillText(colSty, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: gridBottom - hmLabelGap}, cat)
	}

	// Colour bar: hmBarSteps bands, each overlapping the next a little so
	// no seam shows between them.
	barRight := l.barLeft + hmBarW
	barBottom := l.barTop - l.barH
	step := l.barH / hmBarSteps
	for k := range hmBarSteps {
		y0 := barBottom + vg.Length(k)*step
		y1 := min(y0+step+0.5, l.barTop)
		c.FillPolygon(scaleColor((float64(k)+0.5)/hmBarSteps), rect(l.barLeft, y0, barRight, y1))
	}
	outline := draw.LineStyle{Color: rgb(mutedText), Width: 0.5}
	box := rect(l.barLeft, barBottom, barRight, l.barTop)
	c.StrokeLines(outline, append(box, box[0]))
	for q := 0; q <= 4; q++ {
		y := barBottom + vg.Length(q)*l.barH/4
		c.StrokeLine2(outline, barRight, y, barRight+3, y)
		c.FillText(tickSty, vg.Point{X: barRight + 6, Y: y}, strconv.Itoa(25*q)+"%")
	}
	swTop := barBottom - hmSwatchGap
	c.FillPolygon(rgb(noDataColor), rect(l.barLeft, swTop-hmBarW, barRight, swTop))
	c.FillText(tickSty, vg.Point{X: barRight + 4, Y: swTop - hmBarW/2}, "no data")
}
