package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/embedeval/embedeval-go/internal/report"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/runner"
)

// Artifact file identity.
const (
	ArtifactFormat  = "embedeval-shard-artifact"
	ArtifactVersion = 1
)

// InfraError is a result that could not be judged because of the
// infrastructure (a model API down after retries, a crashed toolchain).
type InfraError struct {
	CaseID   string `json:"case_id"`
	Model    string `json:"model"`
	Attempt  int    `json:"attempt"`
	Mutation string `json:"mutation,omitempty"`
	Error    string `json:"error"`
}

// Artifact is what one matrix job uploads: every result of its shard.
type Artifact struct {
	Format        string `json:"format"`
	Version       int    `json:"version"`
	PlanHash      string `json:"plan_hash"`
	Shard         int    `json:"shard"`
	Shards        int    `json:"shards"`
	BinaryVersion string `json:"binary_version"`
	Model         string `json:"model"`
	// Cases are the shard's cases at the hashes the job evaluated.
	Cases     []CaseRef `json:"cases"`
	StartedAt time.Time `json:"started_at"`
	// WallSeconds is the job's evaluation time; Timings the summed result
	// durations per case.
	WallSeconds float64             `json:"wall_seconds"`
	Timings     map[string]float64  `json:"timings"`
	InfraErrors []InfraError        `json:"infra_errors"`
	Results     []result.EvalResult `json:"results"`
	// Jail says how the job confined the builds and runs of the answers
	// (sandbox.Jail.Describe), for reviewers of the results.
	Jail string `json:"jail,omitempty"`
}

// NewArtifact assembles shard n's artifact from its results (sorted here),
// deriving the timings and the infrastructure errors.
func NewArtifact(p *Plan, n int, binaryVersion string, evaluated []CaseRef, started time.Time, wall time.Duration, results []result.EvalResult) *Artifact {
	rs := slices.Clone(results)
	runner.SortResults(rs)
	a := &Artifact{
		Format: ArtifactFormat, Version: ArtifactVersion, PlanHash: p.Hash, Shard: n, Shards: len(p.Jobs),
		BinaryVersion: binaryVersion, Cases: evaluated, StartedAt: started.UTC().Truncate(time.Second),
		WallSeconds: round3(wall.Seconds()), Timings: map[string]float64{}, InfraErrors: []InfraError{}, Results: rs,
	}
	if j, err := p.Job(n); err == nil {
		a.Model = j.Model
	}
	for _, r := range rs {
		a.Timings[r.CaseID] = round3(a.Timings[r.CaseID] + r.TotalTimeSeconds)
		if r.InfraError != "" {
			a.InfraErrors = append(a.InfraErrors, InfraError{CaseID: r.CaseID, Model: r.Model, Attempt: r.Attempt, Mutation: r.Mutation, Error: r.InfraError})
		}
	}
	return a
}

// WriteArtifact writes the artifact atomically (a temporary file renamed
// over path): a job killed mid-write leaves no half artifact behind.
func WriteArtifact(path string, a *Artifact) error {
	var b bytes.Buffer
	if err := WriteArtifactTo(&b, a); err != nil {
		return err
	}
	return report.WriteFileAtomic(path, b.Bytes())
}

// WriteArtifactTo encodes the artifact (one line of JSON) to w.
func WriteArtifactTo(w io.Writer, a *Artifact) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a); err != nil {
		return fmt.Errorf("encode artifact: %w", err)
	}
	return nil
}

// ReadArtifact reads an artifact file (as merge does: not a symbolic link,
// at most DefaultMaxArtifactBytes); errors name the file and, for bad JSON,
// the line and column.
func ReadArtifact(path string) (*Artifact, error) {
	raw, err := readArtifactFile(path, DefaultMaxArtifactBytes)
	if err != nil {
		return nil, fmt.Errorf("read %w", err)
	}
	return DecodeArtifact(path, raw)
}

// DecodeArtifact decodes an artifact and checks its format and version;
// name is used in messages.
func DecodeArtifact(name string, raw []byte) (*Artifact, error) {
	var a Artifact
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("%s: %w", locate(name, raw, err), err)
	}
	switch {
	case a.Format != ArtifactFormat:
		return nil, fmt.Errorf("%s: not a shard artifact (format %q, want %q)", name, a.Format, ArtifactFormat)
	case a.Version != ArtifactVersion:
		return nil, fmt.Errorf("%s: artifact version %d is not supported (this binary reads version %d)", name, a.Version, ArtifactVersion)
	case a.Shard < 1:
		return nil, fmt.Errorf("%s: shard %d is not a shard number", name, a.Shard)
	}
	// Shards run by an older binary name layers the short way.
	for i := range a.Results {
		a.Results[i].NormalizeLayerNames()
	}
	return &a, nil
}
