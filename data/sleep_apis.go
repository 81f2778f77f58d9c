package data

import (
	"bytes"
	_ "embed"
)

//go:embed sleep_apis.yaml
var sleepAPIs []byte

// SleepAPIsYAML returns a copy of the embedded sleep_apis.yaml, the
// vocabulary of sleeping and busy-waiting calls and of the units of their
// arguments.
func SleepAPIsYAML() []byte {
	return bytes.Clone(sleepAPIs)
}
