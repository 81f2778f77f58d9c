package toolchain

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
)

// TestStageRefusesNonPlainBuildFiles swaps build files for links, a pipe or a
// hard link after the case was loaded: staging fails naming the entry rather
// than copying what it points to or skipping it.
func TestStageRefusesNonPlainBuildFiles(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "environ")
	require.NoError(t, os.WriteFile(secret, []byte("EMBEDEVAL_FAKE_SECRET=hunter2\n"), 0o644))
	for _, tc := range []struct {
		name string
		// swap changes the case at dir and returns the entry it made.
		swap func(t *testing.T, dir string) string
		kind string
	}{
		{"top-level file link", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "CMakeLists.txt")
			require.NoError(t, os.Remove(p))
			require.NoError(t, os.Symlink(secret, p))
			return p
		}, "symbolic link"},
		{"nested file link", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "boards", "native_sim.overlay")
			require.NoError(t, os.Remove(p))
			require.NoError(t, os.Symlink(secret, p))
			return p
		}, "symbolic link"},
		{"linked directory", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "boards")
			require.NoError(t, os.RemoveAll(p))
			require.NoError(t, os.Symlink(outside, p))
			return p
		}, "symbolic link"},
		{"linked directory deeper", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "boards", "extra")
			require.NoError(t, os.Symlink(outside, p))
			return p
		}, "symbolic link"},
		{"hard link", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "boards", "env.conf")
			require.NoError(t, os.Link(secret, p))
			return p
		}, "hard link (link count 2)"},
		{"fifo", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "boards", "pipe")
			require.NoError(t, syscall.Mkfifo(p, 0o644))
			return p
		}, "named pipe (FIFO)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for rel, content := range map[string]string{
				"prompt.md": "p", "CMakeLists.txt": "cmake", "boards/native_sim.overlay": "/ {};",
			} {
				p := filepath.Join(dir, filepath.FromSlash(rel))
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
			}
			req := Request{Case: &cases.Case{Entry: cases.Entry{Dir: dir}}, Code: "generated"}
			ws, err := Stage(req, "test", "src/main.c")
			require.NoError(t, err)
			require.NoError(t, ws.Close())

			entry := tc.swap(t, dir)
			done := make(chan error, 1)
			go func() {
				ws, err := Stage(req, "test", "src/main.c")
				if err == nil {
					_ = ws.Close()
				}
				done <- err
			}()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Stage blocked")
			}
			require.ErrorContains(t, err, entry+": "+tc.kind+" (case files must be plain files)")
		})
	}
}
