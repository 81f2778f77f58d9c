package data

import (
	"bytes"
	_ "embed"
)

//go:embed entry_points.yaml
var entryPoints []byte

// EntryPointsYAML returns a copy of the embedded entry_points.yaml, the
// vocabulary of APIs and structure members that register entry points.
func EntryPointsYAML() []byte {
	return bytes.Clone(entryPoints)
}
