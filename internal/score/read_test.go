package score

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/result"
)

func jsonLine(t testing.TB, r result.EvalResult) string {
	t.Helper()
	b, err := json.Marshal(r)
	require.NoError(t, err)
	return string(b)
}

func writeFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "results.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

func TestReadResultsStreamsInOrder(t *testing.T) {
	var lines []string
	for i := range 3000 { // several batches
		lines = append(lines, jsonLine(t, res("m", "timer-001", i, -1)))
	}
	p := writeFile(t, strings.Join(lines, "\n")+"\n\n")
	var got []int
	warnings, err := ReadResults(p, func(r result.EvalResult) error {
		got = append(got, r.Attempt)
		return nil
	})
	require.NoError(t, err)
	require.Empty(t, warnings)
	require.Len(t, got, 3000)
	for i, a := range got {
		require.Equal(t, i, a)
	}
}

func TestReadResultsBadInput(t *testing.T) {
	good := jsonLine(t, res("m", "timer-001", 0, -1))
	noStatus := strings.Replace(good, `"status":"passed","total_time_seconds"`, `"total_time_seconds"`, 1)
	noAttempt := strings.Replace(good, `"attempt":0,`, ``, 1)
	tests := []struct {
		name    string
		content string
		wantErr string
		wantW   []string
	}{
		{
			name:    "torn last line is a warning",
			content: good + "\n" + good[:40],
			wantW:   []string{"warning: results.jsonl:2: last line is cut off (40 bytes, not valid JSON, no trailing newline; the file was probably torn while being written); that result is missing from every score"},
		},
		{
			name:    "torn middle line is an error",
			content: good[:40] + "\n" + good + "\n",
			wantErr: "results.jsonl:1: invalid JSON: the line ends before the record does",
		},
		{
			name:    "unknown field",
			content: good + "\n" + `{"case_id":"timer-001","model":"m","attempt":0,"total_score":1.0}` + "\n",
			wantErr: `results.jsonl:2: not a result record of this version: unknown field "total_score" (the fields are those of result.EvalResult)`,
		},
		{
			name:    "missing status",
			content: noStatus + "\n",
			wantErr: "results.jsonl:1: result m/timer-001 attempt 0 has no status (want passed, failed or error)",
		},
		{
			name:    "missing attempt",
			content: noAttempt + "\n",
			wantErr: `results.jsonl:1: not a result record: missing field "attempt"`,
		},
		{
			name:    "wrong type",
			content: strings.Replace(good, `"attempt":0`, `"attempt":"0"`, 1) + "\n",
			wantErr: "results.jsonl:1: not a result record: cannot unmarshal string into Go struct field result.attempt of type int",
		},
		{
			name:    "a JSON array instead of lines",
			content: "[" + good + "]\n",
			wantErr: "results.jsonl:1: expected a result object (one per line), found an array (is this a report or a JSON array rather than JSON lines?)",
		},
		{
			name:    "two values on a line",
			content: good + good + "\n",
			wantErr: "results.jsonl:1: invalid JSON: more than one value on the line",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "results.jsonl")
			require.NoError(t, os.WriteFile(p, []byte(tt.content), 0o644))
			n := 0
			w, err := ReadResults(p, func(result.EvalResult) error { n++; return nil })
			for i := range w {
				w[i] = strings.ReplaceAll(w[i], dir+string(filepath.Separator), "")
			}
			if tt.wantErr != "" {
				require.Error(t, err)
				require.Equal(t, tt.wantErr, strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""))
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.wantW, w)
			require.Equal(t, 1, n)
		})
	}
}

func TestReadResultsCallbackErrorStops(t *testing.T) {
	var lines []string
	for i := range 5000 {
		lines = append(lines, jsonLine(t, res("m", "timer-001", i, -1)))
	}
	p := writeFile(t, strings.Join(lines, "\n")+"\n")
	stopAt := errors.New("enough")
	n := 0
	_, err := ReadResults(p, func(result.EvalResult) error {
		n++
		if n == 10 {
			return stopAt
		}
		return nil
	})
	require.ErrorIs(t, err, stopAt)
	require.True(t, strings.HasSuffix(err.Error(), "results.jsonl:10: enough"), err.Error())
	require.Equal(t, 10, n)
}

func TestReadResultsMissingFile(t *testing.T) {
	_, err := ReadResults(filepath.Join(t.TempDir(), "nope.jsonl"), func(result.EvalResult) error { return nil })
	require.ErrorIs(t, err, os.ErrNotExist)
	require.Contains(t, err.Error(), "read results: open ")
}

func FuzzDecodeResults(f *testing.F) {
	f.Add([]byte(jsonLine(f, res("m", "timer-001", 0, -1)) + "\n"))
	f.Add([]byte(jsonLine(f, res("m", "timer-001", 1, 2)) + "\n{\"case_id\""))
	f.Add([]byte("[1,2]\n"))
	f.Add([]byte("\xef\xbb\xbf\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := New(testLookup())
		_, err := DecodeResults(strings.NewReader(string(data)), "fuzz", func(r result.EvalResult) error {
			// Every record handed out must be scorable.
			require.NoError(t, CheckResult(&r))
			return s.Add(&r)
		})
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "fuzz:"), err.Error())
		}
		rep := s.Finish()
		for _, m := range rep.Models {
			require.GreaterOrEqual(t, m.PassAt1, 0.0)
			require.LessOrEqual(t, m.PassAt1, 1.0)
		}
	})
}

// TestOldLayerNamesStillLoad: records written before layers took the seed's
// names (static, compile, runtime, heuristic, mutation) read and score
// exactly as the same records with the new names, through the fast decoder
// and through encoding/json, and the report keys layers the new way.
func TestOldLayerNamesStillLoad(t *testing.T) {
	rs := sampleResults()
	var oldLines, newLines []string
	for _, r := range rs {
		line := jsonLine(t, r)
		newLines = append(newLines, line)
		for n := result.LayerStatic; n <= result.LayerMutation; n++ {
			line = strings.Replace(line, `"name":"`+result.LayerName(n)+`"`, `"name":"`+result.LayerShortName(n)+`"`, 1)
		}
		require.NotContains(t, line, "static_analysis")
		oldLines = append(oldLines, line)
		_, err := decodeLine([]byte(line))
		require.NoError(t, err, "encoding/json reads an old record")
	}
	score := func(lines []string) *Report {
		s := New(testLookup())
		warnings, err := ReadResults(writeFile(t, strings.Join(lines, "\n")+"\n"), func(r result.EvalResult) error { return s.Add(&r) })
		require.NoError(t, err)
		require.Empty(t, warnings)
		return s.Finish()
	}
	old := score(oldLines)
	require.Equal(t, score(newLines), old)
	require.Contains(t, old.Models[0].LayerPassRates, "static_analysis")
	require.NotContains(t, old.Models[0].LayerPassRates, "static")
}
