package runner

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
)

// File names inside a run directory (<output-dir>/runs/<run-id>/).
const (
	ManifestFile = "run.json"
	ResultsFile  = "results.jsonl"
)

// RunOptions are the options that decide what a run's results mean. A run
// resumes only with the same values.
type RunOptions struct {
	Models         []string `json:"models"`
	Samples        int      `json:"samples"`
	Temperature    float64  `json:"temperature"`
	MaxTokens      int      `json:"max_tokens"`
	Scenario       string   `json:"scenario"`
	FeedbackRounds int      `json:"feedback_rounds"`
	MaxTurns       int      `json:"max_turns"`
	Layers         string   `json:"layers"`
	// ContextPack is the sha256 of the context pack's text, or empty.
	ContextPack string `json:"context_pack,omitempty"`
	// PromptVariant is the sensitivity variant of the prompts, or empty.
	PromptVariant string `json:"prompt_variant,omitempty"`
	RetestOnly    bool   `json:"retest_only"`
	// NoCache is recorded but may change between a run and its resumption
	// (a cached reply and a fresh one mean the same).
	NoCache bool `json:"no_cache" resume:"free"`
}

// Manifest is run.json: what a run is, written atomically at its start.
type Manifest struct {
	RunID         string      `json:"run_id"`
	BinaryVersion string      `json:"binary_version"`
	StartedAt     time.Time   `json:"started_at"`
	ResumedAt     []time.Time `json:"resumed_at,omitempty"`
	Options       RunOptions  `json:"options"`
	// Cases maps each selected case id to its content hash.
	Cases map[string]string `json:"cases"`
	// Jail says how builds and runs of the answers were confined
	// (sandbox.Jail.Describe), as doctor prints it.
	Jail string `json:"jail,omitempty"`
}

// NewManifest describes a run starting now over the selected cases.
func NewManifest(runID, version string, opts RunOptions, sel []*cases.Case, now time.Time) Manifest {
	m := Manifest{RunID: runID, BinaryVersion: version, StartedAt: now.UTC().Truncate(time.Second), Options: opts, Cases: map[string]string{}}
	for _, c := range sel {
		m.Cases[c.Meta.ID] = c.Hash
	}
	return m
}

// HashText returns "sha256:<hex>" of a text, for recording the context pack.
func HashText(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Differences lists, one line each, how the options of a recorded run (a)
// differ from the ones given now (b), naming each option by its JSON key.
// Options tagged resume:"free" are ignored.
func Differences(a, b RunOptions) []string {
	var out []string
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	t := va.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Tag.Get("resume") == "free" {
			continue
		}
		x, y := va.Field(i).Interface(), vb.Field(i).Interface()
		if !reflect.DeepEqual(x, y) {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			out = append(out, fmt.Sprintf("%s: run has %v, now %v", name, show(x), show(y)))
		}
	}
	return out
}

func show(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%v", v)
}

// caseDifferences lists cases added, removed or changed since the run began.
func caseDifferences(recorded, now map[string]string) []string {
	var added, removed, changed []string
	for id, h := range now {
		old, ok := recorded[id]
		switch {
		case !ok:
			added = append(added, id)
		case old != h:
			changed = append(changed, id)
		}
	}
	for id := range recorded {
		if _, ok := now[id]; !ok {
			removed = append(removed, id)
		}
	}
	var out []string
	for _, d := range []struct {
		what string
		ids  []string
	}{{"cases selected now but not in the run", added}, {"cases of the run not selected now", removed}, {"cases whose content changed since the run began", changed}} {
		if len(d.ids) > 0 {
			sort.Strings(d.ids)
			out = append(out, fmt.Sprintf("%s: %s", d.what, strings.Join(d.ids, ", ")))
		}
	}
	return out
}

// Archive is a run's directory: run.json and results.jsonl, to which every
// finished result is appended as one JSON line and fsynced.
type Archive struct {
	dir      string
	manifest Manifest
	previous []result.EvalResult
	f        *os.File
}

// ErrOptionsDiffer is wrapped by OpenArchive's error when a run exists with
// other options.
var ErrOptionsDiffer = errors.New("cannot resume")

