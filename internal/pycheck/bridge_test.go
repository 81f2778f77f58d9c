package pycheck_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/pycheck"
	"github.com/embedeval/embedeval-go/internal/result"
)

// module writes a check module into a fresh case directory under root (a
// corpus root the bridge reads).
func module(t *testing.T, root, name, src string) string {
	t.Helper()
	caseDir, err := os.MkdirTemp(root, "case-")
	require.NoError(t, err)
	dir := filepath.Join(caseDir, "checks")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	return p
}

// newBridge is a bridge whose worker runs in workerJail and reads roots.
func newBridge(t *testing.T, py string, timeout time.Duration, roots ...string) *pycheck.Bridge {
	t.Helper()
	b := pycheck.New(pycheck.Options{Python: py, Timeout: timeout, Jail: workerJail(t), ReadOnly: roots})
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// problem extracts the located problem of a bridge error.
func problem(t *testing.T, err error) diag.Problem {
	t.Helper()
	require.Error(t, err)
	var ae *diag.AsError
	require.True(t, errors.As(err, &ae), "not a located problem: %v", err)
	return ae.Problem
}

const okChecks = `from embedeval.models import CheckDetail


def run_checks(generated_code):
    return [CheckDetail(check_name="has_main", passed="main" in generated_code.split(), expected="main", actual=None, check_type="exact_match")]
`

func TestCaseErrorsNameFileAndLine(t *testing.T) {
	py := setupPython(t)
	root := t.TempDir()
	ctx := context.Background()
	b := newBridge(t, py, 0, root)
	tests := []struct {
		name, src string
		load      bool // the error comes at load time
		rule      string
		line      int
		contains  string
	}{
		{"syntax error", "def run_checks(code):\n    return [\n", true, "check-load", 2, "SyntaxError"},
		{"import of a missing module", "import embedeval.nowhere\n", true, "check-load", 1, "PYTHONPATH"},
		{"raise at import", "x = 1\nraise RuntimeError('boom')\n", true, "check-load", 2, "RuntimeError: boom"},
		{"no run_checks", "X = 1\n", true, "check-load", 0, "no run_checks"},
		{"two parameters", "def run_checks(code, extra):\n    return []\n", true, "check-load", 1, "exactly one parameter"},
		{"run_checks raises", "def run_checks(code):\n    x = 1\n    return code[99999]\n", false, "check-runtime", 3, "IndexError"},
		{"not a list", "def run_checks(code):\n    return 'ok'\n", false, "check-shape", 1, "want a list"},
		{"not a record", "def run_checks(code):\n    return [42]\n", false, "check-shape", 0, "item 0 is a int"},
		{"passed not a bool", "def run_checks(code):\n    return [{'check_name': 'a', 'passed': 1}]\n", false, "check-shape", 0, "passed must be True or False"},
		{"duplicate names", "def run_checks(code):\n    return [{'check_name': 'a', 'passed': True}, {'check_name': 'a', 'passed': False}]\n", false, "check-shape", 0, "twice"},
		{"reserved type", "def run_checks(code):\n    return [{'check_name': 'a', 'passed': True, 'check_type': 'mutation'}]\n", false, "check-shape", 0, "reserved"},
		{"NaN weight", "def run_checks(code):\n    return [{'check_name': 'a', 'passed': True, 'weight': float('nan')}]\n", false, "check-shape", 0, "JSON cannot carry"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := module(t, root, "static.py", tc.src)
			err := b.LoadChecks(ctx, path)
			if !tc.load {
				require.NoError(t, err)
				_, err = b.RunChecks(ctx, path, "int main(void) { return 0; }")
			}
			p := problem(t, err)
			assert.Equal(t, tc.rule, p.Rule)
			assert.Equal(t, path, p.File)
			assert.Equal(t, tc.line, p.Line)
			assert.Contains(t, p.Message, tc.contains)
		})
	}
	assert.Equal(t, 1, b.Starts(), "case errors must not restart the worker")
}

