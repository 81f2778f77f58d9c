package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/embedeval/embedeval-go/internal/atomicfile"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/publish"
	"github.com/embedeval/embedeval-go/internal/report"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/runner"
	"github.com/embedeval/embedeval-go/internal/score"
)

// MergeFile records, in the run directory, what a merge was made of.
const MergeFile = "merge.json"

// MergeOptions configure a merge.
type MergeOptions struct {
	Plan         *Plan
	ArtifactsDir string
	// ResultsDir is the results tree (results/): the run goes to
	// runs/<RunID>/, the leaderboard and timings.json are updated.
	ResultsDir string
	RunID      string
	// AllowPartial merges the usable shards when some are missing or broken
	// and marks the reports partial.
	AllowPartial bool
	// MaxArtifactBytes caps one artifact file; zero means
	// DefaultMaxArtifactBytes.
	MaxArtifactBytes int64
	// Corpus gives the case metadata scoring needs (categories, tiers).
	Corpus []*cases.Case
	// Generated is the timestamp written into reports; zero leaves it out
	// (byte-identical reports for the same input).
	Generated time.Time
}

// MergeRecord is merge.json: the plan, the shards merged and the ones left
// out, and the counts.
type MergeRecord struct {
	PlanHash    string   `json:"plan_hash"`
	RunID       string   `json:"run_id"`
	Shards      int      `json:"shards"`
	Merged      []int    `json:"merged"`
	Missing     []int    `json:"missing"`
	Partial     bool     `json:"partial"`
	Problems    []string `json:"problems"`
	Results     int      `json:"results"`
	Errors      int      `json:"errors"`
	InfraErrors int      `json:"infra_errors"`
}

// MergeOutcome is what a merge did, for the job summary and the PR body.
type MergeOutcome struct {
	Record MergeRecord
	// PartialNote is the warning written on partial reports, or "".
	PartialNote string
	// Warnings are the scorer's.
	Warnings []string
	// Before is the leaderboard without this run (nil when there was none);
	// After the leaderboard with it.
	Before, After *score.Report
	// Models are the verdict counts per model, in the plan's model order.
	Models []ModelCount
}

// ModelCount is one model's verdicts in the merged run.
type ModelCount struct {
	Model                          string
	Results, Passed, Failed, Error int
}

