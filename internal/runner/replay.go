package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
)

// ReplayRecord is one model reply in the replay JSONL format.
type ReplayRecord struct {
	CaseID       string `json:"case_id"`
	Attempt      int    `json:"attempt"`
	Turn         int    `json:"turn"`
	Model        string `json:"model"`
	Reply        string `json:"reply"`
	InputTokens  int    `json:"input_tokens"`
	OutputTokens int    `json:"output_tokens"`
}

// ReplayLog appends replay records to a file, one JSON line each.
type ReplayLog struct {
	mu   sync.Mutex
	path string
	f    *os.File
	err  error
}

// OpenReplayLog opens (creating or appending to) a replay file.
func OpenReplayLog(path string) (*ReplayLog, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open replay record %s: %w", path, err)
	}
	return &ReplayLog{path: path, f: f}, nil
}

// Write appends one record. The first error is kept and returned by Close.
func (l *ReplayLog) Write(r ReplayRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return
	}
	line, err := json.Marshal(r)
	if err == nil {
		_, err = l.f.Write(append(line, '\n'))
	}
	if err != nil {
		l.err = fmt.Errorf("write replay record %s: %w", l.path, err)
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
