// Package backends lists every toolchain backend compiled into the binary, so
// that the command line can build a dispatcher without knowing them one by
// one.
package backends

import (
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/baremetal"
	"github.com/embedeval/embedeval-go/internal/toolchain/buildcache"
	"github.com/embedeval/embedeval-go/internal/toolchain/dtc"
	"github.com/embedeval/embedeval-go/internal/toolchain/espidf"
	"github.com/embedeval/embedeval-go/internal/toolchain/freertos"
	"github.com/embedeval/embedeval-go/internal/toolchain/kbuild"
	"github.com/embedeval/embedeval-go/internal/toolchain/stm32hal"
	"github.com/embedeval/embedeval-go/internal/toolchain/userspace"
	"github.com/embedeval/embedeval-go/internal/toolchain/yocto"
	"github.com/embedeval/embedeval-go/internal/toolchain/zephyr"
)

// All returns a fresh instance of every backend. The FreeRTOS and STM32 HAL
// backends share the build cache that buildcache.FromEnv opens (the SDK
// objects that do not depend on the answer; EMBEDEVAL_BUILD_CACHE=off
// disables it).
func All() []toolchain.Backend {
	cache := buildcache.FromEnv(nil)
	return []toolchain.Backend{
		kbuild.New(), userspace.New(), dtc.New(), baremetal.New(),
		zephyr.New(), espidf.New(), stm32hal.New(stm32hal.WithCache(cache)), freertos.New(freertos.WithCache(cache)), yocto.New(),
	}
}
