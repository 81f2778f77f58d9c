package validate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/eval"
)

// TestCaseFilesMustBePlain: every kind of link, pipe or linked case directory
// is an error naming the entry relative to the corpus as given, and the good
// case beside them still validates.
func TestCaseFilesMustBePlain(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "environ")
	require.NoError(t, os.WriteFile(secret, []byte("EMBEDEVAL_FAKE_SECRET=hunter2\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(outside, "variants"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "variants", "v.c"), []byte("int main(void) { return 0; }\n"), 0o644))

	src, err := filepath.Abs(filepath.Join(badCorpus, "zephyr", "timer-001"))
	require.NoError(t, err)
	// Paths in problems are as the corpus root is given: here "cases".
	t.Chdir(t.TempDir())
	mk := func(id string) string {
		dst := filepath.Join("cases", "zephyr", id)
		copyTree(t, src, dst)
		meta := filepath.Join(dst, "metadata.yaml")
		data, err := os.ReadFile(meta)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(meta, []byte(strings.Replace(string(data), "timer-001", id, 1)), 0o644))
		return dst
	}
	relink := func(target, link string) {
		require.NoError(t, os.RemoveAll(link))
		require.NoError(t, os.Symlink(target, link))
	}
	mk("timer-001")
	relink(secret, filepath.Join(mk("timer-002"), "prompt.md"))
	relink(secret, filepath.Join(mk("timer-003"), "reference", "main.c"))
	require.NoError(t, os.Symlink(filepath.Join(outside, "variants"), filepath.Join(mk("timer-004"), "checks", "accept")))
	require.NoError(t, os.Link(secret, filepath.Join(mk("timer-005"), "notes.txt")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(mk("timer-006"), "checks", "pipe"), 0o644))
	elsewhere := mk("timer-007")
	require.NoError(t, os.Rename(elsewhere, filepath.Join(outside, "timer-007")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "timer-007"), elsewhere))

	layers, err := eval.ParseLayers("L0")
	require.NoError(t, err)
	rep, err := Run(context.Background(), Options{CasesDir: "cases", Layers: layers})
	require.NoError(t, err)
	got := map[string][]string{}
	for _, c := range rep.Cases {
		for _, p := range c.Problems {
			got[c.ID] = append(got[c.ID], p.String())
		}
		require.Equal(t, c.ID == "timer-001", c.OK, "%s: %v", c.ID, got[c.ID])
	}
	const plain = " (case files must be plain files) [plain-files]"
	require.Equal(t, map[string][]string{
		"timer-002": {"cases/zephyr/timer-002/prompt.md: symbolic link" + plain},
		"timer-003": {"cases/zephyr/timer-003/reference/main.c: symbolic link" + plain},
		"timer-004": {"cases/zephyr/timer-004/checks/accept: symbolic link" + plain},
		"timer-005": {"cases/zephyr/timer-005/notes.txt: hard link (link count 2)" + plain},
		"timer-006": {"cases/zephyr/timer-006/checks/pipe: named pipe (FIFO)" + plain},
		"timer-007": {"cases/zephyr/timer-007: symbolic link (a case directory must be a plain directory) [plain-files]"},
	}, got)
	require.Equal(t, Summary{Cases: 7, OK: 1, Failed: 6, Errors: 6}, rep.Summary)

	var out bytes.Buffer
	require.NoError(t, WriteText(&out, rep, true))
	require.NotContains(t, out.String(), "hunter2")
}
