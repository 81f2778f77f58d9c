package runner

// Reached only from tests (issue 17: test-only code stays out of the binaries).

// Status returns the progress line: done/total, pass rate of the judged
// results, errors and the estimated time left.
func (p *Progress) Status() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.statusLocked()
}
