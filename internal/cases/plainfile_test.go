package cases

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const fakeSecret = "EMBEDEVAL_FAKE_SECRET=hunter2"

// badForm makes one kind of non-plain entry in the case at dir; outside is a
// directory outside the corpus holding secret.txt and secrets/.
type badForm struct {
	name string
	make func(t *testing.T, dir, outside string)
	// rel is the entry that must be named, relative to the case directory.
	rel, kind string
}

func badForms() []badForm {
	return []badForm{
		{"symlinked prompt", func(t *testing.T, dir, outside string) {
			replaceWithSymlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(dir, "prompt.md"))
		}, "prompt.md", "symbolic link"},
		{"symlinked reference", func(t *testing.T, dir, outside string) {
			replaceWithSymlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(dir, "reference", "main.c"))
		}, "reference/main.c", "symbolic link"},
		{"symlinked directory in checks", func(t *testing.T, dir, outside string) {
			require.NoError(t, os.Symlink(filepath.Join(outside, "secrets"), filepath.Join(dir, "checks", "accept")))
		}, "checks/accept", "symbolic link"},
		{"relative symlink", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.Symlink("../prompt.md", filepath.Join(dir, "checks", "notes.md")))
		}, "checks/notes.md", "symbolic link"},
		{"hard link", func(t *testing.T, dir, outside string) {
			require.NoError(t, os.Link(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "context", "env.txt")))
		}, "context/env.txt", "hard link (link count 2)"},
		{"fifo", func(t *testing.T, dir, _ string) {
			require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "context", "pipe"), 0o644))
		}, "context/pipe", "named pipe (FIFO)"},
		{"hidden symlink", func(t *testing.T, dir, outside string) {
			require.NoError(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, ".env")))
		}, ".env", "symbolic link"},
	}
}

func replaceWithSymlink(t *testing.T, target, link string) {
	t.Helper()
	require.NoError(t, os.Remove(link))
	require.NoError(t, os.Symlink(target, link))
}

// outsideDir makes a directory outside any corpus holding a fake secret.
func outsideDir(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	writeTree(t, out, map[string]string{"secret.txt": fakeSecret + "\n", "secrets/key.c": fakeSecret + "\n"})
	return out
}

func TestLoadRefusesNonPlainEntries(t *testing.T) {
	for _, bf := range badForms() {
		t.Run(bf.name, func(t *testing.T) {
			outside := outsideDir(t)
			root := t.TempDir()
			files := caseFiles("zephyr/isr-concurrency-001", "isr-concurrency-001", "zephyr")
			files["zephyr/isr-concurrency-001/context/board.h"] = "#define LED 1\n"
			for k, v := range caseFiles("zephyr/isr-concurrency-002", "isr-concurrency-002", "zephyr") {
				files[k] = v
			}
			writeTree(t, root, files)
			dir := filepath.Join(root, "zephyr", "isr-concurrency-001")
			bf.make(t, dir, outside)
			want := filepath.Join(dir, filepath.FromSlash(bf.rel)) + ": " + bf.kind + " (case files must be plain files) [plain-files]"

			entries, ps := Discover(root, false)
			require.Empty(t, ps)
			require.Len(t, entries, 2)
			c, ps := Load(entries[0])
			require.Equal(t, []string{want}, problemStrings(ps))
			require.Empty(t, c.Hash, "nothing is read from a refused case")
			require.Empty(t, c.Meta.ID)

			_, err := ContentHash(dir)
			var np *NotPlainError
			require.ErrorAs(t, err, &np, "hashing fails instead of skipping the entry")
			require.Equal(t, filepath.Join(dir, filepath.FromSlash(bf.rel)), np.Path)

			corpus := LoadCorpus(root, "")
			require.Len(t, corpus.Cases, 1, "the rest of the corpus still loads")
			require.Equal(t, "isr-concurrency-002", corpus.Cases[0].ID())
			require.Equal(t, []string{want}, problemStrings(corpus.Broken[dir]))
		})
	}
}

