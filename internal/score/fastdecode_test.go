package score

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/result"
)

// recGen makes random records from a pool of strings.
type recGen struct {
	rng  *rand.Rand
	pool []string
}

// newRecGen's pool holds strings that stress the string scanner: escapes,
// HTML characters (escaped by json.Marshal), multi-byte UTF-8, invalid UTF-8
// and control characters (both escaped by json.Marshal), long code.
func newRecGen(seed uint64) *recGen {
	return &recGen{rng: rand.New(rand.NewPCG(seed, seed+1)), pool: []string{
		"", "m", "timer-001", "gpio-basic-001", "passed", "failed", "error", "skipped",
		"generation", "bugfix", "constraint", "mutation", "drop_volatile", "static_check_0",
		`quote " and \ backslash`, "tab\there\nnewline\r", "<html> & </html>", "caf\u00e9 \u2603 \U0001F600",
		"bad \xff\xfe utf8", "nul\x00 bell\x07 del\x7f", "\u2028\u2029", strings.Repeat("k_sleep(K_MSEC(10));\n", 100),
		strings.Repeat("x", 9) + `\u00e9`, "/* comment */ \"s\"",
	}}
}

func (g *recGen) pick() string { return g.pool[g.rng.IntN(len(g.pool))] }

func (g *recGen) pickPtr() *string {
	rng := g.rng
	if rng.IntN(3) == 0 {
		return nil
	}
	return result.Ptr(g.pick())
}

func pickFloat(rng *rand.Rand) float64 {
	return []float64{0, 1, 0.5, -2.25, 1e-9, 123456.789, 1e21, 3e-310}[rng.IntN(8)]
}

func pickStatus(rng *rand.Rand, all bool) result.Status {
	s := []result.Status{result.StatusPassed, result.StatusFailed, result.StatusError, result.StatusSkipped, "", "bogus"}
	if all {
		return s[rng.IntN(len(s))]
	}
	return s[rng.IntN(3)]
}

// randomRecord fills every field of a result, scored or not, with values
// json.Marshal writes in all its forms (null, empty and full slices, escaped
// and multi-byte strings).
func (g *recGen) record() result.EvalResult {
	rng := g.rng
	r := result.EvalResult{
		CaseID: g.pick(), Model: g.pick(), Attempt: rng.IntN(200) - 5, GeneratedCode: g.pick(),
		Status: pickStatus(rng, rng.IntN(10) == 0), TotalTimeSeconds: pickFloat(rng),
		Scenario: g.pick(), Mutation: g.pick(), FeedbackRounds: rng.IntN(4), Turns: rng.IntN(4),
		CostUSD: pickFloat(rng), GenerationSeconds: pickFloat(rng), InfraError: g.pick(),
	}
	if rng.IntN(4) > 0 {
		r.CaseID, r.Model = "timer-001", "model-a"
		r.Passed = r.Status == result.StatusPassed
	} else {
		r.Passed = rng.IntN(2) == 0
	}
	if rng.IntN(2) == 0 {
		f := rng.IntN(7) - 1
		r.FailedAtLayer = &f
	}
	if rng.IntN(3) == 0 {
		r.TokenUsage = &result.TokenUsage{InputTokens: rng.IntN(100000), OutputTokens: rng.IntN(1000)}
	}
	if rng.IntN(3) == 0 {
		r.Notes = []string{g.pick(), g.pick()}
	}
	switch rng.IntN(5) {
	case 0: // nil layers
	case 1:
		r.Layers = []result.LayerResult{}
	default:
		for range rng.IntN(7) {
			l := result.LayerResult{Layer: rng.IntN(7) - 1, Name: g.pick(), Passed: rng.IntN(2) == 0,
				Status: pickStatus(rng, true), Reason: g.pick(), Error: g.pickPtr(), DurationSeconds: pickFloat(rng)}
			switch rng.IntN(3) {
			case 0:
			case 1:
				l.Details = []result.CheckDetail{}
			default:
				for range rng.IntN(5) {
					l.Details = append(l.Details, result.CheckDetail{CheckName: g.pick(), Passed: rng.IntN(2) == 0,
						Expected: g.pickPtr(), Actual: g.pickPtr(), CheckType: g.pick(), Weight: pickFloat(rng),
						Inconclusive: rng.IntN(4) == 0, Requirement: g.pickPtr()})
				}
			}
			if rng.IntN(3) == 0 {
				l.Mutations = []result.MutationResult{{Name: g.pick(), Outcome: result.MutationApplied,
					MustFail:   []result.CheckVerdict{{CheckName: g.pick(), Caught: true}, {CheckName: g.pick(), Missing: true}, {CheckName: g.pick(), Inconclusive: true}},
					ShouldFail: []result.CheckVerdict{{CheckName: g.pick()}}, Error: g.pick()}}
			}
			r.Layers = append(r.Layers, l)
		}
	}
	return r
}

