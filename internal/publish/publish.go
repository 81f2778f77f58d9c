// Package publish turns stored runs into the files people read: it scores a
// run's results.jsonl and writes every report of that run (summary.json,
// per_check_metrics.json, report.md, guides, history, calibration, ablation,
// charts), and it rebuilds the pooled leaderboard from the latest run of
// every model under results/runs/. It is shared by `embedeval run`,
// `embedeval report` and the pipeline's merge step. It reads results and
// writes reports only: it never runs a model, never evaluates code and never
// changes a results.jsonl.
package publish

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/embedeval/embedeval-go/internal/analysis"
	"github.com/embedeval/embedeval-go/internal/atomicfile"
	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/chart"
	"github.com/embedeval/embedeval-go/internal/mdescape"
	"github.com/embedeval/embedeval-go/internal/report"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/runner"
	"github.com/embedeval/embedeval-go/internal/score"
)

// lookupOf builds the scorer's metadata lookup from the corpus.
func lookupOf(corpus []*cases.Case) score.Lookup {
	metas := make([]cases.Metadata, len(corpus))
	for i, c := range corpus {
		metas[i] = c.Meta
	}
	return score.LookupFrom(metas)
}

// WriteReports scores runs/<runID>/results.jsonl (or, in a checkout without
// it, the committed verdicts.jsonl) under resultsDir against the corpus
// metadata and writes every report of the run: summary.json,
// per_check_metrics.json, LEADERBOARD.md (with its charts),
// LEADERBOARD_PER_CHECK.md, report.md, SAFE_GUIDE.md, TEST_RESULTS.md,
// history.json, calibration and ablation. It returns the scorer's warnings.
// The generated code under details/ is written by the run itself: scoring
// reads results without their code. A zero generated time leaves the
// timestamp out, so that the same input gives byte-identical files.
func WriteReports(resultsDir, runID string, corpus []*cases.Case, generated time.Time, temperature float64) ([]string, error) {
	path, err := scoredResultsPath(resultsDir, runID)
	if err != nil {
		return nil, err
	}
	started, err := manifestStart(resultsDir, runID)
	if err != nil {
		return nil, err
	}
	return writeRunReports(resultsDir, runID, corpus, generated, started, temperature, func(add func(result.EvalResult) error) ([]string, error) {
		warnings, err := score.ReadResults(path, add)
		if err != nil {
			return nil, fmt.Errorf("score %s: %w", path, err)
		}
		return warnings, nil
	})
}

// Regenerate rewrites every report of a stored run (WriteReports) with the
// settings the run recorded in its run.json (RecordedOptions), never the
// caller's: a run at temperature 0.5 stays at 0.5 in its regenerated
// summary. A run without run.json is reported with zero settings.
func Regenerate(resultsDir, runID string, corpus []*cases.Case, generated time.Time) ([]string, error) {
	recorded, _, err := RecordedOptions(resultsDir, runID)
	if err != nil {
		return nil, err
	}
	return WriteReports(resultsDir, runID, corpus, generated, recorded.Temperature)
}

// WriteReportsFrom is WriteReports for results already in memory (the
// run's results.jsonl as merge writes it): the same reports, without
// reading the file back. started is the run's start (summary.json's
// run_timestamp; zero: the date of generated).
func WriteReportsFrom(resultsDir, runID string, corpus []*cases.Case, generated, started time.Time, temperature float64, results []result.EvalResult) ([]string, error) {
	return writeRunReports(resultsDir, runID, corpus, generated, started, temperature, func(add func(result.EvalResult) error) ([]string, error) {
		for i := range results {
			if err := add(results[i]); err != nil {
				return nil, fmt.Errorf("score run %s: %w", runID, err)
			}
		}
		return nil, nil
	})
}

// manifestStart is the start time in runs/<runID>/run.json, or zero when
// the run has none.
func manifestStart(resultsDir, runID string) (time.Time, error) {
	path := filepath.Join(resultsDir, "runs", runID, runner.ManifestFile)
	raw, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, fmt.Errorf("read %s: %w", path, err)
	}
	var m runner.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return time.Time{}, fmt.Errorf("%s: %w", path, err)
	}
	return m.StartedAt, nil
}

