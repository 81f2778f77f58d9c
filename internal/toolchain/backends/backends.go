// Package backends lists every toolchain backend compiled into the binary, so
// that the command line can build a dispatcher without knowing them one by
// one.
package backends

import (
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/baremetal"
	"github.com/embedeval/embedeval-go/internal/toolchain/dtc"
	"github.com/embedeval/embedeval-go/internal/toolchain/espidf"
	"github.com/embedeval/embedeval-go/internal/toolchain/freertos"
	"github.com/embedeval/embedeval-go/internal/toolchain/kbuild"
	"github.com/embedeval/embedeval-go/internal/toolchain/stm32hal"
	"github.com/embedeval/embedeval-go/internal/toolchain/userspace"
	"github.com/embedeval/embedeval-go/internal/toolchain/yocto"
	"github.com/embedeval/embedeval-go/internal/toolchain/zephyr"
)

// All returns a fresh instance of every backend.
func All() []toolchain.Backend {
	return []toolchain.Backend{
		kbuild.New(), userspace.New(), dtc.New(), baremetal.New(),
		zephyr.New(), espidf.New(), stm32hal.New(), freertos.New(), yocto.New(),
	}
}
