package data

import (
	"bytes"
	_ "embed"
)

//go:embed error_conventions.yaml
var errorConventions []byte

// ErrorConventionsYAML returns a copy of the embedded
// error_conventions.yaml, the vocabulary of SDK error checking macros,
// no-return calls, failure constants and error tests.
func ErrorConventionsYAML() []byte {
	return bytes.Clone(errorConventions)
}
