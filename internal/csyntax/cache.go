package csyntax

import (
	"container/list"
	"slices"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
)

// maxAnchors is how many recent error-free full parses a ParseCache tries as
// bases for incremental parsing, besides the most recently used entry.
const maxAnchors = 4

// MaxCachedBytes bounds the total size of the sources a ParseCache keeps
// (with their trees); the most recent File is kept whatever its size.
const MaxCachedBytes = 64 << 20

// ParseCache keeps parsed Files for recently seen code strings so that every
// distinct code string is parsed at most once while it stays cached. Files are
// evicted least recently used first and closed on eviction; a File whose tree
// is reused to parse a similar code string (see IncrementalParses) counts as
// used. A File returned by
// Get belongs to the cache: do not Close it, and do not use it after it may
// have been evicted (after the next Get of another code string: more than
// capacity others, or sources over MaxCachedBytes, evict) or after the cache
// is closed. A ParseCache is not safe for concurrent use; use one
// per evaluation goroutine.
type ParseCache struct {
	capacity int
	order    *list.List // front = most recently used; values are *cacheEntry
	entries  map[string]*list.Element
	parses   int

	// lang and parser are created on first use and reused by every parse;
	// Close frees the parser.
	lang    *ts.Language
	kinds   *kinds
	parser  *ts.Parser
	queries *QueryCache
	// ownQueries is set when the cache made its query cache itself (and
	// closes it on Close).
	ownQueries bool

	// anchors are the entries made by the last few error-free full
	// parses, most recent first: the code strings that mutants derive
	// from. Each mutant is closest to the code it was made from, which is
	// not the most recently used entry once a second mutant is parsed.
	anchors     []*cacheEntry
	incremental int

	// dl is shared with every File of the cache (see SetDeadline).
	dl *deadline
	// bytes is the total size of the cached sources.
	bytes int
}

type cacheEntry struct {
	code string
	file *File
}

// CompiledQueries returns how many query patterns the cache's query cache
// holds compiled.
func (c *ParseCache) CompiledQueries() int {
	if c.queries == nil {
		return 0
	}
	return c.queries.Len()
}

// ShareQueries makes the cache compile queries into q, which may serve other
// ParseCaches at the same time; q is not closed by Close. Call it before the
// first Get.
func (c *ParseCache) ShareQueries(q *QueryCache) { c.queries, c.ownQueries = q, false }

// NewParseCache returns a cache holding at most capacity Files (at least 1).
func NewParseCache(capacity int) *ParseCache {
	if capacity < 1 {
		capacity = 1
	}
	return &ParseCache{capacity: capacity, order: list.New(), entries: map[string]*list.Element{}, dl: &deadline{}}
}

// SetDeadline makes parsing, and the walks and queries of every File of the
// cache, stop at t (the zero time: never), so that a caller with a time limit
// gets control back in time. A stopped parse makes Get return ErrInterrupted;
// a stopped walk or query leaves its File incomplete (see File.Interrupted),
// and Get parses such a File's code again.
func (c *ParseCache) SetDeadline(t time.Time) { c.dl.at = t }

// Get returns the File for code, parsing it only when it is not cached.
func (c *ParseCache) Get(code string) (*File, error) {
	if el, ok := c.entries[code]; ok {
		if !el.Value.(*cacheEntry).file.cut {
			c.order.MoveToFront(el)
			return el.Value.(*cacheEntry).file, nil
		}
		c.remove(el)
	}
	f, base, reused, err := c.parse(code)
	if err != nil {
		return nil, err
	}
	c.parses++
	entry := &cacheEntry{code: code, file: f}
	if reused {
		c.incremental++
	}
	switch {
	case base != nil:
		// Serving as a base counts as a use: it keeps the code all
		// mutants derive from cached for as long as mutants arrive.
		c.order.MoveToFront(c.entries[base.code])
	case !f.HasErrors():
		// A tree with errors is never reused, so it is no anchor.
		c.anchors = append([]*cacheEntry{entry}, c.anchors[:min(len(c.anchors), maxAnchors-1)]...)
	}
	c.entries[code] = c.order.PushFront(entry)
	c.bytes += len(code)
	for c.order.Len() > c.capacity || (c.bytes > MaxCachedBytes && c.order.Len() > 1) {
		c.remove(c.order.Back())
	}
	return f, nil
}

