package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
)

// ChangedCases returns the cases with a file that differs between the merge
// base of ref and HEAD and the working tree (committed, staged, unstaged or
// untracked), in their given order. It runs git in casesDir.
func ChangedCases(ctx context.Context, casesDir, ref string, sel []*cases.Case) ([]*cases.Case, error) {
	git := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", casesDir}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
	base, err := git("merge-base", ref, "HEAD")
	if err != nil {
		return nil, fmt.Errorf("--changed-since %s: %w", ref, err)
	}
	diff, err := git("diff", "--name-only", "-z", "--relative", strings.TrimSpace(string(base)), "--", ".")
	if err != nil {
		return nil, fmt.Errorf("--changed-since %s: %w", ref, err)
	}
	untracked, err := git("ls-files", "--others", "--exclude-standard", "-z", "--", ".")
	if err != nil {
		return nil, fmt.Errorf("--changed-since %s: %w", ref, err)
	}
	var changed []string
	for _, part := range bytes.Split(append(diff, untracked...), []byte{0}) {
		if len(part) > 0 {
			changed = append(changed, filepath.ToSlash(string(part)))
		}
	}
	var out []*cases.Case
	for _, c := range sel {
		rel, err := filepath.Rel(casesDir, c.Dir)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		prefix := filepath.ToSlash(rel) + "/"
		for _, f := range changed {
			if strings.HasPrefix(f, prefix) {
				out = append(out, c)
				break
			}
		}
	}
	return out, nil
}
