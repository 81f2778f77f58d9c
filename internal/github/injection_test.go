package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/pipeline"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/publish"
	"github.com/embedeval/embedeval-go/internal/report"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/runner"
)

// Values an untrusted shard job (or a hand-made results file) could carry
// to inject Markdown or HTML into the reports and the pull request.
const (
	injImg     = "<img src=x onerror=alert(1)>"
	injMention = "@octocat"
	injComment = "<!-- hide the rest"
	injPipe    = "a|b"
	injNewline = "line\n## injected heading"
	injLink    = "[x](javascript:alert(1))"
	injTick    = "`rm -rf`"
	injIssue   = "#1"
)

// capturedAPI is a fake GitHub API that accepts what Publish sends and
// records the committed files (by path) and the pull request.
type capturedAPI struct {
	mu           sync.Mutex
	blobs        []string
	files        map[string]string
	title, body  string
	unknownCalls []string
}

func (c *capturedAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	raw, _ := io.ReadAll(r.Body)
	var in map[string]any
	_ = json.Unmarshal(raw, &in)
	w.Header().Set("Content-Type", "application/json")
	reply := func(status int, body string) {
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
	route := r.Method + " " + strings.TrimPrefix(r.URL.Path, "/repos/octo/bench")
	switch {
	case route == "GET /git/ref/heads/main":
		reply(200, `{"object":{"sha":"base1"}}`)
	case route == "GET /git/commits/base1":
		reply(200, `{"tree":{"sha":"tree0"}}`)
	case route == "GET /git/trees/tree0":
		reply(200, `{"tree":[]}`)
	case route == "POST /git/blobs":
		c.blobs = append(c.blobs, fmt.Sprint(in["content"]))
		reply(201, fmt.Sprintf(`{"sha":"blob%d"}`, len(c.blobs)-1))
	case route == "POST /git/trees":
		c.files = map[string]string{}
		for _, e := range in["tree"].([]any) {
			e := e.(map[string]any)
			var i int
			_, err := fmt.Sscanf(e["sha"].(string), "blob%d", &i)
			if err == nil && i < len(c.blobs) {
				c.files[e["path"].(string)] = c.blobs[i]
			}
		}
		reply(201, `{"sha":"tree1"}`)
	case route == "POST /git/commits":
		reply(201, `{"sha":"commit1"}`)
	case strings.HasPrefix(route, "GET /git/ref/heads/results/"):
		reply(404, `{"message":"Not Found"}`)
	case route == "POST /git/refs":
		reply(201, `{}`)
	case route == "GET /pulls":
		reply(200, `[]`)
	case route == "POST /pulls":
		c.title, c.body = fmt.Sprint(in["title"]), fmt.Sprint(in["body"])
		reply(201, `{"number":5,"html_url":"https://github.com/octo/bench/pull/5"}`)
	default:
		c.unknownCalls = append(c.unknownCalls, route)
		reply(418, `{"message":"unexpected"}`)
	}
}

// publishCaptured publishes a run of resultsDir to a fake API and returns
// what it received.
func publishCaptured(t *testing.T, resultsDir, runID string) *capturedAPI {
	t.Helper()
	api := &capturedAPI{}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	c, err := NewClient("test-token", ClientOptions{BaseURL: srv.URL + "/", HTTPClient: srv.Client()})
	require.NoError(t, err)
	p := &Publisher{Client: c, Owner: "octo", Repo: "bench", Retry: RetryPolicy{
		Sleep: func(context.Context, time.Duration) error { return nil }, Now: time.Now}}
	_, _, err = p.PublishRun(context.Background(), RunOptions{ResultsDir: resultsDir, RunID: runID, Owner: "octo", Repo: "bench",
		Base: "main", PathInRepo: "results", RunURL: "https://github.com/octo/bench/actions/runs/1"})
	require.NoError(t, err)
	require.Empty(t, api.unknownCalls)
	require.NotEmpty(t, api.body)
	return api
}

// Markers this project writes on purpose: the only HTML allowed in output.
var ownComments = regexp.MustCompile(`<!-- (SCHEMA_VERSION: 1|embedeval:results) -->`)

// requireNoInjection asserts that none of the hostile values appears in md
// in a form GitHub would interpret.
func requireNoInjection(t *testing.T, name, md string) {
	t.Helper()
	md = ownComments.ReplaceAllString(md, "")
	require.NotRegexp(t, `<[A-Za-z!/?]`, md, "%s: raw HTML or a comment", name)
	require.NotContains(t, md, injMention, "%s: a mention", name)
	require.NotContains(t, md, injPipe, "%s: an unescaped '|' inside a value", name)
	require.NotContains(t, md, "\n## injected heading", "%s: a line break inside a value", name)
	require.NotRegexp(t, `(^|[^\\])\]\(javascript`, md, "%s: a link", name)
	require.NotRegexp(t, "(^|[^\\\\])`rm", md, "%s: a raw backtick", name)
	require.NotRegexp(t, `(^|\W)#1\b`, md, "%s: an issue reference", name)
}

// injCorpus is two cases on two images (two shards), one with a hostile
// category.
func injCorpus() []*cases.Case {
	mk := func(id, sdk, category string, n int) *cases.Case {
		return &cases.Case{Meta: cases.Metadata{ID: id, SDK: sdk, Category: category, Platform: "native_sim", Tier: "core", Difficulty: "easy"},
			ReferencePath: filepath.Join("/nonexistent", id, "main.c"), Hash: fmt.Sprintf("sha256:%064x", n)}
	}
	return []*cases.Case{mk("gpio-001", "zephyr", "gpio", 1), mk("dma-002", "embedded-linux", "dma "+injPipe+" "+injImg, 2)}
}

func injResult(caseID, model string, passed bool, checks ...string) result.EvalResult {
	st := result.StatusFailed
	if passed {
		st = result.StatusPassed
	}
	var ds []result.CheckDetail
	for _, c := range checks {
		ds = append(ds, result.CheckDetail{CheckName: c, Passed: passed, CheckType: "exact_match", Weight: 1})
	}
	r := result.EvalResult{CaseID: caseID, Model: model, Attempt: 1, Scenario: "generation", Status: st, Passed: passed,
		Layers: []result.LayerResult{{Layer: 0, Name: "static", Passed: passed, Status: st, Details: ds}}}
	if !passed {
		r.FailedAtLayer = new(int)
	}
	return r
}

// TestInjectionThroughMerge: a shard artifact carrying hostile scenario,
// mutation and check names is refused with a message naming its file and
// field; with --allow-partial the other shard is merged, and neither the
// job summary, the reports nor the pull request show the hostile values.
func TestInjectionThroughMerge(t *testing.T) {
	corpus := injCorpus()
	reg, err := platform.Default()
	require.NoError(t, err)
	plan, err := pipeline.BuildPlan(pipeline.PlanOptions{
		Inputs:        pipeline.Inputs{CasesDir: "cases", Models: []string{"m"}, Samples: 1, Scenario: "generation", Layers: "L0", MaxJobs: 4},
		BinaryVersion: "test", Cases: corpus, Registry: reg, Predictor: pipeline.Predictor{Build: true, Run: true},
	})
	require.NoError(t, err)
	require.NoError(t, plan.Seal())
	require.Len(t, plan.Jobs, 2)

	for _, tc := range []struct {
		field string
		edit  func(r *result.EvalResult)
	}{
		{"scenario", func(r *result.EvalResult) { r.Scenario = injImg }},
		{"mutation", func(r *result.EvalResult) { r.Mutation = injMention }},
		{"layers[0].details[0].check_name", func(r *result.EvalResult) { r.Layers[0].Details[0].CheckName = injComment }},
		{"layers[0].details[1].check_name", func(r *result.EvalResult) { r.Layers[0].Details[1].CheckName = injNewline }},
		{"layers[0].details[0].check_name", func(r *result.EvalResult) { r.Layers[0].Details[0].CheckName = injLink }},
		{"layers[0].details[0].check_name", func(r *result.EvalResult) { r.Layers[0].Details[0].CheckName = injPipe }},
	} {
		t.Run(tc.field, func(t *testing.T) {
			artifacts, results := t.TempDir(), t.TempDir()
			for _, j := range plan.Jobs {
				c := j.Cases[0]
				r := injResult(c.ID, "m", j.Index == 2, "uses_k_msleep", "checks_return")
				if j.Index == 1 {
					tc.edit(&r)
				}
				a := pipeline.NewArtifact(plan, j.Index, plan.BinaryVersion, []pipeline.CaseRef{c.CaseRef}, time.Unix(1_700_000_000, 0), time.Second, []result.EvalResult{r})
				require.NoError(t, pipeline.WriteArtifact(filepath.Join(artifacts, pipeline.ArtifactName(j.Index)), a))
			}
			opts := pipeline.MergeOptions{Plan: plan, ArtifactsDir: artifacts, ResultsDir: results, RunID: "r1", Corpus: corpus}
			_, err := pipeline.Merge(context.Background(), opts)
			var re *pipeline.RefusalError
			require.True(t, errors.As(err, &re), "%v", err)
			require.Len(t, re.Problems, 1)
			require.Equal(t, pipeline.KindInvalid, re.Problems[0].Kind)
			require.Contains(t, re.Problems[0].Message, "(shard-1.json) has an invalid field: results[0] (case \""+plan.Jobs[0].Cases[0].ID+"\", attempt 1) "+tc.field+" ")

			opts.AllowPartial = true
			o, err := pipeline.Merge(context.Background(), opts)
			require.NoError(t, err)
			require.Equal(t, []int{1}, o.Record.Missing)
			requireNoInjection(t, "job summary", pipeline.MergeSummary(o))
			api := publishCaptured(t, results, "r1")
			requireNoInjection(t, "pull request body", api.body)
			for path, data := range api.files {
				if strings.HasSuffix(path, ".md") {
					requireNoInjection(t, path, data)
				}
			}
			require.Contains(t, api.files, "results/LEADERBOARD.md")
		})
	}
}

// TestInjectionEscapedInEveryReport: results that never went through
// merge's validation (a local run's results.jsonl, scored by `embedeval
// report`) carry hostile model, scenario, mutation, check and case names,
// a hostile category and hostile scorer warnings; every Markdown file and
// the pull request body show them escaped, and LEADERBOARD.md still parses
// back to the original names.
func TestInjectionEscapedInEveryReport(t *testing.T) {
	corpus := injCorpus()
	model := injImg + " " + injMention + " " + injLink + " " + injIssue
	checkA := injComment + " " + injPipe
	checkB := injNewline + " " + injTick
	dir := t.TempDir()
	write := func(run string, rs []result.EvalResult) {
		t.Helper()
		var b strings.Builder
		enc := json.NewEncoder(&b)
		for i := range rs {
			require.NoError(t, enc.Encode(&rs[i]))
		}
		writeFile(t, filepath.Join(dir, "runs", run, runner.ResultsFile), []byte(b.String()))
		_, err := publish.WriteReports(dir, run, corpus, time.Time{}, 0)
		require.NoError(t, err)
	}
	write("r0", []result.EvalResult{
		injResult("gpio-001", model, true, checkA, checkB),
		injResult("dma-002", model, true, checkA, checkB),
	})
	bug := injResult("gpio-001", model, false, checkA)
	bug.Scenario, bug.Mutation = "bugfix "+injNewline, injTick+" "+injIssue+" "+injMention
	write("r1", []result.EvalResult{
		injResult("gpio-001", model, false, checkA, checkB),
		injResult("dma-002", model, false, checkA, checkB),
		injResult(injLink+" "+injImg, model, true, checkA),
		bug,
	})

	summary, err := ReadSummary(filepath.Join(dir, "runs", "r1", report.SummaryFile))
	require.NoError(t, err)
	warnings := strings.Join(summary.Warnings, "\n")
	require.Contains(t, warnings, injImg, "the scorer's warnings carry the hostile names (the test's premise)")
	require.Contains(t, warnings, injNewline)

	api := publishCaptured(t, dir, "r1")
	requireNoInjection(t, "pull request body", api.body)
	require.Contains(t, api.body, "### New failures by check", "the body compares with r0")
	require.Contains(t, api.body, "### Warnings")
	require.Contains(t, api.body, "&lt;img src=x onerror=alert(1)&gt; @&#8203;octocat [x\\](javascript:alert(1)) #&#8203;1")
	mds := 0
	for path, data := range api.files {
		if strings.HasSuffix(path, ".md") {
			mds++
			requireNoInjection(t, path, data)
		}
	}
	require.GreaterOrEqual(t, mds, 8, "LEADERBOARD, LEADERBOARD_PER_CHECK, SAFE_GUIDE, TEST_RESULTS, CALIBRATION and per run report.md, ablation.md")

	board, err := os.ReadFile(filepath.Join(dir, report.LeaderboardFile))
	require.NoError(t, err)
	lb, err := report.ParseLeaderboard("LEADERBOARD.md", board)
	require.NoError(t, err)
	require.Len(t, lb.Models, 1)
	require.Equal(t, model, lb.Models[0].Model, "the reader decodes the escaped model name")
	var cats []string
	for _, r := range lb.Models[0].Rows {
		cats = append(cats, r.Category)
	}
	require.Contains(t, cats, "dma "+injPipe+" "+injImg)
}
