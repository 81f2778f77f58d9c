package github

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// File is one file to commit: its path in the repository (slash-separated)
// and its content.
type File struct {
	Path string
	Data []byte
}

// BlobSHA is the Git object id of the file's content as a blob
// (sha1 of "blob <size>\x00<content>"), the id GitHub gives it too; equal
// ids mean the file is unchanged.
func (f File) BlobSHA() string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(f.Data)) + "\x00"))
	h.Write(f.Data)
	return hex.EncodeToString(h.Sum(nil))
}

// isText reports whether the file can travel in a create-blob request as
// "utf-8" (valid UTF-8 without NUL bytes); everything else (the PNG charts)
// is sent as "base64".
func (f File) isText() bool {
	return utf8.Valid(f.Data) && !slices.Contains(f.Data, 0)
}

// skipResult reports whether a path of the results directory (slash
// separated, relative to it) stays out of results pull requests: the files
// the repository's .gitignore keeps out of results/ (runs/*/details/ with the
// generated code, runs/*/results.jsonl) and leftover temporary files of
// atomic writes.
func skipResult(rel string, dir bool) bool {
	parts := strings.Split(rel, "/")
	base := parts[len(parts)-1]
	switch {
	case strings.HasPrefix(base, ".") && strings.Contains(base, ".tmp-"):
		return true
	case len(parts) == 3 && parts[0] == "runs" && dir && base == "details":
		return true
	case len(parts) == 3 && parts[0] == "runs" && !dir && base == "results.jsonl":
		return true
	}
	return false
}

// ReadResultsDir collects the files of a results directory to commit, each
// under prefix in the repository (e.g. "results"), sorted by path. Symbolic
// links and other non-regular files are an error; see skipResult for what
// is left out.
func ReadResultsDir(dir, prefix string) ([]File, error) {
	var files []File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if skipResult(rel, d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file (symbolic links are not published)", p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files = append(files, File{Path: path.Join(prefix, rel), Data: data})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read results directory %s: %w", dir, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("read results directory %s: no files to publish", dir)
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}
