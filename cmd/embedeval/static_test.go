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

// TestStaticBinary builds the three binaries with scripts/build.sh (one go
// build) and checks, in parallel subtests, that each is statically linked
// (no program interpreter, no shared libraries) and runs: the same files must
// work in every SDK image. It also checks, with go list, that under the
// release tags (netgo, osusergo) no package but tree-sitter's uses cgo, so
// the release binaries do not link glibc's resolver or user lookup.
//
// The build runs with EMBEDEVAL_BUILD_FOR_TEST=1: the same static link
// without -trimpath and the tags, so that every package comes from what the
// rest of the suite has compiled and only the links run. With them, every
// package (-trimpath, the 3.9 MB C grammar of tree-sitter-c included) or
// everything that imports net (the tags, openai-go and anthropic-sdk-go
// included) was compiled a second time for this test alone: 220 s and more
// of the suite on a fresh 2-core machine.
func TestStaticBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("links the static binaries (about half a minute); skipped with -short")
	}
	cgo, err := exec.CommandContext(t.Context(), "go", "list", "-deps", "-tags", "netgo,osusergo",
		"-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", "../../cmd/embedeval", "../../cmd/shard", "../../cmd/merge").Output()
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"runtime/cgo", "github.com/mattn/go-pointer", "github.com/tree-sitter/go-tree-sitter", "github.com/tree-sitter/tree-sitter-c/bindings/go"},
		uniqueLines(string(cgo)), "with the release tags only tree-sitter (and its helper) may use cgo")

	dir := t.TempDir()
	build := exec.CommandContext(t.Context(), "../../scripts/build.sh", dir)
	build.Env = append(os.Environ(), "EMBEDEVAL_BUILD_FOR_TEST=1")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
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
