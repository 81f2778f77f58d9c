package buildcache

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func open(t *testing.T, opts Options) *Cache {
	t.Helper()
	c, err := Open(filepath.Join(t.TempDir(), "cache"), opts)
	require.NoError(t, err)
	return c
}

func key(t *testing.T, c *Cache, parts ...string) string {
	t.Helper()
	k := c.NewKey("test/1")
	for _, p := range parts {
		k.Add("part", p)
	}
	s, err := k.Sum()
	require.NoError(t, err)
	return s
}

func TestOpenRefusesADirectoryOthersMayWrite(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o777))
	_, err := Open(dir, Options{})
	require.ErrorContains(t, err, "group or others may write it (mode 0777)")

	c := open(t, Options{})
	st, err := os.Stat(c.Dir())
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o700), st.Mode().Perm())
}

func TestGetFillsOnceAndCopiesReadOnly(t *testing.T) {
	c := open(t, Options{})
	k := key(t, c, "a")
	var fills atomic.Int32
	fill := func(_ context.Context, dir string) error {
		fills.Add(1)
		if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o700); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "sub", "x.o"), []byte("obj"), 0o644)
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.Get(context.Background(), k, fill)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, int32(1), fills.Load(), "concurrent callers of one key share one fill")
	e, err := c.Get(context.Background(), k, fill)
	require.NoError(t, err)
	require.True(t, e.Hit)

	dst := t.TempDir()
	require.NoError(t, c.CopyInto(e, dst))
	st, err := os.Stat(filepath.Join(dst, "sub", "x.o"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o444), st.Mode().Perm())
	require.Equal(t, Stats{Entries: 1, Bytes: 3}, must(c.Stats()))
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestFailedFillLeavesNoEntry(t *testing.T) {
	c := open(t, Options{})
	k := key(t, c, "b")
	boom := errors.New("make kernel failed")
	_, err := c.Get(context.Background(), k, func(_ context.Context, dir string) error {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "half.o"), []byte("x"), 0o644))
		return boom
	})
	require.ErrorIs(t, err, boom)
	entries, err := os.ReadDir(c.Dir())
	require.NoError(t, err)
	require.Empty(t, entries, "neither the entry nor its fill directory stays")
}

func TestDisabledAndMalformed(t *testing.T) {
	var c *Cache
	_, err := c.Get(context.Background(), strings.Repeat("0", 64), nil)
	require.ErrorIs(t, err, ErrDisabled)
	require.Equal(t, "", c.Dir())

	c = open(t, Options{})
	_, err = c.Get(context.Background(), "../escape", nil)
	require.ErrorContains(t, err, "malformed key")

	t.Setenv(DirEnv, "off")
	require.Nil(t, FromEnv(nil))
	t.Setenv(DirEnv, filepath.Join(t.TempDir(), "c"))
	require.NotNil(t, FromEnv(nil))
}

func TestPruneKeepsTheCacheWithinItsBounds(t *testing.T) {
	c := open(t, Options{MaxBytes: 25, MaxEntries: 2})
	fill := func(n int) Fill {
		return func(_ context.Context, dir string) error {
			return os.WriteFile(filepath.Join(dir, "o"), make([]byte, n), 0o644)
		}
	}
	k1, k2, k3 := key(t, c, "1"), key(t, c, "2"), key(t, c, "3")
	_, err := c.Get(context.Background(), k1, fill(10))
	require.NoError(t, err)
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(c.Dir(), k1), old, old))
	_, err = c.Get(context.Background(), k2, fill(10))
	require.NoError(t, err)
	_, err = c.Get(context.Background(), k3, fill(10))
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(c.Dir(), k1))
	require.True(t, os.IsNotExist(err), "the least recently used entry went")
	require.Equal(t, Stats{Entries: 2, Bytes: 20}, must(c.Stats()))
}

func TestCollectRefusesLinks(t *testing.T) {
	src := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(src, "ok.o"), []byte("obj"), 0o644))
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(src, "evil.o")))
	err := Collect(src, t.TempDir(), nil)
	require.ErrorContains(t, err, "evil.o")

	dst := t.TempDir()
	require.NoError(t, Collect(src, dst, func(rel string) bool { return rel == "ok.o" }))
	data, err := os.ReadFile(filepath.Join(dst, "ok.o"))
	require.NoError(t, err)
	require.Equal(t, "obj", string(data))
}

func TestKeyFollowsFileContent(t *testing.T) {
	c := open(t, Options{})
	dir := t.TempDir()
	f := filepath.Join(dir, "FreeRTOSConfig.h")
	sum := func() string {
		k := c.NewKey("test/1")
		k.Tree("tree", dir, nil)
		s, err := k.Sum()
		require.NoError(t, err)
		return s
	}
	require.NoError(t, os.WriteFile(f, []byte("#define A 1\n"), 0o644))
	a := sum()
	require.Equal(t, a, sum())
	require.NoError(t, os.WriteFile(f, []byte("#define A 2\n"), 0o644))
	later := time.Now().Add(time.Second)
	require.NoError(t, os.Chtimes(f, later, later))
	require.NotEqual(t, a, sum())

	k := c.NewKey("test/1")
	k.File("missing", filepath.Join(dir, "nope.h"))
	_, err := k.Sum()
	require.ErrorContains(t, err, "nope.h")
}
