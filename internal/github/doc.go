// Package github publishes a benchmark run to GitHub: it renders the body of
// the results pull request (pass@1 before → after with Wilson intervals, the
// changes beyond noise, newly failing checks, the heatmap, a link to the run)
// and, through google/go-github, commits the results directory to a branch
// of its own per run with the Git Data API, opens that run's pull request or
// updates the one already open. (The validate-cases comment is posted by
// its workflow with gh api, not from here.) Every call
// is retried on transient failures and a missing token permission is turned
// into an error that says which permission to grant.
//
// It owns nothing on disk except what it reads: it never writes reports,
// scores results or runs model output, and it never logs the token.
package github
