package github

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"

	gh "github.com/google/go-github/v83/github"
)

// BranchPrefix starts the name of every results branch: results/<run-id>.
const BranchPrefix = "results/"

// Publisher writes to one repository through the GitHub API.
type Publisher struct {
	// Client is the API client (NewClient).
	Client *gh.Client
	// Owner and Repo name the repository.
	Owner, Repo string
	// Retry says how failed calls are repeated.
	Retry RetryPolicy
}

// PublishRequest is one run's results to publish.
type PublishRequest struct {
	// RunID names the run; the branch is BranchPrefix + RunID.
	RunID string
	// Base is the branch the pull request targets (e.g. "main").
	Base string
	// Files are the files to commit (ReadResultsDir); files absent here are
	// left as the base branch has them.
	Files []File
	// Title and Body are the pull request's.
	Title, Body string
	// CommitMessage is the commit's message.
	CommitMessage string
}

// PublishResult says what Publish did.
type PublishResult struct {
	// Branch is the results branch; CommitSHA the commit it points to.
	Branch, CommitSHA string
	// Uploaded counts files whose content differs from the base branch (a
	// blob was created for each); Unchanged the others.
	Uploaded, Unchanged int
	// UpToDate is set when every file already matched the base branch:
	// nothing was committed and no pull request was touched.
	UpToDate bool
	// PRNumber and PRURL identify the pull request; Created says whether it
	// was opened by this call (false: an open one was updated).
	PRNumber int
	PRURL    string
	Created  bool
}

// BranchName is the results branch of a run.
func BranchName(runID string) string { return BranchPrefix + runID }

// CheckRunID rejects run ids that cannot name a branch component:
// empty, with a slash, whitespace or control characters, a character Git
// forbids in ref names (~^:?*[\), "..", "@{", a leading "." or "-", or a
// trailing "." or ".lock".
func CheckRunID(id string) error {
	bad := id == "" || strings.ContainsAny(id, "/\\~^:?*[ \t") || strings.Contains(id, "..") ||
		strings.Contains(id, "@{") || strings.HasPrefix(id, ".") || strings.HasPrefix(id, "-") ||
		strings.HasSuffix(id, ".") || strings.HasSuffix(id, ".lock") ||
		strings.ContainsFunc(id, func(r rune) bool { return r < 0x20 || r == 0x7f })
	if bad {
		return fmt.Errorf("run id %q cannot name the branch %s<run-id>", id, BranchPrefix)
	}
	return nil
}

