// Package backends lists every toolchain backend compiled into the binary, so
// that the command line can build a dispatcher without knowing them one by
// one.
package backends

import (
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/baremetal"
	"github.com/embedeval/embedeval-go/internal/toolchain/dtc"
	"github.com/embedeval/embedeval-go/internal/toolchain/kbuild"
	"github.com/embedeval/embedeval-go/internal/toolchain/userspace"
)

// All returns a fresh instance of every backend.
func All() []toolchain.Backend {
	return []toolchain.Backend{
		kbuild.New(), userspace.New(), dtc.New(), baremetal.New(),
	}
}
