package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/result"
)

// fakeResult is a judged result: passed or failed at L0.
func fakeResult(caseID, model string, attempt int, passed bool, seconds float64) result.EvalResult {
	st := result.StatusFailed
	if passed {
		st = result.StatusPassed
	}
	r := result.EvalResult{
		CaseID: caseID, Model: model, Attempt: attempt, Scenario: "generation", Status: st, Passed: passed, TotalTimeSeconds: seconds,
		GeneratedCode: "int main(void) { return 0; }\n",
		Layers: []result.LayerResult{{Layer: 0, Name: "static", Passed: passed, Status: st, Details: []result.CheckDetail{
			{CheckName: "has_main", Passed: passed, CheckType: "exact_match", Weight: 1},
		}}},
	}
	if !passed {
		r.FailedAtLayer = new(int)
	}
	return r
}

// writeArtifacts writes one artifact per job of p into dir (shard-N.json),
// every case × sample passing except attempt 2 of every third case.
func writeArtifacts(t *testing.T, p *Plan, dir string) {
	t.Helper()
	for _, j := range p.Jobs {
		require.NoError(t, WriteArtifact(filepath.Join(dir, ArtifactName(j.Index)), artifactFor(p, j.Index)))
	}
}

func artifactFor(p *Plan, n int) *Artifact {
	j := p.Jobs[n-1]
	var rs []result.EvalResult
	var refs []CaseRef
	for ci, c := range j.Cases {
		refs = append(refs, c.CaseRef)
		for a := 1; a <= j.Samples; a++ {
			rs = append(rs, fakeResult(c.ID, j.Model, a, !(a == 2 && ci%3 == 0), 0.5+float64(a)))
		}
	}
	started := time.Date(2026, 5, 1, 12, 0, n, 0, time.UTC)
	return NewArtifact(p, n, p.BinaryVersion, refs, started, 3*time.Second, rs)
}

// smallPlan has 4 jobs (4 images) of one model.
func smallPlan(t *testing.T) *Plan {
	p := planFor(t, fakeCorpus(12), []string{"m"}, 2, 4, nil)
	require.Len(t, p.Jobs, 4)
	return p
}

func TestCollectComplete(t *testing.T) {
	p := smallPlan(t)
	dir := t.TempDir()
	writeArtifacts(t, p, dir)
	// A copy of the plan and a temporary file are ignored.
	require.NoError(t, WritePlan(filepath.Join(dir, "plan.json"), p))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".shard-1.json.tmp-123"), []byte("{"), 0o644))
	c, err := Collect(context.Background(), p, dir, false)
	require.NoError(t, err)
	require.Len(t, c.Artifacts, 4)
	require.Empty(t, c.Missing)
	require.Empty(t, c.Dropped)
}

