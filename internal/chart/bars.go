package chart

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/embedeval/embedeval-go/internal/score"
)

// PassAtOneBars draws pass@1 per model as horizontal bars on a 0–100% axis,
// best model on top (leaderboard order), each bar filled with its colour on
// the heatmap's scale and crossed by a Wilson 95% confidence-interval error
// bar. A column at the right labels every bar with its pass@1, interval and
// number of judged samples ("51.4%  [35.6–67.0]  n=35"), plus its pass@1 on
// the common cases when the models saw different case sets (which is then
// what the ranking uses, as on the leaderboard).
//
// Rows are 28 points tall (shrinking to 16 past 50 models). It fails with
// ErrNoModels for a nil report or one without models.
func PassAtOneBars(rep *score.Report) (*Chart, error) {
	l, err := layoutBars(rep)
	if err != nil {
		return nil, err
	}
	return &Chart{width: l.w, height: l.h, paint: l.paint}, nil
}

// barRow is one bar: pass@1 and its interval as rates in [0, 1].
type barRow struct {
	model      string
	p, lo, hi  float64
	n          int
	comparable *float64
	note       string
}

// Bar chart geometry, in points.
const (
	brPad       = 12
	brRowH      = 28
	brTinyRowH  = 16
	brMaxPlotH  = 1400
	brPlotW     = 420
	brColGap    = 14
	brAxisH     = 44 // room the plot takes below the bars for the X axis
	brTitleSize = 14
	brSubSize   = 9
	brLabelSize = 10
)

// barLayout is the bar chart's rows (rows[0] is the best model, drawn on
// top) and its size.
type barLayout struct {
	rows            []barRow
	w, h            vg.Length
	rowH            vg.Length
	colW            vg.Length // width of the label column right of the plot
	title, subtitle string
}

func layoutBars(rep *score.Report) (*barLayout, error) {
	if err := checkReport(rep); err != nil {
		return nil, err
	}
	l := &barLayout{title: "pass@1 per model", subtitle: "bars: pass@1 · whiskers: Wilson 95% CI · n: judged samples"}
	anyComparable := false
	for _, m := range ranked(rep.Models) {
		r := barRow{model: label(m.Model), p: m.PassAt1, lo: m.PassAt1CI[0], hi: m.PassAt1CI[1], n: m.JudgedSamples, comparable: m.PassAt1Comparable}
		r.note = pct(r.p) + "  [" + strconv.FormatFloat(r.lo*100, 'f', 1, 64) + "–" + strconv.FormatFloat(r.hi*100, 'f', 1, 64) + "]  n=" + strconv.Itoa(r.n)
		if r.comparable != nil {
			anyComparable = true
			r.note += "  · common " + pct(*r.comparable)
		}
		l.rows = append(l.rows, r)
	}
	if anyComparable {
		l.subtitle += " · ranked by pass@1 on the common cases"
	}
	titleSty, subSty, rowSty, noteSty := l.styles()
	n := vg.Length(len(l.rows))
	l.rowH = brRowH
	if n*l.rowH > brMaxPlotH {
		l.rowH = max(brMaxPlotH/n, brTinyRowH)
	}
	var noteW, nameW vg.Length
	for _, r := range l.rows {
		noteW = max(noteW, noteSty.Width(r.note))
		nameW = max(nameW, rowSty.Width(r.model))
	}
	l.colW = brColGap + noteW + brPad
	w := max(brPad+nameW+8+brPlotW+l.colW,
		2*brPad+titleSty.Width(l.title), 2*brPad+subSty.Width(l.subtitle))
	h := brPad + l.headH() + n*l.rowH + brAxisH + brPad
	l.w, l.h = roundUp3(w), roundUp3(h)
	return l, nil
}

