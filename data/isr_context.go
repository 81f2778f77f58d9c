package data

import (
	"bytes"
	_ "embed"
)

//go:embed isr_context.yaml
var isrContext []byte

// ISRContextYAML returns a copy of the embedded isr_context.yaml, the
// vocabulary of interrupt handler registrations, naming rules and markers,
// and of the calls that must not run in interrupt context.
func ISRContextYAML() []byte {
	return bytes.Clone(isrContext)
}
