package github

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const api = "/repos/octo/bench"

// testFiles are one changed text file, one new binary file and one file the
// base tree already has with the same content.
func testFiles() []File {
	return []File{
		{Path: "results/LEADERBOARD.md", Data: []byte("# Leaderboard\n")},
		{Path: "results/heatmap.png", Data: []byte{0x89, 'P', 'N', 'G', 0, 1, 2}},
		{Path: "results/runs/r1/summary.json", Data: []byte("{}\n")},
	}
}

func testRequest() PublishRequest {
	return PublishRequest{RunID: "r1", Base: "main", Files: testFiles(), Title: "Results r1", Body: "body one", CommitMessage: "results: run r1"}
}

// baseReads are the requests that read the base branch, its commit and tree.
func baseReads() []expected {
	unchanged := File{Data: []byte("{}\n")}.BlobSHA()
	return []expected{
		{Method: "GET", Path: api + "/git/ref/heads/main", Reply: `{"ref":"refs/heads/main","object":{"type":"commit","sha":"base1"}}`},
		{Method: "GET", Path: api + "/git/commits/base1", Reply: `{"sha":"base1","tree":{"sha":"tree0"}}`},
		{Method: "GET", Path: api + "/git/trees/tree0", Query: "recursive=1", Reply: `{"sha":"tree0","truncated":false,"tree":[
			{"path":"README.md","mode":"100644","type":"blob","sha":"aaaa"},
			{"path":"results","mode":"040000","type":"tree","sha":"bbbb"},
			{"path":"results/LEADERBOARD.md","mode":"100644","type":"blob","sha":"old0"},
			{"path":"results/runs/r1/summary.json","mode":"100644","type":"blob","sha":"` + unchanged + `"}]}`},
	}
}

// commitWrites are the blob, tree and commit creations.
func commitWrites(commit string) []expected {
	png := base64.StdEncoding.EncodeToString([]byte{0x89, 'P', 'N', 'G', 0, 1, 2})
	return []expected{
		{Method: "POST", Path: api + "/git/blobs", Body: `{"content":"# Leaderboard\n","encoding":"utf-8"}`, Status: 201, Reply: `{"sha":"blobA"}`},
		{Method: "POST", Path: api + "/git/blobs", Body: `{"content":"` + png + `","encoding":"base64"}`, Status: 201, Reply: `{"sha":"blobB"}`},
		{Method: "POST", Path: api + "/git/trees", Body: `{"base_tree":"tree0","tree":[
			{"path":"results/LEADERBOARD.md","mode":"100644","type":"blob","sha":"blobA"},
			{"path":"results/heatmap.png","mode":"100644","type":"blob","sha":"blobB"}]}`, Status: 201, Reply: `{"sha":"tree1"}`},
		{Method: "POST", Path: api + "/git/commits", Body: `{"message":"results: run r1","tree":"tree1","parents":["base1"]}`, Status: 201, Reply: `{"sha":"` + commit + `"}`},
	}
}

