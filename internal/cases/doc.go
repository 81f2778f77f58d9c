// Package cases owns the benchmark's case format: finding case directories in both
// layouts (cases/<sdk>/<case-id>/ and the legacy flat cases/<case-id>/), decoding
// metadata.yaml strictly against the interop contract, locating the prompt,
// reference and check files, and hashing a case's content. It does not run
// checks or build code.
package cases