func TestRecordsConverted(t *testing.T) {
	py := setupPython(t)
	root := t.TempDir()
	b := newBridge(t, py, 0, root)
	path := module(t, root, "behavior.py", `import sys
from embedeval.models import CheckDetail


def run_checks(code):
    print("noise on stdout must not reach the protocol")
    print("and on stderr", file=sys.stderr)
    return [
        CheckDetail(check_name="a", passed=True, expected="x", actual="y", check_type="behavioral", weight=2.5),
        {"check_name": "b", "passed": False, "expected": None, "actual": "n\u00e9\n", "extra_field": [1, 2]},
    ]
`)
	require.NoError(t, b.LoadChecks(context.Background(), path))
	ds, err := b.RunChecks(context.Background(), path, "code")
	require.NoError(t, err)
	require.Len(t, ds, 2)
	assert.Equal(t, "a", ds[0].CheckName)
	assert.True(t, ds[0].Passed)
	assert.Equal(t, "x", *ds[0].Expected)
	assert.Equal(t, "behavioral", ds[0].CheckType)
	assert.InDelta(t, 2.5, ds[0].Weight, 0)
	assert.False(t, ds[1].Passed)
	assert.Nil(t, ds[1].Expected)
	assert.Equal(t, "n\u00e9\n", *ds[1].Actual)
	assert.Equal(t, "constraint", ds[1].CheckType, "absent check_type defaults as in Starlark")
	assert.InDelta(t, 1.0, ds[1].Weight, 0)
}

func TestNegativesAndMutations(t *testing.T) {
	py := setupPython(t)
	root := t.TempDir()
	ctx := context.Background()
	b := newBridge(t, py, 0, root)
	path := module(t, root, "negatives.py", `NEGATIVES = [
    {"name": "drop_volatile", "mutation": lambda c: c.replace("volatile ", ""),
     "must_fail": ["x"], "description": "d", "factor_id": "F2.2"},
    {"name": "soft",
     "mutation": lambda c: c + "\n",
     "should_fail": ["y"], "bug_description": "b"},
    {"name": "raises", "mutation": lambda c: c[10**9], "must_fail": ["x"]},
    {"name": "returns_int", "mutation": lambda c: 3, "must_fail": ["x"]},
]
`)
	negs, err := b.LoadNegatives(ctx, path)
	require.NoError(t, err)
	require.Len(t, negs, 4)
	assert.Equal(t, checks.ForeignNegative{Name: "drop_volatile", MustFail: []string{"x"}, ShouldFail: []string{}, Description: "d", FactorID: "F2.2", Line: 2}, negs[0])
	assert.Equal(t, []string{"y"}, negs[1].ShouldFail)
	assert.Equal(t, 5, negs[1].Line, "the line of the mutation")
	mutant, err := b.ApplyNegative(ctx, path, "drop_volatile", "static volatile int n;")
	require.NoError(t, err)
	assert.Equal(t, "static int n;", mutant)
	p := problem(t, func() error { _, err := b.ApplyNegative(ctx, path, "raises", "x"); return err }())
	assert.Equal(t, "negatives", p.Rule)
	assert.Equal(t, 7, p.Line)
	assert.Contains(t, p.Message, `negative 'raises': mutation raised: IndexError`)
	p = problem(t, func() error { _, err := b.ApplyNegative(ctx, path, "returns_int", "x"); return err }())
	assert.Contains(t, p.Message, "returned int, want a string")
	assert.Equal(t, 8, p.Line)

	bad := module(t, root, "negatives.py", "NEGATIVES = [{'name': 'n', 'mutation': lambda c: c}]\n")
	p = problem(t, func() error { _, err := b.LoadNegatives(ctx, bad); return err }())
	assert.Contains(t, p.Message, "needs must_fail or should_fail")
	bad = module(t, root, "negatives.py", "NEGATIVES = [{'name': 'n', 'mutation': lambda c: c, 'must_fail': 'x'}]\n")
	p = problem(t, func() error { _, err := b.LoadNegatives(ctx, bad); return err }())
	assert.Contains(t, p.Message, "NEGATIVES[0]: must_fail must be a list of check names")
}

