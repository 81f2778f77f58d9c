// Package analysis derives the failure-analysis numbers of a benchmark run
// from a stream of result records: the failure taxonomy (each failed result
// classified into one of eight patterns by a majority vote over its failed
// checks), the per-(model, task) counts behind TEST_RESULTS.md, an IRT-style
// difficulty calibration across models, a layer ablation (every result
// re-judged as if only some layers had run), the safety guide's risk tiers
// and the Embed Gap against external benchmarks.
//
// Like package score, a Collector keeps counters per (model, task) and per
// (model, pattern), never the results themselves. Numbers that package score
// already computes (pass@k, category breakdowns, stability, per-check
// statistics, failure distribution) are taken from a score.Report rather than
// recomputed. The package computes numbers only; package report formats and
// writes them.
package analysis
