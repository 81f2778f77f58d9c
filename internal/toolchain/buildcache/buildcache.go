// Package buildcache keeps the build outputs that do not depend on the
// answer — the FreeRTOS kernel objects of a case configuration, the STM32 HAL
// objects of a board and HAL configuration — so that a result compiles only
// its own code and links against objects built once.
//
// An entry is keyed by a hash of everything that could change its bytes:
// the content of the SDK sources and headers, of the case's build files
// (Makefile, config header), the compiler's identity and the flags (see
// Key). It is filled by a build in the jail, like any other build, in a
// workspace that holds no answer; the evaluator then copies the regular
// files it made (never a link) into a fresh private directory and renames
// that into place, so an entry is either complete or absent.
//
// Answers never see an entry's directory: a build gets a copy of the entry
// in its own workspace (CopyInto), so nothing a hostile answer does can
// write into the cache. The cache directory is private to the evaluator
// (mode 0700, refused when another user owns it or others may write it), and
// it is bounded: after each fill the least recently used entries are removed
// until the cache holds at most MaxBytes and MaxEntries.
package buildcache

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/embedeval/embedeval-go/internal/cases"
)

// DirEnv names the variable that chooses the cache directory; "off"
// disables the cache.
const DirEnv = "EMBEDEVAL_BUILD_CACHE"

// Default bounds of a cache.
const (
	DefaultMaxBytes   = 512 << 20
	DefaultMaxEntries = 256
)

// Cache is a directory of build outputs keyed by content. A nil *Cache is a
// disabled cache: Get reports ErrDisabled. It is safe for concurrent use;
// concurrent fills of one key run once.
type Cache struct {
	dir        string
	maxBytes   int64
	maxEntries int
	log        *slog.Logger

	// mu guards inflight and digests; use guards the entries: copies hold
	// it for reading, pruning for writing.
	mu       sync.Mutex
	use      sync.RWMutex
	inflight map[string]*fillCall
	digests  map[fileID]string
}

type fillCall struct {
	done chan struct{}
	err  error
}

// fileID identifies one version of a file for the digest memo.
type fileID struct {
	path       string
	size       int64
	mtime, ino uint64
}

// ErrDisabled is what a disabled (nil) cache returns.
var ErrDisabled = errors.New("build cache disabled")

// Options bound a cache.
type Options struct {
	// MaxBytes and MaxEntries bound the cache's disk use; zero takes the
	// defaults.
	MaxBytes   int64
	MaxEntries int
	// Logger receives fills and evictions; nil means slog.Default().
	Logger *slog.Logger
}

// Open opens (creating it, mode 0700) the cache directory dir. It refuses a
// directory another user owns or that group or others may write: a process
// of theirs could plant objects that later builds would link.
func Open(dir string, opts Options) (*Cache, error) {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("build cache %s: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("build cache %s: %w", abs, err)
	}
	st, err := os.Lstat(abs)
	if err != nil {
		return nil, fmt.Errorf("build cache %s: %w", abs, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("build cache %s: not a directory", abs)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Geteuid() {
		return nil, fmt.Errorf("build cache %s: owned by uid %d, not by this process (uid %d)", abs, sys.Uid, os.Geteuid())
	}
	if st.Mode().Perm()&0o022 != 0 {
		return nil, fmt.Errorf("build cache %s: group or others may write it (mode %04o)", abs, st.Mode().Perm())
	}
	return &Cache{dir: abs, maxBytes: opts.MaxBytes, maxEntries: opts.MaxEntries, log: opts.Logger,
		inflight: map[string]*fillCall{}, digests: map[fileID]string{}}, nil
}

// DefaultDir is the cache directory when DirEnv is unset: embedeval-go/build
// under the user's cache directory (XDG_CACHE_HOME or ~/.cache), else under
// the temporary directory.
func DefaultDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "embedeval-go", "build")
	}
	return filepath.Join(os.TempDir(), "embedeval-go-build-"+strconv.Itoa(os.Geteuid()))
}

// FromEnv opens the cache that DirEnv names (DefaultDir when unset); it
// returns nil — no cache, every build compiles everything — when DirEnv is
// "off" or the directory cannot be used, which it logs.
func FromEnv(logger *slog.Logger) *Cache {
	if logger == nil {
		logger = slog.Default()
	}
	dir := os.Getenv(DirEnv)
	switch dir {
	case "off":
		return nil
	case "":
		dir = DefaultDir()
	}
	c, err := Open(dir, Options{Logger: logger})
	if err != nil {
		logger.Warn("build cache unusable; SDK objects are compiled with every build", "err", err)
		return nil
	}
	return c
}

// Dir is the cache directory ("" for a disabled cache).
func (c *Cache) Dir() string {
	if c == nil {
		return ""
	}
	return c.dir
}

