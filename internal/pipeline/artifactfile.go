package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/embedeval/embedeval-go/internal/bytesize"
)

// DefaultMaxArtifactBytes is the largest artifact file merge reads
// (--max-artifact-bytes); a larger one is refused without being read.
const DefaultMaxArtifactBytes = 64 << 20

// fileRefusal is an artifact file refused before it was decoded: a
// symbolic link, not a regular file, or larger than the cap. Its message
// starts with the file's path, like the decoding errors.
type fileRefusal struct {
	path, why string
}

func (e *fileRefusal) Error() string { return e.path + ": " + e.why }

func isFileRefusal(err error) bool {
	var fr *fileRefusal
	return errors.As(err, &fr)
}

// readArtifactFile reads an artifact file of at most limit bytes (zero or
// less: DefaultMaxArtifactBytes). An artifact directory may be written by
// anyone who can run a job, so the file's own name is never followed
// (checked with Lstat, and opened with O_NOFOLLOW in case a link was
// swapped in since), anything but a regular file is refused before it is
// opened (a pipe or a device could block or never end), the size is checked
// before reading, and the read stops one byte past limit so that a file
// growing meanwhile is refused too. Errors start with path.
func readArtifactFile(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultMaxArtifactBytes
	}
	before, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if why := notPlain(before); why != "" {
		return nil, &fileRefusal{path: path, why: why}
	}
	if err := checkSize(path, before.Size(), limit); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, &fileRefusal{path: path, why: notPlain(fi)}
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if why := notPlain(opened); why != "" {
		return nil, &fileRefusal{path: path, why: why}
	}
	if !os.SameFile(before, opened) {
		return nil, &fileRefusal{path: path, why: "the file was replaced while being opened"}
	}
	if err := checkSize(path, opened.Size(), limit); err != nil {
		return nil, err
	}
	return readUpTo(f, path, opened.Size(), limit)
}

// readUpTo reads r, which should hold size bytes, through a limit of one
// byte past limit: more than limit bytes means the file grew meanwhile.
func readUpTo(r io.Reader, path string, size, limit int64) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(int(min(size, limit)) + bytes.MinRead)
	if _, err := b.ReadFrom(io.LimitReader(r, limit+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(b.Len()) > limit {
		return nil, &fileRefusal{path: path, why: fmt.Sprintf("the file grew past the %s cap (--max-artifact-bytes) while being read (it was %d bytes)",
			bytesize.Format(limit), size)}
	}
	return b.Bytes(), nil
}

func checkSize(path string, size, limit int64) error {
	if size > limit {
		return &fileRefusal{path: path, why: fmt.Sprintf("the file is %s (%d bytes), more than the %s cap (--max-artifact-bytes)",
			bytesize.Format(size), size, bytesize.Format(limit))}
	}
	return nil
}

// notPlain names what an entry is when it is not a regular file, or "".
func notPlain(fi fs.FileInfo) string {
	switch t := fi.Mode().Type(); {
	case t.IsRegular():
		return ""
	case t&fs.ModeSymlink != 0:
		return "a symbolic link (links in an artifact directory are not followed)"
	case t.IsDir():
		return "a directory, not an artifact file"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe, not a regular file"
	case t&fs.ModeSocket != 0:
		return "a socket, not a regular file"
	case t&fs.ModeDevice != 0:
		return "a device, not a regular file"
	default:
		return fmt.Sprintf("not a regular file (mode %s)", t)
	}
}
