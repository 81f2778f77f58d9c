package score

import (
	"bufio"
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
// fn's to keep.
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
func DecodeResults(r io.Reader, name string, fn func(result.EvalResult) error) ([]string, error) {
	workers := runtime.GOMAXPROCS(0)
	done := make(chan struct{})
	var once sync.Once
	stop := func() { once.Do(func() { close(done) }) }
	defer stop()

	jobs := make(chan *batch, workers)
	ordered := make(chan *batch, 2*workers)
	var readErr error
	go func() {
		defer close(jobs)
		defer close(ordered)
		readErr = splitBatches(r, name, done, jobs, ordered)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range jobs {
				b.decode(name)
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
			o.res = result.EvalResult{}
		}
	}
	// ordered is closed only after splitBatches returned.
	if readErr != nil {
		return warnings, readErr
	}
	return warnings, nil
}

// batch is a run of consecutive lines decoded by one worker.
type batch struct {
	buf   []byte
	lines []lineRef
	out   []decoded
	ready chan struct{}
}

type lineRef struct {
	start, end int
	number     int
	// torn marks a last line without a trailing newline.
	torn bool
}

type decoded struct {
	line    int
	res     result.EvalResult
	err     error
	warning string
}

const batchBytes = 1 << 20

func splitBatches(r io.Reader, name string, done <-chan struct{}, jobs, ordered chan<- *batch) error {
	br := bufio.NewReaderSize(r, 256<<10)
	line := 0
	cur := &batch{ready: make(chan struct{})}
	send := func() bool {
		if len(cur.lines) == 0 {
			return true
		}
		select {
		case ordered <- cur:
		case <-done:
			return false
		}
		select {
		case jobs <- cur:
		case <-done:
			return false
		}
		cur = &batch{buf: make([]byte, 0, batchBytes), ready: make(chan struct{})}
		return true
	}
	for {
		chunk, err := br.ReadSlice('\n')
		start := len(cur.buf)
		cur.buf = append(cur.buf, chunk...)
		for errors.Is(err, bufio.ErrBufferFull) {
			chunk, err = br.ReadSlice('\n')
			cur.buf = append(cur.buf, chunk...)
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s:%d: read: %w", name, line+1, err)
		}
		if len(cur.buf) > start {
			line++
			end := len(cur.buf)
			torn := cur.buf[end-1] != '\n'
			if len(bytes.TrimSpace(cur.buf[start:end])) == 0 {
				cur.buf = cur.buf[:start]
			} else {
				cur.lines = append(cur.lines, lineRef{start: start, end: end, number: line, torn: torn})
			}
		}
		if err == io.EOF {
			send()
			return nil
		}
		if len(cur.buf) >= batchBytes {
			if !send() {
				return nil
			}
		}
	}
}

func (b *batch) decode(name string) {
	b.out = make([]decoded, len(b.lines))
	for i, l := range b.lines {
		o := &b.out[i]
		o.line = l.number
		res, err := decodeLine(b.buf[l.start:l.end])
		switch {
		case err == nil:
			o.res = res
		case l.torn && errors.As(err, new(*syntaxProblem)):
			o.warning = fmt.Sprintf("warning: %s:%d: last line is cut off (%d bytes, not valid JSON, no trailing newline; the file was probably torn while being written); that result is missing from every score",
				name, l.number, l.end-l.start)
		default:
			o.err = fmt.Errorf("%s:%d: %w", name, l.number, err)
		}
	}
	b.buf, b.lines = nil, nil
}

// syntaxProblem is a line that is not (complete) JSON.
type syntaxProblem struct{ msg string }

func (e *syntaxProblem) Error() string { return e.msg }

// wireResult decodes a result while telling a missing attempt from zero.
type wireResult struct {
	result.EvalResult
	Attempt *int `json:"attempt"`
}

func decodeLine(line []byte) (result.EvalResult, error) {
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")))
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
