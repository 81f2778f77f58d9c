package pycheck_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/pycheck"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/testenv"
)

// parityScript evaluates .py checks in-process by the seed methodology's
// rules (shipped for users to check parity on their corpus).
const parityScript = "../../scripts/pycheck_parity.py"

// pyEvaluation is the JSON `pycheck_parity.py evaluate` prints: the layers
// the in-process Python evaluation ran on one code.
type pyEvaluation struct {
	Layers []pyLayer `json:"layers"`
}

type pyLayer struct {
	Layer     int               `json:"layer"`
	Status    string            `json:"status"`
	Details   []json.RawMessage `json:"details"`
	Mutations []pyMutation      `json:"mutations"`
}

type pyMutation struct {
	Name       string                `json:"name"`
	Outcome    string                `json:"outcome"`
	MustFail   []result.CheckVerdict `json:"must_fail"`
	ShouldFail []result.CheckVerdict `json:"should_fail"`
}

// setupPython finds python3 and points PYTHONPATH at the stand-in package.
func setupPython(t testing.TB) string {
	t.Helper()
	py := testenv.Tool(t, "python3", "python3", "the bridge runs check modules in CPython")
	dir, err := filepath.Abs(filepath.Join("testdata", "pyimpl"))
	require.NoError(t, err)
	t.Setenv("PYTHONPATH", dir)
	return py
}

// workerJail is the jail the bridge's tests run the worker in: the one
// this machine has (bubblewrap here). Without a confining jail the tests of
// the bridge's behaviour run it unconfined, since confinement is
// TestHostileCheckModule's subject, unless the environment demands the
// toolchains (then a missing jail fails them).
func workerJail(t testing.TB) *sandbox.Jail {
	t.Helper()
	j := sandbox.Detect(context.Background(), sandbox.JailConfig{})
	if j.Mode() == sandbox.ModeBubblewrap && j.Confined() {
		return j
	}
	if os.Getenv(testenv.RequireEnv) == "1" {
		testenv.Missing(t, "no bubblewrap jail for the Python worker here (Debian package bubblewrap): "+j.Describe())
	}
	t.Logf("the Python worker runs unconfined in this test: no bubblewrap jail here (%s)", j.Describe())
	return sandbox.Unconfined()
}

// fixtureCorpus is the absolute path of the fixture corpus.
func fixtureCorpus(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "corpus"))
	require.NoError(t, err)
	return dir
}

// bridgeRuntime is a check runtime whose .py files go through a bridge (in
// workerJail, reading the fixture corpus), and a session of it; both are
// closed when the test ends.
func bridgeRuntime(t testing.TB, py string) (*checks.Runtime, *checks.Session) {
	t.Helper()
	bridge := pycheck.New(pycheck.Options{Python: py, Jail: workerJail(t), ReadOnly: []string{fixtureCorpus(t)}})
	t.Cleanup(func() { _ = bridge.Close() })
	rt, err := checks.NewRuntime(checks.Limits{}, nil)
	require.NoError(t, err)
	rt.UseForeign(bridge)
	s := rt.NewSession()
	t.Cleanup(s.Close)
	return rt, s
}

func loadFixtureCases(t testing.TB, root string) []*cases.Case {
	t.Helper()
	entries, problems := cases.Discover(root, false)
	require.Empty(t, problems)
	var out []*cases.Case
	for _, e := range entries {
		c, ps := cases.Load(e)
		require.Empty(t, ps, "fixture case %s", e.Dir)
		out = append(out, c)
	}
	require.NotEmpty(t, out)
	return out
}

// runPython evaluates code in-process with scripts/pycheck_parity.py.
func runPython(t *testing.T, py, caseDir, code string) pyEvaluation {
	t.Helper()
	file := filepath.Join(t.TempDir(), "code")
	require.NoError(t, os.WriteFile(file, []byte(code), 0o644))
	out, err := exec.Command(py, "-B", parityScript, "evaluate", caseDir, file).Output()
	require.NoError(t, err)
	var ev pyEvaluation
	require.NoError(t, json.Unmarshal(out, &ev))
	return ev
}

