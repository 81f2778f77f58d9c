package pipeline

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
)

func TestChangedCases(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed for --changed-since and this test: %v", err)
	}
	repo := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
	}
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(repo, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	run("init", "-q", "-b", "main")
	for _, id := range []string{"a-001", "b-001", "c-001", "d-001"} {
		write("cases/zephyr/"+id+"/prompt.md", "x")
	}
	run("add", ".")
	run("commit", "-q", "-m", "base")
	run("checkout", "-q", "-b", "pr")
	write("cases/zephyr/a-001/prompt.md", "changed")
	run("commit", "-qam", "change a")
	write("cases/zephyr/b-001/prompt.md", "unstaged")
	write("cases/zephyr/c-001/checks/new.star", "untracked")
	var sel []*cases.Case
	for _, id := range []string{"a-001", "b-001", "c-001", "d-001"} {
		sel = append(sel, &cases.Case{Entry: cases.Entry{Dir: filepath.Join(repo, "cases", "zephyr", id)}, Meta: cases.Metadata{ID: id}})
	}
	got, err := ChangedCases(context.Background(), filepath.Join(repo, "cases"), "main", sel)
	require.NoError(t, err)
	var ids []string
	for _, c := range got {
		ids = append(ids, c.Meta.ID)
	}
	require.Equal(t, []string{"a-001", "b-001", "c-001"}, ids)

	_, err = ChangedCases(context.Background(), filepath.Join(repo, "cases"), "no-such-ref", sel)
	require.ErrorContains(t, err, "--changed-since no-such-ref: git merge-base no-such-ref HEAD")
}
