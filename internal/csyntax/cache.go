package csyntax

import "container/list"

// ParseCache keeps parsed Files for recently seen code strings so that every
// distinct code string is parsed at most once while it stays cached. Files are
// evicted least recently used first and closed on eviction. A File returned by
// Get belongs to the cache: do not Close it, and do not use it after it may
// have been evicted (after more than capacity other distinct Gets) or after
// the cache is closed. A ParseCache is not safe for concurrent use; use one
// per evaluation goroutine.
type ParseCache struct {
	capacity int
	order    *list.List // front = most recently used; values are *cacheEntry
	entries  map[string]*list.Element
	parses   int
}

type cacheEntry struct {
	code string
	file *File
}

// NewParseCache returns a cache holding at most capacity Files (at least 1).
func NewParseCache(capacity int) *ParseCache {
	if capacity < 1 {
		capacity = 1
	}
	return &ParseCache{capacity: capacity, order: list.New(), entries: map[string]*list.Element{}}
}

// Get returns the File for code, parsing it only when it is not cached.
func (c *ParseCache) Get(code string) (*File, error) {
	if el, ok := c.entries[code]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*cacheEntry).file, nil
	}
	f, err := Parse(code)
	if err != nil {
		return nil, err
	}
	c.parses++
	c.entries[code] = c.order.PushFront(&cacheEntry{code: code, file: f})
	for c.order.Len() > c.capacity {
		last := c.order.Back()
		e := last.Value.(*cacheEntry)
		c.order.Remove(last)
		delete(c.entries, e.code)
		e.file.Close()
	}
	return f, nil
}

// Parses returns how many real parses Get has done.
func (c *ParseCache) Parses() int {
	return c.parses
}

// Len returns how many Files are cached.
func (c *ParseCache) Len() int {
	return c.order.Len()
}

// Close closes every cached File and empties the cache. The cache stays
// usable.
func (c *ParseCache) Close() {
	for el := c.order.Front(); el != nil; el = el.Next() {
		el.Value.(*cacheEntry).file.Close()
	}
	c.order.Init()
	c.entries = map[string]*list.Element{}
}
