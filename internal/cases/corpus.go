package cases

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/embedeval/embedeval-go/internal/diag"
)

// Corpus is every case found under one or more roots.
type Corpus struct {
	// Cases that loaded without error-severity problems, in discovery order.
	Cases []*Case
	// Broken maps a case directory to the problems that stopped it from loading.
	Broken map[string][]diag.Problem
	// Problems are corpus-level findings (unreadable roots, stray directories,
	// duplicate ids) and the warnings of loaded cases.
	Problems []diag.Problem
}

// LoadCorpus discovers and loads the public root and, when privateRoot is not
// empty, the private one. A broken case never stops the others from loading.
func LoadCorpus(root, privateRoot string) *Corpus {
	c := &Corpus{Broken: map[string][]diag.Problem{}}
	var entries []Entry
	es, ps := Discover(root, false)
	entries = append(entries, es...)
	c.Problems = append(c.Problems, ps...)
	if privateRoot != "" {
		es, ps := Discover(privateRoot, true)
		entries = append(entries, es...)
		c.Problems = append(c.Problems, ps...)
	}
	firstDir := map[string]string{}
	for _, e := range entries {
		cs, ps := Load(e)
		if diag.HasErrors(ps) {
			c.Broken[e.Dir] = ps
			continue
		}
		c.Problems = append(c.Problems, ps...)
		if prev, dup := firstDir[cs.Meta.ID]; dup {
			c.Broken[e.Dir] = []diag.Problem{diag.Errorf(filepath.Join(e.Dir, "metadata.yaml"), 0, 0, metadataRule,
				"duplicate case id %q (also used by %s)", cs.Meta.ID, prev)}
			continue
		}
		firstDir[cs.Meta.ID] = e.Dir
		c.Cases = append(c.Cases, cs)
	}
	return c
}

// Filter selects cases by metadata. Empty fields select everything.
type Filter struct {
	Categories   []string
	Difficulties []string
	Tiers        []string
	Platforms    []string
	SDKs         []string
	Visibility   string // "public", "private" or "" for both
	// IncludePrivate must be set for private cases to be selected at all.
	IncludePrivate bool
	// AfterDate keeps cases created on or after this ISO date.
	AfterDate string
	IDs       []string
}

// Validate checks the filter's values against the enums.
func (f Filter) Validate() error {
	check := func(flag string, vals, allowed []string) error {
		for _, v := range vals {
			if !contains(allowed, v) {
				return fmt.Errorf("--%s: %q is not one of %v", flag, v, allowed)
			}
		}
		return nil
	}
	for _, c := range []struct {
		flag          string
		vals, allowed []string
	}{
		{"category", f.Categories, Categories()},
		{"difficulty", f.Difficulties, Difficulties()},
		{"tier", f.Tiers, Tiers()},
		{"platform", f.Platforms, Platforms()},
		{"sdk", f.SDKs, SDKs()},
	} {
		if err := check(c.flag, c.vals, c.allowed); err != nil {
			return err
		}
	}
	if f.Visibility != "" && !contains(Visibilities(), f.Visibility) {
		return fmt.Errorf("--visibility: %q is not one of %v", f.Visibility, Visibilities())
	}
	if f.AfterDate != "" {
		if _, err := time.Parse("2006-01-02", f.AfterDate); err != nil {
			return fmt.Errorf("--after-date: %q is not an ISO date (YYYY-MM-DD)", f.AfterDate)
		}
	}
	return nil
}

// Match reports whether a case passes the filter.
func (f Filter) Match(c *Case) bool {
	m := c.Meta
	private := m.Visibility == "private" || c.Private
	if private && !f.IncludePrivate {
		return false
	}
	if f.Visibility == "public" && private || f.Visibility == "private" && !private {
		return false
	}
	in := func(list []string, v string) bool { return len(list) == 0 || contains(list, v) }
	if !in(f.Categories, m.Category) || !in(f.Difficulties, m.Difficulty) || !in(f.Tiers, m.Tier) ||
		!in(f.Platforms, m.Platform) || !in(f.SDKs, m.SDK) || !in(f.IDs, m.ID) {
		return false
	}
	if f.AfterDate != "" && (m.CreatedDate == "" || m.CreatedDate < f.AfterDate) {
		return false
	}
	return true
}

// Select returns the cases that pass the filter, in corpus order.
func (c *Corpus) Select(f Filter) []*Case {
	var out []*Case
	for _, cs := range c.Cases {
		if f.Match(cs) {
			out = append(out, cs)
		}
	}
	return out
}
