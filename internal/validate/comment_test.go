package validate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sethvargo/go-githubactions"
	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/diag"
)

func hostileReports() []*Report {
	msg := "uses @octocat's <script>alert(1)</script> and [x](javascript:alert(1))\n# heading | cell"
	return []*Report{
		{Cases: []CaseReport{
			{ID: "zeta-001", OK: true},
			{ID: "alpha`-002", Problems: []diag.Problem{
				{File: "cases/x/alpha`-002/checks/static.star", Line: 3, Col: 2, Severity: diag.Error, Rule: "check-load", Message: msg},
				{File: "cases/x/alpha`-002/metadata.yaml", Severity: diag.Warning, Rule: "", Message: "100% sure, see #12"},
			}},
		}},
		{Problems: []diag.Problem{
			// The same problem from a second job is listed once.
			{File: "cases/x/alpha`-002/checks/static.star", Line: 3, Col: 2, Severity: diag.Error, Rule: "check-load", Message: msg},
		}},
	}
}

func TestWriteCommentEscapesEveryText(t *testing.T) {
	var b strings.Builder
	require.NoError(t, WriteComment(&b, hostileReports(), CommentInfo{
		PlanResult: "success", ValidateResult: "failure",
		RunURL: "https://github.com/o/r/actions/runs/1", HeadSHA: "0123abc",
	}))
	got := b.String()
	lines := strings.Split(got, "\n")
	require.Equal(t, CommentMarker, lines[0])
	require.Equal(t, "### Case validation failed", lines[1])
	require.Contains(t, got, "Plan: success, validation jobs: failure. [Run](https://github.com/o/r/actions/runs/1), commit `0123abc`.")
	// Cases sorted by id; the one with a backtick is not a broken code span.
	alpha := strings.Index(got, "alpha")
	require.Less(t, alpha, strings.Index(got, "`zeta-001`"))
	require.Contains(t, got, "| **FAIL** | 1 |")
	require.Contains(t, got, "| `zeta-001` | ok | 0 |")
	require.Contains(t, got, "<details><summary>2 problem(s)</summary>")
	require.Contains(t, got, `[x\](javascript:`, "the bracket that would close a link text is escaped")
	for _, bad := range []string{"<script>", "[x](javascript:", "@octocat", "\n# heading", " | cell", "#12"} {
		require.NotContains(t, got, bad)
	}
	require.Equal(t, 1, strings.Count(got, "check-load"), "a problem reported by two jobs is listed once")
	require.Contains(t, got, "see #&#8203;12 [validate]\n", "a problem without a rule is labelled validate, as its annotation")
	require.True(t, strings.HasSuffix(got, "\n</details>\n"))
}

func TestWriteCommentWithoutReports(t *testing.T) {
	var b strings.Builder
	require.NoError(t, WriteComment(&b, nil, CommentInfo{PlanResult: "failure", ValidateResult: "skipped", RunURL: "javascript:alert(1)"}))
	got := b.String()
	require.Contains(t, got, "### Case validation failed")
	require.Contains(t, got, "No case report was produced.")
	require.NotContains(t, got, "javascript:")
	require.NotContains(t, got, "<details>")

	b.Reset()
	require.NoError(t, WriteComment(&b, []*Report{{Cases: []CaseReport{{ID: "a-001", OK: true}}}}, CommentInfo{PlanResult: "success", ValidateResult: "skipped"}))
	require.Contains(t, b.String(), "### Case validation passed")
}

func TestWriteCommentListsAtMostAHundredProblems(t *testing.T) {
	r := &Report{}
	for i := range 130 {
		r.Problems = append(r.Problems, diag.Problem{File: "f.yaml", Line: i + 1, Severity: diag.Error, Rule: "r", Message: "m"})
	}
	var b strings.Builder
	require.NoError(t, WriteComment(&b, []*Report{r}, CommentInfo{PlanResult: "success", ValidateResult: "failure"}))
	require.Equal(t, 100, strings.Count(b.String(), "\n- `f.yaml:"))
	require.Contains(t, b.String(), "- … 30 more in the run\n")
}

func TestAnnotateEscapesWorkflowCommands(t *testing.T) {
	var out bytes.Buffer
	Annotate(githubactions.New(githubactions.WithWriter(&out)), hostileReports())
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 2, "%s", out.String())
	require.True(t, strings.HasPrefix(lines[0], "::error "), lines[0])
	require.Contains(t, lines[0], "file=cases/x/alpha`-002/checks/static.star")
	require.Contains(t, lines[0], "line=3")
	require.Contains(t, lines[0], "col=2")
	require.Contains(t, lines[0], "title=check-load")
	require.Contains(t, lines[0], "%0A# heading", "the line break of a message cannot start a new workflow command")
	require.True(t, strings.HasPrefix(lines[1], "::warning "), lines[1])
	require.Contains(t, lines[1], "title=validate")
	require.Contains(t, lines[1], "::100%25 sure, see #12")
}

func TestReadReports(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, hostileReports()[0]))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "validate-1.json"), b.Bytes(), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a report"), 0o644))
	got, err := ReadReports(dir)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, "alpha`-002", got[0].Cases[1].ID)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "validate-2.json"), []byte(`{"cases": [], "surprise": 1}`), 0o644))
	_, err = ReadReports(dir)
	require.ErrorContains(t, err, "validate-2.json")
	require.ErrorContains(t, err, "surprise")

	empty, err := ReadReports(t.TempDir())
	require.NoError(t, err)
	require.Empty(t, empty)
}