// Key accumulates the parts of an entry's key. The zero value is not
// usable; start one with NewKey.
type Key struct {
	c   *Cache
	h   hash.Hash
	err error
}

// NewKey starts the key of an entry of kind (a backend name and a format
// version: changing what an entry holds must change kind).
func (c *Cache) NewKey(kind string) *Key {
	k := &Key{c: c, h: sha256.New()}
	k.Add("kind", kind)
	return k
}

// Add adds a named value.
func (k *Key) Add(name, value string) {
	fmt.Fprintf(k.h, "%d:%s=%d:%s\n", len(name), name, len(value), value)
}

// File adds the content of a file (by its digest) under its name.
func (k *Key) File(name, path string) {
	if k.err != nil {
		return
	}
	d, err := k.c.digest(path)
	if err != nil {
		k.err = err
		return
	}
	k.Add("file:"+name, d)
}

// Tree adds the content of every regular file under root whose slash path
// relative to root keep accepts (nil: all), with its relative path.
func (k *Key) Tree(name, root string, keep func(rel string) bool) {
	if k.err != nil {
		return
	}
	var rels []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if keep == nil || keep(rel) {
			rels = append(rels, rel)
		}
		return nil
	})
	if err != nil {
		k.err = fmt.Errorf("hash tree %s: %w", root, err)
		return
	}
	sort.Strings(rels)
	k.Add("tree", name)
	for _, rel := range rels {
		k.File(name+"/"+rel, filepath.Join(root, filepath.FromSlash(rel)))
	}
}

// Tool adds the identity of an executable: its resolved path, size and
// modification time (a package upgrade changes them).
func (k *Key) Tool(path string) {
	if k.err != nil {
		return
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		k.err = fmt.Errorf("resolve %s: %w", path, err)
		return
	}
	st, err := os.Stat(real)
	if err != nil {
		k.err = fmt.Errorf("stat %s: %w", real, err)
		return
	}
	k.Add("tool", fmt.Sprintf("%s %d %d", real, st.Size(), st.ModTime().UnixNano()))
}

// Sum returns the key, or the first error met while adding files.
func (k *Key) Sum() (string, error) {
	if k.err != nil {
		return "", k.err
	}
	return hex.EncodeToString(k.h.Sum(nil)), nil
}

// digest is the SHA-256 of a file's content, memoized per version of the
// file (path, size, modification time, inode).
func (c *Cache) digest(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	id := fileID{path: path, size: st.Size(), mtime: uint64(st.ModTime().UnixNano())}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		id.ino = sys.Ino
	}
	c.mu.Lock()
	d, ok := c.digests[id]
	c.mu.Unlock()
	if ok {
		return d, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	d = hex.EncodeToString(h.Sum(nil))
	c.mu.Lock()
	c.digests[id] = d
	c.mu.Unlock()
	return d, nil
}

// Fill makes an entry: it writes the entry's files into dir, an empty
// private directory (usually with Collect from a jailed build's workspace).
type Fill func(ctx context.Context, dir string) error

// Entry is a complete cache entry.
type Entry struct {
	// Dir holds the entry's files.
	Dir string
	// Hit tells whether the entry was there before this call.
	Hit bool
}

// Get returns the entry of key, running fill first when it is absent (once
// for concurrent callers of one key). A failed fill leaves no entry; its
// error is returned to every caller that waited for it.
func (c *Cache) Get(ctx context.Context, key string, fill Fill) (Entry, error) {
	if c == nil {
		return Entry{}, ErrDisabled
	}
	if len(key) != sha256.Size*2 || strings.Trim(key, "0123456789abcdef") != "" {
		return Entry{}, fmt.Errorf("build cache: malformed key %q", key)
	}
	dir := filepath.Join(c.dir, key)
	for {
		if _, err := os.Stat(dir); err == nil {
			now := time.Now()
			_ = os.Chtimes(dir, now, now)
			return Entry{Dir: dir, Hit: true}, nil
		}
		c.mu.Lock()
		if call, ok := c.inflight[key]; ok {
			c.mu.Unlock()
			select {
			case <-call.done:
			case <-ctx.Done():
				return Entry{}, ctx.Err()
			}
			if call.err != nil {
				return Entry{}, call.err
			}
			continue
		}
		call := &fillCall{done: make(chan struct{})}
		c.inflight[key] = call
		c.mu.Unlock()

		call.err = c.fill(ctx, key, dir, fill)
		c.mu.Lock()
		delete(c.inflight, key)
		c.mu.Unlock()
		close(call.done)
		if call.err != nil {
			return Entry{}, call.err
		}
		c.prune(key)
		return Entry{Dir: dir}, nil
	}
}

