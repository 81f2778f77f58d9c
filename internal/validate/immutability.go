package validate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/diag"
)

// errNotAtBase means the file did not exist at the base revision.
var errNotAtBase = errors.New("not at the base revision")

// gitShow returns the content of a file of dir (a path relative to dir) at
// rev, read with git; errNotAtBase when the file did not exist there.
func gitShow(ctx context.Context, dir, rev, rel string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "show", rev+":./"+filepath.ToSlash(rel))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := stderr.String()
		if strings.Contains(msg, "does not exist in") || strings.Contains(msg, "exists on disk, but not in") {
			return nil, errNotAtBase
		}
		return nil, fmt.Errorf("git show %s:%s: %s", rev, rel, strings.TrimSpace(msg))
	}
	return out, nil
}

// baseCheckNames runs the base revision's check files of a case on the base
// revision's reference and returns the check names they report. ok is false
// when the case did not exist at the base revision (a new case).
func baseCheckNames(ctx context.Context, rt *checks.Runtime, s *checks.Session, c *cases.Case, rev string) (map[string]bool, bool, error) {
	refRel, err := filepath.Rel(c.Dir, c.ReferencePath)
	if err != nil {
		return nil, false, err
	}
	ref, err := gitShow(ctx, c.Dir, rev, refRel)
	if errors.Is(err, errNotAtBase) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	names := map[string]bool{}
	for _, stem := range []string{"checks/static", "checks/behavior"} {
		rel, src, err := baseCheckFile(ctx, c.Dir, rev, stem)
		if errors.Is(err, errNotAtBase) {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		m, remove, err := loadBaseChecks(ctx, rt, rev, rel, src)
		if err != nil {
			return nil, false, fmt.Errorf("base %s does not load: %w", rel, err)
		}
		ds, err := m.Run(ctx, s, string(ref))
		remove()
		if err != nil {
			return nil, false, fmt.Errorf("base %s does not run on the base reference: %w", rel, err)
		}
		for _, d := range ds {
			names[d.CheckName] = true
		}
	}
	return names, true, nil
}

// baseCheckFile reads <stem>.star at rev, or <stem>.py when the base has no
// Starlark file (a case of the Python implementation's format).
func baseCheckFile(ctx context.Context, dir, rev, stem string) (string, []byte, error) {
	for _, ext := range []string{".star", checks.PythonExt} {
		src, err := gitShow(ctx, dir, rev, stem+ext)
		if errors.Is(err, errNotAtBase) {
			continue
		}
		return stem + ext, src, err
	}
	return "", nil, errNotAtBase
}

// loadBaseChecks loads a check file's base revision. A Python module has to
// be a file for the interpreter to import: it is written to a temporary
// checks/ directory, which remove deletes once the module has run.
func loadBaseChecks(ctx context.Context, rt *checks.Runtime, rev, rel string, src []byte) (m *checks.CheckModule, remove func(), err error) {
	if !checks.IsForeignFile(rel) {
		m, err = rt.LoadChecks(ctx, rev+":"+rel, src)
		return m, func() {}, err
	}
	tmp, err := os.MkdirTemp("", "embedeval-base-")
	if err != nil {
		return nil, nil, err
	}
	remove = func() { _ = os.RemoveAll(tmp) }
	path := filepath.Join(tmp, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		remove()
		return nil, nil, err
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		remove()
		return nil, nil, err
	}
	if m, err = rt.LoadChecksFile(ctx, path); err != nil {
		remove()
		return nil, nil, err
	}
	return m, remove, nil
}

// immutabilityProblems enforces contract §4.2 against the base revision: a
// check_name the case reported at rev must still be reported, or be the
// from of a rename or a retirement in checks/check_name_migrations.yaml; and
// no entry of the base's migrations file may be removed (the file is
// append-only).
func immutabilityProblems(ctx context.Context, rt *checks.Runtime, s *checks.Session, c *cases.Case, rev string, live map[string]bool) []diag.Problem {
	migPath := filepath.Join(c.Dir, filepath.FromSlash(cases.MigrationsFile))
	base, existed, err := baseCheckNames(ctx, rt, s, c, rev)
	if err != nil {
		return []diag.Problem{diag.Errorf(c.Dir, 0, 0, "check-names", "cannot compare check names with %s: %v", rev, err)}
	}
	if !existed {
		return nil
	}
	renames, _ := cases.LoadMigrations(migPath)
	renamed := map[string]bool{}
	current := map[string]bool{}
	for _, r := range renames {
		renamed[r.From] = true
		current[r.From+"\x00"+r.To] = true
	}
	var ps []diag.Problem
	var gone []string
	for name := range base {
		if !live[name] && !renamed[name] {
			gone = append(gone, name)
		}
	}
	sort.Strings(gone)
	for _, name := range gone {
		ps = append(ps, diag.Errorf(c.StaticPath, 0, 0, "check-names",
			"check_name %q exists on %s but is no longer reported; check names are public identifiers: restore it, or record its rename or retirement in %s", name, rev, cases.MigrationsFile))
	}
	if data, err := gitShow(ctx, c.Dir, rev, cases.MigrationsFile); err == nil {
		old, _ := cases.DecodeMigrations(rev+":"+cases.MigrationsFile, data)
		for _, r := range old {
			if !current[r.From+"\x00"+r.To] {
				what := fmt.Sprintf("the rename %q -> %q", r.From, r.To)
				if r.Retired {
					what = fmt.Sprintf("the retirement of %q", r.From)
				}
				ps = append(ps, diag.Errorf(migPath, 0, 0, "check-names", "%s of %s was removed; the migrations file is append-only", what, rev))
			}
		}
	} else if !errors.Is(err, errNotAtBase) {
		ps = append(ps, diag.Errorf(migPath, 0, 0, "check-names", "cannot read the base migrations: %v", err))
	}
	return ps
}
