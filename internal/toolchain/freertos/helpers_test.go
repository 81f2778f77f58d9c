package freertos

import (
	"testing"

	"github.com/embedeval/embedeval-go/internal/cases"
	tt "github.com/embedeval/embedeval-go/internal/toolchain/toolchaintest"
)

// The shared stand-in helpers, under the names this package's tests use.

// loadCase loads a copy without the case's scenario runs: these tests count
// QEMU runs and time the default one.
func loadCase(t testing.TB, dir string) *cases.Case { return tt.LoadCaseWithoutScenarios(t, dir) }
func read(t testing.TB, path string) string         { return tt.Read(t, path) }
func write(t testing.TB, path, content string)      { tt.Write(t, path, content) }
func standIn(t testing.TB, names ...string) string  { return tt.StandIn(t, names...) }
func requireGone(t *testing.T, pidFile string)      { tt.RequireGone(t, pidFile) }

func sandboxEnv(ws string, extra map[string]string) map[string]string {
	return tt.SandboxEnv(ws, extra)
}

type call struct {
	argv []string
	cwd  string
	env  map[string]string
	dir  string
}

func calls(t testing.TB, bin string) []call {
	t.Helper()
	var out []call
	for _, c := range tt.Calls(t, bin) {
		out = append(out, call{argv: c.Argv, cwd: c.Cwd, env: c.Env, dir: c.Dir})
	}
	return out
}