func TestLinkedCaseDirectoriesAndBuckets(t *testing.T) {
	elsewhere := t.TempDir()
	writeTree(t, elsewhere, caseFiles("isr-concurrency-003", "isr-concurrency-003", "zephyr"))
	writeTree(t, elsewhere, caseFiles("isr-concurrency-004", "isr-concurrency-004", "zephyr"))
	writeTree(t, elsewhere, caseFiles("freertos/isr-concurrency-005", "isr-concurrency-005", "freertos"))

	real := t.TempDir()
	writeTree(t, real, caseFiles("zephyr/isr-concurrency-001", "isr-concurrency-001", "zephyr"))
	require.NoError(t, os.Symlink(filepath.Join(elsewhere, "isr-concurrency-003"), filepath.Join(real, "zephyr", "isr-concurrency-003")))
	require.NoError(t, os.Symlink(filepath.Join(elsewhere, "isr-concurrency-004"), filepath.Join(real, "isr-concurrency-004")))
	require.NoError(t, os.Symlink(filepath.Join(elsewhere, "freertos"), filepath.Join(real, "freertos")))
	// The corpus root itself may be a link: the user chose it.
	root := filepath.Join(t.TempDir(), "corpus")
	require.NoError(t, os.Symlink(real, root))

	corpus := LoadCorpus(root, "")
	require.Len(t, corpus.Cases, 1)
	require.Equal(t, "isr-concurrency-001", corpus.Cases[0].ID())
	require.NotEmpty(t, corpus.Cases[0].Hash)
	require.Equal(t, []string{filepath.Join(root, "freertos") + ": symbolic link (an sdk bucket must be a plain directory; only the corpus root may be a link) [plain-files]"}, problemStrings(corpus.Problems))
	require.Equal(t, []string{filepath.Join(root, "isr-concurrency-004") + ": symbolic link (a case directory must be a plain directory) [plain-files]"}, problemStrings(corpus.Broken[filepath.Join(root, "isr-concurrency-004")]))
	require.Equal(t, []string{filepath.Join(root, "zephyr", "isr-concurrency-003") + ": symbolic link (a case directory must be a plain directory) [plain-files]"}, problemStrings(corpus.Broken[filepath.Join(root, "zephyr", "isr-concurrency-003")]))
	require.Len(t, corpus.Broken, 2)

	_, err := ContentHash(filepath.Join(root, "zephyr", "isr-concurrency-003"))
	require.ErrorContains(t, err, "isr-concurrency-003: symbolic link (case files must be plain files)")
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"plain.txt": "hello\n", "secret.txt": fakeSecret})
	data, err := ReadFile(filepath.Join(dir, "plain.txt"))
	require.NoError(t, err)
	require.Equal(t, "hello\n", string(data))

	_, err = ReadFile(filepath.Join(dir, "missing.txt"))
	require.ErrorIs(t, err, fs.ErrNotExist)
	require.EqualError(t, err, "read "+filepath.Join(dir, "missing.txt")+": no such file or directory")

	link := filepath.Join(dir, "link.txt")
	require.NoError(t, os.Symlink(filepath.Join(dir, "secret.txt"), link))
	data, err = ReadFile(link)
	require.EqualError(t, err, link+": symbolic link (case files must be plain files)")
	require.Nil(t, data)

	hard := filepath.Join(dir, "hard.txt")
	require.NoError(t, os.Link(filepath.Join(dir, "secret.txt"), hard))
	_, err = ReadFile(hard)
	require.EqualError(t, err, hard+": hard link (link count 2) (case files must be plain files)")

	_, err = ReadFile(dir)
	require.EqualError(t, err, dir+": directory (case files must be plain files)")

	// A FIFO is refused without blocking on it.
	fifo := filepath.Join(dir, "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	done := make(chan error, 1)
	go func() { _, err := ReadFile(fifo); done <- err }()
	select {
	case err := <-done:
		require.EqualError(t, err, fifo+": named pipe (FIFO) (case files must be plain files)")
	case <-time.After(10 * time.Second):
		t.Fatal("ReadFile blocked on a FIFO")
	}

	big := filepath.Join(dir, "big.bin")
	require.NoError(t, os.WriteFile(big, nil, 0o644))
	require.NoError(t, os.Truncate(big, MaxFileBytes+1))
	_, err = ReadFile(big)
	require.EqualError(t, err, "read "+big+": file is 16777217 bytes; the limit is 16777216 bytes")
	require.NoError(t, os.Truncate(big, MaxFileBytes))
	data, err = ReadFile(big)
	require.NoError(t, err)
	require.Len(t, data, MaxFileBytes)
}

// TestReadFileAfterSwap: a file replaced by a link after the case was loaded
// is refused when read, never followed.
func TestReadFileAfterSwap(t *testing.T) {
	outside := outsideDir(t)
	root := t.TempDir()
	writeTree(t, root, caseFiles("zephyr/isr-concurrency-001", "isr-concurrency-001", "zephyr"))
	corpus := LoadCorpus(root, "")
	require.Len(t, corpus.Cases, 1)
	c := corpus.Cases[0]
	replaceWithSymlink(t, filepath.Join(outside, "secret.txt"), c.PromptPath)
	data, err := ReadFile(c.PromptPath)
	var np *NotPlainError
	require.True(t, errors.As(err, &np), "got %v", err)
	require.NotContains(t, string(data), fakeSecret)
	_, ps := LoadMigrations(filepath.Join(c.Dir, filepath.FromSlash(MigrationsFile)))
	require.Empty(t, ps, "a missing migrations file is still no renames")
}

// TestContentHashOfPlainCasesUnchanged pins the hash of a plain-file case to
// the value the previous implementation gave, so that recorded results stay
// comparable.
func TestContentHashOfPlainCasesUnchanged(t *testing.T) {
	root := t.TempDir()
	files := caseFiles("c", "isr-concurrency-001", "zephyr")
	files["c/context/include/board.h"] = "#define LED 1\n"
	files["c/context/include.h"] = "x"
	files["c/boards/native_sim.overlay"] = "/ {};\n"
	writeTree(t, root, files)
	require.NoError(t, os.MkdirAll(filepath.Join(root, "c", "empty"), 0o755))
	got, err := ContentHash(filepath.Join(root, "c"))
	require.NoError(t, err)
	require.Equal(t, "sha256:c480737468892904ce34670d2d3348cf5467286d2d57dce05b66568589e38c5e", got)
}
