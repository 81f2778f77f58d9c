package validate

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/pycheck"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/testenv"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
}

func edit(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Contains(t, string(data), old)
	require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(string(data), old, new)), 0o644))
}

func TestCheckNameImmutability(t *testing.T) {
	testenv.Tool(t, "git", "git", "check names are compared with a base revision")
	repo := t.TempDir()
	caseDir := filepath.Join(repo, "cases", "zephyr", "timer-001")
	copyTree(t, filepath.Join(badCorpus, "zephyr", "timer-001"), caseDir)
	git(t, repo, "init", "-q")
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-q", "-m", "base")

	validateAgainst := func(rev string) []string {
		rep, err := Run(context.Background(), Options{CasesDir: filepath.Join(repo, "cases"), CheckNamesBase: rev})
		require.NoError(t, err)
		var out []string
		for _, p := range rep.Cases[0].Problems {
			out = append(out, strings.TrimPrefix(p.String(), caseDir+"/"))
		}
		return out
	}
	require.Empty(t, validateAgainst("HEAD"), "nothing changed")

	// Rename a check without recording it.
	edit(t, filepath.Join(caseDir, "checks", "behavior.star"), `"timer_started"`, `"timer_running"`)
	edit(t, filepath.Join(caseDir, "checks", "negatives.star"), `"timer_started"`, `"timer_running"`)
	require.Equal(t, []string{
		`checks/static.star: check_name "timer_started" exists on HEAD but is no longer reported; check names are public identifiers: restore it, or record its rename or retirement in checks/check_name_migrations.yaml [check-names]`,
	}, validateAgainst("HEAD"))

	// Recorded: accepted.
	require.NoError(t, os.WriteFile(filepath.Join(caseDir, "checks", "check_name_migrations.yaml"),
		[]byte("renames:\n  - from: timer_started\n    to: timer_running\n    since: \"2026-11-29\"\n    reason: \"says what is checked\"\n"), 0o644))
	require.Empty(t, validateAgainst("HEAD"))
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-q", "-m", "rename")

	// Removing an entry from the append-only log is refused.
	require.NoError(t, os.WriteFile(filepath.Join(caseDir, "checks", "check_name_migrations.yaml"), []byte("renames: []\n"), 0o644))
	require.Equal(t, []string{
		`checks/check_name_migrations.yaml: the rename "timer_started" -> "timer_running" of HEAD was removed; the migrations file is append-only [check-names]`,
	}, validateAgainst("HEAD"))

	// Retiring a check (it enforced what no text of the case asks for) is
	// recorded too; a retired name must not be reported again.
	require.NoError(t, os.WriteFile(filepath.Join(caseDir, "checks", "check_name_migrations.yaml"),
		[]byte("renames:\n  - from: timer_started\n    to: timer_running\n    since: \"2026-11-29\"\n    reason: \"says what is checked\"\n"), 0o644))
	edit(t, filepath.Join(caseDir, "checks", "static.star"), `check_name = "kernel_header"`, `check_name = "zephyr_kernel_header"`)
	namesOnly := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			if strings.HasSuffix(p, "[check-names]") || strings.HasSuffix(p, "[migrations]") {
				out = append(out, p)
			}
		}
		return out
	}
	require.Equal(t, []string{
		`checks/static.star: check_name "kernel_header" exists on HEAD but is no longer reported; check names are public identifiers: restore it, or record its rename or retirement in checks/check_name_migrations.yaml [check-names]`,
	}, namesOnly(validateAgainst("HEAD")))
	require.NoError(t, os.WriteFile(filepath.Join(caseDir, "checks", "check_name_migrations.yaml"),
		[]byte("renames:\n  - from: timer_started\n    to: timer_running\n    since: \"2026-11-29\"\n    reason: \"says what is checked\"\n"+
			"retired:\n  - name: kernel_header\n    since: \"2026-12-01\"\n    reason: \"no text of the case asks for it\"\n"), 0o644))
	require.Empty(t, namesOnly(validateAgainst("HEAD")))
	edit(t, filepath.Join(caseDir, "checks", "static.star"), `check_name = "zephyr_kernel_header"`, `check_name = "kernel_header"`)
	require.Equal(t, []string{
		`checks/check_name_migrations.yaml:7: check_name "kernel_header" is retired but the checks still report it [migrations]`,
	}, namesOnly(validateAgainst("HEAD")))
	require.NoError(t, os.WriteFile(filepath.Join(caseDir, "checks", "check_name_migrations.yaml"),
		[]byte("renames:\n  - from: timer_started\n    to: timer_running\n    since: \"2026-11-29\"\n    reason: \"says what is checked\"\n"), 0o644))

	// A case that does not exist at the base revision is new: nothing to hold.
	newCase := filepath.Join(repo, "cases", "zephyr", "timer-002")
	copyTree(t, filepath.Join(badCorpus, "zephyr", "timer-001"), newCase)
	edit(t, filepath.Join(newCase, "metadata.yaml"), `"timer-001"`, `"timer-002"`)
	rep, err := Run(context.Background(), Options{CasesDir: filepath.Join(repo, "cases"), CheckNamesBase: "HEAD"})
	require.NoError(t, err)
	require.Equal(t, "timer-002", rep.Cases[1].ID)
	require.Empty(t, rep.Cases[1].Problems)

	rep, err = Run(context.Background(), Options{CasesDir: filepath.Join(repo, "cases"), CheckNamesBase: "no-such-ref"})
	require.NoError(t, err)
	require.Contains(t, rep.Cases[0].Problems[0].String(), "cannot compare check names with no-such-ref")
}

