// Package replay answers requests from a file of recorded replies, for
// re-running an evaluation without calling a model, and writes such files.
// The format is JSON lines, one reply per line:
//
//	{"case_id": "zephyr-gpio-001", "attempt": 1, "turn": 0, "model": "openai:gpt-4o",
//	 "reply": "...raw text...", "input_tokens": 812, "output_tokens": 301, "cost_usd": 0.005}
//
// keyed by (case_id, attempt, turn); turn defaults to 0, model and cost_usd
// are optional. Blank lines are skipped. Unknown fields, a missing case_id,
// attempt or reply, a reply over the reply cap (contract.MaxReplyBytes) and
// duplicate keys are errors naming file:line; a request with no recorded
// reply is an error naming its key and the file. It makes no calls.
package replay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/embedeval/embedeval-go/internal/llm/contract"
)

// maxLine bounds one line of a replay file holding a reply of at most
// maxReply bytes: every byte escaped as \u00XX, plus the other fields.
func maxLine(maxReply int64) int {
	return int(6*maxReply + 64<<10)
}

// Entry is one recorded reply.
type Entry struct {
	CaseID  string `json:"case_id"`
	Attempt int    `json:"attempt"`
	Turn    int    `json:"turn,omitempty"`
	// Model is the spec that produced the reply (informational).
	Model string `json:"model,omitempty"`
	// Reply is the raw reply text.
	Reply        string  `json:"reply"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd,omitempty"`
}

// Key identifies an entry.
type Key struct {
	CaseID  string
	Attempt int
	Turn    int
}

// String renders the key as in error messages.
func (k Key) String() string {
	return fmt.Sprintf("case %s attempt %d turn %d", k.CaseID, k.Attempt, k.Turn)
}

// KeyOf returns the key of a request.
func KeyOf(req contract.Request) Key {
	return Key{CaseID: req.CaseID(), Attempt: req.Attempt, Turn: req.Turn}
}

// Append writes e as one line to w, in a single Write.
func Append(w io.Writer, e Entry) error {
	if err := validate(e); err != nil {
		return fmt.Errorf("replay entry: %w", err)
	}
	data, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("replay entry %s: %w", Key{e.CaseID, e.Attempt, e.Turn}, err)
	}
	if _, err := w.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("write replay entry %s: %w", Key{e.CaseID, e.Attempt, e.Turn}, err)
	}
	return nil
}

// Writer appends entries to one writer from many goroutines.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter returns a Writer appending to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Append writes one entry; concurrent calls never interleave lines.
func (w *Writer) Append(e Entry) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return Append(w.w, e)
}

func validate(e Entry) error {
	switch {
	case e.CaseID == "":
		return errors.New("case_id is empty")
	case e.Attempt < 1:
		return fmt.Errorf("attempt is %d (expected 1 or more)", e.Attempt)
	case e.Turn < 0:
		return fmt.Errorf("turn is %d (expected 0 or more)", e.Turn)
	case e.InputTokens < 0 || e.OutputTokens < 0:
		return errors.New("token counts must not be negative")
	case e.CostUSD < 0:
		return errors.New("cost_usd must not be negative")
	}
	return nil
}

// Parse reads replay entries; name (the file name) prefixes errors. A reply
// longer than maxReply bytes (zero or less: contract.DefaultMaxReplyBytes)
// is an error.
func Parse(r io.Reader, name string, maxReply int64) (map[Key]Entry, error) {
	maxReply = contract.MaxReplyBytes(maxReply)
	entries := map[Key]Entry{}
	firstLine := map[Key]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine(maxReply))
	line := 0
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var e struct {
			Entry
			Reply   *string `json:"reply"`
			Attempt *int    `json:"attempt"`
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%s:%d: more than one JSON value on the line", name, line)
		}
		if e.Reply == nil {
			return nil, fmt.Errorf("%s:%d: missing field reply", name, line)
		}
		if e.Attempt == nil {
			return nil, fmt.Errorf("%s:%d: missing field attempt", name, line)
		}
		if int64(len(*e.Reply)) > maxReply {
			return nil, fmt.Errorf("%s:%d: %w", name, line, &contract.ReplyTooLargeError{Limit: maxReply})
		}
		e.Entry.Reply, e.Entry.Attempt = *e.Reply, *e.Attempt
		if err := validate(e.Entry); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		k := Key{CaseID: e.CaseID, Attempt: e.Entry.Attempt, Turn: e.Turn}
		if first, dup := firstLine[k]; dup {
			return nil, fmt.Errorf("%s:%d: %s is already recorded at line %d", name, line, k, first)
		}
		firstLine[k] = line
		entries[k] = e.Entry
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return entries, nil
}

// Model answers from a replay file. It is safe for concurrent use.
type Model struct {
	name    string
	path    string
	entries map[Key]Entry
}

// Open loads a replay file; spec names the Model unless its entries all
// record one model name (recordedName), and maxReply is the reply cap (see
// Parse).
func Open(spec, path string, maxReply int64) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	entries, err := Parse(f, path, maxReply)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	return &Model{name: recordedName(entries, spec), path: path, entries: entries}, nil
}

// recordedName is the model name every entry records, so leaderboards and
// charts name a replayed model as the recorded run did (not by the replay
// file's path); spec when the entries name none or several models.
func recordedName(entries map[Key]Entry, spec string) string {
	name := ""
	for _, e := range entries {
		switch {
		case e.Model == "":
			return spec
		case name == "":
			name = e.Model
		case name != e.Model:
			return spec
		}
	}
	if name == "" {
		return spec
	}
	return name
}

// Name is the model name the entries record (all the same), else the spec.
func (m *Model) Name() string { return m.name }

// Len returns how many replies the file holds.
func (m *Model) Len() int { return len(m.entries) }

// Generate returns the recorded reply of the request's key.
func (m *Model) Generate(_ context.Context, req contract.Request) (contract.Reply, error) {
	k := KeyOf(req)
	e, ok := m.entries[k]
	if !ok {
		return contract.Reply{}, fmt.Errorf("replay: %s has no reply for %s", m.path, k)
	}
	return contract.Reply{
		Text:      e.Reply,
		Usage:     contract.Usage{InputTokens: e.InputTokens, OutputTokens: e.OutputTokens},
		CostUSD:   e.CostUSD,
		CostKnown: e.CostUSD > 0,
	}, nil
}
