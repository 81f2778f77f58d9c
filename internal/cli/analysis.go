package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/analysis"
	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/publish"
	"github.com/embedeval/embedeval-go/internal/report"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/score"
)

// attemptsPerRun separates the samples of different runs when results of
// several runs are pooled: run i's attempt a becomes i*attemptsPerRun + a, so
// repeated runs count as more samples instead of duplicates.
const attemptsPerRun = 100_000

// scoreAllRuns pools every run under resultsDir (its results.jsonl, or the
// committed verdicts.jsonl; in run-id order) into one score report and one analysis.
func scoreAllRuns(resultsDir string, corpus []*cases.Case) (*score.Report, *analysis.Analysis, []string, error) {
	files, err := publish.RunResultFiles(resultsDir)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(files) == 0 {
		return nil, nil, nil, usageError(fmt.Errorf("no runs under %s (runs/<run-id>/results.jsonl or verdicts.jsonl)", resultsDir))
	}
	metas := make([]cases.Metadata, len(corpus))
	for i, c := range corpus {
		metas[i] = c.Meta
	}
	lookup := score.LookupFrom(metas)
	sc, col := score.New(lookup), analysis.NewCollector(lookup)
	var warnings []string
	for i, f := range files {
		w, err := score.ReadResults(f, func(r result.EvalResult) error {
			r.Attempt += i * attemptsPerRun
			if err := sc.Add(&r); err != nil {
				return err
			}
			return col.Add(&r)
		})
		if err != nil {
			return nil, nil, nil, fmt.Errorf("read %s: %w", f, err)
		}
		warnings = append(warnings, w...)
	}
	sc.Warn(warnings...)
	return sc.Finish(), col.Finish(), warnings, nil
}

// newAnalysisCommand builds guide, calibrate and ablation: each pools every
// stored run and writes one report.
func newAnalysisCommand(use, short, long string, write func(resultsDir string, rep *score.Report, an *analysis.Analysis) (string, error)) *cobra.Command {
	var corpus CorpusOptions
	var resultsDir string
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long:  long,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sel, _, err := loadSelected(cmd.ErrOrStderr(), &corpus)
			if err != nil {
				return err
			}
			rep, an, warnings, err := scoreAllRuns(resultsDir, sel)
			if err != nil {
				return err
			}
			for _, w := range warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
			}
			path, err := write(resultsDir, rep, an)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), "wrote", path)
			return nil
		},
	}
	corpus.register(cmd)
	cmd.Flags().StringVar(&resultsDir, "results", "results", "the results directory (every runs/<run-id>/results.jsonl in it is read)")
	return cmd
}

func newGuideCommand() *cobra.Command {
	return newAnalysisCommand("guide", "Write SAFE_GUIDE.md: risk tiers per category from every stored run",
		"guide pools every run under --results and writes SAFE_GUIDE.md: per category, the pass rate across all models and runs and its risk tier (Critical <50%, Caution 50-79%, Moderate 80-89%, Reliable 90%+) with the recommendation.",
		func(dir string, rep *score.Report, _ *analysis.Analysis) (string, error) {
			path := filepath.Join(dir, report.SafeGuideFile)
			return path, report.WriteFileAtomic(path, report.SafeGuideMarkdown(analysis.SafetyGuide(rep.Categories), report.Options{}))
		})
}

func newCalibrateCommand() *cobra.Command {
	return newAnalysisCommand("calibrate", "Write IRT-style difficulty calibration from every stored run",
		"calibrate pools every run under --results and writes calibration.json and CALIBRATION.md: per case the empirical difficulty b = 1 - pass rate and discrimination a = the spread of per-model pass rates, difficulty labels checked against easy >80% / medium 40-80% / hard <40%, and floor and ceiling cases.",
		func(dir string, _ *score.Report, an *analysis.Analysis) (string, error) {
			return filepath.Join(dir, "calibration.json"), report.WriteCalibration(dir, an.Calibration, report.Options{})
		})
}

func newAblationCommand() *cobra.Command {
	return newAnalysisCommand("ablation", "Write the layer ablation from every stored run",
		"ablation pools every run under --results and writes runs/all/ablation.md: the pass rate under the seeds' layer configurations (L0; L0+L3; L0+L1; L0+L1+L3; L0-L4), re-judging each result with only those layers, and each layer's contribution. Skipped layers never count as a pass.",
		func(dir string, _ *score.Report, an *analysis.Analysis) (string, error) {
			return filepath.Join(dir, "runs", "all", "ablation.md"), report.WriteAblation(dir, an.Ablation, report.Options{RunID: "all"})
		})
}
