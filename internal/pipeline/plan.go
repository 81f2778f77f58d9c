package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/embedeval/embedeval-go/internal/report"
)

// Plan file identity.
const (
	PlanFormat  = "embedeval-shard-plan"
	PlanVersion = 1
)

// Inputs are the options the plan was made from; the evaluate step takes
// the run's options from here, not from its own flags.
type Inputs struct {
	CasesDir       string   `json:"cases_dir"`
	PrivateDir     string   `json:"private_cases_dir,omitempty"`
	IncludePrivate bool     `json:"include_private"`
	Filters        []string `json:"filters,omitempty"`
	ChangedSince   string   `json:"changed_since,omitempty"`
	Models         []string `json:"models"`
	Samples        int      `json:"samples"`
	Scenario       string   `json:"scenario"`
	FeedbackRounds int      `json:"feedback_rounds"`
	Temperature    float64  `json:"temperature"`
	MaxTokens      int      `json:"max_tokens"`
	Layers         string   `json:"layers"`
	// ContextPack is the sha256 of the context pack's text
	// (runner.HashText), or empty; ContextPackFile is where it was read, and
	// where a shard reads it by default (the shard refuses a text of
	// another hash).
	ContextPack     string `json:"context_pack,omitempty"`
	ContextPackFile string `json:"context_pack_file,omitempty"`
	MaxJobs         int    `json:"max_jobs"`
	// Verdict settings every shard shares: the limits of one check call,
	// the L1 and L2 time limits, and the layers whose toolchain must be
	// present (absence an error, not a skip). Zero values: the shard's
	// defaults (plans written before they were recorded).
	CheckSteps    uint64        `json:"check_steps,omitempty"`
	CheckTimeout  time.Duration `json:"check_timeout,omitempty"`
	BuildTimeout  time.Duration `json:"build_timeout,omitempty"`
	RunTimeout    time.Duration `json:"run_timeout,omitempty"`
	RequireLayers string        `json:"require_layers,omitempty"`
	// Timings is the sha256 of the timings file the predictions came from,
	// or empty when there was none.
	Timings string `json:"timings,omitempty"`
}

// CaseRef names a case at a content hash.
type CaseRef struct {
	ID   string `json:"id"`
	Hash string `json:"hash"`
}

// JobCase is one case of a job: run for every sample of the plan.
type JobCase struct {
	CaseRef
	// Target is the platform registry entry the case resolves to.
	Target string `json:"target"`
	// PredictedSeconds is the predicted time of one sample; Source says where
	// it came from ("history" or "table").
	PredictedSeconds float64 `json:"predicted_seconds"`
	Source           string  `json:"source"`
}

// Job is one matrix job: one model, one container image, some cases.
type Job struct {
	// Index is the shard number, 1-based.
	Index int    `json:"index"`
	Name  string `json:"name"`
	Image string `json:"image"`
	// Targets are the distinct registry targets of the job's cases, sorted.
	Targets []string  `json:"targets"`
	Model   string    `json:"model"`
	Samples int       `json:"samples"`
	Cases   []JobCase `json:"cases"`
	// PredictedSeconds is the job's predicted duration: the sum over its
	// cases of samples × predicted seconds.
	PredictedSeconds float64 `json:"predicted_seconds"`
}

// Plan is the shard plan: versioned, deterministic, with its own hash.
type Plan struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Hash is "sha256:<hex>" of the plan's canonical JSON without this field.
	Hash          string `json:"hash,omitempty"`
	BinaryVersion string `json:"binary_version"`
	Inputs        Inputs `json:"inputs"`
	Jobs          []Job  `json:"jobs"`
	// PredictedSeconds is the predicted makespan (the longest job);
	// LowerBound is max(total / jobs, longest unit), the best any split of
	// the same units over the same number of jobs could do.
	PredictedSeconds float64 `json:"predicted_seconds"`
	TotalSeconds     float64 `json:"total_seconds"`
	LowerBound       float64 `json:"lower_bound_seconds"`
}

// ComputeHash returns the plan's content hash: sha256 of its compact JSON
// encoding with the hash field empty (and so left out).
func (p *Plan) ComputeHash() (string, error) {
	c := *p
	c.Hash = ""
	raw, err := json.Marshal(&c)
	if err != nil {
		return "", fmt.Errorf("encode plan: %w", err)
	}
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// Seal sets the plan's hash.
func (p *Plan) Seal() error {
	h, err := p.ComputeHash()
	if err != nil {
		return err
	}
	p.Hash = h
	return nil
}

// Encode returns the plan file's bytes (indented JSON, newline-terminated).
func (p *Plan) Encode() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return nil, fmt.Errorf("encode plan: %w", err)
	}
	return b.Bytes(), nil
}

// WritePlan seals the plan and writes it atomically to path.
func WritePlan(path string, p *Plan) error {
	if err := p.Seal(); err != nil {
		return err
	}
	data, err := p.Encode()
	if err != nil {
		return err
	}
	return report.WriteFileAtomic(path, data)
}

// ReadPlan reads a plan file and checks its format, version, hash and jobs.
func ReadPlan(path string) (*Plan, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read plan: %w", err)
	}
	return DecodePlan(path, raw)
}

// DecodePlan decodes and checks a plan; name is used in messages.
func DecodePlan(name string, raw []byte) (*Plan, error) {
	var p Plan
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: %w", locate(name, raw, err), err)
	}
	if p.Format != PlanFormat {
		return nil, fmt.Errorf("%s: not a shard plan (format %q, want %q)", name, p.Format, PlanFormat)
	}
	if p.Version != PlanVersion {
		return nil, fmt.Errorf("%s: plan version %d is not supported (this binary reads version %d)", name, p.Version, PlanVersion)
	}
	want, err := p.ComputeHash()
	if err != nil {
		return nil, err
	}
	if p.Hash != want {
		return nil, fmt.Errorf("%s: plan hash %s does not match its content (%s): the file was edited after planning", name, p.Hash, want)
	}
	for i, j := range p.Jobs {
		if j.Index != i+1 {
			return nil, fmt.Errorf("%s: jobs[%d] has index %d, want %d", name, i, j.Index, i+1)
		}
		if len(j.Cases) == 0 || j.Model == "" || j.Samples < 1 {
			return nil, fmt.Errorf("%s: job %d has no cases, model or samples", name, j.Index)
		}
	}
	return &p, nil
}

// Job returns shard n (1-based).
func (p *Plan) Job(n int) (*Job, error) {
	if n < 1 || n > len(p.Jobs) {
		if len(p.Jobs) == 0 {
			return nil, errors.New("the plan has no jobs")
		}
		return nil, fmt.Errorf("shard %d is not in the plan (shards 1 to %d)", n, len(p.Jobs))
	}
	return &p.Jobs[n-1], nil
}

// ArtifactName is the conventional file name of shard n's artifact.
func ArtifactName(n int) string { return fmt.Sprintf("shard-%d.json", n) }

// locate turns a JSON decoding error into "name:line:col" where it has an
// offset, else name.
func locate(name string, raw []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return name
	}
	line, col := lineCol(raw, off)
	return fmt.Sprintf("%s:%d:%d", name, line, col)
}

// lineCol converts a byte offset to a 1-based line and column.
func lineCol(raw []byte, off int64) (int, int) {
	if off > int64(len(raw)) {
		off = int64(len(raw))
	}
	before := raw[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	if col < 1 {
		col = 1
	}
	return line, col
}