// feedFunc hands every result of a run to add and returns the input warnings.
type feedFunc func(add func(result.EvalResult) error) ([]string, error)

func writeRunReports(resultsDir, runID string, corpus []*cases.Case, generated, started time.Time, temperature float64, feed feedFunc) ([]string, error) {
	lookup := lookupOf(corpus)
	opts := report.Options{RunID: runID, Temperature: temperature}
	if !generated.IsZero() {
		opts.Generated = generated.UTC().Format(time.RFC3339)
	}
	// run_timestamp: the UTC date the run started, so that reporting a run
	// again gives the same file; the date of generated for a run whose
	// start is unknown (no run.json), else "".
	switch {
	case !started.IsZero():
		opts.RunTimestamp = started.UTC().Format(time.DateOnly)
	case !generated.IsZero():
		opts.RunTimestamp = generated.UTC().Format(time.DateOnly)
	}
	sc := score.New(lookup)
	col := analysis.NewCollector(lookup)
	var verdicts []result.EvalResult
	warnings, err := feed(func(r result.EvalResult) error {
		verdicts = append(verdicts, score.ScoredFields(&r))
		if err := sc.Add(&r); err != nil {
			return err
		}
		return col.Add(&r)
	})
	if err != nil {
		return nil, err
	}
	if err := writeVerdicts(resultsDir, runID, verdicts); err != nil {
		return nil, err
	}
	sc.Warn(warnings...)
	rep := sc.Finish()
	an := col.Finish()
	if len(rep.Models) > 0 {
		charts, err := chart.WriteFiles(resultsDir, rep)
		if err != nil {
			return nil, fmt.Errorf("charts: %w", err)
		}
		opts.Charts = charts
	}
	if err := report.WriteRun(resultsDir, rep, opts); err != nil {
		return nil, err
	}
	ext, err := analysis.DefaultExternalBenchmarks()
	if err != nil {
		return nil, err
	}
	if err := report.WriteAnalysis(resultsDir, rep, an, analysis.EmbedGaps(rep.Models, ext, analysis.DefaultBenchmark), opts); err != nil {
		return nil, err
	}
	if err := report.WriteCalibration(resultsDir, an.Calibration, opts); err != nil {
		return nil, err
	}
	if err := report.WriteAblation(resultsDir, an.Ablation, opts); err != nil {
		return nil, err
	}
	return warnings, nil
}

// storedRun is one runs/<id>/ directory with a manifest.
type storedRun struct {
	id       string
	manifest runner.Manifest
}

// LatestRuns maps every model found in the manifests (run.json) under
// resultsDir/runs/ to the id of the latest run that holds it: the run that
// started last, ties broken by run id. Run directories without a manifest,
// and the run named exclude, are ignored.
func LatestRuns(resultsDir, exclude string) (map[string]string, error) {
	runs, err := storedRuns(resultsDir, exclude)
	if err != nil {
		return nil, err
	}
	latest := map[string]string{}
	for _, r := range runs {
		for _, m := range r.manifest.Options.Models {
			latest[m] = r.id
		}
	}
	return latest, nil
}

// LatestRun returns the id and start time of the run under resultsDir/runs/
// that started last (ties broken by run id), among the runs with a manifest
// (run.json) and a results.jsonl; ok is false when there is none.
func LatestRun(resultsDir string) (id string, started time.Time, ok bool, err error) {
	runs, err := storedRuns(resultsDir, "")
	if err != nil || len(runs) == 0 {
		return "", time.Time{}, false, err
	}
	last := runs[len(runs)-1]
	return last.id, last.manifest.StartedAt, true, nil
}

// RecordedOptions returns the options the run resultsDir/runs/<runID>
// recorded in its run.json, so reports regenerated later state the run's
// own settings (its temperature, say); ok is false when the run has no
// run.json (results written by another tool).
func RecordedOptions(resultsDir, runID string) (opts runner.RunOptions, ok bool, err error) {
	path := filepath.Join(resultsDir, "runs", runID, runner.ManifestFile)
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return runner.RunOptions{}, false, nil
	}
	if err != nil {
		return runner.RunOptions{}, false, fmt.Errorf("read %s: %w", path, err)
	}
	var m runner.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return runner.RunOptions{}, false, fmt.Errorf("%s: %w", path, err)
	}
	return m.Options, true, nil
}

