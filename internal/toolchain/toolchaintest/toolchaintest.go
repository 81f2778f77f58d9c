// Package toolchaintest holds what the SDK backends' tests share: a scripted
// stand-in executable that records the argv, working directory and
// environment of every call, readers for those records, and small file
// helpers. Only tests import it.
package toolchaintest

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/testenv"
)

//go:embed standin.sh
var standinScript string

// LoadCase loads the case directory dir, failing on any error problem.
func LoadCase(t testing.TB, dir string) *cases.Case {
	t.Helper()
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	c, problems := cases.Load(cases.Entry{Dir: abs, Name: filepath.Base(abs), Bucket: filepath.Base(filepath.Dir(abs)), Layout: cases.LayoutSDK})
	for _, p := range problems {
		require.NotEqual(t, "error", string(p.Severity), "%v", p)
	}
	return c
}

// LoadCaseWithoutScenarios loads a copy of the case in dir without its
// checks/scenarios/, for backend tests that count runs or time the default
// run: the scenario runs are the concern of the scenario tests.
func LoadCaseWithoutScenarios(t testing.TB, dir string) *cases.Case {
	t.Helper()
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	cp := filepath.Join(t.TempDir(), filepath.Base(filepath.Dir(abs)), filepath.Base(abs))
	require.NoError(t, os.MkdirAll(filepath.Dir(cp), 0o755))
	require.NoError(t, os.CopyFS(cp, os.DirFS(abs)))
	require.NoError(t, os.RemoveAll(filepath.Join(cp, "checks", "scenarios")))
	return LoadCase(t, cp)
}

// Read returns a file's content.
func Read(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

// TreeDigest lists the regular files under dir, each as "path mode size
// sha256", in walk order: two calls compare equal when nothing under dir
// changed (a build cache left as a build found it).
func TreeDigest(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		require.NoError(t, err)
		if info.Mode().IsRegular() {
			out = append(out, fmt.Sprintf("%s %v %d %x", p, info.Mode(), info.Size(), sha256.Sum256([]byte(Read(t, p)))))
		}
		return nil
	}))
	return out
}

// Write writes a file.
func Write(t testing.TB, path, content string) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

// StandIn makes a private bin directory holding the stand-in under each
// name, with the tool's testdata/bin/<name>.post snippet (relative to the
// test's package directory) when there is one.
func StandIn(t testing.TB, names ...string) string {
	t.Helper()
	bin := t.TempDir()
	for _, n := range names {
		require.NoError(t, os.WriteFile(filepath.Join(bin, n), []byte(standinScript), 0o755))
		if post, err := os.ReadFile(filepath.Join("testdata/bin", n+".post")); err == nil {
			Write(t, filepath.Join(bin, n+".post"), string(post))
		}
	}
	return bin
}

// Call is one recorded call of a stand-in.
type Call struct {
	Argv []string
	Cwd  string
	Env  map[string]string
	// Dir is where the call's records are.
	Dir string
}

// Calls returns the recorded calls of the stand-ins in bin, in order. It
// fails the test if a credential-looking variable or value reached a tool.
func Calls(t testing.TB, bin string) []Call {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(bin, "calls"))
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	sort.Slice(entries, func(i, j int) bool {
		a, _ := strconv.Atoi(entries[i].Name())
		b, _ := strconv.Atoi(entries[j].Name())
		return a < b
	})
	var out []Call
	for _, e := range entries {
		d := filepath.Join(bin, "calls", e.Name())
		c := Call{Dir: d, Argv: strings.Split(strings.TrimSuffix(Read(t, filepath.Join(d, "argv")), "\n"), "\n"), Cwd: strings.TrimSpace(Read(t, filepath.Join(d, "cwd"))), Env: map[string]string{}}
		for _, kv := range strings.Split(strings.TrimSuffix(Read(t, filepath.Join(d, "env")), "\n"), "\n") {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "PWD", "SHLVL", "_", "OLDPWD":
			default:
				require.False(t, sandbox.IsSecretName(k), "%s reached the tool", k)
				require.NotContains(t, v, "leak", "a secret value reached the tool as %s", k)
				c.Env[k] = v
			}
		}
		out = append(out, c)
	}
	return out
}

// SandboxEnv is the environment sandbox.Env gives a tool in ws, with the
// backend's extra variables over it.
func SandboxEnv(ws string, extra map[string]string) map[string]string {
	env := map[string]string{}
	for _, kv := range sandbox.Env(ws, nil) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	for k, v := range extra {
		env[k] = v
	}
	return env
}

// RequireGone waits until the process whose pid is in pidFile has exited.
func RequireGone(t *testing.T, pidFile string) {
	t.Helper()
	pid := strings.TrimSpace(Read(t, pidFile))
	require.NotEmpty(t, pid)
	require.Eventually(t, func() bool {
		_, err := os.Stat("/proc/" + pid)
		return os.IsNotExist(err)
	}, 3*time.Second, 20*time.Millisecond, "the child %s that ignored SIGTERM is gone", pid)
}

// Script returns the stand-in script, for tests that install it under a
// path of their own.
func Script() string { return standinScript }

// Jail returns the jail real toolchain tests build and run in: the
// strongest this machine gives. Without one that confines, the test is
// skipped (failed under EMBEDEVAL_REQUIRE_TOOLCHAINS=1), as for a missing
// toolchain: real builds of untrusted code never run unconfined.
func Jail(t testing.TB) *sandbox.Jail {
	t.Helper()
	j := sandbox.Detect(context.Background(), sandbox.JailConfig{})
	if !j.Confined() {
		testenv.Missing(t, "no jail for real builds here (Debian package bubblewrap, or run as root): "+j.Describe())
	}
	return j
}