func TestCollectRefusals(t *testing.T) {
	p := smallPlan(t)
	other := planFor(t, fakeCorpus(13), []string{"m"}, 2, 4, nil)
	for _, tc := range []struct {
		name    string
		break_  func(t *testing.T, dir string)
		partial bool
		want    []string // problem lines
		usable  []int    // with partial: the merged shards
	}{
		{"missing", func(t *testing.T, dir string) { require.NoError(t, os.Remove(filepath.Join(dir, "shard-3.json"))) }, false,
			[]string{"shard 3 of 4 is missing (expected artifact shard-3.json)"}, nil},
		{"two missing, partial", func(t *testing.T, dir string) {
			require.NoError(t, os.Remove(filepath.Join(dir, "shard-1.json")))
			require.NoError(t, os.Remove(filepath.Join(dir, "shard-4.json")))
		}, true, []string{"shard 1 of 4 is missing (expected artifact shard-1.json)", "shard 4 of 4 is missing (expected artifact shard-4.json)"}, []int{2, 3}},
		{"duplicated", func(t *testing.T, dir string) {
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "retry"), 0o755))
			require.NoError(t, WriteArtifact(filepath.Join(dir, "retry", "shard-2.json"), artifactFor(p, 2)))
		}, false, []string{"shard 2 of 4 appears in 2 artifacts: retry/shard-2.json, shard-2.json"}, nil},
		{"duplicated refuses even with partial", func(t *testing.T, dir string) {
			require.NoError(t, WriteArtifact(filepath.Join(dir, "copy.json"), artifactFor(p, 2)))
		}, true, []string{"shard 2 of 4 appears in 2 artifacts: copy.json, shard-2.json"}, nil},
		{"corrupt", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "shard-2.json"), []byte("{\n  \"format\": \"embedeval-shard-artifact\",\n  \"shard\": 2,,\n}"), 0o644))
		}, false, []string{"shard 2 of 4: corrupt artifact shard-2.json:3:14: invalid character ',' looking for beginning of object key string"}, nil},
		{"truncated", func(t *testing.T, dir string) {
			raw, err := os.ReadFile(filepath.Join(dir, "shard-4.json"))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "shard-4.json"), raw[:100], 0o644))
		}, false, []string{"shard 4 of 4: corrupt artifact shard-4.json:1:100: unexpected end of JSON input"}, nil},
		{"not an artifact, unnamed", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.json"), []byte(`{"format": "something"}`), 0o644))
		}, false, []string{`corrupt artifact notes.json: not a shard artifact (format "something", want "embedeval-shard-artifact")`}, nil},
		{"other plan", func(t *testing.T, dir string) {
			require.NoError(t, WriteArtifact(filepath.Join(dir, "shard-1.json"), artifactFor(other, 1)))
		}, false, []string{"shard 1 of 4 (shard-1.json) was made for another plan (" + short(other.Hash) + ", this plan " + short(p.Hash) + ")"}, nil},
		{"other version", func(t *testing.T, dir string) {
			a := artifactFor(p, 3)
			a.BinaryVersion = "v9.9.9"
			require.NoError(t, WriteArtifact(filepath.Join(dir, "shard-3.json"), a))
		}, false, []string{"shard 3 of 4 (shard-3.json) was made by embedeval v9.9.9, the plan by test"}, nil},
		{"other version, partial", func(t *testing.T, dir string) {
			a := artifactFor(p, 3)
			a.BinaryVersion = "v9.9.9"
			require.NoError(t, WriteArtifact(filepath.Join(dir, "shard-3.json"), a))
		}, true, []string{"shard 3 of 4 (shard-3.json) was made by embedeval v9.9.9, the plan by test"}, []int{1, 2, 4}},
		{"a result short", func(t *testing.T, dir string) {
			a := artifactFor(p, 2)
			a.Results = a.Results[1:]
			require.NoError(t, WriteArtifact(filepath.Join(dir, "shard-2.json"), a))
		}, false, []string{"shard 2 of 4 (shard-2.json) does not match its job: no result for " + p.Jobs[1].Cases[0].ID + " #1"}, nil},
		{"case changed", func(t *testing.T, dir string) {
			a := artifactFor(p, 2)
			a.Cases[0].Hash = "sha256:0123456789abcdef"
			require.NoError(t, WriteArtifact(filepath.Join(dir, "shard-2.json"), a))
		}, false, []string{"shard 2 of 4 (shard-2.json) does not match its job: case " + p.Jobs[1].Cases[0].ID + " was evaluated at sha256:0123456789ab, the plan has " + short(p.Jobs[1].Cases[0].Hash)}, nil},
		{"several at once, sorted by shard", func(t *testing.T, dir string) {
			require.NoError(t, os.Remove(filepath.Join(dir, "shard-4.json")))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "shard-1.json"), []byte("nope"), 0o644))
		}, false, []string{
			"shard 1 of 4: corrupt artifact shard-1.json:1:2: invalid character 'o' in literal null (expecting 'u')",
			"shard 4 of 4 is missing (expected artifact shard-4.json)",
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeArtifacts(t, p, dir)
			tc.break_(t, dir)
			c, err := Collect(context.Background(), p, dir, tc.partial)
			if tc.usable != nil {
				require.NoError(t, err)
				var got []int
				for _, a := range c.Artifacts {
					got = append(got, a.Shard)
				}
				require.Equal(t, tc.usable, got)
				var msgs []string
				for _, d := range c.Dropped {
					msgs = append(msgs, d.Message)
				}
				require.Equal(t, tc.want, msgs)
				return
			}
			var re *RefusalError
			require.True(t, errors.As(err, &re), "%v", err)
			var msgs []string
			for _, pr := range re.Problems {
				msgs = append(msgs, pr.Message)
			}
			require.Equal(t, tc.want, msgs)
			require.True(t, strings.HasPrefix(err.Error(), "refusing to merge the artifacts in "+dir+" ("), err.Error())
		})
	}
}

func TestRefusalErrorText(t *testing.T) {
	e := &RefusalError{Dir: "artifacts", Shards: 8, Problems: []Refusal{
		{Shard: 3, Kind: KindMissing, Message: "shard 3 of 8 is missing (expected artifact shard-3.json)"},
		{Shard: 5, Kind: KindDuplicate, Message: "shard 5 of 8 appears in 2 artifacts: a/shard-5.json, b/shard-5.json"},
	}}
	require.Equal(t, `refusing to merge the artifacts in artifacts (2 of 8 shards affected):
  shard 3 of 8 is missing (expected artifact shard-3.json)
  shard 5 of 8 appears in 2 artifacts: a/shard-5.json, b/shard-5.json
(--allow-partial merges the complete shards and marks the reports partial; duplicated shards always refuse)`, e.Error())
}
