package report

import (
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/testenv"
)

// TestSummaryReadsAsSeedBenchmarkReport reads the golden summary.json with
// the seed implementation's own pydantic models (testdata/seed, copied
// unmodified), as a dashboard built on them does: the file validates, every
// field of BenchmarkReport and of every ModelScore is present (none is left
// to its pydantic default), the run archive's fields (run_timestamp, model,
// total_results, passed, failed, run_id) are there with their types, and
// layer_pass_rates uses only the seed's layer names.
func TestSummaryReadsAsSeedBenchmarkReport(t *testing.T) {
	py := testenv.Tool(t, "python3", "python3", "the seed's models are pydantic classes")
	if out, err := exec.CommandContext(t.Context(), py, "-c", "import pydantic, sys; sys.exit(pydantic.VERSION[0] != '2')").CombinedOutput(); err != nil {
		testenv.Missing(t, "pydantic 2 is not importable by "+py+" (Debian package python3-pydantic): "+string(out))
	}
	for _, golden := range []string{"golden", "golden_inconclusive"} {
		t.Run(golden, func(t *testing.T) {
			out, err := exec.CommandContext(t.Context(), py, filepath.Join("testdata", "seed", "read_summary.py"),
				filepath.Join("testdata", golden, SummaryFile)).Output()
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				t.Fatalf("the seed's BenchmarkReport refuses %s: %s", golden, ee.Stderr)
			}
			require.NoError(t, err)
			var got struct {
				Missing   []string `json:"missing"`
				BadLayers []string `json:"bad_layers"`
				Models    int      `json:"models"`
			}
			require.NoError(t, json.Unmarshal(out, &got), "%s", out)
			require.Empty(t, got.Missing, "fields of the seed's report missing from summary.json")
			require.Empty(t, got.BadLayers, "layer_pass_rates keys that are not the seed's layer names")
			require.Positive(t, got.Models)
		})
	}
}
