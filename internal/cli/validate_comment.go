package cli

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/sethvargo/go-githubactions"
	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/atomicfile"
	"github.com/embedeval/embedeval-go/internal/validate"
)

func newValidateCommentCommand() *cobra.Command {
	var reportsDir, commentFile string
	var info validate.CommentInfo
	cmd := &cobra.Command{
		Use:   "validate-comment",
		Short: "Turn validation reports into workflow annotations and the validate-cases pull request comment",
		Long: `validate-comment reads every validation report (validate --json) in --reports,
writes one workflow annotation per distinct problem to stdout (on the file,
line and column it names) and the Markdown of the validate-cases pull request
comment to --comment. Every text from the reports is escaped: case files are
written by strangers. The validate-cases workflow runs it; see
docs/WORKFLOWS.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if commentFile == "" {
				return usageError(errors.New("--comment is required"))
			}
			reports, err := validate.ReadReports(reportsDir)
			if err != nil {
				return err
			}
			validate.Annotate(githubactions.New(githubactions.WithWriter(cmd.OutOrStdout())), reports)
			var b bytes.Buffer
			if err := validate.WriteComment(&b, reports, info); err != nil {
				return err
			}
			if err := atomicfile.WriteFile(commentFile, b.Bytes()); err != nil {
				return fmt.Errorf("write the comment: %w", err)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&reportsDir, "reports", "reports", "directory of the validation reports (*.json)")
	fl.StringVar(&commentFile, "comment", "", "file the comment's Markdown is written to")
	fl.StringVar(&info.PlanResult, "plan-result", "", "result of the workflow's plan job (success, failure, cancelled, skipped)")
	fl.StringVar(&info.ValidateResult, "validate-result", "", "result of the validation jobs")
	fl.StringVar(&info.RunURL, "run-url", "", "URL of the workflow run")
	fl.StringVar(&info.HeadSHA, "head-sha", "", "the commit validated")
	return cmd
}
