package pipeline

import (
	"strings"
	"testing"
	"time"
)

// FuzzDecodeArtifact: any input either decodes to an artifact with a shard
// number or fails with an error that names the file; it never panics.
func FuzzDecodeArtifact(f *testing.F) {
	p := &Plan{Format: PlanFormat, Version: PlanVersion, Hash: "sha256:00", Jobs: []Job{{Index: 1, Model: "m", Samples: 1}}}
	good := NewArtifact(p, 1, "v", []CaseRef{{ID: "a", Hash: "h"}}, time.Unix(0, 0), time.Second, nil)
	var b strings.Builder
	if err := WriteArtifactTo(&b, good); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(b.String()))
	f.Add([]byte(`{"format":"embedeval-shard-artifact","version":1,"shard":0}`))
	f.Add([]byte("{\n\"results\": [1]\n}"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := DecodeArtifact("in.json", raw)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "in.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if a.Shard < 1 || a.Format != ArtifactFormat || a.Version != ArtifactVersion {
			t.Fatalf("accepted a bad artifact: %+v", a)
		}
	})
}
