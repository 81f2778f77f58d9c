// Package score owns the numbers of a benchmark run: the unbiased pass@k
// estimator, Wilson confidence intervals, and the per-model aggregation of a
// stream of result records (overall, per category, tier, reasoning type and
// difficulty; layer pass rates; failure distribution; per-check statistics;
// stability; error counts; scores on the cases common to all models). It also
// reads result files (JSON lines) as a stream.
//
// Scoring is incremental: a Scorer keeps counters per (model, task) and per
// check, never the results themselves, so memory grows with the number of
// distinct models, cases and checks, not with the number of results.
//
// The package computes numbers only; it does not format or write reports
// (package report does) and it never reads case directories (the caller
// passes a metadata lookup).
package score
