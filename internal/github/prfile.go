package github

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/embedeval/embedeval-go/internal/score"
)

// WritePRBodyFile writes the results pull request's body (RenderPRBody: the
// leaderboard before → after the run) to path, with partialNote, when not
// empty, as a warning under the marker line (shards missing from a merge).
// A nil after is an empty leaderboard.
func WritePRBodyFile(path string, before, after *score.Report, runID, partialNote string) error {
	if after == nil {
		after = &score.Report{}
	}
	body := RenderPRBody(before, after, BodyOptions{RunID: runID})
	if partialNote != "" {
		head, rest, _ := strings.Cut(body, "\n")
		body = head + "\n> **Warning: partial results.** " + partialNote + "\n" + rest
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