func TestHungWorkerIsStoppedAndRestarted(t *testing.T) {
	py := setupPython(t)
	root := t.TempDir()
	ctx := context.Background()
	b := newBridge(t, py, 300*time.Millisecond, root)
	hang := module(t, root, "static.py", "def run_checks(code):\n    while True:\n        pass\n")
	ok := module(t, root, "behavior.py", okChecks)
	require.NoError(t, b.LoadChecks(ctx, hang))
	start := time.Now()
	_, err := b.RunChecks(ctx, hang, "int main;")
	p := problem(t, err)
	assert.Equal(t, "check-runtime", p.Rule)
	assert.Contains(t, p.Message, "did not return within 300ms")
	assert.Less(t, time.Since(start), 5*time.Second)
	// The next call gets a fresh worker and works.
	require.NoError(t, b.LoadChecks(ctx, ok))
	ds, err := b.RunChecks(ctx, ok, "int main ;")
	require.NoError(t, err)
	assert.True(t, ds[0].Passed)
	assert.Equal(t, 2, b.Starts())
}

func TestCrashedWorkerIsRestarted(t *testing.T) {
	py := setupPython(t)
	root := t.TempDir()
	ctx := context.Background()
	b := newBridge(t, py, 0, root)
	// More than the 4 KiB kept of stderr, then the last words: the message
	// must end with them (stderr is read to its end before it is quoted).
	crash := module(t, root, "static.py", "import os, sys\n\n\ndef run_checks(code):\n    sys.stderr.write(('y' * 99 + '\\n') * 50)\n    print('dying', file=sys.stderr)\n    os._exit(3)\n")
	require.NoError(t, b.LoadChecks(ctx, crash))
	_, err := b.RunChecks(ctx, crash, "x")
	p := problem(t, err)
	assert.Equal(t, pycheck.BridgeRule, p.Rule)
	assert.Contains(t, p.Message, "exit status 3")
	assert.True(t, strings.HasSuffix(p.Message, "y\ndying"), "the message ends with the last line the worker printed: ...%s", p.Message[max(0, len(p.Message)-200):])
	assert.Less(t, len(p.Message), 4096+300, "stderr is quoted up to its last 4 KiB")
	ok := module(t, root, "behavior.py", okChecks)
	require.NoError(t, b.LoadChecks(ctx, ok))
	_, err = b.RunChecks(ctx, ok, "x")
	require.NoError(t, err)
	assert.Equal(t, 2, b.Starts())
}

