// Package prices reads the model price table (data/prices.yaml: USD per
// million input and output tokens per model id) and turns token usage into
// an estimated cost. The table is informational; unknown models cost the
// table's default (zero) and are warned about once. It makes no calls.
package prices

import (
	"bytes"
	"fmt"
	"log/slog"
	"math"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/embedeval/embedeval-go/data"
	"github.com/embedeval/embedeval-go/internal/llm/contract"
)

// Price is what a million tokens cost, in USD.
type Price struct {
	Input  float64
	Output float64
}

// Table maps model ids to prices. It is safe for concurrent use.
type Table struct {
	// Notice is the table's own statement of what the prices are.
	Notice string
	// Default is the price of unknown models.
	Default Price
	models  map[string]Price
	logger  *slog.Logger

	mu     sync.Mutex
	warned map[string]bool
}

// Parse reads a price table; name (the file name) prefixes every error as
// name:line. Unknown fields, duplicate models, missing or negative prices
// are errors.
func Parse(src []byte, name string) (*Table, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&doc); err != nil {
		return nil, yamlError(name, err)
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: expected a mapping with notice, default and models", name, max(doc.Line, 1))
	}
	t := &Table{models: map[string]Price{}, warned: map[string]bool{}}
	root := doc.Content[0]
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seen[k.Value] {
			return nil, fmt.Errorf("%s:%d: %q appears twice", name, k.Line, k.Value)
		}
		seen[k.Value] = true
		switch k.Value {
		case "notice":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
				return nil, fmt.Errorf("%s:%d: notice: expected a string", name, v.Line)
			}
			t.Notice = v.Value
		case "default":
			p, err := parsePrice(v, name, "default")
			if err != nil {
				return nil, err
			}
			t.Default = p
		case "models":
			if v.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("%s:%d: models: expected a mapping of model id to price", name, v.Line)
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				id, pv := v.Content[j], v.Content[j+1]
				if id.Value == "" {
					return nil, fmt.Errorf("%s:%d: empty model id", name, id.Line)
				}
				if _, dup := t.models[id.Value]; dup {
					return nil, fmt.Errorf("%s:%d: model %q appears twice", name, id.Line, id.Value)
				}
				p, err := parsePrice(pv, name, "model "+id.Value)
				if err != nil {
					return nil, err
				}
				t.models[id.Value] = p
			}
		default:
			return nil, fmt.Errorf("%s:%d: unknown field %q (expected notice, default, models)", name, k.Line, k.Value)
		}
	}
	if !seen["default"] {
		return nil, fmt.Errorf("%s:%d: missing field default", name, root.Line)
	}
	return t, nil
}

// yamlError turns yaml's "yaml: line N: msg" into "name:N: msg".
func yamlError(name string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, text, ok := strings.Cut(rest, ": "); ok {
			return fmt.Errorf("%s:%s: %s", name, num, text)
		}
	}
	return fmt.Errorf("%s: %s", name, msg)
}

// parsePrice reads {input: n, output: n}; what names it in errors.
func parsePrice(n *yaml.Node, name, what string) (Price, error) {
	if n.Kind != yaml.MappingNode {
		return Price{}, fmt.Errorf("%s:%d: %s: expected a mapping with input and output", name, n.Line, what)
	}
	var p Price
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return Price{}, fmt.Errorf("%s:%d: %s: %q appears twice", name, k.Line, what, k.Value)
		}
		seen[k.Value] = true
		var dst *float64
		switch k.Value {
		case "input":
			dst = &p.Input
		case "output":
			dst = &p.Output
		default:
			return Price{}, fmt.Errorf("%s:%d: %s: unknown field %q (expected input, output)", name, k.Line, what, k.Value)
		}
		if v.Kind != yaml.ScalarNode || (v.Tag != "!!int" && v.Tag != "!!float") {
			return Price{}, fmt.Errorf("%s:%d: %s: %s: expected a number of USD per million tokens, found %q", name, v.Line, what, k.Value, v.Value)
		}
		var f float64
		if err := v.Decode(&f); err != nil {
			return Price{}, fmt.Errorf("%s:%d: %s: %s: %w", name, v.Line, what, k.Value, err)
		}
		if f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			return Price{}, fmt.Errorf("%s:%d: %s: %s: expected a price of zero or more, found %s", name, v.Line, what, k.Value, v.Value)
		}
		*dst = f
	}
	for _, want := range []string{"input", "output"} {
		if !seen[want] {
			return Price{}, fmt.Errorf("%s:%d: %s: missing field %s", name, n.Line, what, want)
		}
	}
	return p, nil
}

// Default returns the table embedded in the binary (data/prices.yaml).
func Default() (*Table, error) {
	return Parse(data.PricesYAML(), "data/prices.yaml")
}

// WithLogger sets where the unknown-model warnings go and returns t; nil
// discards them.
func (t *Table) WithLogger(l *slog.Logger) *Table {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.logger = l
	return t
}

// Models returns the priced model ids, sorted.
func (t *Table) Models() []string {
	ids := make([]string, 0, len(t.models))
	for id := range t.models {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Lookup finds a model's price: the exact id, then the id after a router
// prefix ("openai/gpt-4o"), then the longest priced id that the model id
// extends with "-" (a dated snapshot such as "gpt-4o-2024-08-06").
func (t *Table) Lookup(model string) (Price, bool) {
	if p, ok := t.models[model]; ok {
		return p, true
	}
	if i := strings.LastIndexByte(model, '/'); i >= 0 {
		model = model[i+1:]
		if p, ok := t.models[model]; ok {
			return p, true
		}
	}
	best, found := "", false
	for id := range t.models {
		if strings.HasPrefix(model, id+"-") && len(id) > len(best) {
			best, found = id, true
		}
	}
	if found {
		return t.models[best], true
	}
	return Price{}, false
}

// Cost estimates the USD cost of usage on model. known is false when the
// model has no price: the default price is used and a warning is logged the
// first time that model is seen.
func (t *Table) Cost(model string, usage contract.Usage) (usd float64, known bool) {
	p, known := t.Lookup(model)
	if !known {
		p = t.Default
		t.warnOnce(model)
	}
	return (float64(usage.InputTokens)*p.Input + float64(usage.OutputTokens)*p.Output) / 1e6, known
}

func (t *Table) warnOnce(model string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.warned[model] || t.logger == nil {
		return
	}
	t.warned[model] = true
	t.logger.Warn("no price for model; its cost is recorded with the default price",
		"model", model, "input_per_mtok", t.Default.Input, "output_per_mtok", t.Default.Output)
}
