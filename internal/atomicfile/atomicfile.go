// Package atomicfile writes files so that readers see the old content or
// the new, never a part: through a temporary file in the same directory,
// synced, made world-readable and renamed over the target. Every output of
// a run (results, reports, charts, cache entries, merged artifacts) is
// written this way, so an interrupted run loses nothing already written.
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// bufferSize is the write buffer: a results file of 100,000 lines is one
// write call per mebibyte, not one per line.
const bufferSize = 1 << 20

// Write creates path's directory when needed and writes path with write,
// which gets a buffered writer over the temporary file. On any error the
// temporary file is removed and path is left as it was; the error names
// path.
func Write(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	fail := func(err error) error {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	bw := bufio.NewWriterSize(tmp, bufferSize)
	if err := write(bw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// WriteFile writes data to path atomically (Write).
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