func TestCancelledContextStopsTheCall(t *testing.T) {
	py := setupPython(t)
	root := t.TempDir()
	b := newBridge(t, py, time.Minute, root)
	hang := module(t, root, "static.py", "import time\n\n\ndef run_checks(code):\n    time.sleep(60)\n    return []\n")
	require.NoError(t, b.LoadChecks(context.Background(), hang))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := b.RunChecks(ctx, hang, "x")
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestWorkerEnvironmentIsAllowlisted(t *testing.T) {
	py := setupPython(t)
	root := t.TempDir()
	t.Setenv("AWS_SECRET_ACCESS_KEY", "do-not-leak")
	t.Setenv("EMBEDEVAL_TEST_UNLISTED", "not-passed")
	b := newBridge(t, py, 0, root)
	path := module(t, root, "static.py", `import os


def run_checks(code):
    return [{"check_name": k, "passed": True, "actual": v} for k, v in sorted(os.environ.items())]
`)
	require.NoError(t, b.LoadChecks(context.Background(), path))
	ds, err := b.RunChecks(context.Background(), path, "")
	require.NoError(t, err)
	env := map[string]string{}
	for _, d := range ds {
		env[d.CheckName] = *d.Actual
	}
	assert.NotContains(t, env, "AWS_SECRET_ACCESS_KEY")
	assert.NotContains(t, env, "EMBEDEVAL_TEST_UNLISTED")
	assert.Equal(t, os.Getenv("PYTHONPATH"), env["PYTHONPATH"], "PYTHONPATH is how modules find the implementation's package")
	assert.Equal(t, "1", env["PYTHONDONTWRITEBYTECODE"])
	_, err = os.Stat(filepath.Join(filepath.Dir(path), "__pycache__"))
	assert.True(t, os.IsNotExist(err), "no __pycache__ may appear in a case (it would change the case hash)")
}

func TestScopeAudit(t *testing.T) {
	py := setupPython(t)
	root := t.TempDir()
	b := newBridge(t, py, 0, root)
	path := module(t, root, "static.py", `from embedeval.check_utils import scoped_contains


def helper(generated_code):
    return "printk" not in generated_code


def run_checks(generated_code):
    fine = scoped_contains(generated_code, "k_msleep")
    raw = "k_sleep" in generated_code
    pos = generated_code.find("main")
    other = "x" in "xyz"
    return []
`)
	ps, err := b.Audit(context.Background(), path)
	require.NoError(t, err)
	var lines []int
	for _, p := range ps {
		lines = append(lines, p.Line)
		assert.Equal(t, checks.AuditRule, p.Rule)
	}
	assert.Equal(t, []int{5, 10, 11}, lines)
	assert.True(t, strings.Contains(ps[2].Message, "generated_code.find"), ps[2].Message)
}

func TestRefusedWithoutTheBridge(t *testing.T) {
	root := t.TempDir()
	rt, err := checks.NewRuntime(checks.Limits{}, nil)
	require.NoError(t, err)
	path := module(t, root, "static.py", okChecks)
	_, err = rt.LoadChecksFile(context.Background(), path)
	p := problem(t, err)
	assert.Equal(t, "python-checks", p.Rule)
	assert.Contains(t, p.Message, "--allow-python-checks")
	_, err = rt.LoadNegativesFile(context.Background(), module(t, root, "negatives.py", "NEGATIVES = []\n"))
	assert.Equal(t, "python-checks", problem(t, err).Rule)
}

func TestMissingInterpreter(t *testing.T) {
	b := newBridge(t, filepath.Join(t.TempDir(), "no-python"), 0)
	_, err := b.Version(context.Background())
	p := problem(t, err)
	assert.Equal(t, pycheck.BridgeRule, p.Rule)
	assert.Contains(t, p.Message, "cannot start the Python check worker")
}

// TestBatchedMutationErrors runs L4 through the batched path with a mutation
// that raises, one that leaves the code unchanged, one whose mutant makes a
// check raise, and one that is caught: each gets its own outcome and the
// errors name the file and line at fault.
func TestBatchedMutationErrors(t *testing.T) {
	py := setupPython(t)
	root := t.TempDir()
	ctx := context.Background()
	dir := filepath.Dir(module(t, root, "static.py", `def run_checks(code):
    if "BOOM" in code.split():
        raise ValueError("cannot parse")
    return [{"check_name": "has_lock", "passed": "lock" in code.split(), "check_type": "constraint"}]
`))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "behavior.py"), []byte("def run_checks(code):\n    return [{'check_name': 'short', 'passed': len(code) < 100}]\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "negatives.py"), []byte(`NEGATIVES = [
    {"name": "raises", "mutation": lambda c: c[10**6], "must_fail": ["has_lock"]},
    {"name": "unchanged", "mutation": lambda c: c.replace("absent", "x"), "must_fail": ["has_lock"]},
    {"name": "breaks_checks", "mutation": lambda c: c + " BOOM", "must_fail": ["has_lock"]},
    {"name": "drops_lock", "mutation": lambda c: c.replace("lock", "nolock"), "must_fail": ["has_lock"], "should_fail": ["short"]},
]
`), 0o644))
	c := &cases.Case{StaticPath: filepath.Join(dir, "static.py"), BehaviorPath: filepath.Join(dir, "behavior.py"), NegativesPath: filepath.Join(dir, "negatives.py")}
	c.Meta.ID = "gpio-basic-001"
	b := newBridge(t, py, 0, root)
	rt, err := checks.NewRuntime(checks.Limits{}, nil)
	require.NoError(t, err)
	rt.UseForeign(b)
	cc, ps := eval.LoadCaseChecks(ctx, rt, c)
	require.Empty(t, ps)
	require.NotNil(t, cc.Negatives.Batcher(), "a .py negatives file runs L4 in one call")
	s := rt.NewSession()
	defer s.Close()
	res := eval.New(nil, eval.AllLayers).Evaluate(ctx, s, cc, "take lock ; release", eval.Subject{})
	l4, ok := res.Layer(result.LayerMutation)
	require.True(t, ok)
	require.Len(t, l4.Mutations, 4)
	m := l4.Mutations
	assert.Equal(t, result.MutationError, m[0].Outcome)
	require.NotNil(t, m[0].Problem)
	assert.Equal(t, c.NegativesPath, m[0].Problem.File)
	assert.Equal(t, 2, m[0].Problem.Line)
	assert.Contains(t, m[0].Error, "IndexError")
	assert.Equal(t, result.MutationUnchanged, m[1].Outcome)
	assert.Equal(t, result.MutationError, m[2].Outcome)
	require.NotNil(t, m[2].Problem)
	assert.Equal(t, c.StaticPath, m[2].Problem.File)
	assert.Equal(t, 3, m[2].Problem.Line)
	assert.Contains(t, m[2].Error, `negative "breaks_checks": checks raised on the mutant`)
	assert.Equal(t, result.MutationApplied, m[3].Outcome)
	assert.Equal(t, []result.CheckVerdict{{CheckName: "has_lock", Caught: true}}, m[3].MustFail)
	assert.Equal(t, []result.CheckVerdict{{CheckName: "short", Caught: false}}, m[3].ShouldFail)
	assert.Equal(t, result.StatusPassed, l4.Status, "errors are recorded per negative; the one applied negative was caught")
}

func TestProbe(t *testing.T) {
	py := setupPython(t)
	p, err := newBridge(t, py, 0).Probe(context.Background())
	require.NoError(t, err)
	assert.NotEmpty(t, p.Python)
	assert.Equal(t, filepath.Join(os.Getenv("PYTHONPATH"), "embedeval"), p.Embedeval)
	assert.Empty(t, p.EmbedevalErr)

	// A symlinked PYTHONPATH entry is named by its real path, the one the
	// jail binds.
	real := os.Getenv("PYTHONPATH")
	link := filepath.Join(t.TempDir(), "pyimpl")
	require.NoError(t, os.Symlink(real, link))
	t.Setenv("PYTHONPATH", link)
	p, err = newBridge(t, py, 0).Probe(context.Background())
	require.NoError(t, err)
	assert.Empty(t, p.EmbedevalErr)
	assert.Equal(t, filepath.Join(real, "embedeval"), p.Embedeval)

	t.Setenv("PYTHONPATH", t.TempDir())
	p, err = newBridge(t, py, 0).Probe(context.Background())
	require.NoError(t, err)
	assert.Empty(t, p.Embedeval)
	assert.Contains(t, p.EmbedevalErr, "No module named 'embedeval'")
}

func TestNoJailIsAnError(t *testing.T) {
	b := pycheck.New(pycheck.Options{Python: "python3"})
	t.Cleanup(func() { _ = b.Close() })
	_, err := b.Version(context.Background())
	p := problem(t, err)
	assert.Equal(t, pycheck.BridgeRule, p.Rule)
	assert.Contains(t, p.Message, "no jail configured for the Python worker")
	assert.False(t, b.Jailed())
}

// TestModulesOutsideTheRoots: a module under a symlink into the corpus root
// is read through its real path; one outside the roots (validate's
// base-revision modules in a temporary directory) gets its directory bound
// by one restart of a jailed worker, and no more for its neighbours.
func TestModulesOutsideTheRoots(t *testing.T) {
	py := setupPython(t)
	ctx := context.Background()
	root := t.TempDir()
	b := newBridge(t, py, 0, root)
	inside := module(t, root, "static.py", okChecks)
	link := filepath.Join(t.TempDir(), "case")
	require.NoError(t, os.Symlink(filepath.Dir(filepath.Dir(inside)), link))
	viaLink := filepath.Join(link, "checks", "static.py")
	require.NoError(t, b.LoadChecks(ctx, viaLink))
	ds, err := b.RunChecks(ctx, viaLink, "int main ;")
	require.NoError(t, err)
	assert.True(t, ds[0].Passed)
	require.Equal(t, 1, b.Starts())

	elsewhere := t.TempDir()
	outside := module(t, elsewhere, "static.py", okChecks)
	neighbour := filepath.Join(filepath.Dir(outside), "behavior.py")
	require.NoError(t, os.WriteFile(neighbour, []byte(okChecks), 0o644))
	require.NoError(t, b.LoadChecks(ctx, outside))
	require.NoError(t, b.LoadChecks(ctx, neighbour))
	_, err = b.RunChecks(ctx, neighbour, "x")
	require.NoError(t, err)
	require.NoError(t, b.LoadChecks(ctx, inside))
	if b.Jailed() {
		assert.Equal(t, 2, b.Starts(), "one restart binds the outside module's directory")
	} else {
		assert.Equal(t, 1, b.Starts(), "an unconfined worker sees every file already")
	}
}
