package analysis

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/embedeval/embedeval-go/internal/score"
)

//go:embed external_benchmarks.yaml
var externalBenchmarksYAML []byte

// DefaultBenchmark is the external benchmark the Embed Gap uses by default.
const DefaultBenchmark = "HumanEval"

// ExternalBenchmark is one model's pass@1 on an external benchmark.
type ExternalBenchmark struct {
	Model     string  `yaml:"model" json:"model"`
	Benchmark string  `yaml:"benchmark" json:"benchmark"`
	PassAt1   float64 `yaml:"pass_at_1" json:"pass_at_1"`
	// Source says where the number comes from (a model card URL).
	Source string `yaml:"source" json:"source"`
	// Example marks a placeholder that has not been filled from a source.
	Example bool `yaml:"example" json:"example"`
}

type externalFile struct {
	Benchmarks []ExternalBenchmark `yaml:"benchmarks"`
}

// DefaultExternalBenchmarks decodes the table shipped in the binary
// (external_benchmarks.yaml: example entries only).
func DefaultExternalBenchmarks() ([]ExternalBenchmark, error) {
	return ParseExternalBenchmarks("external_benchmarks.yaml", externalBenchmarksYAML)
}

// ParseExternalBenchmarks strictly decodes an external-benchmark table: one
// YAML document with a "benchmarks" list; unknown fields, a missing model or
// benchmark, pass_at_1 missing or outside [0, 1] and duplicate (model,
// benchmark) pairs are errors naming name. Entries are returned sorted by
// model, then benchmark.
func ParseExternalBenchmarks(name string, data []byte) ([]ExternalBenchmark, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f externalFile
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file: expected a mapping with a benchmarks list", name)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: more than one YAML document", name)
	}
	// Re-decode into nodes to check that pass_at_1 is present on every entry.
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	seen := map[[2]string]int{}
	for i, b := range f.Benchmarks {
		where := fmt.Sprintf("%s: benchmarks[%d]", name, i)
		switch {
		case strings.TrimSpace(b.Model) == "":
			return nil, fmt.Errorf("%s: model is required", where)
		case strings.TrimSpace(b.Benchmark) == "":
			return nil, fmt.Errorf("%s: benchmark is required", where)
		case !hasKey(&root, i, "pass_at_1"):
			return nil, fmt.Errorf("%s: pass_at_1 is required", where)
		case math.IsNaN(b.PassAt1) || b.PassAt1 < 0 || b.PassAt1 > 1:
			return nil, fmt.Errorf("%s: pass_at_1 %v is not in [0, 1] (write 0.92, not 92)", where, b.PassAt1)
		}
		k := [2]string{b.Model, b.Benchmark}
		if j, dup := seen[k]; dup {
			return nil, fmt.Errorf("%s: duplicate entry for model %q on %s (first at benchmarks[%d])", where, b.Model, b.Benchmark, j)
		}
		seen[k] = i
	}
	out := slices.Clone(f.Benchmarks)
	slices.SortFunc(out, func(a, b ExternalBenchmark) int {
		if c := strings.Compare(a.Model, b.Model); c != 0 {
			return c
		}
		return strings.Compare(a.Benchmark, b.Benchmark)
	})
	if out == nil {
		out = []ExternalBenchmark{}
	}
	return out, nil
}

// hasKey reports whether the i-th item of the document's benchmarks list
// has key.
func hasKey(doc *yaml.Node, i int, key string) bool {
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return false
	}
	m := doc.Content[0]
	for j := 0; j+1 < len(m.Content); j += 2 {
		if m.Content[j].Value != "benchmarks" || m.Content[j+1].Kind != yaml.SequenceNode {
			continue
		}
		items := m.Content[j+1].Content
		if i >= len(items) || items[i].Kind != yaml.MappingNode {
			return false
		}
		for k := 0; k+1 < len(items[i].Content); k += 2 {
			if items[i].Content[k].Value == key {
				return true
			}
		}
	}
	return false
}

// Gap is one model's Embed Gap: EmbedEval pass@1 minus its external pass@1.
type Gap struct {
	Model     string  `json:"model"`
	PassAt1   float64 `json:"pass_at_1"`
	Benchmark string  `json:"benchmark"`
	External  float64 `json:"external_pass_at_1"`
	Gap       float64 `json:"gap"`
	Source    string  `json:"source"`
	Example   bool    `json:"example"`
}

// EmbedGaps returns the gap of every model that has an entry for benchmark,
// in model order. pass@1 is the model's comparable pass@1 when package score
// set it (models scored on different case sets), else its pass@1.
func EmbedGaps(models []score.ModelScore, ext []ExternalBenchmark, benchmark string) []Gap {
	out := []Gap{}
	for _, m := range models {
		for _, e := range ext {
			if e.Model != m.Model || e.Benchmark != benchmark || m.TotalCases == 0 {
				continue
			}
			p := m.PassAt1
			if m.PassAt1Comparable != nil {
				p = *m.PassAt1Comparable
			}
			out = append(out, Gap{Model: m.Model, PassAt1: p, Benchmark: benchmark, External: e.PassAt1,
				Gap: p - e.PassAt1, Source: e.Source, Example: e.Example})
		}
	}
	return out
}
