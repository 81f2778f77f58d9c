// Package isrshare loads the vocabulary of calls that protect data shared
// with interrupt handlers (data/isr_sharing.yaml): critical-section entries
// and exits, and the calls that make a handler live. It owns the file's
// schema and validation; the analysis is csyntax's.
package isrshare

import (
	"fmt"

	"github.com/embedeval/embedeval-go/data"
	"github.com/embedeval/embedeval-go/internal/csyntax"
	"github.com/embedeval/embedeval-go/internal/vocabyaml"
)

// Load decodes and validates isr_sharing.yaml. source names the file in
// errors, which read "source:line: message". The document is a mapping
// with the keys enter, exit, enable and objects (all required), each a list
// of {name, source} mappings; a name is a C identifier, unique in its
// list, and source is non-empty.
func Load(b []byte, source string) (csyntax.ISRSharing, error) {
	var out csyntax.ISRSharing
	doc, err := vocabyaml.Parse(b, source, "enter", "exit", "enable", "objects")
	if err != nil {
		return out, err
	}
	for _, l := range []struct {
		key string
		dst *[]string
	}{{"enter", &out.Enter}, {"exit", &out.Exit}, {"enable", &out.Enable}, {"objects", &out.Objects}} {
		if *l.dst, err = doc.Names(l.key); err != nil {
			return out, err
		}
	}
	return out, nil
}

// Default loads the vocabulary embedded in the binary.
func Default() (csyntax.ISRSharing, error) {
	v, err := Load(data.ISRSharingYAML(), "data/isr_sharing.yaml")
	if err != nil {
		return v, fmt.Errorf("embedded ISR sharing table: %w", err)
	}
	return v, nil
}
