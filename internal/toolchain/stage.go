package toolchain

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
)

// caseOnlyEntries are the parts of a case directory that are not build
// files: they are never copied into a build workspace.
func caseOnlyEntries() []string {
	return []string{"metadata.yaml", "prompt.md", "reference", "checks", "context"}
}

// Stage makes a fresh workspace holding the case's build files (everything
// but metadata, prompt, reference, checks and context) and the code at
// codePath (a slash path inside the workspace, such as "src/main.c"). The
// case directory is only read, with cases.ReadFile; an entry that is not a
// plain file or directory (a link, device, pipe or socket) is an error. The
// caller closes the workspace.
func Stage(req Request, prefix, codePath string) (*sandbox.Workspace, error) {
	ws, err := sandbox.NewWorkspace(prefix)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(req.Case.Dir)
	if err != nil {
		ws.Close()
		return nil, fmt.Errorf("stage %s: %w", req.Case.Dir, err)
	}
	skip := map[string]bool{}
	for _, e := range caseOnlyEntries() {
		skip[e] = true
	}
	for _, e := range entries {
		if skip[e.Name()] || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		src := filepath.Join(req.Case.Dir, e.Name())
		if e.IsDir() {
			err = ws.CopyTree(src, e.Name())
		} else {
			var data []byte
			if data, err = cases.ReadFile(src); err == nil {
				err = ws.WriteFile(e.Name(), data)
			}
		}
		if err != nil {
			ws.Close()
			return nil, fmt.Errorf("stage %s: %w", src, err)
		}
	}
	if err := ws.WriteFile(codePath, []byte(req.Code)); err != nil {
		ws.Close()
		return nil, err
	}
	return ws, nil
}

// Log digest sizes for layer reasons: enough for a feedback prompt.
const (
	digestLines = 40
	digestTail  = 10
)

// BuildOutcome turns a finished build command into the L1 result: passed on
// a clean exit; failed (the code does not build) with the digest of the log
// as the reason; error when our own limit or a cancellation stopped it —
// infrastructure, not the model's fault.
func BuildOutcome(step string, res sandbox.Result, timeout fmt.Stringer) result.LayerResult {
	switch {
	case res.Cancelled:
		return ErrorLayer(step + ": cancelled")
	case res.TimedOut:
		return ErrorLayer(fmt.Sprintf("%s: timed out after %s", step, timeout))
	case res.Limit != "":
		// The code under build (a generated file, an #include loop) filled
		// the workspace: the answer's doing.
		return result.LayerResult{Status: result.StatusFailed, Reason: fmt.Sprintf("%s stopped: %s", step, res.Limit)}
	case res.OK():
		return result.LayerResult{Status: result.StatusPassed}
	}
	why := fmt.Sprintf("%s failed (exit %d)", step, res.ExitCode)
	if res.Signal != "" {
		why = fmt.Sprintf("%s killed by %s", step, res.Signal)
	}
	digest := sandbox.Digest(string(res.Output), digestLines, digestTail)
	return result.LayerResult{Status: result.StatusFailed, Reason: why + ":\n" + digest}
}

// StartError is the L1/L2 result when a tool could not even be started.
func StartError(step string, err error) result.LayerResult {
	return ErrorLayer(fmt.Sprintf("%s: %v", step, err))
}

// ToolPath is the PATH in which a backend finds its tools and which the
// processes it starts get; empty means this process's PATH. Tests set it to
// put scripted stand-ins first.
type ToolPath string

// Value returns the PATH to use.
func (p ToolPath) Value() string {
	if p != "" {
		return string(p)
	}
	return os.Getenv("PATH")
}

// Env is the environment of a process a backend starts in workspace: the
// jail's allowlisted base (sandbox.Env) with the passThrough variables and
// set, and this PATH when it is not the process's own.
func (p ToolPath) Env(workspace string, passThrough []string, set ...string) []string {
	if p != "" {
		set = append([]string{"PATH=" + string(p)}, set...)
	}
	return sandbox.Env(workspace, passThrough, set...)
}

// Look resolves a command in the PATH.
func (p ToolPath) Look(name string) (string, error) {
	for _, dir := range filepath.SplitList(p.Value()) {
		if dir == "" {
			continue
		}
		f := filepath.Join(dir, name)
		if st, err := os.Stat(f); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return f, nil
		}
	}
	return "", fmt.Errorf("%s: %w", name, exec.ErrNotFound)
}

// BuildFiles lists the case's build files — what Stage copies into a
// workspace besides the code — as slash paths relative to the case
// directory, sorted, each with its path on disk. Backends hash them for
// build cache keys.
func BuildFiles(c *cases.Case) ([][2]string, error) {
	entries, err := os.ReadDir(c.Dir)
	if err != nil {
		return nil, fmt.Errorf("list build files of %s: %w", c.Dir, err)
	}
	skip := map[string]bool{}
	for _, e := range caseOnlyEntries() {
		skip[e] = true
	}
	var out [][2]string
	for _, e := range entries {
		if skip[e.Name()] || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		root := filepath.Join(c.Dir, e.Name())
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			rel, err := filepath.Rel(c.Dir, p)
			if err != nil {
				return err
			}
			out = append(out, [2]string{filepath.ToSlash(rel), p})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("list build files of %s: %w", c.Dir, err)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out, nil
}
