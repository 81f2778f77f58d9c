package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/pycheck"
	"github.com/embedeval/embedeval-go/internal/sandbox"
)

// corpusFlags are the flags that choose cases; every command that reads the
// corpus takes them, with the same names and meanings.
type corpusFlags struct {
	casesDir, privateDir string
	includePrivate       bool
	filter               cases.Filter
}

func (f *corpusFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.casesDir, "cases", "cases", "corpus root (cases/<sdk>/<case-id>/ or flat cases/<case-id>/)")
	fl.StringVar(&f.privateDir, "private-cases", "", "an additional corpus root of private cases")
	fl.BoolVar(&f.includePrivate, "include-private", false, "select private cases (visibility: private, or under --private-cases)")
	fl.StringSliceVar(&f.filter.Categories, "category", nil, "only these categories (repeatable or comma-separated)")
	fl.StringSliceVar(&f.filter.Difficulties, "difficulty", nil, "only these difficulties: easy, medium, hard")
	fl.StringSliceVar(&f.filter.Tiers, "tier", nil, "only these tiers: sanity, core, challenge")
	fl.StringSliceVar(&f.filter.Platforms, "platform", nil, "only these platforms")
	fl.StringSliceVar(&f.filter.SDKs, "sdk", nil, "only these sdks")
	fl.StringVar(&f.filter.Visibility, "visibility", "", "only public or only private cases")
	fl.StringVar(&f.filter.AfterDate, "after-date", "", "only cases created on or after this date (YYYY-MM-DD)")
	fl.StringSliceVar(&f.filter.IDs, "case", nil, "only these case ids")
}

// resolved returns the filter with --include-private applied, validated.
func (f *corpusFlags) resolved() (cases.Filter, error) {
	flt := f.filter
	flt.IncludePrivate = f.includePrivate || flt.Visibility == "private"
	if err := flt.Validate(); err != nil {
		return flt, usageError(err)
	}
	return flt, nil
}

// pythonFlags enable the bridge to check modules in the Python
// implementation's format (checks/*.py), which run arbitrary code.
type pythonFlags struct {
	allow  bool
	python string
}

func (f *pythonFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&f.allow, "allow-python-checks", false, "run cases whose check files are Python modules (checks/*.py) through the Python bridge; they execute arbitrary code, so only for trusted corpora")
	fl.StringVar(&f.python, "python", pycheck.DefaultPython, "Python interpreter of the bridge (its PYTHONPATH must reach the Python implementation's embedeval package)")
}

// options returns the bridge options, or nil when Python checks are not
// allowed: the worker runs in jail (the toolchain dispatcher's) and reads
// the corpus roots (empty ones are left out).
func (f *pythonFlags) options(timeout time.Duration, jail *sandbox.Jail, roots ...string) *pycheck.Options {
	if !f.allow {
		return nil
	}
	var readOnly []string
	for _, r := range roots {
		if r != "" {
			readOnly = append(readOnly, r)
		}
	}
	return &pycheck.Options{Python: f.python, Timeout: timeout, Jail: jail, ReadOnly: readOnly}
}

// refuse returns a usage error naming the selected cases that need the Python
// bridge when it is not enabled.
func (f *pythonFlags) refuse(selected []*cases.Case) error {
	if f.allow {
		return nil
	}
	var ids []string
	for _, c := range selected {
		if c.UsesPython() {
			ids = append(ids, c.Meta.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return usageError(fmt.Errorf("%d selected case(s) have Python check modules (checks/*.py), which execute arbitrary code: %s; pass --allow-python-checks to run them (trusted corpora only)", len(ids), strings.Join(ids, ", ")))
}
