package runner

import (
	"fmt"
	"os"
	"sync"

	"github.com/embedeval/embedeval-go/internal/llm/replay"
)

// ReplayRecord is one model reply in the replay JSONL format: the entry the
// replay model reads back (package replay), cost included, so a replayed
// run costs what the recorded one did.
type ReplayRecord = replay.Entry

// ReplayLog appends replay records to a file, one JSON line each, through
// replay's one writer.
type ReplayLog struct {
	mu   sync.Mutex
	path string
	f    *os.File
	w    *replay.Writer
	err  error
}

// OpenReplayLog opens (creating or appending to) a replay file.
func OpenReplayLog(path string) (*ReplayLog, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open replay record %s: %w", path, err)
	}
	return &ReplayLog{path: path, f: f, w: replay.NewWriter(f)}, nil
}

// Write appends one record. The first error is kept and returned by Close.
func (l *ReplayLog) Write(r ReplayRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return
	}
	if err := l.w.Append(r); err != nil {
		l.err = fmt.Errorf("%s: %w", l.path, err)
	}
}

// Close syncs and closes the file and returns the first write error.
func (l *ReplayLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.f.Sync(); err != nil && l.err == nil {
		l.err = fmt.Errorf("sync replay record %s: %w", l.path, err)
	}
	if err := l.f.Close(); err != nil && l.err == nil {
		l.err = fmt.Errorf("close replay record %s: %w", l.path, err)
	}
	return l.err
}
