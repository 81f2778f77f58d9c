package data

import (
	"bytes"
	_ "embed"
)

//go:embed halting_calls.yaml
var haltingCalls []byte

// HaltingCallsYAML returns a copy of the embedded halting_calls.yaml, the
// vocabulary of SDK calls that never return.
func HaltingCallsYAML() []byte {
	return bytes.Clone(haltingCalls)
}
