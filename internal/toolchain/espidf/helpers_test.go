package espidf

import (
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
)

func loadCase(t testing.TB, dir string) *cases.Case {
	t.Helper()
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	c, problems := cases.Load(cases.Entry{Dir: abs, Name: filepath.Base(abs), Bucket: filepath.Base(filepath.Dir(abs)), Layout: cases.LayoutSDK})
	for _, p := range problems {
		require.NotEqual(t, "error", string(p.Severity), "%v", p)
	}
	return c
}

func read(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

func write(t testing.TB, path, content string) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

// standIn makes a private bin directory holding the stand-in under each
// name, with the tool's .post snippet from testdata when there is one.
func standIn(t testing.TB, names ...string) string {
	t.Helper()
	bin := t.TempDir()
	script := read(t, "testdata/bin/standin")
	for _, n := range names {
		require.NoError(t, os.WriteFile(filepath.Join(bin, n), []byte(script), 0o755))
		if post, err := os.ReadFile(filepath.Join("testdata/bin", n+".post")); err == nil {
			write(t, filepath.Join(bin, n+".post"), string(post))
		}
	}
	return bin
}

type call struct {
	argv []string
	cwd  string
	env  map[string]string
	dir  string
}

func calls(t testing.TB, bin string) []call {
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
	var out []call
	for _, e := range entries {
		d := filepath.Join(bin, "calls", e.Name())
		c := call{dir: d, argv: strings.Split(strings.TrimSuffix(read(t, filepath.Join(d, "argv")), "\n"), "\n"), cwd: strings.TrimSpace(read(t, filepath.Join(d, "cwd"))), env: map[string]string{}}
		for _, kv := range strings.Split(strings.TrimSuffix(read(t, filepath.Join(d, "env")), "\n"), "\n") {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "PWD", "SHLVL", "_", "OLDPWD":
			default:
				require.False(t, sandbox.IsSecretName(k), "%s reached the tool", k)
				require.NotContains(t, v, "leak", "a secret value reached the tool as %s", k)
				c.env[k] = v
			}
		}
		out = append(out, c)
	}
	return out
}

// sandboxEnv is the environment sandbox.Env gives a tool in ws, with the
// backend's extra variables over it.
func sandboxEnv(ws string, extra map[string]string) map[string]string {
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

func requireGone(t *testing.T, pidFile string) {
	t.Helper()
	pid := strings.TrimSpace(read(t, pidFile))
	require.NotEmpty(t, pid)
	require.Eventually(t, func() bool {
		_, err := os.Stat("/proc/" + pid)
		return os.IsNotExist(err)
	}, 3*time.Second, 20*time.Millisecond, "the child %s that ignored SIGTERM is gone", pid)
}
