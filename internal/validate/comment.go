package validate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/mdescape"
)

// CommentMarker is the first line of the validate-cases pull request
// comment; the workflow that posts it finds its earlier comment by it.
const CommentMarker = "<!-- embedeval:validate-cases -->"

// maxReportBytes bounds one validation report read back from an artifact
// (they come from jobs that ran contributors' code).
const maxReportBytes = 32 << 20

// maxCommentProblems is how many problems the comment lists.
const maxCommentProblems = 100

// ReadReports reads every *.json validation report (validate --json) in
// dir, in name order. A report that is not one (bad JSON, unknown fields,
// trailing data, over 32 MiB) is an error naming the file.
func ReadReports(dir string) ([]*Report, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("list reports in %s: %w", dir, err)
	}
	slices.Sort(paths)
	var reports []*Report
	for _, path := range paths {
		r, err := readReport(path)
		if err != nil {
			return nil, err
		}
		reports = append(reports, r)
	}
	return reports, nil
}

func readReport(path string) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read report: %w", err)
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, maxReportBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read report %s: %w", path, err)
	}
	if len(raw) > maxReportBytes {
		return nil, fmt.Errorf("report %s: larger than %d bytes", path, maxReportBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var r Report
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("report %s: %w", path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("report %s: more than one JSON value", path)
	}
	return &r, nil
}

// CommentInfo is what the comment says besides the reports: the results of
// the workflow's plan and validation jobs (success, failure, cancelled,
// skipped), the run's URL and the commit validated.
type CommentInfo struct {
	PlanResult, ValidateResult string
	RunURL, HeadSHA            string
}

// Passed reports whether the validation passed: the plan succeeded and the
// validation jobs succeeded or had nothing to do.
func (i CommentInfo) Passed() bool {
	return i.PlanResult == "success" && (i.ValidateResult == "success" || i.ValidateResult == "skipped")
}

// allProblems returns the distinct problems of the reports (corpus and case
// problems), sorted by file, line, column, severity, rule and message.
func allProblems(reports []*Report) []diag.Problem {
	var out []diag.Problem
	for _, r := range reports {
		out = append(out, r.Problems...)
		for _, c := range r.Cases {
			out = append(out, c.Problems...)
		}
	}
	slices.SortFunc(out, func(a, b diag.Problem) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Col != b.Col {
			return a.Col - b.Col
		}
		for _, c := range []int{strings.Compare(string(a.Severity), string(b.Severity)), strings.Compare(a.Rule, b.Rule), strings.Compare(a.Message, b.Message)} {
			if c != 0 {
				return c
			}
		}
		return 0
	})
	return slices.Compact(out)
}

// WriteComment writes the Markdown of the validate-cases pull request
// comment: the marker, the verdict, one row per validated case and, folded,
// the first 100 problems. Every text from the reports (case ids, files,
// messages, rules: case files are written by strangers) goes through
// internal/mdescape, as the run's URL does.
func WriteComment(w io.Writer, reports []*Report, info CommentInfo) error {
	var b strings.Builder
	status := "failed"
	if info.Passed() {
		status = "passed"
	}
	fmt.Fprintf(&b, "%s\n### Case validation %s\n\n", CommentMarker, status)
	fmt.Fprintf(&b, "Plan: %s, validation jobs: %s.", mdescape.Text(info.PlanResult), mdescape.Text(info.ValidateResult))
	if u := mdescape.URL(info.RunURL); u != "" {
		fmt.Fprintf(&b, " [Run](%s)", u)
	}
	if info.HeadSHA != "" {
		fmt.Fprintf(&b, ", commit %s", mdescape.Code(info.HeadSHA))
	}
	b.WriteString(".\n\n")

	var cases []CaseReport
	for _, r := range reports {
		cases = append(cases, r.Cases...)
	}
	slices.SortStableFunc(cases, func(a, b CaseReport) int { return strings.Compare(a.ID, b.ID) })
	if len(cases) == 0 {
		b.WriteString("No case report was produced.\n")
	} else {
		b.WriteString("| case | result | problems |\n| --- | --- | --- |\n")
		for _, c := range cases {
			verdict := "ok"
			if !c.OK {
				verdict = "**FAIL**"
			}
			errs := 0
			for _, p := range c.Problems {
				if p.Severity == diag.Error {
					errs++
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %d |\n", mdescape.Code(c.ID), verdict, errs)
		}
	}
	if problems := allProblems(reports); len(problems) > 0 {
		fmt.Fprintf(&b, "\n<details><summary>%d problem(s)</summary>\n\n", len(problems))
		for _, p := range problems[:min(len(problems), maxCommentProblems)] {
			rule := cmp.Or(p.Rule, "validate")
			where := p.File
			if p.Line > 0 {
				where += ":" + strconv.Itoa(p.Line)
			}
			fmt.Fprintf(&b, "- %s %s: %s [%s]\n", mdescape.Code(where), p.Severity, mdescape.Text(p.Message), mdescape.Text(rule))
		}
		if n := len(problems) - maxCommentProblems; n > 0 {
			fmt.Fprintf(&b, "- … %d more in the run\n", n)
		}
		b.WriteString("\n</details>\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Annotate writes one workflow annotation per distinct problem of the
// reports, on the file, line and column it names (go-githubactions escapes
// the message and the properties).
func Annotate(a *githubactions.Action, reports []*Report) {
	for _, p := range allProblems(reports) {
		fields := map[string]string{"file": p.File, "title": cmp.Or(p.Rule, "validate")}
		if p.Line > 0 {
			fields["line"] = strconv.Itoa(p.Line)
		}
		if p.Col > 0 {
			fields["col"] = strconv.Itoa(p.Col)
		}
		if p.Severity == diag.Error {
			a.WithFieldsMap(fields).Errorf("%s", p.Message)
		} else {
			a.WithFieldsMap(fields).Warningf("%s", p.Message)
		}
	}
}
