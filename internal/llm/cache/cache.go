// Package cache keeps model replies on disk so that a repeated run makes no
// calls: it wraps any contract.Model (HTTP providers and claude-code; not
// the offline ones) and looks each request up by a key over everything that
// shapes the answer. One JSON file per key lives under
// <dir>/<first 2 hex digits>/<key>.json, written atomically (temporary file
// and rename). A hit returns the stored reply with Cached set; a corrupt
// file is a miss, warned about and overwritten. Failed calls are not
// stored. It does not decide whether to cache: no directory, no cache.
package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/embedeval/embedeval-go/internal/llm/contract"
)

// formatVersion is stored in every file and part of every key; changing it
// invalidates old entries.
const formatVersion = 1

// Identity names the endpoint a model answers from, the part of the key
// that is not in the request.
type Identity struct {
	// Provider is "openai", "anthropic", "claude-code".
	Provider string `json:"provider"`
	// Model is the provider's model id.
	Model string `json:"model"`
	// BaseURL is the API root (empty for the CLI).
	BaseURL string `json:"base_url"`
}

// keyInput is what the key hashes, as canonical JSON (struct field order).
type keyInput struct {
	Version      int                `json:"version"`
	Identity     Identity           `json:"identity"`
	System       string             `json:"system"`
	Conversation []contract.Message `json:"conversation"`
	Attempt      int                `json:"attempt"`
	Temperature  float64            `json:"temperature"`
	MaxTokens    int                `json:"max_tokens"`
}

// Key returns the hex sha256 identifying the reply to req from id.
func Key(id Identity, req contract.Request) string {
	in := keyInput{
		Version:      formatVersion,
		Identity:     id,
		System:       req.System,
		Conversation: req.Conversation(),
		Attempt:      req.Attempt,
		Temperature:  req.Temperature,
		MaxTokens:    req.MaxTokens,
	}
	// Marshalling plain strings and numbers cannot fail.
	data, _ := json.Marshal(in)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// entry is one cache file.
type entry struct {
	Version  int       `json:"version"`
	Key      string    `json:"key"`
	Identity Identity  `json:"identity"`
	Stored   time.Time `json:"stored"`
	Reply    stored    `json:"reply"`
}

// stored is a Reply in JSON.
type stored struct {
	Text       string         `json:"text"`
	Usage      contract.Usage `json:"usage"`
	CostUSD    float64        `json:"cost_usd"`
	CostKnown  bool           `json:"cost_known"`
	DurationNS int64          `json:"duration_ns"`
}

// Model is a contract.Model with a disk cache in front. It is safe for
// concurrent use (two identical requests in flight may both call the
// model; the last write wins, with identical content).
type Model struct {
	inner  contract.Model
	dir    string
	id     Identity
	logger *slog.Logger
	now    func() time.Time
}

// Wrap returns inner behind a cache in dir; logger (nil discards) gets the
// corrupt-file warnings.
func Wrap(inner contract.Model, dir string, id Identity, logger *slog.Logger) *Model {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Model{inner: inner, dir: dir, id: id, logger: logger, now: time.Now}
}

// Name is the inner model's name.
func (m *Model) Name() string { return m.inner.Name() }

// Path returns the file of a key.
func (m *Model) Path(key string) string {
	return filepath.Join(m.dir, key[:2], key+".json")
}

// Generate returns the cached reply, or calls the inner model and stores
// its reply. A failure to store is logged, not returned: the reply is good.
func (m *Model) Generate(ctx context.Context, req contract.Request) (contract.Reply, error) {
	key := Key(m.id, req)
	path := m.Path(key)
	if reply, ok := m.load(path, key); ok {
		return reply, nil
	}
	reply, err := m.inner.Generate(ctx, req)
	if err != nil {
		return contract.Reply{}, err
	}
	if err := m.store(path, key, reply); err != nil {
		m.logger.Warn("could not store the reply in the cache", "file", path, "error", err.Error())
	}
	return reply, nil
}

// load reads a cache file; a missing file is a quiet miss, an unreadable or
// corrupt one a warned miss.
func (m *Model) load(path, key string) (contract.Reply, bool) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return contract.Reply{}, false
	}
	if err != nil {
		m.logger.Warn("cache file unreadable; calling the model", "file", path, "error", err.Error())
		return contract.Reply{}, false
	}
	var e entry
	if err := json.Unmarshal(data, &e); err != nil {
		m.logger.Warn("cache file corrupt; calling the model and overwriting it", "file", path, "error", err.Error())
		return contract.Reply{}, false
	}
	if e.Version != formatVersion || e.Key != key {
		m.logger.Warn("cache file does not match its key; calling the model and overwriting it", "file", path)
		return contract.Reply{}, false
	}
	return contract.Reply{
		Text:      e.Reply.Text,
		Usage:     e.Reply.Usage,
		CostUSD:   e.Reply.CostUSD,
		CostKnown: e.Reply.CostKnown,
		Duration:  time.Duration(e.Reply.DurationNS),
		Cached:    true,
	}, true
}

// store writes a cache file atomically.
func (m *Model) store(path, key string, reply contract.Reply) error {
	data, err := json.MarshalIndent(entry{
		Version:  formatVersion,
		Key:      key,
		Identity: m.id,
		Stored:   m.now().UTC(),
		Reply: stored{
			Text:       reply.Text,
			Usage:      reply.Usage,
			CostUSD:    reply.CostUSD,
			CostKnown:  reply.CostKnown,
			DurationNS: int64(reply.Duration),
		},
	}, "", "  ")
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*.json")
	if err != nil {
		return fmt.Errorf("create temporary file: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("rename to %s: %w", path, err)
	}
	return nil
}
