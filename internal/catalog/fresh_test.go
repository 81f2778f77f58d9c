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
// they are required (CI, which installs them).
func TestCatalogIsFresh(t *testing.T) {
	if os.Getenv(testenv.RequireEnv) != "1" {
		t.Skip("docs/CASES.md's \"Layers here\" column depends on this machine's toolchains; compared under " + testenv.RequireEnv + "=1, as in CI")
	}
	reg, err := platform.Default()
	require.NoError(t, err)
	d := toolchain.New(reg, toolchain.Options{Jail: toolchaintest.Jail(t)}, backends.All()...)
	corpus := cases.LoadCorpus("../../cases", "")
	require.Empty(t, corpus.Broken)
	rows, err := Build(context.Background(), corpus.Cases, d.PlanFor)
	require.NoError(t, err)
	want, err := os.ReadFile("../../docs/CASES.md")
	require.NoError(t, err)
	require.Equal(t, string(want), string(Markdown(rows, "a Debian 12 machine with the packages scripts/test.sh installs")),
		"docs/CASES.md is stale: run `go run ./cmd/embedeval catalog`")
}