// remove drops a cached entry and closes its File.
func (c *ParseCache) remove(el *list.Element) {
	e := el.Value.(*cacheEntry)
	c.order.Remove(el)
	delete(c.entries, e.code)
	c.bytes -= len(e.code)
	e.file.Close()
	c.anchors = slices.DeleteFunc(c.anchors, func(a *cacheEntry) bool { return a == e })
}

// parse parses code with the cache's parser. When a cached File without
// syntax errors has a masked source that differs from code's in one short
// range, that entry is returned as base, and its tree is edited and reused
// (incremental parsing). The incremental tree is kept (reused is true) only
// when it has no errors either: error recovery is not guaranteed to take the
// same path as in a full parse, so otherwise code is parsed again from
// scratch.
func (c *ParseCache) parse(code string) (f *File, base *cacheEntry, reused bool, err error) {
	if err := checkSize(code); err != nil {
		return nil, nil, false, err
	}
	if c.parser == nil {
		if c.lang == nil {
			c.lang = ts.NewLanguage(tsc.Language())
			c.kinds = newKinds(c.lang)
		}
		if c.queries == nil {
			c.queries, c.ownQueries = NewQueryCache(), true
		}
		p, err := newParser(c.lang)
		if err != nil {
			return nil, nil, false, err
		}
		c.parser = p
	}
	src := []byte(code)
	parsed, masks := maskDecorators(src)
	base, edit := c.closest(parsed)
	if base != nil {
		old := base.file.tree.Clone()
		old.Edit(edit.inputEdit(base.file.parsed, parsed))
		f, err := parseMasked(c.parser, c.lang, code, src, parsed, masks, old, c.dl)
		old.Close()
		if err != nil {
			return nil, nil, false, err
		}
		if !f.HasErrors() {
			f.kinds, f.queries = c.kinds, c.queries
			return f, base, true, nil
		}
		// Error recovery may take another path when it reuses subtrees, so
		// a tree with errors is only trusted from a full parse.
		f.Close()
	}
	f, err = parseMasked(c.parser, c.lang, code, src, parsed, masks, nil, c.dl)
	if err != nil {
		return nil, nil, false, err
	}
	f.kinds, f.queries = c.kinds, c.queries
	return f, base, false, nil
}

// closest picks the cached entry to reparse parsed from: of the most recently
// used entry and the anchors, the one whose masked source shares the most
// bytes with parsed, provided it shares enough (see minReusedBytes) and its
// tree has no errors. It returns nil when no entry qualifies.
func (c *ParseCache) closest(parsed []byte) (*cacheEntry, textEdit) {
	var best *cacheEntry
	var bestEdit textEdit
	bestReused := -1
	consider := func(e *cacheEntry) {
		if e == nil || e.file == nil || e.file.tree == nil || e.file.HasErrors() {
			return
		}
		edit := diffRange(e.file.parsed, parsed)
		if r := edit.reused(len(parsed)); r > bestReused {
			best, bestEdit, bestReused = e, edit, r
		}
	}
	if front := c.order.Front(); front != nil {
		consider(front.Value.(*cacheEntry))
	}
	for _, a := range c.anchors {
		if c.order.Front() == nil || a != c.order.Front().Value {
			consider(a)
		}
	}
	if best == nil || bestReused < minReusedBytes || 2*bestReused < len(parsed) {
		return nil, textEdit{}
	}
	return best, bestEdit
}

// IncrementalParses returns how many of the parses counted by Parses reused
// a cached tree.
func (c *ParseCache) IncrementalParses() int {
	return c.incremental
}

// Parses returns how many real parses Get has done.
func (c *ParseCache) Parses() int {
	return c.parses
}

// Len returns how many Files are cached.
func (c *ParseCache) Len() int {
	return c.order.Len()
}

// Close closes every cached File, frees the parser and empties the cache. The
// cache stays usable.
func (c *ParseCache) Close() {
	if c.parser != nil {
		c.parser.Close()
		c.parser = nil
	}
	if c.ownQueries {
		c.queries.Close()
		c.queries = nil
	}
	for el := c.order.Front(); el != nil; el = el.Next() {
		el.Value.(*cacheEntry).file.Close()
	}
	c.order.Init()
	c.entries = map[string]*list.Element{}
	c.anchors = nil
	c.bytes = 0
}
