package runner

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/embedeval/embedeval-go/internal/result"
)

// Progress shows a run's progress. On a terminal it keeps one updating line
// (done/total, pass rate so far, errors, ETA); elsewhere it prints one line
// per result. It is safe for concurrent use.
type Progress struct {
	mu      sync.Mutex
	w       io.Writer
	tty     bool
	line    func(result.EvalResult) string
	now     func() time.Time
	start   time.Time
	total   int
	done    int
	passed  int
	failed  int
	errors  int
	written bool
}

// NewProgress returns a progress display writing to w. tty selects the
// updating line; line formats a result for the plain mode. now is the clock
// (nil: time.Now).
func NewProgress(w io.Writer, tty bool, line func(result.EvalResult) string, now func() time.Time) *Progress {
	if now == nil {
		now = time.Now
	}
	return &Progress{w: w, tty: tty, line: line, now: now, start: now()}
}

// Start sets the number of results this process will produce and restarts
// the clock.
func (p *Progress) Start(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = total
	p.start = p.now()
}

// Add counts one finished result and shows it.
func (p *Progress) Add(r result.EvalResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	switch r.Status {
	case result.StatusPassed:
		p.passed++
	case result.StatusFailed:
		p.failed++
	default:
		p.errors++
	}
	if !p.tty {
		fmt.Fprintln(p.w, p.line(r))
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", p.statusLocked())
	p.written = true
}

func (p *Progress) statusLocked() string {
	rate := "-"
	if judged := p.passed + p.failed; judged > 0 {
		rate = fmt.Sprintf("%.1f%%", 100*float64(p.passed)/float64(judged))
	}
	eta := "-"
	if p.done > 0 && p.total > p.done {
		per := p.now().Sub(p.start) / time.Duration(p.done)
		eta = (per * time.Duration(p.total-p.done)).Round(time.Second).String()
	} else if p.total > 0 && p.done >= p.total {
		eta = "0s"
	}
	return fmt.Sprintf("[%d/%d] pass %s (%d/%d judged)  errors %d  ETA %s", p.done, p.total, rate, p.passed, p.passed+p.failed, p.errors, eta)
}

// Finish ends the updating line (on a terminal) so that what follows starts
// on its own line.
func (p *Progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.written {
		fmt.Fprintln(p.w)
		p.written = false
	}
}
