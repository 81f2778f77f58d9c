package github

import (
	"context"
	"fmt"
	"strings"

	gh "github.com/google/go-github/v83/github"
)

// commentsPerPage is the page size when looking for a marked comment.
const commentsPerPage = 100

// UpsertComment keeps one comment per marker on an issue or pull request:
// it edits the first comment whose body contains marker (an HTML comment
// such as ResultsMarker, invisible once rendered), or creates one. body gets
// marker as its first line when it lacks it, so the next call finds it
// again. It returns the comment and whether it was created.
//
// A create that fails transiently is not simply repeated: the comments are
// searched again first, so a create that took effect although its response
// was lost does not leave a duplicate.
func (p *Publisher) UpsertComment(ctx context.Context, number int, marker, body string) (*gh.IssueComment, bool, error) {
	if marker == "" {
		return nil, false, fmt.Errorf("comment on #%d: a marker is required", number)
	}
	if !strings.Contains(body, marker) {
		body = marker + "\n" + body
	}
	found, err := p.findComment(ctx, number, marker)
	if err != nil {
		return nil, false, err
	}
	var out *gh.IssueComment
	if found == nil {
		created := true
		attempt := 0
		err := p.Retry.do(ctx, fmt.Sprintf("comment on #%d", number), func() (err error) {
			if attempt++; attempt > 1 {
				// The previous create may have taken effect.
				if found, err = p.findCommentOnce(ctx, number, marker); err != nil {
					return err
				}
				if found != nil {
					created = false
					out, _, err = p.Client.Issues.EditComment(ctx, p.Owner, p.Repo, found.GetID(), &gh.IssueComment{Body: gh.Ptr(body)})
					return err
				}
			}
			out, _, err = p.Client.Issues.CreateComment(ctx, p.Owner, p.Repo, number, &gh.IssueComment{Body: gh.Ptr(body)})
			return err
		})
		return out, created && err == nil, err
	}
	err = p.Retry.do(ctx, fmt.Sprintf("edit comment %d on #%d", found.GetID(), number), func() (err error) {
		out, _, err = p.Client.Issues.EditComment(ctx, p.Owner, p.Repo, found.GetID(), &gh.IssueComment{Body: gh.Ptr(body)})
		return err
	})
	return out, false, err
}

// findComment returns the first comment of the issue whose body contains
// marker, or nil, retrying transient failures.
func (p *Publisher) findComment(ctx context.Context, number int, marker string) (*gh.IssueComment, error) {
	var found *gh.IssueComment
	err := p.Retry.do(ctx, fmt.Sprintf("list comments of #%d", number), func() (err error) {
		found, err = p.findCommentOnce(ctx, number, marker)
		return err
	})
	return found, err
}

// findCommentOnce pages through the issue's comments once.
func (p *Publisher) findCommentOnce(ctx context.Context, number int, marker string) (*gh.IssueComment, error) {
	opts := &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: commentsPerPage}}
	for {
		comments, resp, err := p.Client.Issues.ListComments(ctx, p.Owner, p.Repo, number, opts)
		if err != nil {
			return nil, err
		}
		for _, c := range comments {
			if strings.Contains(c.GetBody(), marker) {
				return c, nil
			}
		}
		if resp == nil || resp.NextPage == 0 {
			return nil, nil
		}
		opts.Page = resp.NextPage
	}
}
