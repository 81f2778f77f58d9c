package cases

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/embedeval/embedeval-go/internal/diag"
)

// MaxFileBytes is the largest single file ReadFile reads from a case.
const MaxFileBytes = 16 << 20

// plainRule is the diagnostic rule of case entries that are not plain files
// or directories.
const plainRule = "plain-files"

// NotPlainError reports a case entry that is not a plain directory or a
// regular file with a single link: a symbolic link, a hard link, a device, a
// named pipe or a socket.
type NotPlainError struct {
	// Path is the entry.
	Path string
	// Kind says what the entry is, such as "symbolic link".
	Kind string
}

// Error returns "<path>: <kind> (case files must be plain files)".
func (e *NotPlainError) Error() string {
	return e.Path + ": " + e.Kind + " (case files must be plain files)"
}

// entryKind names what an entry is (from Lstat or fstat information) unless
// it is a regular file with one link, for which it returns "".
func entryKind(fi fs.FileInfo) string {
	m := fi.Mode()
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case !m.IsRegular():
		return "irregular file"
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		return fmt.Sprintf("hard link (link count %d)", st.Nlink)
	}
	return ""
}

// ReadFile reads one case file. It never follows a symbolic link at the
// file's own name (the file is opened with O_NOFOLLOW, so a link swapped in
// after validation is refused too), and it refuses anything that is not a
// regular file with a single link (checked on the opened file) and files
// larger than MaxFileBytes. Such refusals are *NotPlainError or name the file.
func ReadFile(path string) ([]byte, error) {
	// Refuse a non-plain entry before opening it: opening a device or a pipe
	// can block or have side effects.
	before, err := os.Lstat(path)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: unwrapPathError(err)}
	}
	if kind := entryKind(before); kind != "" {
		return nil, &NotPlainError{Path: path, Kind: kind}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		// The name became a symbolic link after the Lstat: systems report
		// this with different errors (ELOOP, EMLINK, EFTYPE).
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, &NotPlainError{Path: path, Kind: "symbolic link"}
		}
		return nil, &fs.PathError{Op: "read", Path: path, Err: unwrapPathError(err)}
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if kind := entryKind(opened); kind != "" {
		return nil, &NotPlainError{Path: path, Kind: kind}
	}
	if !os.SameFile(before, opened) {
		return nil, fmt.Errorf("read %s: the file was replaced while being opened", path)
	}
	if opened.Size() > MaxFileBytes {
		return nil, fmt.Errorf("read %s: file is %d bytes; the limit is %d bytes", path, opened.Size(), MaxFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("read %s: file grew past the limit of %d bytes while being read", path, MaxFileBytes)
	}
	return data, nil
}

// scanTree walks dir without following any link and returns the regular
// files under it (sorted relative slash paths) and an error for every entry
// that is not plain (*NotPlainError, dir itself included) or cannot be read.
func scanTree(dir string) ([]string, []error) {
	var files []string
	var errs []error
	// The callback collects every error and never stops the walk.
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if kind := entryKind(fi); kind != "" {
			errs = append(errs, &NotPlainError{Path: p, Kind: kind})
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, err))
			return nil
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(files)
	return files, errs
}

// plainProblems checks that a case directory is a plain directory holding
// only plain files and directories, and returns its regular files (as
// scanTree) and a problem for every entry that is not.
func plainProblems(dir string) ([]string, []diag.Problem) {
	st, err := os.Lstat(dir)
	if err != nil {
		return nil, []diag.Problem{diag.Errorf(dir, 0, 0, plainRule, "cannot read case directory: %v", unwrapPathError(err))}
	}
	if !st.IsDir() {
		kind := entryKind(st)
		if kind == "" {
			kind = "regular file"
		}
		return nil, []diag.Problem{diag.Errorf(dir, 0, 0, plainRule, "%s (a case directory must be a plain directory)", kind)}
	}
	files, errs := scanTree(dir)
	var ps []diag.Problem
	for _, err := range errs {
		var np *NotPlainError
		var pe *fs.PathError
		switch {
		case errors.As(err, &np):
			ps = append(ps, diag.Errorf(np.Path, 0, 0, plainRule, "%s (case files must be plain files)", np.Kind))
		case errors.As(err, &pe):
			ps = append(ps, diag.Errorf(pe.Path, 0, 0, plainRule, "cannot read: %v", pe.Err))
		default:
			ps = append(ps, diag.Errorf(dir, 0, 0, plainRule, "%v", err))
		}
	}
	return files, ps
}
