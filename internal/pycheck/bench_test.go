package pycheck_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/pycheck"
)

// The two benchmarks below measure the same work on the same fixture cases:
// evaluating each case's reference through L0, L3 and L4 (every negative
// applied, the checks re-run on each mutant). BenchmarkBridgeEvaluate does it
// through the bridge; BenchmarkPythonAlone in-process in one Python process
// (scripts/pycheck_parity.py evaluate --repeat, no process start per
// case), reporting its own per-case time as ms/case. Results are in
// docs/BENCHMARKS.md.

func BenchmarkBridgeEvaluate(b *testing.B) {
	py := setupPython(b)
	ctx := context.Background()
	rt, s := bridgeRuntime(b, py)
	ev := eval.New(nil, eval.AllLayers)
	fixtures := loadFixtureCases(b, filepath.Join("testdata", "corpus"))
	var loaded []*eval.CaseChecks
	var refs []string
	for _, c := range fixtures {
		cc, ps := eval.LoadCaseChecks(ctx, rt, c)
		require.Empty(b, ps)
		ref, err := os.ReadFile(c.ReferencePath)
		require.NoError(b, err)
		loaded, refs = append(loaded, cc), append(refs, string(ref))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, cc := range loaded {
			res := ev.Evaluate(ctx, s, cc, refs[j], eval.Subject{Model: "bench"})
			if !res.Passed {
				b.Fatalf("%s: reference did not pass", cc.Case.Meta.ID)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(loaded)), "ms/case")
}

func BenchmarkPythonAlone(b *testing.B) {
	py := setupPython(b)
	fixtures := loadFixtureCases(b, filepath.Join("testdata", "corpus"))
	repeat := max(b.N, 50)
	total := 0.0
	for _, c := range fixtures {
		out, err := exec.Command(py, "-B", parityScript, "evaluate", c.Dir, c.ReferencePath, "--repeat", strconv.Itoa(repeat)).Output()
		require.NoError(b, err)
		var r struct {
			Seconds float64 `json:"seconds_per_evaluation"`
		}
		require.NoError(b, json.Unmarshal(out, &r))
		require.Positive(b, r.Seconds)
		total += r.Seconds
	}
	b.ReportMetric(total*1000/float64(len(fixtures)), "ms/case")
}

// BenchmarkRoundTrip is the bridge's fixed cost per call (a ping).
func BenchmarkRoundTrip(b *testing.B) {
	py := setupPython(b)
	bridge := pycheck.New(pycheck.Options{Python: py, Jail: workerJail(b)})
	b.Cleanup(func() { _ = bridge.Close() })
	_, err := bridge.Version(context.Background())
	require.NoError(b, err)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := bridge.Version(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
