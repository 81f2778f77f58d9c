// Package backends lists every toolchain backend compiled into the binary, so
// that the command line can build a dispatcher without knowing them one by
// one.
package backends

import "github.com/embedeval/embedeval-go/internal/toolchain"

// All returns a fresh instance of every backend.
func All() []toolchain.Backend {
	return []toolchain.Backend{}
}
