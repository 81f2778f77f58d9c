package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	ghpub "github.com/embedeval/embedeval-go/internal/github"
	"github.com/embedeval/embedeval-go/internal/report"
)

// PublishOptions are the publish command's options.
type PublishOptions struct {
	Repo, Base, RunID, Results, PathInRepo string
	BodyOut, RunURL, Before, APIURL        string
}

// newPublishCommand builds the publish step: it opens or updates the results
// pull request of a run.
func newPublishCommand(f *Factory) *cobra.Command {
	var o PublishOptions
	cmd := &cobra.Command{
		Use:   "publish",
		Short: "Open or update the results pull request of a run",
		Long: `publish reads <results>/runs/<run-id>/summary.json, compares it with each
model's previous run (history.json, or --before), renders the pull request body
(pass@1 before → after per model and category with Wilson intervals, changes
beyond noise, newly failing checks, the heatmap, a link to the run) and
publishes the results directory: it commits it through the Git Data API to the
branch results/<run-id> on top of --base (force-updating that branch when it
exists) and opens the run's pull request, or updates the one already open.

The token comes from GITHUB_TOKEN only. The job needs
'permissions: contents: write, pull-requests: write'. With --body-out the body
is written to a file and nothing is sent (no token needed).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runPublish(cmd.Context(), f, o) },
	}
	fl := cmd.Flags()
	fl.StringVar(&o.Repo, "repo", f.Getenv("GITHUB_REPOSITORY"), "the repository as owner/name (default $GITHUB_REPOSITORY)")
	fl.StringVar(&o.Base, "base", "main", "the branch the pull request targets")
	fl.StringVar(&o.RunID, "run-id", "", "the run to publish (results/runs/<run-id>/)")
	fl.StringVar(&o.Results, "results", "results", "the results directory merge wrote")
	fl.StringVar(&o.PathInRepo, "path-in-repo", "results", "where the results directory lives in the repository")
	fl.StringVar(&o.BodyOut, "body-out", "", "write the pull request body to this file and publish nothing (a dry run)")
	fl.StringVar(&o.RunURL, "run-url", "", "link to the workflow run (default from $GITHUB_SERVER_URL, $GITHUB_REPOSITORY, $GITHUB_RUN_ID)")
	fl.StringVar(&o.Before, "before", "", "summary.json to compare with (default: each model's previous run from history.json)")
	fl.StringVar(&o.APIURL, "api-url", f.Getenv("GITHUB_API_URL"), "the REST API root (default $GITHUB_API_URL, else https://api.github.com)")
	return cmd
}

// runPublish writes the body (--body-out) or publishes the run through the
// factory's GitHub client.
func runPublish(ctx context.Context, f *Factory, o PublishOptions) error {
	if o.RunID == "" {
		return usageError(fmt.Errorf("--run-id is required"))
	}
	if err := ghpub.CheckRunID(o.RunID); err != nil {
		return usageError(fmt.Errorf("--run-id: %w", err))
	}
	var owner, repo string
	if o.Repo != "" {
		var ok bool
		owner, repo, ok = strings.Cut(o.Repo, "/")
		if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
			return usageError(fmt.Errorf("--repo %q: want owner/name", o.Repo))
		}
	}
	server := f.Getenv("GITHUB_SERVER_URL")
	if server == "" {
		server = "https://github.com"
	}
	runURL := o.RunURL
	if runURL == "" && f.Getenv("GITHUB_RUN_ID") != "" && f.Getenv("GITHUB_REPOSITORY") != "" {
		runURL = strings.TrimSuffix(server, "/") + "/" + f.Getenv("GITHUB_REPOSITORY") + "/actions/runs/" + f.Getenv("GITHUB_RUN_ID")
	}
	opts := ghpub.RunOptions{
		ResultsDir: o.Results, RunID: o.RunID, Owner: owner, Repo: repo, Base: o.Base,
		PathInRepo: o.PathInRepo, BeforeSummary: o.Before, RunURL: runURL, ServerURL: server,
	}
	out, errw := f.IO.Out, f.IO.ErrOut
	if o.BodyOut != "" {
		prep, err := ghpub.PrepareRun(opts)
		if err != nil {
			return err
		}
		for _, w := range prep.Warnings {
			fmt.Fprintln(errw, "warning:", w)
		}
		if err := report.WriteFileAtomic(o.BodyOut, []byte(prep.Body)); err != nil {
			return err
		}
		fmt.Fprintf(out, "wrote the pull request body to %s (nothing published)\n", o.BodyOut)
		return nil
	}
	if o.Repo == "" {
		return usageError(fmt.Errorf("--repo is required to publish (or give --body-out for a dry run)"))
	}
	token := f.Getenv("GITHUB_TOKEN")
	if token == "" {
		return usageError(fmt.Errorf("GITHUB_TOKEN is not set: give the publishing step `env: GITHUB_TOKEN: ${{ github.token }}`"))
	}
	client, err := f.NewGitHubClient(token, ghpub.ClientOptions{BaseURL: o.APIURL})
	if err != nil {
		return usageError(err)
	}
	p := &ghpub.Publisher{Client: client, Owner: owner, Repo: repo, Retry: ghpub.RetryPolicy{Logger: loggerFrom(ctx)}}
	prep, res, err := p.PublishRun(ctx, opts)
	if prep != nil {
		for _, w := range prep.Warnings {
			fmt.Fprintln(errw, "warning:", w)
		}
	}
	if err != nil {
		return err
	}
	switch {
	case res.UpToDate:
		fmt.Fprintf(out, "%s already has these results (%d files): nothing published\n", o.Base, res.Unchanged)
	case res.Created:
		fmt.Fprintf(out, "opened %s (branch %s, %d files changed)\n", res.PRURL, res.Branch, res.Uploaded)
	default:
		fmt.Fprintf(out, "updated %s (branch %s, %d files changed)\n", res.PRURL, res.Branch, res.Uploaded)
	}
	if res.PRURL != "" && f.Getenv("GITHUB_OUTPUT") != "" {
		// In a workflow step: expose the pull request to later steps.
		f.actions().SetOutput("pull-request-url", res.PRURL)
	}
	return nil
}
