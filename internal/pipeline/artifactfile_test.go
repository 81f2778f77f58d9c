package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/bytesize"
)

// problems returns the refusal messages of a refused collection.
func problems(t *testing.T, err error) []string {
	t.Helper()
	var re *RefusalError
	require.True(t, errors.As(err, &re), "%v", err)
	var msgs []string
	for _, pr := range re.Problems {
		msgs = append(msgs, pr.Message)
	}
	return msgs
}

func TestCollectRefusesOversizedArtifact(t *testing.T) {
	p := smallPlan(t)
	dir := t.TempDir()
	writeArtifacts(t, p, dir)
	// 300 MiB that take no disk: a sparse file. Reading it would give NUL
	// bytes and a decoding error, not this message.
	require.NoError(t, os.Truncate(filepath.Join(dir, "shard-2.json"), 300<<20))
	want := "shard 2 of 4: refused artifact shard-2.json: the file is 300 MiB (314572800 bytes), more than the 64 MiB cap (--max-artifact-bytes)"

	_, err := Collect(context.Background(), p, dir, false)
	require.Equal(t, []string{want}, problems(t, err))

	// Like a corrupt artifact: with --allow-partial the rest is merged.
	c, err := Collect(context.Background(), p, dir, true)
	require.NoError(t, err)
	require.Equal(t, []int{2}, c.Missing)
	require.Len(t, c.Artifacts, 3)
	require.Equal(t, want, c.Dropped[0].Message)
	require.Equal(t, KindCorrupt, c.Dropped[0].Kind)
}

func TestCollectCapIsConfigurable(t *testing.T) {
	p := smallPlan(t)
	dir := t.TempDir()
	writeArtifacts(t, p, dir)
	info, err := os.Stat(filepath.Join(dir, "shard-1.json"))
	require.NoError(t, err)
	_, err = CollectLimited(context.Background(), p, dir, false, 1024)
	msgs := problems(t, err)
	require.Len(t, msgs, 4)
	require.Equal(t, "shard 1 of 4: refused artifact shard-1.json: the file is "+bytesize.Format(info.Size())+" ("+strconv.FormatInt(info.Size(), 10)+" bytes), more than the 1 KiB cap (--max-artifact-bytes)", msgs[0])

	// Through the merge options.
	_, err = Merge(context.Background(), MergeOptions{Plan: p, ArtifactsDir: dir, ResultsDir: t.TempDir(), Corpus: fakeCorpus(12), MaxArtifactBytes: 1024})
	require.ErrorContains(t, err, "more than the 1 KiB cap (--max-artifact-bytes)")
	c, err := CollectLimited(context.Background(), p, dir, false, info.Size()*2)
	require.NoError(t, err)
	require.Len(t, c.Artifacts, 4)
}

func TestCollectRefusesLinksAndSpecialFiles(t *testing.T) {
	p := smallPlan(t)
	dir := t.TempDir()
	writeArtifacts(t, p, dir)
	// A link to a perfectly good artifact elsewhere is still refused: the
	// directory is not trusted to point anywhere.
	elsewhere := filepath.Join(t.TempDir(), "shard-3.json")
	require.NoError(t, os.Rename(filepath.Join(dir, "shard-3.json"), elsewhere))
	require.NoError(t, os.Symlink(elsewhere, filepath.Join(dir, "shard-3.json")))
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(dir, "passwd.json")))
	// A named pipe would block a plain open: it is refused unopened.
	require.NoError(t, os.Remove(filepath.Join(dir, "shard-4.json")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "shard-4.json"), 0o644))

	_, err := Collect(context.Background(), p, dir, false)
	require.Equal(t, []string{
		"shard 3 of 4: refused artifact shard-3.json: a symbolic link (links in an artifact directory are not followed)",
		"shard 4 of 4: refused artifact shard-4.json: a named pipe, not a regular file",
		"refused artifact passwd.json: a symbolic link (links in an artifact directory are not followed)",
	}, problems(t, err))

	_, err = ReadArtifact(filepath.Join(dir, "shard-3.json"))
	require.ErrorContains(t, err, "shard-3.json: a symbolic link")
	a, err := ReadArtifact(elsewhere)
	require.NoError(t, err)
	require.Equal(t, 3, a.Shard)
}

func TestReadUpToRefusesGrowth(t *testing.T) {
	data, err := readUpTo(strings.NewReader(strings.Repeat("x", 150)), "a.json", 100, 150)
	require.NoError(t, err, "up to the cap, more than announced is read")
	require.Len(t, data, 150)
	_, err = readUpTo(strings.NewReader(strings.Repeat("x", 151)), "a.json", 100, 150)
	require.EqualError(t, err, "a.json: the file grew past the 150 bytes cap (--max-artifact-bytes) while being read (it was 100 bytes)")
}

func TestSizeText(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1023: "1023 bytes", 1024: "1 KiB", 1536: "1.5 KiB",
		64 << 20: "64 MiB", 300 << 20: "300 MiB", 3 << 30: "3 GiB", 5<<30 + 1<<29: "5.5 GiB"} {
		require.Equal(t, want, bytesize.Format(n), n)
	}
}

// TestArtifactOfAnOlderBinary: a shard run by an earlier version names its
// layers the short way (static, heuristic); the artifact decodes and its
// results carry the seed's layer names, which merge then writes.
func TestArtifactOfAnOlderBinary(t *testing.T) {
	raw := `{"format":"embedeval-shard-artifact","version":1,"shard":1,"results":[{"case_id":"a","model":"m","attempt":1,"status":"passed","passed":true,` +
		`"layers":[{"layer":0,"name":"static","passed":true,"status":"passed","details":[]},{"layer":3,"name":"heuristic","passed":true,"status":"passed","details":[]}]}]}`
	a, err := DecodeArtifact("shard-1.json", []byte(raw))
	require.NoError(t, err)
	require.Len(t, a.Results, 1)
	require.Equal(t, "static_analysis", a.Results[0].Layers[0].Name)
	require.Equal(t, "static_heuristic", a.Results[0].Layers[1].Name)
}
