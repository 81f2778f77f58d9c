package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
)

// TrackerFile is the incremental-retest state under the output directory.
const TrackerFile = "test_tracker.json"

// TrackerEntry is what the tracker remembers of a case's last run.
type TrackerEntry struct {
	Hash      string `json:"hash"`
	LastRunID string `json:"last_run_id"`
	Passed    bool   `json:"passed"`
}

// Tracker maps case ids to their last recorded run (test_tracker.json).
type Tracker map[string]TrackerEntry

// LoadTracker reads <outputDir>/test_tracker.json; a missing file is an empty
// tracker.
func LoadTracker(outputDir string) (Tracker, error) {
	path := filepath.Join(outputDir, TrackerFile)
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Tracker{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	t := Tracker{}
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Changed returns the cases whose content hash differs from the tracker's,
// and those the tracker has never seen, in the given order.
func (t Tracker) Changed(sel []*cases.Case) []*cases.Case {
	var out []*cases.Case
	for _, c := range sel {
		if e, ok := t[c.Meta.ID]; !ok || e.Hash != c.Hash {
			out = append(out, c)
		}
	}
	return out
}

// Record updates the tracker with a run's results: every case with at least
// one judged result (passed or failed) gets its hash, the run id and whether
// all its judged results passed. Cases whose results are all errors are left
// as they were, so that --retest-only tries them again.
func (t Tracker) Record(runID string, sel []*cases.Case, rs []result.EvalResult) {
	judged := map[string]int{}
	passed := map[string]int{}
	for _, r := range rs {
		switch r.Status {
		case result.StatusPassed:
			judged[r.CaseID]++
			passed[r.CaseID]++
		case result.StatusFailed:
			judged[r.CaseID]++
		}
	}
	for _, c := range sel {
		id := c.Meta.ID
		if judged[id] == 0 {
			continue
		}
		t[id] = TrackerEntry{Hash: c.Hash, LastRunID: runID, Passed: passed[id] == judged[id]}
	}
}

// Save writes <outputDir>/test_tracker.json atomically (sorted keys).
func (t Tracker) Save(outputDir string) error {
	return writeAtomic(filepath.Join(outputDir, TrackerFile), func(f io.Writer) error {
		enc := json.NewEncoder(f)
		enc.SetIndent("", "  ")
		return enc.Encode(t)
	})
}
