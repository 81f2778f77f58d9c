// Package halting loads the vocabulary of calls that never return
// (data/halting_calls.yaml): SDK resets, panics, process exits and traps. It
// owns the file's schema and validation; the flow analysis that uses the
// vocabulary is csyntax's.
package halting

import (
	"fmt"

	"github.com/embedeval/embedeval-go/data"
	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/errconv"
	"github.com/embedeval/embedeval-go/internal/vocabyaml"
)

// Entry is one call of the vocabulary.
type Entry struct {
	// Name is the function or macro name.
	Name string
	// Source says where its no-return behaviour is documented.
	Source string
	// Line is the entry's line in the file.
	Line int
}

// Load decodes and validates halting_calls.yaml. source names the file in
// errors, which read "source:line: message". The document must be a mapping
// with the single key "calls", a list of mappings with the keys name (a C
// identifier, unique in the file) and source (non-empty), both required.
func Load(b []byte, source string) ([]Entry, error) {
	doc, err := vocabyaml.Parse(b, source, "calls")
	if err != nil {
		return nil, err
	}
	list, err := doc.List("calls", "name", "source")
	if err != nil {
		return nil, err
	}
	seen := vocabyaml.Unique{}
	out := make([]Entry, 0, len(list))
	for _, e := range list {
		entry := Entry{Line: e.Line}
		if entry.Name, err = e.Identifier("name"); err != nil {
			return nil, err
		}
		if entry.Source, err = e.String("source"); err != nil {
			return nil, err
		}
		if err := seen.Add(e, "name", entry.Name); err != nil {
			return nil, err
		}
		out = append(out, entry)
	}
	return out, nil
}

// Default loads the vocabulary embedded in the binary: the calls of
// data/halting_calls.yaml, with the status constants of
// data/error_conventions.yaml for the typestate walks.
func Default() (*csyntax.HaltingCalls, error) {
	entries, err := Load(data.HaltingCallsYAML(), "data/halting_calls.yaml")
	if err != nil {
		return nil, fmt.Errorf("embedded halting call table: %w", err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name
	}
	status, err := errconv.Default()
	if err != nil {
		return nil, err
	}
	return csyntax.NewHaltingCalls(names...).WithStatus(status), nil
}
