// Package pipeline owns the GitHub Actions pipeline's data between steps:
// the shard plan (which cases, models and samples each matrix job runs, in
// which container image, with its predicted duration), the planner that
// balances jobs by predicted duration, the recorded durations
// (results/timings.json), the shard artifact each job writes, and the merge
// that checks a set of artifacts against the plan, writes the run under
// results/runs/<run-id>/ and has every report regenerated.
//
// It does not evaluate code (internal/runner does), does not render reports
// itself (internal/publish and internal/report do), and never talks to
// GitHub: it reads and writes files only.
package pipeline