// TestParityWithPythonEvaluator evaluates the reference, every accepted
// variant, every mutant of the reference and a wrong answer of each fixture
// case both through the bridge and in-process in Python (the seed
// methodology's rules, scripts/pycheck_parity.py, importing the modules the
// way the Python implementation does), and requires every layer status, every
// check record and every negative verdict to be equal.
func TestParityWithPythonEvaluator(t *testing.T) {
	py := setupPython(t)
	ctx := context.Background()
	rt, s := bridgeRuntime(t, py)
	ev := eval.New(nil, eval.AllLayers)
	compared := 0
	for _, c := range loadFixtureCases(t, filepath.Join("testdata", "corpus")) {
		cc, ps := eval.LoadCaseChecks(ctx, rt, c)
		require.Empty(t, ps)
		ref, err := os.ReadFile(c.ReferencePath)
		require.NoError(t, err)
		codes := map[string]string{"reference": string(ref), "wrong answer": "int main(void)\n{\n\treturn 0;\n}\n"}
		for _, p := range c.AcceptPaths {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			codes[filepath.Base(p)] = string(b)
		}
		for _, neg := range cc.Negatives.Negatives {
			mutant, err := neg.Apply(ctx, s, string(ref))
			require.NoError(t, err)
			codes["mutant "+neg.Name] = mutant
		}
		for label, code := range codes {
			t.Run(c.Meta.ID+"/"+label, func(t *testing.T) {
				got := ev.Evaluate(ctx, s, cc, code, eval.Subject{Model: "parity"})
				want := runPython(t, py, c.Dir, code)
				assertParity(t, want, got)
			})
			compared++
		}
	}
	assert.GreaterOrEqual(t, compared, 15)
}

func assertParity(t *testing.T, want pyEvaluation, got result.EvalResult) {
	t.Helper()
	ran := 0
	for _, pl := range want.Layers {
		gl, ok := got.Layer(pl.Layer)
		require.True(t, ok, "layer %d", pl.Layer)
		assert.Equal(t, pl.Status, string(gl.Status), "L%d status", pl.Layer)
		ran++
		if pl.Layer != result.LayerMutation {
			var wantDetails []result.CheckDetail
			for _, raw := range pl.Details {
				var d result.CheckDetail
				require.NoError(t, json.Unmarshal(raw, &d))
				wantDetails = append(wantDetails, d)
			}
			assert.Equal(t, wantDetails, nilIfEmpty(gl.Details), "L%d check records", pl.Layer)
			continue
		}
		type pair struct {
			Name   string
			Passed bool
		}
		var wantPairs, gotPairs []pair
		for _, raw := range pl.Details {
			var p struct {
				CheckName string `json:"check_name"`
				Passed    bool   `json:"passed"`
			}
			require.NoError(t, json.Unmarshal(raw, &p))
			wantPairs = append(wantPairs, pair{p.CheckName, p.Passed})
		}
		for _, d := range gl.Details {
			gotPairs = append(gotPairs, pair{d.CheckName, d.Passed})
		}
		assert.Equal(t, wantPairs, gotPairs, "L4 records")
		require.Len(t, gl.Mutations, len(pl.Mutations))
		for i, pm := range pl.Mutations {
			gm := gl.Mutations[i]
			assert.Equal(t, pm.Name, gm.Name)
			assert.Equal(t, pm.Outcome, string(gm.Outcome), "negative %s", pm.Name)
			assert.Equal(t, emptyAsNil(pm.MustFail), emptyAsNil(gm.MustFail), "negative %s must_fail verdicts", pm.Name)
			assert.Equal(t, emptyAsNil(pm.ShouldFail), emptyAsNil(gm.ShouldFail), "negative %s should_fail verdicts", pm.Name)
		}
	}
	// The layers the Python side did not reach were skipped by the halting rule.
	for _, l := range got.Layers {
		if l.Layer == result.LayerCompile || l.Layer == result.LayerRuntime {
			continue
		}
		reached := false
		for _, pl := range want.Layers {
			reached = reached || pl.Layer == l.Layer
		}
		if !reached {
			assert.Equal(t, result.StatusSkipped, l.Status, "L%d should not have run", l.Layer)
		}
	}
	require.Positive(t, ran)
}

func emptyAsNil(vs []result.CheckVerdict) []result.CheckVerdict {
	if len(vs) == 0 {
		return nil
	}
	return vs
}

func nilIfEmpty(ds []result.CheckDetail) []result.CheckDetail {
	if len(ds) == 0 {
		return nil
	}
	return ds
}