// mutateLine damages or disguises a valid line in one of many ways, most of
// which encoding/json rejects and some of which it accepts.
func mutateLine(rng *rand.Rand, line string) string {
	keys := []string{"case_id", "model", "attempt", "generated_code", "layers", "failed_at_layer", "passed",
		"status", "total_time_seconds", "scenario", "mutation", "token_usage", "cost_usd", "notes",
		"infra_error", "layer", "name", "details", "error", "duration_seconds", "mutations", "check_name",
		"check_type", "weight", "expected", "input_tokens", "must_fail", "caught", "outcome", "reason", "turns",
		"inconclusive", "requirement"}
	values := []string{"null", `"x"`, `""`, "0", "-0", "7", "-3", "1.5", "1e2", "1e400", "-1e400", "1E-400", "01", "-",
		"1.", ".5", "12345678901", "99999999999999999999", "true", "false", "[]", "{}", `[null]`, `["a",null]`, `[{}]`,
		`{"input_tokens":1}`, `"passed"`, `"\u0070assed"`, `"\ud800"`, "\"\xff\"", "nul", "tru", `"\x"`, `"\u12"`}
	if line == "" {
		return "{"
	}
	key := keys[rng.IntN(len(keys))]
	quoted := `"` + key + `":`
	at := strings.Index(line, quoted)
	switch rng.IntN(14) {
	case 0: // a different value for a key
		if at < 0 {
			return line
		}
		rest := line[at+len(quoted):]
		end := valueEnd(rest)
		return line[:at+len(quoted)] + values[rng.IntN(len(values))] + rest[end:]
	case 1: // the key in other case (encoding/json folds case)
		return strings.Replace(line, quoted, `"`+strings.ToUpper(key)+`":`, 1)
	case 2: // an escaped key
		return strings.Replace(line, quoted, `"\u00`+fmt.Sprintf("%x", key[0])+key[1:]+`":`, 1)
	case 3: // a repeated key
		return strings.Replace(line, "{", "{"+quoted+values[rng.IntN(len(values))]+",", 1+rng.IntN(3))
	case 4: // an unknown key
		return strings.Replace(line, "{", `{"total_score":1,`, 1)
	case 5: // cut
		return line[:rng.IntN(len(line)+1)]
	case 6: // a byte replaced
		b := []byte(line)
		const junk = "{}[]\",:\\ \t\x00\x1fa0-.e\xff"
		b[rng.IntN(len(b))] = junk[rng.IntN(len(junk))]
		return string(b)
	case 7: // white space everywhere JSON allows it
		var buf bytes.Buffer
		if json.Indent(&buf, []byte(line), " \t", "\r ") != nil {
			return line
		}
		return buf.String()
	case 8: // a byte order mark, space, trailing data
		return []string{"\xef\xbb\xbf", " ", "\t", "\u00a0"}[rng.IntN(4)] + line + []string{"", " ", "}", " {}", "x", "\v"}[rng.IntN(6)]
	case 9: // raw control, DEL and invalid UTF-8 bytes inside strings
		return strings.Replace(line, `":"`, `":"`+[]string{"\t", "\x01", "\x7f", "\xff", "\xe2\x82", "\u00e9"}[rng.IntN(6)], 1+rng.IntN(3))
	case 10: // a non-object line
		return []string{"[" + line + "]", `"s"`, "1", "null", "true", ""}[rng.IntN(6)]
	case 11: // a key dropped
		if at < 0 {
			return line
		}
		rest := line[at+len(quoted):]
		end := valueEnd(rest)
		out := line[:at] + rest[end:]
		return strings.Replace(strings.Replace(out, ",,", ",", 1), "{,", "{", 1)
	case 12: // an escape in a kept string
		return strings.Replace(line, `"status":"`, `"status":"\u0066`, 1)
	default:
		return line
	}
}

// valueEnd returns the length of the JSON value at the start of s, or a
// rough guess when s is not valid.
func valueEnd(s string) int {
	dec := json.NewDecoder(strings.NewReader(s))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return 0
	}
	return int(dec.InputOffset())
}

// reference is what the reader produced before the fast decoder: the
// encoding/json decoder, reduced to the scored fields.
func reference(line []byte) (result.EvalResult, error) {
	r, err := decodeLine(line)
	if err != nil {
		return result.EvalResult{}, err
	}
	return ScoredFields(&r), nil
}

