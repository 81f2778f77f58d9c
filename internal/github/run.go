package github

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/embedeval/embedeval-go/internal/chart"
	"github.com/embedeval/embedeval-go/internal/report"
	"github.com/embedeval/embedeval-go/internal/score"
)

// RunOptions describes one run's results to turn into a pull request.
type RunOptions struct {
	// ResultsDir is the results directory merge wrote (holds
	// runs/<run-id>/summary.json, history.json, heatmap.svg, ...).
	ResultsDir string
	// RunID is the run to publish.
	RunID string
	// Owner and Repo name the repository; empty in a dry run without one.
	Owner, Repo string
	// Base is the branch the pull request targets.
	Base string
	// PathInRepo is where ResultsDir lives in the repository ("results").
	PathInRepo string
	// BeforeSummary, when set, is the summary.json to compare with instead
	// of each model's previous run from history.json (see Baseline).
	BeforeSummary string
	// RunURL links the workflow run; ServerURL is the web root of GitHub
	// (GITHUB_SERVER_URL, "https://github.com" when empty).
	RunURL, ServerURL string
}

// PreparedRun is a run's pull request content.
type PreparedRun struct {
	Title, Body, CommitMessage string
	// Warnings are problems that did not stop the body (a baseline run
	// without its summary).
	Warnings []string
}

// PrepareRun reads a run's scores and its baseline and renders the pull
// request's title, body and commit message. It makes no API call.
func PrepareRun(opts RunOptions) (*PreparedRun, error) {
	if err := CheckRunID(opts.RunID); err != nil {
		return nil, err
	}
	after, err := ReadSummary(filepath.Join(opts.ResultsDir, "runs", opts.RunID, report.SummaryFile))
	if err != nil {
		return nil, err
	}
	var before *score.Report
	var warnings []string
	if opts.BeforeSummary != "" {
		if before, err = ReadSummary(opts.BeforeSummary); err != nil {
			return nil, err
		}
	} else if before, warnings, err = Baseline(opts.ResultsDir, opts.RunID, after); err != nil {
		return nil, err
	}
	body := BodyOptions{RunID: opts.RunID, RunURL: opts.RunURL}
	if _, err := os.Stat(filepath.Join(opts.ResultsDir, chart.HeatmapSVG)); err == nil {
		if opts.Owner != "" && opts.Repo != "" {
			server := opts.ServerURL
			if server == "" {
				server = "https://github.com"
			}
			body.HeatmapURL = HeatmapURL(server, opts.Owner, opts.Repo, BranchName(opts.RunID), opts.PathInRepo, chart.HeatmapSVG)
		} else {
			// A dry run: the picture next to the results.
			body.HeatmapURL = filepath.ToSlash(filepath.Join(opts.ResultsDir, chart.HeatmapSVG))
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("heatmap: %w", err)
	}
	models := make([]string, len(after.Models))
	for i, m := range after.Models {
		models[i] = m.Model
	}
	title := "Benchmark results: run " + opts.RunID
	msg := "results: run " + opts.RunID
	if len(models) > 0 {
		msg += "\n\nModels: " + strings.Join(models, ", ") + "\n"
	}
	return &PreparedRun{Title: title, Body: RenderPRBody(before, after, body), CommitMessage: msg, Warnings: warnings}, nil
}

// PublishRun prepares a run's pull request and publishes the results
// directory with it (Publisher.Publish).
func (p *Publisher) PublishRun(ctx context.Context, opts RunOptions) (*PreparedRun, *PublishResult, error) {
	prep, err := PrepareRun(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("publish: %w", err)
	}
	files, err := ReadResultsDir(opts.ResultsDir, opts.PathInRepo)
	if err != nil {
		return nil, nil, fmt.Errorf("publish: %w", err)
	}
	res, err := p.Publish(ctx, PublishRequest{RunID: opts.RunID, Base: opts.Base, Files: files,
		Title: prep.Title, Body: prep.Body, CommitMessage: prep.CommitMessage})
	if err != nil {
		return prep, nil, fmt.Errorf("publish run %s to %s/%s: %w", opts.RunID, p.Owner, p.Repo, err)
	}
	return prep, res, nil
}
