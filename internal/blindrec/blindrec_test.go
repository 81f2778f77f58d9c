package blindrec

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeRecord(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "checks"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "checks", "blind.yaml"), []byte(text), 0o644))
	return dir
}

func TestLoadAndSum(t *testing.T) {
	dir := writeRecord(t, `solutions:
  - file: accept/blind-1.c
    author: a1
    first_round: passed
    decision: kept
  - file: reject/blind-1.c
    author: a1
    first_round: failed
    decision: moved-to-reject
    reason: sleeps in the callback
  - file: reject/blind-2.c
    author: a1
    first_round: caught
  - file: reject/blind-3.c
    author: a1
    first_round: wrong-reason
    decision: check-fixed
`)
	entries, ps := Load(dir)
	require.Empty(t, ps)
	require.Len(t, entries, 4)
	assert.Equal(t, 6, entries["reject/blind-1.c"].Line)
	assert.True(t, entries["accept/blind-1.c"].Accept())
	assert.False(t, entries["reject/blind-1.c"].Accept())
	// The moved answer counts as the accept its author filed it as.
	assert.Equal(t, FirstRound{Accepts: 2, AcceptsPassed: 1, Rejects: 2, RejectsCaught: 1}, Sum(entries))
}

func TestLoadProblems(t *testing.T) {
	entries, ps := Load(t.TempDir())
	assert.Empty(t, ps, "a case without a record has no entries and no problems")
	assert.Empty(t, entries)

	dir := writeRecord(t, "solutions:\n  - file: accept/blind-1.c\n    author: \"\"\n  - file: other/x.c\n    author: a\n"+
		"  - file: reject/blind-1.c\n    author: a\n    decision: maybe\n  - file: reject/blind-1.c\n    author: b\n    first_round: fine\n")
	_, ps = Load(dir)
	var got []string
	for _, p := range ps {
		got = append(got, p.Message)
		assert.Equal(t, Rule, p.Rule)
		assert.Equal(t, filepath.Join(dir, "checks", "blind.yaml"), p.File)
		assert.NotZero(t, p.Line, "problems name the entry's line")
	}
	assert.Equal(t, []string{
		"accept/blind-1.c: author missing (a short id of who wrote it)",
		"file \"other/x.c\" is not accept/blind-<n>.<ext> or reject/blind-<n>.<ext>",
		"reject/blind-1.c: decision \"maybe\" is not one of pending, kept, check-fixed, check-added, moved-to-reject, moved-to-accept, prompt-fixed",
		"reject/blind-1.c: first_round \"fine\" is not one of passed, failed, caught, missed, wrong-reason, no-must-fail",
		"reject/blind-1.c is listed twice",
	}, got)

	_, ps = Load(writeRecord(t, "solution:\n  - file: accept/blind-1.c\n"))
	require.Len(t, ps, 1)
	assert.Contains(t, ps[0].Message, "invalid")
}
