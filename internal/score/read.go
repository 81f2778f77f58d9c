package score

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/embedeval/embedeval-go/internal/result"
)

// ReadResults streams the result records of a JSON-lines file (one
// result.EvalResult object per line, as the runner writes them) to fn, in
// file order. Records are decoded in parallel but fn is called from one
// goroutine at a time, so it needs no locking; the record passed to fn is
// fn's to keep. Records hold only the fields the Scorer reads (see
// DecodeResults).
//
// Every problem is reported with path:line. A record of an unknown shape (an
// unknown field, a missing status or attempt, an impossible status, a
// non-object line) is an error, and so is any invalid line that is followed
// by more data. A last line that is not valid JSON and has no trailing
// newline (a file torn while being written) is not an error: it is left out
// and described in the returned warnings, which the caller must pass on to
// the reports (Scorer.Warn). Blank lines are skipped. When fn returns an
// error, reading stops and that error is returned, wrapped with the
// position.
func ReadResults(path string, fn func(result.EvalResult) error) (warnings []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	defer f.Close()
	return DecodeResults(f, path, fn)
}

// DecodeResults is ReadResults on an open stream; name is used in messages.
//
// The records handed to fn carry only the fields the Scorer reads (case id,
// model, attempt, status, passed, failed_at_layer, scenario, mutation,
// infra_error, and per layer its number, status and the check details' name,
// verdict and type); generated_code and the other free-text, timing and cost
// fields are validated but not kept. Lines are decoded by a purpose-built
// scanner (lineDecoder) and, when it declines a line, by encoding/json, whose
// messages the errors are.
func DecodeResults(r io.Reader, name string, fn func(result.EvalResult) error) ([]string, error) {
	workers := runtime.GOMAXPROCS(0)
	done := make(chan struct{})
	var once sync.Once
	stop := func() { once.Do(func() { close(done) }) }
	defer stop()

	jobs := make(chan *batch, workers)
	ordered := make(chan *batch, 2*workers)
	// free recycles batches (their buffers and outputs) once fn has seen
	// their records.
	free := make(chan *batch, 3*workers+2)
	var readErr error
	go func() {
		defer close(jobs)
		defer close(ordered)
		readErr = splitBatches(r, name, done, free, jobs, ordered)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := newLineDecoder()
			for b := range jobs {
				b.decode(d, name)
				close(b.ready)
			}
		}()
	}
	defer wg.Wait()

	var warnings []string
	for b := range ordered {
		<-b.ready
		for i := range b.out {
			o := &b.out[i]
			if o.warning != "" {
				warnings = append(warnings, o.warning)
				continue
			}
			if o.err != nil {
				stop()
				return warnings, o.err
			}
			if err := fn(o.res); err != nil {
				stop()
				return warnings, fmt.Errorf("%s:%d: %w", name, o.line, err)
			}
		}
		clear(b.out)
		b.out = b.out[:0]
		select {
		case free <- b:
		default:
		}
	}
	// ordered is closed only after splitBatches returned.
	if readErr != nil {
		return warnings, readErr
	}
	return warnings, nil
}

// batch is a run of consecutive whole lines decoded by one worker.
type batch struct {
	buf []byte
	// first is the number of the first line in buf.
	first int
	// eof marks the last batch of the stream: its last line is torn when it
	// has no trailing newline.
	eof   bool
	out   []decoded
	ready chan struct{}
}

type decoded struct {
	line    int
	res     result.EvalResult
	err     error
	warning string
}

// batchBytes is the size a batch is read in; a line longer than that grows
// its batch.
const batchBytes = 1 << 20

// splitBatches reads r in large blocks, cut after their last newline (the
// partial line is carried to the next block), and sends them, numbered, to
// the workers and, in order, to the consumer.
func splitBatches(r io.Reader, name string, done <-chan struct{}, free <-chan *batch, jobs, ordered chan<- *batch) error {
	get := func() *batch {
		select {
		case b := <-free:
			b.buf, b.eof, b.ready = b.buf[:0], false, make(chan struct{})
			return b
		default:
			return &batch{buf: make([]byte, 0, batchBytes), ready: make(chan struct{})}
		}
	}
	line := 1
	cur := get()
	for {
		// Fill cur, growing it when it holds no complete line.
		eof := false
		scanned := 0
		cut := -1
		for {
			if len(cur.buf) == cap(cur.buf) {
				cur.buf = append(cur.buf, 0)[:len(cur.buf)]
			}
			n, err := r.Read(cur.buf[len(cur.buf):cap(cur.buf)])
			cur.buf = cur.buf[:len(cur.buf)+n]
			if err == io.EOF {
				eof = true
				break
			}
			if err != nil {
				return fmt.Errorf("%s:%d: read: %w", name, line+bytes.Count(cur.buf, []byte{'\n'}), err)
			}
			if len(cur.buf) < cap(cur.buf) {
				continue
			}
			if i := bytes.LastIndexByte(cur.buf[scanned:], '\n'); i >= 0 {
				cut = scanned + i + 1
				break
			}
			scanned = len(cur.buf)
		}
		next := get()
		if eof {
			cur.eof = true
		} else {
			next.buf = append(next.buf, cur.buf[cut:]...)
			cur.buf = cur.buf[:cut]
		}
		cur.first = line
		line += bytes.Count(cur.buf, []byte{'\n'})
		if len(cur.buf) > 0 {
			select {
			case ordered <- cur:
			case <-done:
				return nil
			}
			select {
			case jobs <- cur:
			case <-done:
				return nil
			}
		}
		if eof {
			return nil
		}
		cur = next
	}
}

