package data

import (
	"bytes"
	_ "embed"
)

//go:embed isr_sharing.yaml
var isrSharing []byte

// ISRSharingYAML returns a copy of the embedded isr_sharing.yaml, the calls
// that enter and leave critical sections and that make interrupt handlers
// live.
func ISRSharingYAML() []byte {
	return bytes.Clone(isrSharing)
}
