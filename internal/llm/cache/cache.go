// Package cache keeps model replies on disk so that a repeated run makes no
// calls: it wraps any contract.Model (HTTP providers and claude-code; not
// the offline ones) and looks each request up by a key over everything that
// shapes the answer. One JSON file per key lives under
// <dir>/<first 2 hex digits>/<key>.json, written atomically (temporary file
// and rename). A hit returns the stored reply with Cached set; a corrupt
// file is a miss, warned about and overwritten. Failed calls are not
// stored, nor is a reply over the reply cap (contract.MaxReplyBytes): one
// is refused, and a stored one over the cap (or a file too large to hold a
// reply under it) is a warned miss. It does not decide whether to cache: no
// directory, no cache.
package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/embedeval/embedeval-go/internal/atomicfile"
	"io"
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
	// maxReply caps the reply text stored and returned.
	maxReply int64
}

// Wrap returns inner behind a cache in dir; logger (nil discards) gets the
// corrupt-file warnings.
func Wrap(inner contract.Model, dir string, id Identity, logger *slog.Logger) *Model {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Model{inner: inner, dir: dir, id: id, logger: logger, now: time.Now, maxReply: contract.DefaultMaxReplyBytes}
}

// WithMaxReplyBytes sets the reply cap (zero or less: the default,
// contract.DefaultMaxReplyBytes) and returns m.
func (m *Model) WithMaxReplyBytes(limit int64) *Model {
	m.maxReply = contract.MaxReplyBytes(limit)
	return m
}

// maxFile bounds a cache file: a reply at the cap, every byte escaped as
// \u00XX, plus room for the rest of the entry.
func (m *Model) maxFile() int64 { return 6*m.maxReply + 64<<10 }

// Name is the inner model's name.
func (m *Model) Name() string { return m.inner.Name() }

// Path returns the file of a key.
func (m *Model) Path(key string) string {
	return filepath.Join(m.dir, key[:2], key+".json")
}

// Generate returns the cached reply, or calls the inner model and stores
// its reply. A failure to store is logged, not returned: the reply is good.
// A reply over the cap is refused (a *contract.ReplyTooLargeError) and not
// stored.
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
	if int64(len(reply.Text)) > m.maxReply {
		return contract.Reply{}, fmt.Errorf("model %s: %w", m.Name(), &contract.ReplyTooLargeError{Limit: m.maxReply})
	}
	if err := m.store(path, key, reply); err != nil {
		m.logger.Warn("could not store the reply in the cache", "file", path, "error", err.Error())
	}
	return reply, nil
}

// load reads a cache file; a missing file is a quiet miss, an unreadable,
// corrupt or oversized one a warned miss.
func (m *Model) load(path, key string) (contract.Reply, bool) {
	data, err := m.read(path)
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
	if int64(len(e.Reply.Text)) > m.maxReply {
		m.logger.Warn("cached reply exceeds the reply cap; calling the model", "file", path,
			"bytes", len(e.Reply.Text), "cap", m.maxReply)
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

// read reads a cache file of at most maxFile bytes, checked before and
// while reading.
func (m *Model) read(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat: %w", err)
	}
	limit := m.maxFile()
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", info.Mode().Type())
	}
	if info.Size() > limit {
		return nil, fmt.Errorf("%d bytes, more than a reply under the %s cap can take", info.Size(), contract.SizeText(m.maxReply))
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("grew past %d bytes while being read", limit)
	}
	return data, nil
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
	return atomicfile.WriteFile(path, append(data, '\n'))
}