// storedRuns lists the runs under resultsDir/runs/ that have a manifest and
// a results.jsonl or verdicts.jsonl, except exclude, in start order (ties by run id).
func storedRuns(resultsDir, exclude string) ([]storedRun, error) {
	dirs, err := os.ReadDir(filepath.Join(resultsDir, "runs"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	var runs []storedRun
	for _, d := range dirs {
		if !d.IsDir() || strings.HasPrefix(d.Name(), ".") || d.Name() == exclude {
			continue
		}
		path := filepath.Join(resultsDir, "runs", d.Name(), runner.ManifestFile)
		raw, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		var m runner.Manifest
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if _, err := scoredResultsPath(resultsDir, d.Name()); err != nil {
			continue
		}
		runs = append(runs, storedRun{id: d.Name(), manifest: m})
	}
	slices.SortFunc(runs, func(a, b storedRun) int {
		return cmp.Or(a.manifest.StartedAt.Compare(b.manifest.StartedAt), strings.Compare(a.id, b.id))
	})
	return runs, nil
}

// ScoreLeaderboard scores the pooled leaderboard: for every model, the
// results of its latest run (LatestRuns), leaving out the run named exclude
// (when not empty: the leaderboard as it was before that run). It returns
// nil when there is no run at all.
func ScoreLeaderboard(resultsDir string, corpus []*cases.Case, exclude string) (*score.Report, error) {
	return scoreLeaderboard(resultsDir, corpus, exclude, nil)
}

// Current is a run whose results are in memory; the leaderboard reads them
// from here instead of from its results.jsonl.
type Current struct {
	RunID   string
	Results []result.EvalResult
}

func scoreLeaderboard(resultsDir string, corpus []*cases.Case, exclude string, cur *Current) (*score.Report, error) {
	latest, err := LatestRuns(resultsDir, exclude)
	if err != nil {
		return nil, err
	}
	if len(latest) == 0 {
		return nil, nil
	}
	byRun := map[string]map[string]bool{}
	for model, id := range latest {
		if byRun[id] == nil {
			byRun[id] = map[string]bool{}
		}
		byRun[id][model] = true
	}
	ids := make([]string, 0, len(byRun))
	for id := range byRun {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	sc := score.New(lookupOf(corpus))
	for _, id := range ids {
		keep := byRun[id]
		if cur != nil && cur.RunID == id {
			for i := range cur.Results {
				if keep[cur.Results[i].Model] {
					if err := sc.Add(&cur.Results[i]); err != nil {
						return nil, fmt.Errorf("score run %s: %w", id, err)
					}
				}
			}
			continue
		}
		path, err := scoredResultsPath(resultsDir, id)
		if err != nil {
			return nil, err
		}
		warnings, err := score.ReadResults(path, func(r result.EvalResult) error {
			if !keep[r.Model] {
				return nil
			}
			return sc.Add(&r)
		})
		if err != nil {
			return nil, fmt.Errorf("score %s: %w", path, err)
		}
		sc.Warn(warnings...)
	}
	return sc.Finish(), nil
}

// LeaderboardOptions say how the pooled leaderboard is labelled.
type LeaderboardOptions struct {
	// RunID is the run that triggered the rebuild (shown on the run line).
	RunID string
	// Generated is the timestamp to show; zero leaves it out.
	Generated time.Time
	// Partial, when not empty, is written as a warning line right under the
	// schema comment: the newest run is missing shards.
	Partial string
	// Current, when set, supplies that run's results from memory.
	Current *Current
}

// WriteLeaderboard rebuilds LEADERBOARD.md, LEADERBOARD_PER_CHECK.md and the
// charts from the latest run of every model, so that a run of one model
// leaves the others on the leaderboard. It returns the pooled report (nil
// and no files written when there is no run).
func WriteLeaderboard(resultsDir string, corpus []*cases.Case, lo LeaderboardOptions) (*score.Report, error) {
	rep, err := scoreLeaderboard(resultsDir, corpus, "", lo.Current)
	if err != nil || rep == nil {
		return rep, err
	}
	opts := report.Options{RunID: lo.RunID}
	if !lo.Generated.IsZero() {
		opts.Generated = lo.Generated.UTC().Format(time.RFC3339)
	}
	if len(rep.Models) > 0 {
		if opts.Charts, err = chart.WriteFiles(resultsDir, rep); err != nil {
			return nil, fmt.Errorf("charts: %w", err)
		}
	}
	board := report.LeaderboardMarkdown(rep, opts)
	if lo.Partial != "" {
		board = markPartial(board, lo.Partial)
	}
	files := []struct {
		name string
		data []byte
	}{
		{report.LeaderboardFile, board},
		{report.LeaderboardPerCheckFile, report.LeaderboardPerCheckMarkdown(rep, opts)},
	}
	for _, f := range files {
		if err := report.WriteFileAtomic(filepath.Join(resultsDir, f.name), f.data); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// PartialPrefix starts the warning line of a partial leaderboard.
const PartialPrefix = "> **Warning: partial results.** "

// markPartial inserts the partial warning after the schema comment (the
// second line), leaving the parse contract's H1 and comment where they are.
func markPartial(board []byte, why string) []byte {
	why = mdescape.Text(why)
	lines := strings.SplitAfterN(string(board), "\n", 3)
	if len(lines) < 3 {
		return append(board, []byte("\n"+PartialPrefix+why+"\n")...)
	}
	return []byte(lines[0] + lines[1] + "\n" + PartialPrefix + why + "\n" + lines[2])
}

// VerdictsFile is the committed form of a run's results, beside its
// results.jsonl: every record cut down to what the scorer reads
// (score.ScoredFields: no generated code, no check texts), sorted by model,
// case, mutation and attempt. results.jsonl and details/ stay out of the
// repository (.gitignore), so the pooled leaderboard of a fresh checkout
// scores earlier runs from this file.
const VerdictsFile = "verdicts.jsonl"

// writeVerdicts writes runs/<runID>/verdicts.jsonl from the scored records.
func writeVerdicts(resultsDir, runID string, verdicts []result.EvalResult) error {
	slices.SortStableFunc(verdicts, func(a, b result.EvalResult) int {
		return cmp.Or(strings.Compare(a.Model, b.Model), strings.Compare(a.CaseID, b.CaseID),
			strings.Compare(a.Mutation, b.Mutation), cmp.Compare(a.Attempt, b.Attempt))
	})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i := range verdicts {
		if err := enc.Encode(&verdicts[i]); err != nil {
			return fmt.Errorf("verdicts of run %s: %w", runID, err)
		}
	}
	path := filepath.Join(resultsDir, "runs", runID, VerdictsFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("verdicts of run %s: %w", runID, err)
	}
	return atomicfile.WriteFile(path, buf.Bytes())
}

// scoredResultsPath is the file the pooled leaderboard scores run id from:
// its results.jsonl when this directory has it (a local run, a merge in
// progress), else the committed verdicts.jsonl.
func scoredResultsPath(resultsDir, id string) (string, error) {
	full := filepath.Join(resultsDir, "runs", id, runner.ResultsFile)
	if _, err := os.Stat(full); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return full, nil
	}
	verdicts := filepath.Join(resultsDir, "runs", id, VerdictsFile)
	if _, err := os.Stat(verdicts); err != nil {
		return "", fmt.Errorf("run %s: neither %s nor %s: %w", id, runner.ResultsFile, VerdictsFile, err)
	}
	return verdicts, nil
}

// RunResultFiles lists, in run-id order, the file each run under
// resultsDir/runs/ is scored from (ScoredResultsPath): its results.jsonl or
// its committed verdicts.jsonl. Runs with neither are left out.
func RunResultFiles(resultsDir string) ([]string, error) {
	dirs, err := os.ReadDir(filepath.Join(resultsDir, "runs"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	var files []string
	for _, d := range dirs {
		if !d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			continue
		}
		if path, err := scoredResultsPath(resultsDir, d.Name()); err == nil {
			files = append(files, path)
		}
	}
	return files, nil
}
