package main

import (
	"debug/elf"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStaticBinary builds the release binary the way scripts/build.sh does and
// checks that it is statically linked (no program interpreter, no shared
// libraries) and that it runs: the same file must work in every SDK image.
func TestStaticBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the static binary (several seconds); skipped with -short")
	}
	dir := t.TempDir()
	out, err := exec.Command("../../scripts/build.sh", dir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	bin := filepath.Join(dir, "embedeval")
	f, err := elf.Open(bin)
	require.NoError(t, err)
	defer f.Close()
	for _, p := range f.Progs {
		require.NotEqual(t, elf.PT_INTERP, p.Type, "a static binary has no program interpreter")
	}
	libs, err := f.ImportedLibraries()
	require.NoError(t, err)
	require.Empty(t, libs)

	help, err := exec.Command(bin, "--version").CombinedOutput()
	require.NoError(t, err, "%s", help)
	require.True(t, strings.HasPrefix(string(help), "embedeval version "), "%s", help)
}