// TestCheckNameImmutabilityPython holds a .py case's check names against the
// base revision the same way: the base module is imported by the bridge.
func TestCheckNameImmutabilityPython(t *testing.T) {
	testenv.Tool(t, "git", "git", "check names are compared with a base revision")
	py := testenv.Tool(t, "python3", "python3", "the case's checks are Python modules")
	pyimpl, err := filepath.Abs("../pycheck/testdata/pyimpl")
	require.NoError(t, err)
	t.Setenv("PYTHONPATH", pyimpl)
	repo := t.TempDir()
	caseDir := filepath.Join(repo, "cases", "zephyr", "kconfig-001")
	copyTree(t, filepath.Join("..", "pycheck", "testdata", "corpus", "zephyr", "kconfig-001"), caseDir)
	git(t, repo, "init", "-q")
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-q", "-m", "base")
	validateAgainst := func() []string {
		rep, err := Run(context.Background(), Options{CasesDir: filepath.Join(repo, "cases"), CheckNamesBase: "HEAD",
			Layers: eval.LayerSet(0b11001), Python: &pycheck.Options{Python: py, ReadOnly: []string{filepath.Join(repo, "cases")},
				Jail: sandbox.Detect(context.Background(), sandbox.JailConfig{AllowUnjailed: true})}})
		require.NoError(t, err)
		var out []string
		for _, p := range rep.Cases[0].Problems {
			if p.Severity == diag.Error {
				out = append(out, strings.TrimPrefix(p.String(), caseDir+"/"))
			}
		}
		return out
	}
	require.Empty(t, validateAgainst(), "nothing changed")
	edit(t, filepath.Join(caseDir, "checks", "behavior.py"), `"log_level_warning"`, `"log_level_is_warning"`)
	edit(t, filepath.Join(caseDir, "checks", "negatives.py"), `"log_level_warning"`, `"log_level_is_warning"`)
	require.Equal(t, []string{
		`checks/static.py: check_name "log_level_warning" exists on HEAD but is no longer reported; check names are public identifiers: restore it, or record its rename or retirement in checks/check_name_migrations.yaml [check-names]`,
	}, validateAgainst())
}
