package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
)

// Workspace is a temporary directory for one build; Close removes it.
type Workspace struct {
	// Dir is the workspace's absolute path.
	Dir string
}

// NewWorkspace makes an empty workspace under the system temporary directory.
func NewWorkspace(prefix string) (*Workspace, error) {
	dir, err := os.MkdirTemp("", "embedeval-"+prefix+"-")
	if err != nil {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	return &Workspace{Dir: dir}, nil
}

// Close removes the workspace and everything in it, making read-only
// directories writable first (builds sometimes leave them).
func (w *Workspace) Close() error {
	if w == nil || w.Dir == "" {
		return nil
	}
	_ = filepath.WalkDir(w.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	if err := os.RemoveAll(w.Dir); err != nil {
		return fmt.Errorf("remove workspace %s: %w", w.Dir, err)
	}
	return nil
}

// Path joins slash-separated elements onto the workspace directory, refusing
// paths that would leave it.
func (w *Workspace) Path(rel string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(rel))
	if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("path %q leaves the workspace", rel)
	}
	return filepath.Join(w.Dir, clean), nil
}

// WriteFile writes data to a workspace-relative path, creating directories.
func (w *Workspace) WriteFile(rel string, data []byte) error {
	p, err := w.Path(rel)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("stage %s: %w", rel, err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return fmt.Errorf("stage %s: %w", rel, err)
	}
	return nil
}

// CopyTree copies the files under src (a directory of a case) into the
// workspace at rel, skipping the directories named in skip (relative slash
// paths of src). The source is only read, with cases.ReadFile, and no link
// is followed: an entry that is not a plain file or directory (a symbolic or
// hard link, device, pipe or socket, src itself included) is an error.
func (w *Workspace) CopyTree(src, rel string, skip ...string) error {
	skipSet := map[string]bool{}
	for _, s := range skip {
		skipSet[s] = true
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("stage %s: %w", p, err)
		}
		r, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		r = filepath.ToSlash(r)
		if d.IsDir() {
			if skipSet[r] {
				return filepath.SkipDir
			}
			return nil
		}
		data, err := cases.ReadFile(p)
		if err != nil {
			return fmt.Errorf("copy into the workspace: %w", err)
		}
		return w.WriteFile(filepath.ToSlash(filepath.Join(rel, r)), data)
	})
}
