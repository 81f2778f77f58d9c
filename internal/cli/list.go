package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/mdescape"
)

// loadSelected loads the corpus, reports broken cases on stderr, and returns the
// selected cases.
func loadSelected(errOut io.Writer, corpus *CorpusOptions) ([]*cases.Case, []diag.Problem, error) {
	flt, err := corpus.resolved()
	if err != nil {
		return nil, nil, err
	}
	c := cases.LoadCorpus(corpus.CasesDir, corpus.PrivateDir)
	var problems []diag.Problem
	problems = append(problems, c.Problems...)
	dirs := make([]string, 0, len(c.Broken))
	for d := range c.Broken {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		problems = append(problems, c.Broken[d]...)
	}
	for _, p := range problems {
		fmt.Fprintln(errOut, p)
	}
	return c.Select(flt), problems, nil
}

type listRow struct {
	ID         string `json:"id"`
	SDK        string `json:"sdk"`
	Category   string `json:"category"`
	Difficulty string `json:"difficulty"`
	Tier       string `json:"tier"`
	Platform   string `json:"platform"`
	Board      string `json:"build_board"`
	Visibility string `json:"visibility"`
	Created    string `json:"created_date,omitempty"`
	Checks     string `json:"check_backend"`
	Title      string `json:"title"`
	Dir        string `json:"dir"`
	Hash       string `json:"hash"`
}

// newCorpusReportCommand builds a command that loads the selected cases and
// writes a report of them (text or --json); broken cases go to stderr and make
// the exit code 1.
func newCorpusReportCommand(use, short, long string, write func(w io.Writer, sel []*cases.Case, asJSON bool) error) *cobra.Command {
	var corpus CorpusOptions
	var asJSON bool
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long:  long,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sel, problems, err := loadSelected(cmd.ErrOrStderr(), &corpus)
			if err != nil {
				return err
			}
			if err := write(cmd.OutOrStdout(), sel, asJSON); err != nil {
				return err
			}
			if diag.HasErrors(problems) {
				return findings("some cases could not be loaded (see above)")
			}
			return nil
		},
	}
	corpus.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "write JSON")
	return cmd
}

func newListCommand() *cobra.Command {
	return newCorpusReportCommand("list", "List cases with their metadata",
		"list prints the selected cases, one per line (or JSON). Broken cases are reported on stderr and make the exit code 1.",
		writeList)
}

func newCategoriesCommand() *cobra.Command {
	return newCorpusReportCommand("categories", "Count cases per category and difficulty",
		"categories prints the category × difficulty table of the selected cases (a Markdown table, or JSON).",
		writeCategories)
}

func writeList(w io.Writer, sel []*cases.Case, asJSON bool) error {
	rows := make([]listRow, 0, len(sel))
	for _, c := range sel {
		m := c.Meta
		rows = append(rows, listRow{ID: m.ID, SDK: m.SDK, Category: m.Category, Difficulty: m.Difficulty, Tier: m.Tier,
			Platform: m.Platform, Board: m.Board(), Visibility: m.Visibility, Created: m.CreatedDate, Checks: c.CheckBackend(),
			Title: m.Title, Dir: c.Dir, Hash: c.Hash})
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSDK\tCATEGORY\tDIFFICULTY\tTIER\tPLATFORM\tBOARD\tVISIBILITY\tCHECKS\tTITLE")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.SDK, r.Category, r.Difficulty, r.Tier, r.Platform, r.Board, r.Visibility, r.Checks, r.Title)
	}
	fmt.Fprintf(tw, "%d cases\n", len(rows))
	return tw.Flush()
}

// CategoryCount is one row of the categories table.
type CategoryCount struct {
	Category string `json:"category"`
	Easy     int    `json:"easy"`
	Medium   int    `json:"medium"`
	Hard     int    `json:"hard"`
	Total    int    `json:"total"`
}

func writeCategories(w io.Writer, sel []*cases.Case, asJSON bool) error {
	counts := map[string]*CategoryCount{}
	for _, c := range sel {
		cc := counts[c.Meta.Category]
		if cc == nil {
			cc = &CategoryCount{Category: c.Meta.Category}
			counts[c.Meta.Category] = cc
		}
		switch c.Meta.Difficulty {
		case "easy":
			cc.Easy++
		case "medium":
			cc.Medium++
		case "hard":
			cc.Hard++
		}
		cc.Total++
	}
	rows := make([]CategoryCount, 0, len(counts))
	for _, cc := range counts {
		rows = append(rows, *cc)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Category < rows[j].Category })
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	var b strings.Builder
	total := CategoryCount{Category: "**total**"}
	b.WriteString("| Category | Easy | Medium | Hard | Total |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", mdescape.Text(r.Category), r.Easy, r.Medium, r.Hard, r.Total)
		total.Easy += r.Easy
		total.Medium += r.Medium
		total.Hard += r.Hard
		total.Total += r.Total
	}
	fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", total.Category, total.Easy, total.Medium, total.Hard, total.Total)
	_, err := io.WriteString(w, b.String())
	return err
}
