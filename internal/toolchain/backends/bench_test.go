package backends_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/testenv"
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/baremetal"
	"github.com/embedeval/embedeval-go/internal/toolchain/buildcache"
	"github.com/embedeval/embedeval-go/internal/toolchain/freertos"
	"github.com/embedeval/embedeval-go/internal/toolchain/stm32hal"
	tt "github.com/embedeval/embedeval-go/internal/toolchain/toolchaintest"
)

// benchRunTimeout bounds every L2 run of the benchmark. FreeRTOS firmware
// never exits, so its run always lasts this long; the bare-metal reference
// exits by itself (semihosting) well before.
const benchRunTimeout = 2 * time.Second

// BenchmarkResult measures what one result costs in L1 (build) and L2
// (run) for each local backend, through the dispatcher and the real jail,
// with the case's reference as the answer: bare-metal timer-001, FreeRTOS
// threading-001 and STM32 HAL uart-001 with the build cache (warm: the
// kernel or HAL objects were built by the first, unmeasured build) and
// without it. Run it with
//
//	go test ./internal/toolchain/backends -run XXX -bench Result -benchtime 5x
//
// build-ms/op and run-ms/op are the wall times of the two layers.
func BenchmarkResult(b *testing.B) {
	testenv.Tool(b, "make", "make", "it drives the case Makefiles")
	testenv.Tool(b, "arm-none-eabi-gcc", "gcc-arm-none-eabi", "it builds the firmware")
	testenv.Tool(b, "qemu-system-arm", "qemu-system-arm", "it runs the firmware")
	jail := tt.Jail(b)
	reg, err := platform.Default()
	require.NoError(b, err)
	cache, err := buildcache.Open(b.TempDir(), buildcache.Options{})
	require.NoError(b, err)
	for _, bc := range []struct {
		name, caseDir string
		backend       toolchain.Backend
		sdk           [2]string
	}{
		{"baremetal", "baremetal/timer-001", baremetal.New(), [2]string{}},
		{"freertos/cache", "freertos/threading-001", freertos.New(freertos.WithCache(cache)), [2]string{freertos.KernelEnv, "include/FreeRTOS.h"}},
		{"freertos/no-cache", "freertos/threading-001", freertos.New(), [2]string{freertos.KernelEnv, "include/FreeRTOS.h"}},
		{"stm32-hal/cache", "stm32-hal/uart-001", stm32hal.New(stm32hal.WithCache(cache)), [2]string{stm32hal.HALPathEnv, "Drivers/STM32F4xx_HAL_Driver/Src/stm32f4xx_hal.c"}},
		{"stm32-hal/no-cache", "stm32-hal/uart-001", stm32hal.New(), [2]string{stm32hal.HALPathEnv, "Drivers/STM32F4xx_HAL_Driver/Src/stm32f4xx_hal.c"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if bc.sdk[0] != "" {
				testenv.SDK(b, bc.sdk[0], bc.sdk[1], "the benchmark builds against the real SDK")
			}
			d := toolchain.New(reg, toolchain.Options{RunTimeout: benchRunTimeout, Jail: jail}, bc.backend)
			c := tt.LoadCase(b, filepath.Join("../../../cases", bc.caseDir))
			code := tt.Read(b, c.ReferencePath)
			once := func() (build, run time.Duration) {
				start := time.Now()
				lr, art := d.Build(context.Background(), c, code)
				build = time.Since(start)
				if lr.Status != result.StatusPassed {
					b.Fatalf("L1: %s %v", lr.Reason, lr.Error)
				}
				defer func() { _ = art.Close() }()
				start = time.Now()
				if r := art.Run(context.Background()); r.Status == result.StatusFailed || r.Status == result.StatusError {
					b.Fatalf("L2: %s %v", r.Reason, r.Error)
				}
				return build, time.Since(start)
			}
			once() // fills the cache where there is one
			var build, run time.Duration
			for b.Loop() {
				bt, rt := once()
				build += bt
				run += rt
			}
			b.ReportMetric(float64(build.Milliseconds())/float64(b.N), "build-ms/op")
			b.ReportMetric(float64(run.Milliseconds())/float64(b.N), "run-ms/op")
		})
	}
}