// decode decodes the lines of b with d, filling b.out.
func (b *batch) decode(d *lineDecoder, name string) {
	buf, number := b.buf, b.first
	for len(buf) > 0 {
		n := bytes.IndexByte(buf, '\n') + 1
		torn := false
		if n == 0 {
			n, torn = len(buf), b.eof
		}
		line := buf[:n]
		buf = buf[n:]
		number++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		b.out = append(b.out, decoded{line: number - 1})
		o := &b.out[len(b.out)-1]
		var err error
		o.res, err = d.line(line)
		switch {
		case err == nil:
		case torn && errors.As(err, new(*syntaxProblem)):
			o.res = result.EvalResult{}
			o.warning = fmt.Sprintf("warning: %s:%d: last line is cut off (%d bytes, not valid JSON, no trailing newline; the file was probably torn while being written); that result is missing from every score",
				name, o.line, len(line))
		default:
			o.res = result.EvalResult{}
			o.err = fmt.Errorf("%s:%d: %w", name, o.line, err)
		}
	}
}

// line decodes one non-blank line with the fast decoder, or with decodeLine
// when the fast decoder declines it; either way the record holds only
// ScoredFields and the error is decodeLine's.
func (d *lineDecoder) line(line []byte) (result.EvalResult, error) {
	var res result.EvalResult
	if d.decode(trimLine(line), &res) {
		if err := CheckResult(&res); err != nil {
			return result.EvalResult{}, err
		}
		return res, nil
	}
	res, err := decodeLine(line)
	if err != nil {
		return result.EvalResult{}, err
	}
	return ScoredFields(&res), nil
}

// syntaxProblem is a line that is not (complete) JSON.
type syntaxProblem struct{ msg string }

func (e *syntaxProblem) Error() string { return e.msg }

// wireResult decodes a result while telling a missing attempt from zero.
type wireResult struct {
	result.EvalResult
	Attempt *int `json:"attempt"`
}

// trimLine drops a byte order mark and then surrounding space.
func trimLine(line []byte) []byte {
	return bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")))
}

// decodeLine decodes one line with encoding/json. It is the reference
// decoder: the fast one (lineDecoder) hands it every line it does not accept.
func decodeLine(line []byte) (result.EvalResult, error) {
	trimmed := trimLine(line)
	if len(trimmed) == 0 {
		return result.EvalResult{}, fmt.Errorf("expected a result object, found only a byte order mark")
	}
	if trimmed[0] != '{' {
		if !json.Valid(trimmed) {
			return result.EvalResult{}, &syntaxProblem{"invalid JSON: expected one result object per line"}
		}
		return result.EvalResult{}, fmt.Errorf("expected a result object (one per line), found %s", jsonKind(trimmed[0]))
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	var w wireResult
	if err := dec.Decode(&w); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return result.EvalResult{}, &syntaxProblem{"invalid JSON: the line ends before the record does"}
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return result.EvalResult{}, &syntaxProblem{"invalid JSON: " + strings.TrimPrefix(err.Error(), "json: ")}
		}
		msg := strings.TrimPrefix(err.Error(), "json: ")
		if strings.HasPrefix(msg, "unknown field") {
			return result.EvalResult{}, fmt.Errorf("not a result record of this version: %s (the fields are those of result.EvalResult)", msg)
		}
		return result.EvalResult{}, fmt.Errorf("not a result record: %s", strings.ReplaceAll(msg, "wireResult.", "result."))
	}
	if dec.More() {
		return result.EvalResult{}, &syntaxProblem{"invalid JSON: more than one value on the line"}
	}
	if w.Attempt == nil {
		return result.EvalResult{}, fmt.Errorf("not a result record: missing field \"attempt\"")
	}
	res := w.EvalResult
	res.Attempt = *w.Attempt
	if err := CheckResult(&res); err != nil {
		return result.EvalResult{}, err
	}
	return res, nil
}

func jsonKind(c byte) string {
	switch c {
	case '[':
		return "an array (is this a report or a JSON array rather than JSON lines?)"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