func (l *barLayout) styles() (title, sub, row, note text.Style) {
	title = textStyle(brTitleSize, true, rgb(darkText), text.XLeft, text.YTop)
	sub = textStyle(brSubSize, false, rgb(mutedText), text.XLeft, text.YTop)
	row = textStyle(brLabelSize, false, rgb(darkText), text.XRight, text.YCenter)
	note = textStyle(brLabelSize, false, rgb(darkText), text.XLeft, text.YCenter)
	return
}

// headH is the height of the title and subtitle block.
func (l *barLayout) headH() vg.Length {
	t, s, _, _ := l.styles()
	return t.Height(l.title) + 4 + s.Height(l.subtitle) + 10
}

// yOf is the plot's y value of row i: the best model (i = 0) on top.
func (l *barLayout) yOf(i int) float64 { return float64(len(l.rows) - 1 - i) }

func (l *barLayout) paint(c draw.Canvas) {
	fillBackground(c)
	titleSty, subSty, rowSty, noteSty := l.styles()
	top := l.h - brPad
	c.FillText(titleSty, vg.Point{X: brPad, Y: top}, l.title)
	c.FillText(subSty, vg.Point{X: brPad, Y: top - titleSty.Height(l.title) - 4}, l.subtitle)

	p := plot.New()
	p.BackgroundColor = nil
	axisSty := textStyle(brLabelSize, false, rgb(darkText), text.XCenter, text.YTop)
	p.X.Label.Text = "pass@1"
	p.X.Label.TextStyle = axisSty
	p.X.Tick.Label = axisSty
	p.X.Tick.Marker = plot.TickerFunc(func(float64, float64) []plot.Tick {
		var ts []plot.Tick
		for v := 0; v <= 100; v += 10 {
			t := plot.Tick{Value: float64(v)}
			if v%20 == 0 {
				t.Label = strconv.Itoa(v) + "%"
			}
			ts = append(ts, t)
		}
		return ts
	})
	p.X.Padding = 0
	p.Y.Tick.Label = rowSty
	p.Y.Padding = 0
	names := make([]string, len(l.rows))
	for i, r := range l.rows {
		names[len(l.rows)-1-i] = r.model
	}
	p.NominalY(names...)

	grid := plotter.NewGrid()
	grid.Vertical.Color = rgb(gridColor)
	grid.Vertical.Width = 0.5
	grid.Vertical.Dashes = nil
	grid.Horizontal.Width = 0
	p.Add(grid)

	barW := l.rowH * 0.6
	for i, r := range l.rows {
		b, err := plotter.NewBarChart(plotter.Values{100 * r.p}, barW)
		if err != nil { // only for a non-finite value; draw nothing then
			continue
		}
		b.Horizontal = true
		b.XMin = l.yOf(i)
		b.Color = scaleColor(r.p)
		b.LineStyle = draw.LineStyle{Color: rgb(mutedText), Width: 0.5}
		p.Add(b)
	}
	var xys plotter.XYs
	var errs plotter.XErrors
	for i, r := range l.rows {
		xys = append(xys, plotter.XY{X: 100 * r.p, Y: l.yOf(i)})
		errs = append(errs, struct{ Low, High float64 }{100 * math.Max(r.p-r.lo, 0), 100 * math.Max(r.hi-r.p, 0)})
	}
	eb := &plotter.XErrorBars{XYs: xys, XErrors: errs, LineStyle: draw.LineStyle{Color: rgb(darkText), Width: 1.2}, CapWidth: barW * 0.7}
	p.Add(eb)

	p.X.Min, p.X.Max = 0, 100
	p.Y.Min, p.Y.Max = -0.5, float64(len(l.rows))-0.5

	area := draw.Crop(c, brPad, -l.colW, brPad, -(brPad + l.headH()))
	p.Draw(area)

	// The label column, right of the plot's data area.
	data := p.DataCanvas(area)
	_, ty := p.Transforms(&data)
	for i, r := range l.rows {
		c.FillText(noteSty, vg.Point{X: data.Max.X + brColGap, Y: ty(l.yOf(i))}, r.note)
	}
}