// Publish commits req.Files on top of the base branch to the run's own
// branch and opens the run's pull request, or updates the open one. The
// steps, each retried on transient failures:
//
//  1. read the base branch's head commit and its tree (recursively);
//  2. create a blob for every file whose Git blob id differs from the base
//     tree's (unchanged files are not uploaded);
//  3. create a tree on the base tree with those blobs, and a commit of it
//     whose parent is the base head;
//  4. create refs/heads/results/<run-id>, or force-update it when it exists
//     (the branch belongs to the run: a republish replaces its commit);
//  5. list the open pull requests whose head is that branch: update the
//     first one's title and body, or open one — never a second.
//
// When no file differs from the base branch, nothing is written.
func (p *Publisher) Publish(ctx context.Context, req PublishRequest) (*PublishResult, error) {
	if err := CheckRunID(req.RunID); err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	if req.Base == "" || len(req.Files) == 0 || req.Title == "" {
		return nil, fmt.Errorf("publish: a base branch, files and a title are required")
	}
	branch := BranchName(req.RunID)
	res := &PublishResult{Branch: branch}

	baseSHA, treeSHA, existing, err := p.baseTree(ctx, req.Base)
	if err != nil {
		return nil, err
	}
	var entries []*gh.TreeEntry
	for _, f := range req.Files {
		if existing[f.Path] == f.BlobSHA() {
			res.Unchanged++
			continue
		}
		sha, err := p.createBlob(ctx, f)
		if err != nil {
			return nil, err
		}
		res.Uploaded++
		entries = append(entries, &gh.TreeEntry{Path: gh.Ptr(f.Path), Mode: gh.Ptr("100644"), Type: gh.Ptr("blob"), SHA: gh.Ptr(sha)})
	}
	if len(entries) == 0 {
		res.UpToDate = true
		return res, nil
	}

	var tree *gh.Tree
	err = p.Retry.do(ctx, "create tree", func() (err error) {
		tree, _, err = p.Client.Git.CreateTree(ctx, p.Owner, p.Repo, treeSHA, entries)
		return err
	})
	if err != nil {
		return nil, err
	}
	msg := req.CommitMessage
	if msg == "" {
		msg = req.Title
	}
	var commit *gh.Commit
	err = p.Retry.do(ctx, "create commit", func() (err error) {
		commit, _, err = p.Client.Git.CreateCommit(ctx, p.Owner, p.Repo, gh.Commit{
			Message: gh.Ptr(msg), Tree: &gh.Tree{SHA: tree.SHA}, Parents: []*gh.Commit{{SHA: gh.Ptr(baseSHA)}},
		}, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	res.CommitSHA = commit.GetSHA()
	if err := p.setBranch(ctx, branch, res.CommitSHA); err != nil {
		return nil, err
	}
	pr, created, err := p.upsertPR(ctx, branch, req)
	if err != nil {
		return nil, err
	}
	res.PRNumber, res.PRURL, res.Created = pr.GetNumber(), pr.GetHTMLURL(), created
	return res, nil
}

// baseTree returns the head commit of the base branch, its tree and the
// blob ids of the tree's files by path (empty when GitHub truncated the
// listing: every file is then uploaded).
func (p *Publisher) baseTree(ctx context.Context, base string) (commitSHA, treeSHA string, blobs map[string]string, err error) {
	var ref *gh.Reference
	err = p.Retry.do(ctx, "read base branch "+base, func() (err error) {
		ref, _, err = p.Client.Git.GetRef(ctx, p.Owner, p.Repo, "heads/"+base)
		return err
	})
	if err != nil {
		return "", "", nil, err
	}
	commitSHA = ref.GetObject().GetSHA()
	var commit *gh.Commit
	err = p.Retry.do(ctx, "read base commit", func() (err error) {
		commit, _, err = p.Client.Git.GetCommit(ctx, p.Owner, p.Repo, commitSHA)
		return err
	})
	if err != nil {
		return "", "", nil, err
	}
	treeSHA = commit.GetTree().GetSHA()
	var tree *gh.Tree
	err = p.Retry.do(ctx, "read base tree", func() (err error) {
		tree, _, err = p.Client.Git.GetTree(ctx, p.Owner, p.Repo, treeSHA, true)
		return err
	})
	if err != nil {
		return "", "", nil, err
	}
	blobs = map[string]string{}
	if tree.GetTruncated() {
		return commitSHA, treeSHA, blobs, nil
	}
	for _, e := range tree.Entries {
		if e.GetType() == "blob" && e.GetMode() != "120000" {
			blobs[e.GetPath()] = e.GetSHA()
		}
	}
	return commitSHA, treeSHA, blobs, nil
}

// createBlob uploads one file's content and returns its blob id.
func (p *Publisher) createBlob(ctx context.Context, f File) (string, error) {
	blob := gh.Blob{Content: gh.Ptr(string(f.Data)), Encoding: gh.Ptr("utf-8")}
	if !f.isText() {
		blob = gh.Blob{Content: gh.Ptr(base64.StdEncoding.EncodeToString(f.Data)), Encoding: gh.Ptr("base64")}
	}
	var out *gh.Blob
	err := p.Retry.do(ctx, "upload "+f.Path, func() (err error) {
		out, _, err = p.Client.Git.CreateBlob(ctx, p.Owner, p.Repo, blob)
		return err
	})
	if err != nil {
		return "", err
	}
	return out.GetSHA(), nil
}

// setBranch points refs/heads/<branch> at sha, creating it when missing and
// force-updating it otherwise.
func (p *Publisher) setBranch(ctx context.Context, branch, sha string) error {
	exists := true
	err := p.Retry.do(ctx, "read branch "+branch, func() error {
		_, _, err := p.Client.Git.GetRef(ctx, p.Owner, p.Repo, "heads/"+branch)
		if isStatus(err, http.StatusNotFound) {
			exists = false
			return nil
		}
		return err
	})
	if err != nil {
		return err
	}
	if exists {
		return p.Retry.do(ctx, "update branch "+branch, func() error {
			_, _, err := p.Client.Git.UpdateRef(ctx, p.Owner, p.Repo, "heads/"+branch, gh.UpdateRef{SHA: sha, Force: gh.Ptr(true)})
			return err
		})
	}
	return p.Retry.do(ctx, "create branch "+branch, func() error {
		_, _, err := p.Client.Git.CreateRef(ctx, p.Owner, p.Repo, gh.CreateRef{Ref: "refs/heads/" + branch, SHA: sha})
		return err
	})
}

// upsertPR updates the open pull request from branch, or opens one. A
// create refused because one already exists (a concurrent publisher, or a
// create that succeeded although its response was lost) falls back to
// finding and updating it.
func (p *Publisher) upsertPR(ctx context.Context, branch string, req PublishRequest) (*gh.PullRequest, bool, error) {
	for range 2 {
		pr, err := p.findPR(ctx, branch)
		if err != nil {
			return nil, false, err
		}
		if pr != nil {
			var out *gh.PullRequest
			err := p.Retry.do(ctx, fmt.Sprintf("update pull request #%d", pr.GetNumber()), func() (err error) {
				out, _, err = p.Client.PullRequests.Edit(ctx, p.Owner, p.Repo, pr.GetNumber(), &gh.PullRequest{Title: gh.Ptr(req.Title), Body: gh.Ptr(req.Body)})
				return err
			})
			return out, false, err
		}
		var out *gh.PullRequest
		var exists bool
		err = p.Retry.do(ctx, "open pull request from "+branch, func() (err error) {
			out, _, err = p.Client.PullRequests.Create(ctx, p.Owner, p.Repo, &gh.NewPullRequest{
				Title: gh.Ptr(req.Title), Head: gh.Ptr(branch), Base: gh.Ptr(req.Base), Body: gh.Ptr(req.Body),
			})
			if prExists(err) {
				exists = true
				return nil
			}
			return err
		})
		if err != nil {
			return nil, false, err
		}
		if !exists {
			return out, true, nil
		}
	}
	return nil, false, fmt.Errorf("open pull request from %s: GitHub says one exists but lists none open", branch)
}

// findPR returns the first open pull request whose head is branch of this
// repository, or nil.
func (p *Publisher) findPR(ctx context.Context, branch string) (*gh.PullRequest, error) {
	var prs []*gh.PullRequest
	err := p.Retry.do(ctx, "list pull requests from "+branch, func() (err error) {
		prs, _, err = p.Client.PullRequests.List(ctx, p.Owner, p.Repo, &gh.PullRequestListOptions{
			State: "open", Head: p.Owner + ":" + branch,
		})
		return err
	})
	if err != nil || len(prs) == 0 {
		return nil, err
	}
	return prs[0], nil
}

// prExists reports whether err is GitHub's 422 for a pull request that is
// already open for the same head and base.
func prExists(err error) bool {
	var er *gh.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil || er.Response.StatusCode != http.StatusUnprocessableEntity {
		return false
	}
	for _, e := range er.Errors {
		if strings.Contains(e.Message, "pull request already exists") {
			return true
		}
	}
	return strings.Contains(er.Message, "pull request already exists")
}

// isStatus reports whether err is an API error with the given HTTP status.
func isStatus(err error, code int) bool {
	var er *gh.ErrorResponse
	return errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == code
}
