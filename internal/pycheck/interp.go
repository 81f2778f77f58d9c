package pycheck

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// interpreter is what the evaluator's Python says about itself, asked once
// outside the jail: the interpreter is trusted, the check modules are not.
type interpreter struct {
	// Executable is sys.executable: the interpreter proper, also when
	// Options.Python is a shim script (pyenv) that execs it. It is what the
	// jail runs, so that a virtualenv's interpreter keeps its environment.
	Executable string `json:"executable"`
	// Paths are the host paths the interpreter reads: its prefixes, the
	// real file behind Executable, its absolute sys.path entries (site
	// directories, .pth additions) and where the embedeval package is found
	// (editable installs may map it anywhere).
	Paths []string `json:"paths"`
}

// resolveScript prints the interpreter's JSON self-description.
const resolveScript = `import json, os, sys
paths = [sys.prefix, sys.base_prefix, sys.exec_prefix, getattr(sys, "base_exec_prefix", sys.exec_prefix)]
if sys.executable:
    real = os.path.realpath(sys.executable)
    paths += [real, os.path.dirname(real)]
paths += [p for p in sys.path if os.path.isabs(p)]
try:
    import importlib.util
    spec = importlib.util.find_spec("embedeval")
    if spec is not None:
        paths += list(spec.submodule_search_locations or [])
        if spec.origin and os.path.isabs(spec.origin):
            paths.append(os.path.dirname(spec.origin))
except Exception:
    pass
print(json.dumps({"executable": sys.executable, "paths": paths}))
`

// resolveTimeout bounds the interpreter's self-description.
const resolveTimeout = StartTimeout

// resolveInterpreter runs python (unjailed, with the worker's environment
// and working directory) to learn its real executable and the trees it
// needs, which the jail then binds read-only.
func resolveInterpreter(ctx context.Context, python, dir string, env []string) (interpreter, error) {
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-B", "-c", resolveScript)
	cmd.Dir = dir
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return interpreter{}, fmt.Errorf("ask %s where it lives: %w; stderr: %s", python, err, tail(stderr.Bytes()))
	}
	var in interpreter
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &in); err != nil {
		return interpreter{}, fmt.Errorf("ask %s where it lives: unreadable answer %q: %w", python, tail(stdout.Bytes()), err)
	}
	if !filepath.IsAbs(in.Executable) {
		return interpreter{}, fmt.Errorf("%s does not know its own executable (sys.executable = %q)", python, in.Executable)
	}
	if _, err := os.Stat(in.Executable); err != nil {
		return interpreter{}, fmt.Errorf("%s names its executable %s: %w", python, in.Executable, err)
	}
	// The jail binds real paths: resolve the directory, not the file (a
	// virtualenv's python is a symlink, and finds its pyvenv.cfg next to
	// the path it was started as).
	if dir, err := filepath.EvalSymlinks(filepath.Dir(in.Executable)); err == nil {
		in.Executable = filepath.Join(dir, filepath.Base(in.Executable))
	}
	return in, nil
}

// tail is the last maxStderr bytes of b, trimmed, or "(empty)".
func tail(b []byte) string {
	if len(b) > maxStderr {
		b = b[len(b)-maxStderr:]
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "(empty)"
	}
	return s
}