// jsonDecode decodes line with encoding/json as decodeLine does, without
// the scorer's checks, and reports whether it accepted the line.
func jsonDecode(line []byte) (result.EvalResult, bool) {
	trimmed := trimLine(line)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return result.EvalResult{}, false
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	var w wireResult
	if dec.Decode(&w) != nil || dec.More() || w.Attempt == nil {
		return result.EvalResult{}, false
	}
	w.EvalResult.Attempt = *w.Attempt
	return ScoredFields(&w.EvalResult), true
}

// requireSameAsReference checks the fast reader path against encoding/json
// on one line: same record, same error, same classification of the error.
func requireSameAsReference(t testing.TB, d *lineDecoder, line []byte) {
	t.Helper()
	want, wantErr := reference(line)
	var fast result.EvalResult
	if d.decode(trimLine(line), &fast) {
		ref, ok := jsonDecode(line)
		require.True(t, ok, "fast decoder accepted what encoding/json rejects: %q", line)
		require.Equal(t, ref, fast, "%q", line)
	}
	got, err := d.line(line)
	if wantErr != nil {
		require.Error(t, err, "%q", line)
		require.Equal(t, wantErr.Error(), err.Error(), "%q", line)
		require.Equal(t, errors.As(wantErr, new(*syntaxProblem)), errors.As(err, new(*syntaxProblem)), "%q", line)
		return
	}
	require.NoError(t, err, "%q", line)
	require.Equal(t, want, got, "%q", line)
}

func TestFastDecodeMatchesEncodingJSON(t *testing.T) {
	g := newRecGen(1)
	rng := g.rng
	d := newLineDecoder()
	fastAccepted, mutated := 0, 0
	for i := range 10000 {
		r := g.record()
		line, err := json.Marshal(r)
		require.NoError(t, err)
		// json.Marshal output always takes the fast path.
		var fast result.EvalResult
		require.True(t, d.decode(line, &fast), "fast decoder declined a marshalled record: %s", line)
		requireSameAsReference(t, d, line)
		m := mutateLine(rng, string(line))
		if i%2 == 0 {
			m = mutateLine(rng, m)
		}
		if d.decode(trimLine([]byte(m)), &result.EvalResult{}) {
			fastAccepted++
		}
		mutated++
		requireSameAsReference(t, d, []byte(m))
	}
	// The mutations are mostly, not only, rejections.
	require.Greater(t, fastAccepted, mutated/10)
	require.Less(t, fastAccepted, mutated*9/10)
}

func TestFastDecodeKeepsNoReferenceToTheLine(t *testing.T) {
	d := newLineDecoder()
	line := []byte(jsonLine(t, res("model-zz", "timer-001", 3, 1, result.CheckDetail{CheckName: "chk", CheckType: "constraint"})))
	got, err := d.line(line)
	require.NoError(t, err)
	want, err := reference(line)
	require.NoError(t, err)
	for i := range line {
		line[i] = 'X'
	}
	require.Equal(t, want, got)
	require.Equal(t, "model-zz", got.Model)
	require.Equal(t, "chk", got.Layers[0].Details[0].CheckName)
}

func TestFastDecodeRecordsDoNotShareSlices(t *testing.T) {
	d := newLineDecoder()
	var got []result.EvalResult
	for i := range 3 * slabRows { // across several slabs
		r, err := d.line([]byte(jsonLine(t, res("m", "timer-001", i, i%5, result.CheckDetail{CheckName: fmt.Sprint(i)}))))
		require.NoError(t, err)
		got = append(got, r)
	}
	for i, r := range got {
		require.Equal(t, i, r.Attempt)
		require.Len(t, r.Layers, 5)
		require.Equal(t, len(r.Layers), cap(r.Layers), "appending must not write into the next record")
		require.Equal(t, fmt.Sprint(i), r.Layers[0].Details[0].CheckName)
		require.Equal(t, i%5, *r.FailedAtLayer)
	}
}

// readAll collects what DecodeResults hands out.
func readAll(t *testing.T, r io.Reader) ([]result.EvalResult, []string, error) {
	t.Helper()
	var got []result.EvalResult
	w, err := DecodeResults(r, "f.jsonl", func(r result.EvalResult) error {
		got = append(got, r)
		return nil
	})
	return got, w, err
}

