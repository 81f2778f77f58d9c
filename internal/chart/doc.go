// Package chart draws the charts of EmbedEval's reports from a scored
// score.Report: a category × model pass@1 heatmap (Heatmap) and pass@1 bars
// with Wilson 95% confidence intervals (PassAtOneBars).
//
// Charts are drawn with gonum.org/v1/plot and rendered to SVG (vg/vgsvg) or
// PNG (vg/vgimg at DPI dots per inch). Text is set in Liberation Sans, which
// gonum/plot compiles into the binary, so measuring and rasterising text
// needs no system fonts. SVG files name the font (with Arial, Helvetica and
// sans-serif as fallbacks, which are metric-compatible or close) rather than
// embedding it, which keeps them small.
//
// Rendering is deterministic: the same report gives byte-identical SVG and
// PNG output. Nothing reads the clock, iterates a map or generates ids.
// WriteFiles writes the four files the leaderboard links
// (heatmap.svg, heatmap.png, pass_at_1.svg, pass_at_1.png) atomically.
package chart
