package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/report"
)

// TimingsFile is the recorded durations under the results directory.
const TimingsFile = "timings.json"

// maxRecent is how many recent durations a timing keeps for its median.
const maxRecent = 15

// Timing is the recorded duration of one case: the median of its recent
// per-result durations on one platform target.
type Timing struct {
	// Platform is the registry target the durations were measured on; a
	// case that moves to another target starts a new history.
	Platform string `json:"platform"`
	// Seconds is the median of Recent.
	Seconds float64 `json:"seconds"`
	// Samples is how many durations were ever recorded.
	Samples int `json:"samples"`
	// Recent are the latest durations (at most 15), oldest first.
	Recent []float64 `json:"recent"`
	// LastRun is the run that last contributed: merging that run again
	// changes nothing.
	LastRun string `json:"last_run"`
}

// Timings maps case ids to their recorded durations (results/timings.json).
type Timings map[string]Timing

// LoadTimings reads a timings file; a missing file is empty timings. It also
// returns the file's sha256 ("" when missing), which the plan records.
func LoadTimings(path string) (Timings, string, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Timings{}, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("read timings: %w", err)
	}
	t := Timings{}
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, "", fmt.Errorf("%s: %w", locate(path, raw, err), err)
	}
	sum := sha256.Sum256(raw)
	return t, "sha256:" + hex.EncodeToString(sum[:]), nil
}

// Save writes the timings atomically (sorted keys, indented).
func (t Timings) Save(path string) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(t); err != nil {
		return fmt.Errorf("encode timings: %w", err)
	}
	return report.WriteFileAtomic(path, b.Bytes())
}

// Record adds one run's durations: per case, its target and the durations
// of its results. A case whose LastRun is runID already is left alone, so
// recording the same run twice changes nothing.
func (t Timings) Record(runID string, target map[string]string, durations map[string][]float64) {
	for id, ds := range durations {
		if len(ds) == 0 {
			continue
		}
		old := t[id]
		if old.LastRun == runID {
			continue
		}
		if old.Platform != target[id] {
			old = Timing{Platform: target[id]}
		}
		sorted := make([]float64, len(ds))
		for i, d := range ds {
			sorted[i] = round3(d)
		}
		slices.Sort(sorted) // the order results arrived in must not matter
		old.Recent = append(old.Recent, sorted...)
		if n := len(old.Recent); n > maxRecent {
			old.Recent = slices.Clone(old.Recent[n-maxRecent:])
		}
		old.Samples += len(ds)
		old.Seconds = round3(median(old.Recent))
		old.LastRun = runID
		t[id] = old
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// round3 rounds to milliseconds, so that plans and timings print short.
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// backendCost is the prediction table, in seconds per sample: the build
// (L1) and the run (L2) of a typical case in the backend's container image.
// Every case also pays staticSeconds for L0, L3 and L4 (Starlark checks).
// An unknown backend (or "none") costs nothing beyond the static checks.
func backendCost(backend string) (build, run float64) {
	switch backend {
	case "zephyr":
		return 45, 5
	case "esp-idf":
		return 60, 0
	case "stm32-hal":
		return 20, 0
	case "freertos":
		return 15, 10
	case "yocto":
		return 180, 0
	case "kbuild":
		return 2, 0
	case "userspace":
		return 1, 1
	case "baremetal":
		return 2, 10
	case "dtc":
		return 0.1, 0
	}
	return 0, 0
}

// Prediction constants: see docs/PIPELINE.md.
const (
	// staticSeconds is L0 + L3 + L4 of one sample (Starlark checks only).
	staticSeconds = 0.05
	// nominalReferenceBytes is the reference size the table is for; a
	// larger reference scales the build and run time (at most ×4, at least
	// ×0.5).
	nominalReferenceBytes = 4096
)

// Predictor predicts the duration of one sample of a case.
type Predictor struct {
	Timings Timings
	// Build and Run say whether L1 and L2 are among the run's layers.
	Build, Run bool
}

// Predict returns the predicted seconds of one sample of c on target t and
// where the number came from: "history" (timings.json, same target) or
// "table" (backend table scaled by the reference size).
func (p Predictor) Predict(c *cases.Case, t platform.Target) (float64, string) {
	if h, ok := p.Timings[c.Meta.ID]; ok && h.Platform == t.Name && h.Samples > 0 {
		return math.Max(h.Seconds, 0.001), "history"
	}
	size := nominalReferenceBytes
	if c.ReferencePath != "" {
		if st, err := os.Stat(c.ReferencePath); err == nil {
			size = int(st.Size())
		}
	}
	return TablePrediction(t, t.Board(c), size, p.Build, p.Run), "table"
}

// TablePrediction is the prediction without history: the static checks,
// plus the backend's build when the target can build and L1 runs, plus its
// run when the board can run and L2 runs, scaled by the reference size.
func TablePrediction(t platform.Target, board string, referenceBytes int, build, run bool) float64 {
	buildCost, runCost := backendCost(t.Backend)
	scale := math.Min(4, math.Max(0.5, float64(referenceBytes)/nominalReferenceBytes))
	s := 0.0
	if build && t.CanBuild() {
		s += buildCost
		if run && t.CanRun(board) {
			s += runCost
		}
	}
	return round3(staticSeconds + s*scale)
}