func (c *Cache) fill(ctx context.Context, key, dir string, fill Fill) error {
	tmp := filepath.Join(c.dir, "tmp-"+randomName())
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	start := time.Now()
	if err := fill(ctx, tmp); err != nil {
		_ = os.RemoveAll(tmp)
		return err
	}
	c.use.RLock()
	err := os.Rename(tmp, dir)
	c.use.RUnlock()
	if err != nil {
		_ = os.RemoveAll(tmp)
		if _, serr := os.Stat(dir); serr == nil {
			// Another evaluator filled it first: theirs is as good.
			return nil
		}
		return fmt.Errorf("build cache: store %s: %w", dir, err)
	}
	c.log.Debug("build cache filled", "key", key[:12], "took", time.Since(start).Round(time.Millisecond))
	return nil
}

func randomName() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// CopyInto copies the entry's files into dst (a workspace directory,
// created as needed), each read-only (mode 0444). The entry itself stays
// where no build can write.
func (c *Cache) CopyInto(e Entry, dst string) error {
	c.use.RLock()
	defer c.use.RUnlock()
	return copyRegular(e.Dir, dst, 0o444)
}

// Collect copies the regular files under src (a directory a jailed build
// wrote) into dst, refusing anything else — a symbolic or hard link could
// make the evaluator copy a host file into the cache. Only the files whose
// slash path relative to src keep accepts are copied (nil: all).
func Collect(src, dst string, keep func(rel string) bool) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("collect %s: %w", p, err)
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() || (keep != nil && !keep(rel)) {
			return nil
		}
		data, err := cases.ReadFile(p)
		if err != nil {
			return fmt.Errorf("collect %s: %w", rel, err)
		}
		out := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(out), 0o700); err != nil {
			return fmt.Errorf("collect %s: %w", rel, err)
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			return fmt.Errorf("collect %s: %w", rel, err)
		}
		return nil
	})
}

// copyRegular copies the regular files under src into dst with mode perm.
func copyRegular(src, dst string, perm os.FileMode) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("copy from the build cache %s: %w", p, err)
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("copy from the build cache into %s: %w", out, err)
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("copy from the build cache: %s is not a regular file", p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("copy from the build cache: %w", err)
		}
		if err := os.WriteFile(out, data, perm); err != nil {
			return fmt.Errorf("copy from the build cache into %s: %w", out, err)
		}
		return nil
	})
}

// Stats is what a cache holds.
type Stats struct {
	Entries int
	Bytes   int64
}

type entryInfo struct {
	name  string
	bytes int64
	used  time.Time
}

// Stats measures the cache's entries (not fills in progress).
func (c *Cache) Stats() (Stats, error) {
	if c == nil {
		return Stats{}, ErrDisabled
	}
	c.use.RLock()
	defer c.use.RUnlock()
	infos, err := c.entries()
	if err != nil {
		return Stats{}, err
	}
	var s Stats
	for _, e := range infos {
		s.Entries++
		s.Bytes += e.bytes
	}
	return s, nil
}

func (c *Cache) entries() ([]entryInfo, error) {
	des, err := os.ReadDir(c.dir)
	if err != nil {
		return nil, fmt.Errorf("build cache %s: %w", c.dir, err)
	}
	var out []entryInfo
	for _, de := range des {
		if !de.IsDir() || strings.HasPrefix(de.Name(), "tmp-") {
			continue
		}
		st, err := de.Info()
		if err != nil {
			continue
		}
		e := entryInfo{name: de.Name(), used: st.ModTime()}
		_ = filepath.WalkDir(filepath.Join(c.dir, de.Name()), func(_ string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if fi, err := d.Info(); err == nil {
					e.bytes += fi.Size()
				}
			}
			return nil
		})
		out = append(out, e)
	}
	return out, nil
}

// prune removes the least recently used entries, never keep, until the
// cache is within its bounds; stale fill directories older than an hour go
// too (an evaluator killed in the middle of a fill).
func (c *Cache) prune(keep string) {
	c.use.Lock()
	defer c.use.Unlock()
	infos, err := c.entries()
	if err != nil {
		c.log.Warn("build cache: prune", "err", err)
		return
	}
	if des, err := os.ReadDir(c.dir); err == nil {
		for _, de := range des {
			if st, err := de.Info(); err == nil && strings.HasPrefix(de.Name(), "tmp-") && time.Since(st.ModTime()) > time.Hour {
				_ = os.RemoveAll(filepath.Join(c.dir, de.Name()))
			}
		}
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].used.Before(infos[j].used) })
	var total int64
	for _, e := range infos {
		total += e.bytes
	}
	n := len(infos)
	for _, e := range infos {
		if total <= c.maxBytes && n <= c.maxEntries {
			break
		}
		if e.name == keep {
			continue
		}
		if err := os.RemoveAll(filepath.Join(c.dir, e.name)); err != nil {
			c.log.Warn("build cache: evict", "entry", e.name, "err", err)
			continue
		}
		c.log.Debug("build cache: evicted", "entry", e.name[:12], "bytes", e.bytes)
		total -= e.bytes
		n--
	}
}