// OpenArchive opens the run directory <outputDir>/runs/<run-id>/. A new run
// writes run.json; an existing one is resumed: its options and cases must
// equal m's (the error names every difference), its results are read back
// (Previous), and a torn last line (a crash in the middle of a write) is
// dropped and cut off the file with a warning. warn may be nil.
func OpenArchive(outputDir string, m Manifest, warn func(string)) (*Archive, error) {
	if warn == nil {
		warn = func(string) {}
	}
	dir := filepath.Join(outputDir, "runs", m.RunID)
	a := &Archive{dir: dir, manifest: m}
	manifestPath := filepath.Join(dir, ManifestFile)
	resultsPath := filepath.Join(dir, ResultsFile)
	raw, err := os.ReadFile(manifestPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, err := os.Stat(resultsPath); err == nil {
			return nil, fmt.Errorf("%s exists without %s: not a resumable run; choose another --run-id", resultsPath, ManifestFile)
		}
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", manifestPath, err)
	default:
		var old Manifest
		if err := json.Unmarshal(raw, &old); err != nil {
			return nil, fmt.Errorf("%s: %w", manifestPath, err)
		}
		diffs := append(Differences(old.Options, m.Options), caseDifferences(old.Cases, m.Cases)...)
		if len(diffs) > 0 {
			return nil, fmt.Errorf("%w run %q with different options (start a new --run-id, or give the run's options):\n  %s",
				ErrOptionsDiffer, m.RunID, strings.Join(diffs, "\n  "))
		}
		if old.BinaryVersion != m.BinaryVersion {
			warn(fmt.Sprintf("run %s was started by embedeval %s; resuming with %s", m.RunID, old.BinaryVersion, m.BinaryVersion))
		}
		resumed := old
		resumed.ResumedAt = append(resumed.ResumedAt, m.StartedAt)
		a.manifest = resumed
		if a.previous, err = readJournal(resultsPath, warn); err != nil {
			return nil, err
		}
	}
	if err := writeAtomic(manifestPath, func(f io.Writer) error {
		enc := json.NewEncoder(f)
		enc.SetIndent("", "  ")
		return enc.Encode(a.manifest)
	}); err != nil {
		return nil, err
	}
	a.f, err = os.OpenFile(resultsPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", resultsPath, err)
	}
	if err := syncDir(dir); err != nil {
		a.f.Close()
		return nil, err
	}
	return a, nil
}

// ResultsPath is the run's results.jsonl.
func (a *Archive) ResultsPath() string { return filepath.Join(a.dir, ResultsFile) }

// Previous returns the results recorded before this process opened the run.
func (a *Archive) Previous() []result.EvalResult { return slices.Clone(a.previous) }

// append writes one result as a JSON line and fsyncs it. It is called by
// the run's single writer goroutine only.
func (a *Archive) append(r result.EvalResult) error {
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode result %s: %w", KeyOf(r), err)
	}
	line = append(line, '\n')
	if _, err := a.f.Write(line); err != nil {
		return fmt.Errorf("append to %s: %w", a.ResultsPath(), err)
	}
	if err := a.f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", a.ResultsPath(), err)
	}
	return nil
}

// Close closes the results file; everything appended is already on disk.
func (a *Archive) Close() error {
	if a.f == nil {
		return nil
	}
	err := a.f.Close()
	a.f = nil
	if err != nil {
		return fmt.Errorf("close %s: %w", a.ResultsPath(), err)
	}
	return nil
}

// Finish closes the archive and, for a complete run, rewrites results.jsonl
// atomically with every result in sorted order (so that a finished run's
// file does not depend on completion order).
func (a *Archive) Finish(all []result.EvalResult) error {
	if err := a.Close(); err != nil {
		return err
	}
	sorted := slices.Clone(all)
	SortResults(sorted)
	return WriteResults(a.ResultsPath(), sorted)
}

// readJournal reads results.jsonl. A last line that is incomplete or not
// valid JSON is a torn write: it is cut off the file, with a warning. Any
// other invalid line is an error naming it. A record repeated for the same
// key keeps its first occurrence, with a warning.
func readJournal(path string, warn func(string)) ([]result.EvalResult, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	rd := bufio.NewReader(f)
	var out []result.EvalResult
	seen := map[Key]int{}
	var good int64 // bytes of complete, valid lines
	lineNo := 0
	var pendingErr error
	for {
		line, err := rd.ReadBytes('\n')
		if len(line) == 0 && errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		lineNo++
		if pendingErr != nil {
			// An invalid line followed by more lines is not a torn write.
			return nil, pendingErr
		}
		complete := err == nil && bytes.HasSuffix(line, []byte("\n"))
		if !complete {
			warn(fmt.Sprintf("%s:%d: incomplete last line (%d bytes, an interrupted write) dropped", path, lineNo, len(line)))
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			good += int64(len(line))
			continue
		}
		var r result.EvalResult
		if jerr := json.Unmarshal(line, &r); jerr != nil || r.CaseID == "" {
			if jerr == nil {
				jerr = errors.New("no case_id")
			}
			pendingErr = fmt.Errorf("%s:%d: invalid result record: %v; refusing to resume (the file is kept as it is)", path, lineNo, jerr)
			continue
		}
		good += int64(len(line))
		// Lines of an older binary name layers the short way; the
		// rewrite at the end of the run gives them the current names.
		r.NormalizeLayerNames()
		k := KeyOf(r)
		if first, dup := seen[k]; dup {
			warn(fmt.Sprintf("%s:%d: %s repeats line %d; the first is kept", path, lineNo, k, first))
			continue
		}
		seen[k] = lineNo
		out = append(out, r)
	}
	if pendingErr != nil {
		warn(fmt.Sprintf("%s:%d: last line is not a valid record (an interrupted write) and is dropped", path, lineNo))
	}
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if st.Size() != good {
		if err := f.Truncate(good); err != nil {
			return nil, fmt.Errorf("truncate torn line of %s: %w", path, err)
		}
		if err := f.Sync(); err != nil {
			return nil, fmt.Errorf("sync %s: %w", path, err)
		}
	}
	return out, nil
}

// syncDir fsyncs a directory so that a file created in it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("open %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
