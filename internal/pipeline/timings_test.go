package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/platform"
)

func TestTimingsRecord(t *testing.T) {
	tm := Timings{}
	tm.Record("r1", map[string]string{"a": "zephyr"}, map[string][]float64{"a": {3, 1, 2}})
	require.Equal(t, Timing{Platform: "zephyr", Seconds: 2, Samples: 3, Recent: []float64{1, 2, 3}, LastRun: "r1"}, tm["a"])
	tm.Record("r1", map[string]string{"a": "zephyr"}, map[string][]float64{"a": {100}})
	require.Equal(t, 3, tm["a"].Samples, "the same run is recorded once")
	tm.Record("r2", map[string]string{"a": "zephyr"}, map[string][]float64{"a": {10}})
	require.Equal(t, Timing{Platform: "zephyr", Seconds: 2.5, Samples: 4, Recent: []float64{1, 2, 3, 10}, LastRun: "r2"}, tm["a"])
	tm.Record("r3", map[string]string{"a": "esp-idf"}, map[string][]float64{"a": {7}})
	require.Equal(t, Timing{Platform: "esp-idf", Seconds: 7, Samples: 1, Recent: []float64{7}, LastRun: "r3"}, tm["a"], "a new platform starts a new history")
	for i := range 20 {
		tm.Record("x"+string(rune('a'+i)), map[string]string{"a": "esp-idf"}, map[string][]float64{"a": {float64(i)}})
	}
	require.Len(t, tm["a"].Recent, maxRecent)
	require.Equal(t, 21, tm["a"].Samples)

	path := filepath.Join(t.TempDir(), "timings.json")
	require.NoError(t, tm.Save(path))
	back, hash, err := LoadTimings(path)
	require.NoError(t, err)
	require.Equal(t, tm, back)
	require.Regexp(t, `^sha256:[0-9a-f]{64}$`, hash)

	missing, hash, err := LoadTimings(filepath.Join(t.TempDir(), "none.json"))
	require.NoError(t, err)
	require.Empty(t, missing)
	require.Empty(t, hash)

	require.NoError(t, os.WriteFile(path, []byte("{\n\"a\": []\n}"), 0o644))
	_, _, err = LoadTimings(path)
	require.ErrorContains(t, err, path+":2:6: json: cannot unmarshal array")
}

func TestTablePrediction(t *testing.T) {
	reg, err := platform.Default()
	require.NoError(t, err)
	target := func(name string) platform.Target {
		for _, tg := range reg.Targets {
			if tg.Name == name {
				return tg
			}
		}
		t.Fatalf("no target %s", name)
		return platform.Target{}
	}
	for _, tc := range []struct {
		target, board string
		bytes         int
		build, run    bool
		want          float64
	}{
		{"linux-kernel-module", "x86_64", 4096, true, true, 2.05},
		{"baremetal-cortex-m", "mps2-an385", 4096, true, true, 12.05},
		{"baremetal-cortex-m", "mps2-an385", 4096, true, false, 2.05},
		{"baremetal-cortex-m", "mps2-an385", 4096, false, true, 0.05},
		{"linux-udev-rules", "x86_64", 4096, true, true, 0.05},
		{"zephyr", "nrf52840dk/nrf52840", 4096, true, true, 45.05},
		{"zephyr", "native_sim", 16384, true, true, 200.05},
		{"zephyr", "native_sim", 100, true, true, 25.05},
	} {
		require.InDelta(t, tc.want, TablePrediction(target(tc.target), tc.board, tc.bytes, tc.build, tc.run), 1e-9, "%+v", tc)
	}
}
