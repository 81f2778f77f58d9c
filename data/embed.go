// Package data holds the data files shipped inside the binary
// (forbidden_apis.yaml, platforms.yaml). It only embeds and hands out bytes; parsing and
// validation belong to the packages that consume each file.
package data

import (
	"bytes"
	_ "embed"
)

//go:embed forbidden_apis.yaml
var forbiddenAPIs []byte

// ForbiddenAPIsYAML returns a copy of the embedded forbidden_apis.yaml,
// the per-platform lists of APIs that betray a different platform
// (interop contract section 2.6).
func ForbiddenAPIsYAML() []byte {
	return bytes.Clone(forbiddenAPIs)
}

//go:embed platforms.yaml
var platforms []byte

// PlatformsYAML returns a copy of the embedded platform registry.
func PlatformsYAML() []byte {
	return bytes.Clone(platforms)
}

//go:embed prices.yaml
var prices []byte

// PricesYAML returns a copy of the embedded prices.yaml, the informational
// model price table (USD per million input and output tokens) used for cost
// estimates.
func PricesYAML() []byte {
	return bytes.Clone(prices)
}

//go:embed sdk_macros.yaml
var sdkMacros []byte

// SDKMacrosYAML returns a copy of the embedded sdk_macros.yaml: the SDK
// constants, function-like macros and typedefs the value helpers know
// without the code defining them.
func SDKMacrosYAML() []byte {
	return bytes.Clone(sdkMacros)
}