// ValidRunID reports whether id can name results/runs/<id>/.
func ValidRunID(id string) error {
	if id == "" || strings.HasPrefix(id, ".") || strings.IndexFunc(id, func(r rune) bool {
		return !(r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) >= 0 {
		return fmt.Errorf("run id %q: use letters, digits, '.', '_' and '-' only, not starting with '.'", id)
	}
	return nil
}

// DefaultRunID names a plan's run when none is given: "plan-" and the first
// 12 hex digits of the plan hash.
func DefaultRunID(p *Plan) string {
	return "plan-" + strings.TrimPrefix(short(p.Hash), "sha256:")
}

// Merge collects the artifacts (Collect), writes the run under
// <results>/runs/<run-id>/ (results.jsonl sorted, run.json, merge.json),
// regenerates the run's reports and the pooled leaderboard (other models'
// latest runs stay), and records the durations in timings.json. The same
// input merged twice leaves every file as it was.
func Merge(ctx context.Context, o MergeOptions) (*MergeOutcome, error) {
	if o.Plan == nil {
		return nil, errors.New("merge: no plan")
	}
	if o.RunID == "" {
		o.RunID = DefaultRunID(o.Plan)
	}
	if err := ValidRunID(o.RunID); err != nil {
		return nil, err
	}
	col, err := CollectLimited(ctx, o.Plan, o.ArtifactsDir, o.AllowPartial, o.MaxArtifactBytes)
	if err != nil {
		return nil, err
	}
	before, err := publish.ScoreLeaderboard(o.ResultsDir, o.Corpus, o.RunID)
	if err != nil {
		return nil, fmt.Errorf("leaderboard before the run: %w", err)
	}
	out := &MergeOutcome{Before: before}
	rec := &out.Record
	*rec = MergeRecord{PlanHash: o.Plan.Hash, RunID: o.RunID, Shards: len(o.Plan.Jobs), Merged: []int{}, Missing: []int{}, Problems: []string{}}
	total := 0
	for _, a := range col.Artifacts {
		total += len(a.Results)
	}
	all := make([]result.EvalResult, 0, total)
	var started time.Time
	evaluated := map[string]string{}
	target := map[string]string{}
	durations := map[string][]float64{}
	for _, a := range col.Artifacts {
		rec.Merged = append(rec.Merged, a.Shard)
		all = append(all, a.Results...)
		if started.IsZero() || a.StartedAt.Before(started) {
			started = a.StartedAt
		}
		for _, c := range a.Cases {
			evaluated[c.ID] = c.Hash
		}
		for _, c := range o.Plan.Jobs[a.Shard-1].Cases {
			target[c.ID] = c.Target
		}
		rec.InfraErrors += len(a.InfraErrors)
	}
	rec.Missing = append(rec.Missing, col.Missing...)
	for _, p := range col.Dropped {
		rec.Problems = append(rec.Problems, p.Message)
	}
	rec.Partial = len(col.Missing) > 0
	runner.SortResults(all)
	counts := map[string]*ModelCount{}
	for _, r := range all {
		durations[r.CaseID] = append(durations[r.CaseID], r.TotalTimeSeconds)
		mc := counts[r.Model]
		if mc == nil {
			mc = &ModelCount{Model: r.Model}
			counts[r.Model] = mc
		}
		mc.Results++
		switch r.Status {
		case result.StatusPassed:
			mc.Passed++
		case result.StatusFailed:
			mc.Failed++
		default:
			mc.Error++
			rec.Errors++
		}
	}
	rec.Results = len(all)
	for _, m := range o.Plan.Inputs.Models {
		if mc := counts[m]; mc != nil {
			out.Models = append(out.Models, *mc)
		}
	}
	if rec.Partial {
		out.PartialNote = fmt.Sprintf("run %s merged %d of %d shards; missing %s. Pass rates cover only the merged shards.",
			o.RunID, len(rec.Merged), rec.Shards, shardList(rec.Missing))
	}

	runDir := filepath.Join(o.ResultsDir, "runs", o.RunID)
	// results.jsonl is written while the run is scored from memory.
	written := make(chan error, 1)
	go func() { written <- writeResults(filepath.Join(runDir, runner.ResultsFile), all) }()
	if out.Warnings, err = publish.WriteReportsFrom(o.ResultsDir, o.RunID, o.Corpus, o.Generated, started, o.Plan.Inputs.Temperature, all); err != nil {
		<-written
		return nil, fmt.Errorf("reports: %w", err)
	}
	if err := <-written; err != nil {
		return nil, err
	}
	in := o.Plan.Inputs
	man := runner.Manifest{
		RunID: o.RunID, BinaryVersion: o.Plan.BinaryVersion, StartedAt: started,
		Options: runner.RunOptions{Models: in.Models, Samples: in.Samples, Temperature: in.Temperature, MaxTokens: in.MaxTokens,
			Scenario: in.Scenario, FeedbackRounds: in.FeedbackRounds, Layers: in.Layers, ContextPack: in.ContextPack},
		Cases: evaluated,
	}
	if err := writeJSON(filepath.Join(runDir, runner.ManifestFile), man); err != nil {
		return nil, err
	}
	if err := writeJSON(filepath.Join(runDir, MergeFile), rec); err != nil {
		return nil, err
	}
	cur := &publish.Current{RunID: o.RunID, Results: all}
	if out.After, err = publish.WriteLeaderboard(o.ResultsDir, o.Corpus, publish.LeaderboardOptions{RunID: o.RunID, Generated: o.Generated, Partial: out.PartialNote, Current: cur}); err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	timingsPath := filepath.Join(o.ResultsDir, TimingsFile)
	tm, _, err := LoadTimings(timingsPath)
	if err != nil {
		return nil, err
	}
	tm.Record(o.RunID, target, durations)
	if err := tm.Save(timingsPath); err != nil {
		return nil, err
	}
	return out, nil
}

// writeResults writes results.jsonl atomically, one JSON line per result
// (the bytes runner.WriteResults writes), through a buffer: 100,000 results
// are one write call per megabyte, not one per line.
func writeResults(path string, rs []result.EvalResult) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for i := range rs {
			if err := enc.Encode(&rs[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

func writeJSON(path string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return report.WriteFileAtomic(path, b.Bytes())
}

// shardList formats shard numbers: "3" or "3, 5 and 8".
func shardList(ss []int) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = strconv.Itoa(s)
	}
	if len(parts) <= 1 {
		return "shard " + strings.Join(parts, "")
	}
	return "shards " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
