// Package report owns the files a scored run is published as, with the exact
// shapes of the interop contract: results/runs/<run-id>/summary.json (the
// BenchmarkReport), results/runs/<run-id>/per_check_metrics.json,
// results/LEADERBOARD.md (parse contract v1) and results/LEADERBOARD_PER_CHECK.md,
// plus a reader of LEADERBOARD.md v1 written as a downstream consumer would.
//
// Output is deterministic: the same score.Report and Options give
// byte-identical files (sorted rows, fixed float formatting, no timestamps
// unless passed in). Every file is written atomically. The package formats
// numbers; it never computes them (package score does) and never reads
// result files.
package report