func TestDecodeResultsSmallReadsAndLongLines(t *testing.T) {
	long := res("m", "timer-001", 1, -1)
	long.GeneratedCode = strings.Repeat("x\"\\\n", batchBytes) // a line of 5 MB
	lines := []string{jsonLine(t, res("m", "timer-001", 0, -1)), jsonLine(t, long), "", "  ", jsonLine(t, res("m", "timer-001", 2, 3))}
	content := strings.Join(lines, "\n") + "\n"
	for _, r := range []io.Reader{strings.NewReader(content), iotest.HalfReader(strings.NewReader(content)), iotest.OneByteReader(strings.NewReader(content[:200000]))} {
		got, w, err := readAll(t, r)
		if len(got) < 3 {
			// The one-byte reader stops inside the long line: torn.
			require.NoError(t, err)
			require.Len(t, got, 1)
			require.Len(t, w, 1)
			require.Contains(t, w[0], "f.jsonl:2: last line is cut off (199")
			continue
		}
		require.NoError(t, err)
		require.Empty(t, w)
		require.Len(t, got, 3)
		for i, a := range []int{0, 1, 2} {
			require.Equal(t, a, got[i].Attempt)
		}
		require.Empty(t, got[1].GeneratedCode, "generated code is not kept")
	}
	_, _, err := readAll(t, strings.NewReader(content+"{\n"+lines[0]+"\n"))
	require.EqualError(t, err, "f.jsonl:6: invalid JSON: the line ends before the record does")
}

func TestDecodeResultsReadError(t *testing.T) {
	content := jsonLine(t, res("m", "timer-001", 0, -1)) + "\n" + jsonLine(t, res("m", "timer-001", 1, -1)) + "\n"
	r := io.MultiReader(strings.NewReader(content), iotest.ErrReader(errors.New("disk on fire")))
	_, _, err := readAll(t, r)
	require.EqualError(t, err, "f.jsonl:3: read: disk on fire")
}

func TestDecodeResultsMatchesReferenceLineByLine(t *testing.T) {
	g := newRecGen(3)
	rng := g.rng
	var lines [][]byte
	var want []result.EvalResult
	for len(want) < 5000 {
		r := g.record()
		r.CaseID, r.Model, r.Status = "timer-001", "m", pickStatus(rng, false)
		r.Passed = r.Status == result.StatusPassed
		for i := range r.Layers {
			r.Layers[i].Layer, r.Layers[i].Status = rng.IntN(5), pickStatus(rng, false)
		}
		r.FailedAtLayer = nil
		line, err := json.Marshal(r)
		require.NoError(t, err)
		if rng.IntN(3) == 0 {
			line = []byte(mutateLine(rng, string(line)))
		}
		ref, err := reference(line)
		if err != nil || len(bytes.TrimSpace(line)) == 0 || bytes.ContainsAny(line, "\n") {
			continue
		}
		lines = append(lines, line)
		want = append(want, ref)
	}
	got, w, err := readAll(t, bytes.NewReader(append(bytes.Join(lines, []byte("\n")), '\n')))
	require.NoError(t, err)
	require.Empty(t, w)
	require.Equal(t, want, got)
}

func FuzzFastDecode(f *testing.F) {
	g := newRecGen(5)
	rng := g.rng
	f.Add([]byte(jsonLine(f, res("m", "timer-001", 0, -1))))
	f.Add([]byte(jsonLine(f, res("m", "dma-001", 4, 99, result.CheckDetail{CheckName: "c", Expected: result.Ptr("1")}))))
	for range 20 {
		line, err := json.Marshal(g.record())
		require.NoError(f, err)
		f.Add(line)
		f.Add([]byte(mutateLine(rng, string(line))))
	}
	f.Add([]byte(`{"case_id":"a","model":"m","attempt":1,"status":"passed","passed":true,"layers":[{"layer":0,"status":"passed","details":[{"check_name":"\u0061","passed":true}]}]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		requireSameAsReference(t, newLineDecoder(), line)
	})
}

// benchLines are records shaped like the runner's, with 2 KB of code.
func benchLines(b testing.TB, n int) [][]byte {
	code := strings.Repeat("k_sleep(K_MSEC(10));\n", 100)
	lines := make([][]byte, n)
	for i := range lines {
		r := res(fmt.Sprintf("model-%02d", i%10), "timer-001", i, i%6-1,
			result.CheckDetail{CheckName: "static_check_0", Passed: true, CheckType: "constraint", Weight: 1},
			result.CheckDetail{CheckName: "static_check_1", Passed: i%3 > 0, CheckType: "constraint", Weight: 1})
		r.GeneratedCode = code
		var err error
		lines[i], err = json.Marshal(r)
		require.NoError(b, err)
	}
	return lines
}

// BenchmarkDecodeLine compares the fast decoder with encoding/json on one
// record of about 3 KB.
func BenchmarkDecodeLine(b *testing.B) {
	lines := benchLines(b, 64)
	b.Run("fast", func(b *testing.B) {
		d := newLineDecoder()
		b.SetBytes(int64(len(lines[0])))
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := d.line(lines[i%len(lines)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(lines[0])))
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := reference(lines[i%len(lines)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}
