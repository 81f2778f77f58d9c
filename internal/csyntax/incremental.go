package csyntax

import (
	"bytes"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// minReusedBytes is the least number of unchanged bytes (common prefix plus
// common suffix) for which a cached tree is reused by an incremental parse;
// the unchanged bytes must also be at least half of the new source.
const minReusedBytes = 64

// textEdit is the single edited range that turns one masked source into
// another: bytes [start, oldEnd) of the old text became [start, newEnd) of the
// new one.
type textEdit struct {
	start, oldEnd, newEnd int
}

// diffRange returns the edit between old and new made of their longest common
// prefix and the longest common suffix that does not overlap it. The range
// boundaries are moved to UTF-8 character boundaries so that no character is
// split.
func diffRange(old, new []byte) textEdit {
	n := min(len(old), len(new))
	p := 0
	for p < n && old[p] == new[p] {
		p++
	}
	for p > 0 && ((p < len(new) && isContinuation(new[p])) || (p < len(old) && isContinuation(old[p]))) {
		p--
	}
	s := 0
	for s < n-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	for s > 0 && isContinuation(new[len(new)-s]) {
		s--
	}
	return textEdit{start: p, oldEnd: len(old) - s, newEnd: len(new) - s}
}

// isContinuation reports whether b is a UTF-8 continuation byte.
func isContinuation(b byte) bool { return b&0xC0 == 0x80 }

// reused returns how many bytes the edit leaves unchanged in the new text.
func (e textEdit) reused(newLen int) int { return e.start + newLen - e.newEnd }

// pointAt returns the tree-sitter position (0-based row, byte column) of byte
// offset off in text.
func pointAt(text []byte, off int) ts.Point {
	head := text[:off]
	row := bytes.Count(head, []byte{'\n'})
	col := off - (bytes.LastIndexByte(head, '\n') + 1)
	return ts.Point{Row: uint(row), Column: uint(col)}
}

// inputEdit converts the edit of old into new to a tree-sitter edit.
func (e textEdit) inputEdit(old, new []byte) *ts.InputEdit {
	return &ts.InputEdit{
		StartByte:      uint(e.start),
		OldEndByte:     uint(e.oldEnd),
		NewEndByte:     uint(e.newEnd),
		StartPosition:  pointAt(new, e.start),
		OldEndPosition: pointAt(old, e.oldEnd),
		NewEndPosition: pointAt(new, e.newEnd),
	}
}
