package catalog

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/testenv"
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/backends"
	"github.com/embedeval/embedeval-go/internal/toolchain/toolchaintest"
)

// TestCatalogIsFresh keeps docs/CASES.md in step with the corpus. Its "Layers
// here" column depends on the machine's toolchains, so it is compared where
// they are required (CI, which installs them and provides the SDK trees).
func TestCatalogIsFresh(t *testing.T) {
	if os.Getenv(testenv.RequireEnv) != "1" {
		t.Skip("docs/CASES.md's \"Layers here\" column depends on this machine's toolchains; compared under " + testenv.RequireEnv + "=1, as in CI")
	}
	// The FreeRTOS and STM32 HAL rows count their L1/L2 as "here" with the
	// SDK trees of ../shared/sdk, which scripts/test.sh names.
	testenv.SDK(t, "FREERTOS_KERNEL", "include/FreeRTOS.h", "the catalogue's \"Layers here\" assume the SDK trees")
	testenv.SDK(t, "STM32_HAL_PATH", "Drivers/STM32F4xx_HAL_Driver/Src/stm32f4xx_hal.c", "the catalogue's \"Layers here\" assume the SDK trees")
	reg, err := platform.Default()
	require.NoError(t, err)
	d := toolchain.New(reg, toolchain.Options{Jail: toolchaintest.Jail(t)}, backends.All()...)
	corpus := cases.LoadCorpus("../../cases", "")
	require.Empty(t, corpus.Broken)
	rows, err := Build(context.Background(), corpus.Cases, d.PlanFor)
	require.NoError(t, err)
	want, err := os.ReadFile("../../docs/CASES.md")
	require.NoError(t, err)
	require.Equal(t, string(want), string(Markdown(rows, "a Debian 12 machine with the packages scripts/test.sh installs and the SDK trees of ../shared/sdk")),
		"docs/CASES.md is stale: run `go run ./cmd/embedeval catalog`")
}
