package validate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/scenario"
	"github.com/embedeval/embedeval-go/internal/testenv"
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/backends"
	"github.com/embedeval/embedeval-go/internal/toolchain/buildcache"
	"github.com/embedeval/embedeval-go/internal/toolchain/toolchaintest"
)

// TestLocalPlatformsForReal validates the bundled cases of the platforms this
// machine can build and run, with L1 and L2 required: the references and
// accepted variants are compiled (kbuild, dtc, arm-none-eabi-gcc) and the
// bare-metal firmware runs on QEMU.
func TestLocalPlatformsForReal(t *testing.T) {
	testenv.Tool(t, "make", "make", "it drives kbuild and the case Makefiles")
	testenv.Tool(t, "dtc", "device-tree-compiler", "it compiles devicetree overlays")
	testenv.Tool(t, "arm-none-eabi-gcc", "gcc-arm-none-eabi", "it builds the bare-metal cases")
	testenv.Tool(t, "qemu-system-arm", "qemu-system-arm", "it runs the bare-metal cases")
	testenv.Tool(t, "pkg-config", "pkg-config", "it finds libgpiod for the userspace case")
	testenv.PkgConfig(t, "libgpiod", "libgpiod-dev", "linux-userspace-002 links it")
	reg, err := platform.Default()
	require.NoError(t, err)
	d := toolchain.New(reg, toolchain.Options{RequireBuild: true, RequireRun: true, Jail: toolchaintest.Jail(t)}, backends.All()...)
	for _, row := range d.Doctor() {
		if row.Target == "linux-kernel-module" && !row.CanBuild {
			testenv.Missing(t, "kernel headers (Debian package linux-headers-amd64) are needed for kbuild: "+row.Why)
		}
	}
	ids := []string{"timer-001", "memory-opt-001", "boot-001", "linux-driver-001", "linux-userspace-002", "device-tree-001"}
	ids = append(ids, casesWithLayerRejects(t, "../../cases", ids)...)
	rep, err := Run(context.Background(), Options{CasesDir: "../../cases", Toolchain: d, Filter: cases.Filter{IDs: ids}})
	require.NoError(t, err)
	require.Len(t, rep.Cases, len(ids))
	for _, c := range rep.Cases {
		require.True(t, c.OK, "%s: %v", c.ID, c.Problems)
		// A reject only a layer catches is judged wherever its layer runs
		// here; it may stay unjudged only where the reference's own layer
		// is skipped too (a platform built or run only in its SDK image).
		skipped := map[string]bool{}
		for _, l := range c.Layers {
			if l.Status == result.StatusSkipped {
				skipped[fmt.Sprintf("L%d", l.Layer)] = true
			}
		}
		for _, r := range c.Rejects {
			if r.Caught {
				continue
			}
			require.NotEmpty(t, r.NotRun, "%s %s: not caught", c.ID, r.File)
			for _, l := range r.NotRun {
				if strings.HasPrefix(l, scenario.CheckPrefix) {
					l = "L2" // a scenario run is part of L2
				}
				require.True(t, skipped[l], "%s %s: %s ran for the reference but not for the reject", c.ID, r.File, l)
			}
		}
		for _, v := range c.Variants {
			require.True(t, v.Passed, "%s %s", c.ID, v.File)
		}
	}
	want := map[string][2]result.Status{
		"timer-001":           {result.StatusPassed, result.StatusPassed},
		"memory-opt-001":      {result.StatusPassed, result.StatusPassed},
		"boot-001":            {result.StatusPassed, result.StatusPassed},
		"linux-userspace-002": {result.StatusPassed, result.StatusPassed},
		"linux-driver-001":    {result.StatusPassed, result.StatusSkipped},
		"device-tree-001":     {result.StatusPassed, result.StatusSkipped},
	}
	for _, c := range rep.Cases {
		w, ok := want[c.ID]
		if !ok {
			continue
		}
		require.Equal(t, w, [2]result.Status{c.Layers[1].Status, c.Layers[2].Status}, c.ID)
		for _, v := range c.Variants {
			require.Equal(t, result.StatusPassed, v.Layers[1].Status, "%s %s", c.ID, v.File)
		}
	}
}

