package runner

// Reached only from tests (issue 17: test-only code stays out of the binaries).

// Manifest is the run's run.json as written.
func (a *Archive) Manifest() Manifest { return a.manifest }