func seq(parts ...[]expected) []expected {
	var out []expected
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestPublishFirstRunCreatesBranchAndPullRequest(t *testing.T) {
	_, p, slept := newRegistry(t, seq(baseReads(), commitWrites("commit1"), []expected{
		{Method: "GET", Path: api + "/git/ref/heads/results/r1", Status: 404, Reply: `{"message":"Not Found"}`},
		{Method: "POST", Path: api + "/git/refs", Body: `{"ref":"refs/heads/results/r1","sha":"commit1"}`, Status: 201, Reply: `{"ref":"refs/heads/results/r1"}`},
		{Method: "GET", Path: api + "/pulls", Query: "head=octo%3Aresults%2Fr1&state=open", Reply: `[]`},
		{Method: "POST", Path: api + "/pulls", Body: `{"title":"Results r1","head":"results/r1","base":"main","body":"body one"}`, Status: 201,
			Reply: `{"number":7,"html_url":"https://github.com/octo/bench/pull/7"}`},
	})...)
	res, err := p.Publish(context.Background(), testRequest())
	require.NoError(t, err)
	require.Equal(t, &PublishResult{Branch: "results/r1", CommitSHA: "commit1", Uploaded: 2, Unchanged: 1,
		PRNumber: 7, PRURL: "https://github.com/octo/bench/pull/7", Created: true}, res)
	require.Empty(t, *slept)
}

func TestPublishSameRunAgainUpdatesBranchAndPullRequest(t *testing.T) {
	req := testRequest()
	req.Body = "body two"
	_, p, _ := newRegistry(t, seq(baseReads(), commitWrites("commit2"), []expected{
		{Method: "GET", Path: api + "/git/ref/heads/results/r1", Reply: `{"ref":"refs/heads/results/r1","object":{"sha":"commit1"}}`},
		{Method: "PATCH", Path: api + "/git/refs/heads/results/r1", Body: `{"sha":"commit2","force":true}`, Reply: `{"ref":"refs/heads/results/r1"}`},
		{Method: "GET", Path: api + "/pulls", Query: "head=octo%3Aresults%2Fr1&state=open", Reply: `[{"number":7,"html_url":"https://github.com/octo/bench/pull/7"}]`},
		{Method: "PATCH", Path: api + "/pulls/7", Body: `{"title":"Results r1","body":"body two"}`, Reply: `{"number":7,"html_url":"https://github.com/octo/bench/pull/7"}`},
	})...)
	res, err := p.Publish(context.Background(), req)
	require.NoError(t, err)
	require.False(t, res.Created)
	require.Equal(t, 7, res.PRNumber)
	require.Equal(t, "commit2", res.CommitSHA)
}

func TestPublishCreateRaceFallsBackToUpdate(t *testing.T) {
	_, p, _ := newRegistry(t, seq(baseReads(), commitWrites("commit1"), []expected{
		{Method: "GET", Path: api + "/git/ref/heads/results/r1", Status: 404, Reply: `{"message":"Not Found"}`},
		{Method: "POST", Path: api + "/git/refs", Body: `{"ref":"refs/heads/results/r1","sha":"commit1"}`, Status: 201, Reply: `{}`},
		{Method: "GET", Path: api + "/pulls", Query: "head=octo%3Aresults%2Fr1&state=open", Reply: `[]`},
		{Method: "POST", Path: api + "/pulls", Body: `{"title":"Results r1","head":"results/r1","base":"main","body":"body one"}`, Status: 422,
			Reply: `{"message":"Validation Failed","errors":[{"resource":"PullRequest","code":"custom","message":"A pull request already exists for octo:results/r1."}]}`},
		{Method: "GET", Path: api + "/pulls", Query: "head=octo%3Aresults%2Fr1&state=open", Reply: `[{"number":9}]`},
		{Method: "PATCH", Path: api + "/pulls/9", Body: `{"title":"Results r1","body":"body one"}`, Reply: `{"number":9}`},
	})...)
	res, err := p.Publish(context.Background(), testRequest())
	require.NoError(t, err)
	require.False(t, res.Created)
	require.Equal(t, 9, res.PRNumber)
}

func TestPublishNothingChangedWritesNothing(t *testing.T) {
	_, p, _ := newRegistry(t, baseReads()...)
	req := testRequest()
	req.Files = req.Files[2:]
	res, err := p.Publish(context.Background(), req)
	require.NoError(t, err)
	require.Equal(t, &PublishResult{Branch: "results/r1", Unchanged: 1, UpToDate: true}, res)
}

func TestPublishPermissionErrorSaysWhatToGrant(t *testing.T) {
	_, p, slept := newRegistry(t, seq(baseReads(), []expected{
		{Method: "POST", Path: api + "/git/blobs", Body: `{"content":"# Leaderboard\n","encoding":"utf-8"}`, Status: 403,
			Reply: `{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest/git/blobs#create-a-blob"}`},
	})...)
	_, err := p.Publish(context.Background(), testRequest())
	require.EqualError(t, err, "upload results/LEADERBOARD.md: the token cannot write contents/pull-requests: give the publishing job `permissions: contents: write, pull-requests: write` (GitHub said: POST "+
		p.Client.BaseURL.String()+"repos/octo/bench/git/blobs: 403 Resource not accessible by integration [])")
	require.ErrorIs(t, err, ErrPermission)
	require.NotErrorIs(t, err, ErrBadCredentials)
	require.Empty(t, *slept, "a permission error is not retried")
}

func TestPublishRetriesTransientErrors(t *testing.T) {
	tests := []struct {
		name  string
		fail  expected
		slept []time.Duration
	}{
		{"502 backs off", expected{Status: 502, Reply: `{"message":"Server Error"}`}, []time.Duration{2 * time.Second}},
		{"503 honours Retry-After", expected{Status: 503, Reply: `{"message":"busy"}`, Header: map[string]string{"Retry-After": "7"}}, []time.Duration{7 * time.Second}},
		{"secondary rate limit", expected{Status: 403, Header: map[string]string{"Retry-After": "30"},
			Reply: `{"message":"You have exceeded a secondary rate limit","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`},
			[]time.Duration{30 * time.Second}},
		{"503 with a Retry-After date", expected{Status: 503, Reply: `{"message":"busy"}`, Header: map[string]string{"Retry-After": time.Unix(1700000020, 0).UTC().Format(http.TimeFormat)}}, []time.Duration{20 * time.Second}},
		{"429 without Retry-After", expected{Status: 429, Reply: `{"message":"slow down"}`}, []time.Duration{2 * time.Second}},
		{"primary rate limit waits for the reset", expected{Status: 403, Reply: `{"message":"API rate limit exceeded"}`,
			Header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700000042"}}, []time.Duration{42 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fail := tt.fail
			fail.Method, fail.Path = "GET", api+"/git/ref/heads/main"
			want := append([]expected{fail}, baseReads()...)
			_, p, slept := newRegistry(t, want...)
			req := testRequest()
			req.Files = req.Files[2:]
			res, err := p.Publish(context.Background(), req)
			require.NoError(t, err)
			require.True(t, res.UpToDate)
			require.Equal(t, tt.slept, *slept)
		})
	}
}

func TestPublishGivesUpAfterMaxAttempts(t *testing.T) {
	fail := expected{Method: "GET", Path: api + "/git/ref/heads/main", Status: 500, Reply: `{"message":"boom"}`}
	_, p, slept := newRegistry(t, fail, fail, fail)
	p.Retry.MaxAttempts = 3
	_, err := p.Publish(context.Background(), testRequest())
	require.ErrorContains(t, err, "read base branch main: giving up after 3 attempts: GET ")
	require.ErrorContains(t, err, ": 500 boom []")
	require.Equal(t, []time.Duration{2 * time.Second, 4 * time.Second}, *slept)
}

func TestPublishRetriesNetworkErrors(t *testing.T) {
	r, p, slept := newRegistry(t, baseReads()...)
	// The first attempt fails in the transport, as a reset connection does.
	calls := 0
	hc := &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if calls++; calls == 1 {
			return nil, errors.New("connection reset by peer")
		}
		return http.DefaultTransport.RoundTrip(req)
	})}
	c, err := NewClient(r.token, ClientOptions{BaseURL: r.url, HTTPClient: hc})
	require.NoError(t, err)
	p.Client = c
	req := testRequest()
	req.Files = req.Files[2:]
	_, err = p.Publish(context.Background(), req)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{2 * time.Second}, *slept)
	require.Equal(t, 4, calls)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestBadCredentials(t *testing.T) {
	_, p, _ := newRegistry(t, expected{Method: "GET", Path: api + "/git/ref/heads/main", Status: 401, Reply: `{"message":"Bad credentials"}`})
	_, err := p.Publish(context.Background(), testRequest())
	require.ErrorIs(t, err, ErrBadCredentials)
	require.ErrorContains(t, err, "read base branch main: GitHub does not accept the token")
	require.NotContains(t, err.Error(), "test-token-123")
}

func TestCheckRunID(t *testing.T) {
	for _, id := range []string{"2026-04-19T12-00-00Z", "run_42", "a.b"} {
		require.NoError(t, CheckRunID(id), id)
	}
	for _, id := range []string{"", "a/b", "a..b", "a b", ".x", "-x", "x.", "x.lock", "a:b", "a@{b", "a\x01"} {
		err := CheckRunID(id)
		require.Error(t, err, id)
		require.True(t, strings.HasPrefix(err.Error(), "run id "), err.Error())
	}
}

func TestBlobSHAMatchesGit(t *testing.T) {
	// git hash-object of "hello\n" and of the empty file.
	require.Equal(t, "ce013625030ba8dba906f756967f9e9ca394464a", File{Data: []byte("hello\n")}.BlobSHA())
	require.Equal(t, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", File{}.BlobSHA())
}