// casesWithLayerRejects lists the cases under root, other than those in
// skip, with a rejected solution whose must_fail names L1 or L2.
func casesWithLayerRejects(t *testing.T, root string, skip []string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, "*", "*", "checks", "reject", "*"))
	require.NoError(t, err)
	var out []string
	for _, p := range paths {
		id := filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(p))))
		if slices.Contains(skip, id) || slices.Contains(out, id) {
			continue
		}
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		if _, names, _ := rejectHeader(string(data)); slices.Contains(names, "L1") || slices.Contains(names, "L2") {
			out = append(out, id)
		}
	}
	require.NotEmpty(t, out, "the corpus has rejects only a layer catches")
	return out
}

// TestSDKPlatformsForReal validates every FreeRTOS and STM32 HAL case with
// the real SDK trees (FREERTOS_KERNEL, STM32_HAL_PATH; scripts/test.sh points
// them at ../shared/sdk): each reference, accepted variant (blind ones
// included) and layer-caught reject is compiled and linked against the real
// kernel or HAL in the jail, and the FreeRTOS firmware runs on QEMU (L2).
// Without the trees it skips saying which is missing; with
// EMBEDEVAL_REQUIRE_TOOLCHAINS=1 and CI=true it fails.
func TestSDKPlatformsForReal(t *testing.T) {
	testenv.Tool(t, "make", "make", "it drives the FreeRTOS case Makefiles")
	testenv.Tool(t, "arm-none-eabi-gcc", "gcc-arm-none-eabi", "it builds the FreeRTOS and STM32 HAL cases")
	testenv.Tool(t, "qemu-system-arm", "qemu-system-arm", "it runs the FreeRTOS cases")
	testenv.SDK(t, "FREERTOS_KERNEL", "include/FreeRTOS.h", "the FreeRTOS cases build against the real kernel")
	testenv.SDK(t, "STM32_HAL_PATH", "Drivers/STM32F4xx_HAL_Driver/Src/stm32f4xx_hal.c", "the STM32 HAL cases build against the real HAL")
	// A private build cache: each run of the test compiles the kernel and
	// HAL configurations once, and leaves nothing behind.
	t.Setenv(buildcache.DirEnv, t.TempDir())
	reg, err := platform.Default()
	require.NoError(t, err)
	// Firmware runs until the run timeout; every expected line of these
	// cases is printed within the first second of QEMU time.
	d := toolchain.New(reg, toolchain.Options{RequireBuild: true, RequireRun: true, RunTimeout: 5 * time.Second, Jail: toolchaintest.Jail(t)}, backends.All()...)
	rep, err := Run(context.Background(), Options{CasesDir: "../../cases", Toolchain: d, Filter: cases.Filter{SDKs: []string{"freertos", "stm32-hal"}}})
	require.NoError(t, err)
	counts := map[string]int{}
	for _, c := range rep.Cases {
		require.True(t, c.OK, "%s: %v", c.ID, c.Problems)
		sdk := "freertos"
		want := [2]result.Status{result.StatusPassed, result.StatusPassed}
		if c.Layers[2].Status == result.StatusSkipped {
			sdk = "stm32-hal"
			want[1] = result.StatusSkipped
		}
		require.Equal(t, want, [2]result.Status{c.Layers[1].Status, c.Layers[2].Status}, c.ID)
		counts[sdk]++
		for _, v := range c.Variants {
			require.True(t, v.Passed, "%s %s", c.ID, v.File)
			require.Equal(t, want, [2]result.Status{v.Layers[1].Status, v.Layers[2].Status}, "%s %s", c.ID, v.File)
		}
		for _, r := range c.Rejects {
			require.Empty(t, r.NotRun, "%s %s: every layer runs here", c.ID, r.File)
		}
	}
	// Every bundled case of the two SDKs was judged, counted from the corpus
	// itself so that a new case is covered the day it lands.
	wantCounts := map[string]int{}
	for _, c := range cases.LoadCorpus("../../cases", "").Cases {
		if c.Meta.SDK == "freertos" || c.Meta.SDK == "stm32-hal" {
			wantCounts[c.Meta.SDK]++
		}
	}
	require.GreaterOrEqual(t, wantCounts["freertos"], 6, "the corpus's FreeRTOS cases")
	require.GreaterOrEqual(t, wantCounts["stm32-hal"], 9, "the corpus's STM32 HAL cases")
	require.Equal(t, wantCounts, counts, "every bundled case of the two SDKs")
}
