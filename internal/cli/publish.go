package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	ghpub "github.com/embedeval/embedeval-go/internal/github"
	"github.com/embedeval/embedeval-go/internal/report"
)

// publishFlags are the publish command's flags.
type publishFlags struct {
	repo, base, runID, resultsDir, pathInRepo string
	bodyOut, runURL, before, apiURL           string
}

// newPublishCommand builds the publish step: it opens or updates the results
// pull request of a run.
func newPublishCommand() *cobra.Command {
	var f publishFlags
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
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.runID == "" {
				return usageError(fmt.Errorf("--run-id is required"))
			}
			if err := ghpub.CheckRunID(f.runID); err != nil {
				return usageError(fmt.Errorf("--run-id: %w", err))
			}
			var owner, repo string
			if f.repo != "" {
				var ok bool
				owner, repo, ok = strings.Cut(f.repo, "/")
				if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
					return usageError(fmt.Errorf("--repo %q: want owner/name", f.repo))
				}
			}
			runURL := f.runURL
			if runURL == "" && os.Getenv("GITHUB_RUN_ID") != "" && os.Getenv("GITHUB_REPOSITORY") != "" {
				runURL = strings.TrimSuffix(serverURL(), "/") + "/" + os.Getenv("GITHUB_REPOSITORY") + "/actions/runs/" + os.Getenv("GITHUB_RUN_ID")
			}
			opts := ghpub.RunOptions{
				ResultsDir: f.resultsDir, RunID: f.runID, Owner: owner, Repo: repo, Base: f.base,
				PathInRepo: f.pathInRepo, BeforeSummary: f.before, RunURL: runURL, ServerURL: serverURL(),
			}
			out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
			if f.bodyOut != "" {
				prep, err := ghpub.PrepareRun(opts)
				if err != nil {
					return err
				}
				for _, w := range prep.Warnings {
					fmt.Fprintln(errw, "warning:", w)
				}
				if err := report.WriteFileAtomic(f.bodyOut, []byte(prep.Body)); err != nil {
					return err
				}
				fmt.Fprintf(out, "wrote the pull request body to %s (nothing published)\n", f.bodyOut)
				return nil
			}
			if f.repo == "" {
				return usageError(fmt.Errorf("--repo is required to publish (or give --body-out for a dry run)"))
			}
			token := os.Getenv("GITHUB_TOKEN")
			if token == "" {
				return usageError(fmt.Errorf("GITHUB_TOKEN is not set: give the publishing step `env: GITHUB_TOKEN: ${{ github.token }}`"))
			}
			client, err := ghpub.NewClient(token, ghpub.ClientOptions{BaseURL: f.apiURL})
			if err != nil {
				return usageError(err)
			}
			p := &ghpub.Publisher{Client: client, Owner: owner, Repo: repo,
				Retry: ghpub.RetryPolicy{Logger: loggerFrom(cmd.Context())}}
			prep, res, err := p.PublishRun(cmd.Context(), opts)
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
				fmt.Fprintf(out, "%s already has these results (%d files): nothing published\n", f.base, res.Unchanged)
			case res.Created:
				fmt.Fprintf(out, "opened %s (branch %s, %d files changed)\n", res.PRURL, res.Branch, res.Uploaded)
			default:
				fmt.Fprintf(out, "updated %s (branch %s, %d files changed)\n", res.PRURL, res.Branch, res.Uploaded)
			}
			if res.PRURL != "" && os.Getenv("GITHUB_OUTPUT") != "" {
				// In a workflow step: expose the pull request to later steps.
				actionsFor(cmd, os.Getenv).SetOutput("pull-request-url", res.PRURL)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.repo, "repo", os.Getenv("GITHUB_REPOSITORY"), "the repository as owner/name (default $GITHUB_REPOSITORY)")
	fl.StringVar(&f.base, "base", "main", "the branch the pull request targets")
	fl.StringVar(&f.runID, "run-id", "", "the run to publish (results/runs/<run-id>/)")
	fl.StringVar(&f.resultsDir, "results", "results", "the results directory merge wrote")
	fl.StringVar(&f.pathInRepo, "path-in-repo", "results", "where the results directory lives in the repository")
	fl.StringVar(&f.bodyOut, "body-out", "", "write the pull request body to this file and publish nothing (a dry run)")
	fl.StringVar(&f.runURL, "run-url", "", "link to the workflow run (default from $GITHUB_SERVER_URL, $GITHUB_REPOSITORY, $GITHUB_RUN_ID)")
	fl.StringVar(&f.before, "before", "", "summary.json to compare with (default: each model's previous run from history.json)")
	fl.StringVar(&f.apiURL, "api-url", os.Getenv("GITHUB_API_URL"), "the REST API root (default $GITHUB_API_URL, else https://api.github.com)")
	return cmd
}

// serverURL is the web root of GitHub ($GITHUB_SERVER_URL in Actions).
func serverURL() string {
	if s := os.Getenv("GITHUB_SERVER_URL"); s != "" {
		return s
	}
	return "https://github.com"
}
