package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStaticBinary inspects the release binaries (embedeval, shard, merge)
// that CI builds once with scripts/build.sh — .ci/run and ci.yml's test job
// name their directory in EMBEDEVAL_STATIC_BIN_DIR — and checks, in
// parallel subtests, that each is statically linked (no program
// interpreter, no shared libraries) and runs: the same files must work in
// every SDK image. It also checks, with go list, that under the release
// tags (netgo, osusergo) no package but tree-sitter's uses cgo, so the
// release binaries do not link glibc's resolver or user lookup. Without
// EMBEDEVAL_STATIC_BIN_DIR it skips: building them here would compile every
// package a second time with the release flags (minutes on 2 cores).
func TestStaticBinary(t *testing.T) {
	dir := os.Getenv("EMBEDEVAL_STATIC_BIN_DIR")
	if dir == "" {
		t.Skip("EMBEDEVAL_STATIC_BIN_DIR is not set: no release binaries to inspect (.ci/run builds them with scripts/build.sh and sets it)")
	}
	cgo, err := exec.CommandContext(t.Context(), "go", "list", "-deps", "-tags", "netgo,osusergo",
		"-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", "../../cmd/embedeval", "../../cmd/shard", "../../cmd/merge").Output()
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"runtime/cgo", "github.com/mattn/go-pointer", "github.com/tree-sitter/go-tree-sitter", "github.com/tree-sitter/tree-sitter-c/bindings/go"},
		uniqueLines(string(cgo)), "with the release tags only tree-sitter (and its helper) may use cgo")

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"embedeval", []string{"--version"}, "embedeval version "},
		{"shard", []string{"--help"}, ""},
		{"merge", []string{"--help"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bin := filepath.Join(dir, tc.name)
			f, err := elf.Open(bin)
			require.NoError(t, err)
			defer f.Close()
			for _, p := range f.Progs {
				require.NotEqual(t, elf.PT_INTERP, p.Type, "a static binary has no program interpreter")
			}
			libs, err := f.ImportedLibraries()
			require.NoError(t, err)
			require.Empty(t, libs)

			out, err := exec.CommandContext(t.Context(), bin, tc.args...).CombinedOutput()
			require.NoError(t, err, "%s", out)
			require.True(t, strings.HasPrefix(string(out), tc.want), "%s", out)
		})
	}
}

func uniqueLines(s string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range strings.Fields(s) {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}
