package cases

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

func caseFiles(dir, id, sdk string) map[string]string {
	meta := strings.NewReplacer("isr-concurrency-008", id, `sdk: "zephyr"`, `sdk: "`+sdk+`"`).Replace(goodMeta)
	return map[string]string{
		dir + "/metadata.yaml":        meta,
		dir + "/prompt.md":            "# Task\n",
		dir + "/reference/main.c":     "int main(void) { return 0; }\n",
		dir + "/checks/static.star":   "def run_checks(code):\n    return []\n",
		dir + "/checks/behavior.star": "def run_checks(code):\n    return []\n",
	}
}

func TestDiscoverBothLayouts(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for k, v := range caseFiles("zephyr/isr-concurrency-002", "isr-concurrency-002", "zephyr") {
		files[k] = v
	}
	for k, v := range caseFiles("isr-concurrency-001", "isr-concurrency-001", "zephyr") {
		files[k] = v
	}
	files["notes/README.md"] = "not a case\n"
	writeTree(t, root, files)

	entries, ps := Discover(root, false)
	require.Len(t, entries, 2)
	require.Equal(t, LayoutFlat, entries[0].Layout)
	require.Equal(t, "isr-concurrency-001", entries[0].Name)
	require.Equal(t, LayoutSDK, entries[1].Layout)
	require.Equal(t, "zephyr", entries[1].Bucket)
	require.Equal(t, []string{filepath.Join(root, "notes") + `: warning: directory is neither an sdk bucket (zephyr, embedded-linux, freertos, esp-idf, stm32-hal, baremetal) nor a case (no metadata.yaml); ignored [discover]`}, problemStrings(ps))

	corpus := LoadCorpus(root, "")
	require.Empty(t, corpus.Broken)
	require.Len(t, corpus.Cases, 2)
}

func TestLoadProblems(t *testing.T) {
	root := t.TempDir()
	files := caseFiles("freertos/isr-concurrency-003", "isr-concurrency-004", "zephyr")
	delete(files, "freertos/isr-concurrency-003/prompt.md")
	delete(files, "freertos/isr-concurrency-003/checks/behavior.star")
	writeTree(t, root, files)
	entries, _ := Discover(root, false)
	require.Len(t, entries, 1)
	_, ps := Load(entries[0])
	dir := filepath.Join(root, "freertos", "isr-concurrency-003")
	require.Equal(t, []string{
		dir + `/metadata.yaml:1: id "isr-concurrency-004" does not match the directory name "isr-concurrency-003" [metadata]`,
		dir + `/metadata.yaml:8: sdk "zephyr" does not match the parent directory "freertos" [metadata]`,
		dir + `/prompt.md: missing prompt (prompt.md) [layout]`,
		dir + `/checks/behavior.star: missing L3 check file (checks/behavior.star, or checks/behavior.py for the Python bridge) [layout]`,
	}, problemStrings(ps))
}

func TestReferenceChoice(t *testing.T) {
	root := t.TempDir()
	files := caseFiles("zephyr/isr-concurrency-001", "isr-concurrency-001", "zephyr")
	delete(files, "zephyr/isr-concurrency-001/reference/main.c")
	files["zephyr/isr-concurrency-001/reference/prj.conf"] = "CONFIG_GPIO=y\n"
	writeTree(t, root, files)
	entries, _ := Discover(root, false)
	c, ps := Load(entries[0])
	require.Empty(t, ps)
	require.Equal(t, "prj.conf", filepath.Base(c.ReferencePath), "a single non-C reference file is the solution")

	writeTree(t, root, map[string]string{"zephyr/isr-concurrency-001/reference/app.overlay": "/ {};\n"})
	_, ps = Load(entries[0])
	require.Equal(t, []string{filepath.Join(root, "zephyr/isr-concurrency-001/reference") + `: reference/ holds 2 files and no main.c; cannot tell which one is the solution [layout]`}, problemStrings(ps))
}

func TestContentHashStableAndSensitive(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	writeTree(t, a, caseFiles("c", "isr-concurrency-001", "zephyr"))
	writeTree(t, b, caseFiles("c", "isr-concurrency-001", "zephyr"))
	ha, err := ContentHash(filepath.Join(a, "c"))
	require.NoError(t, err)
	hb, err := ContentHash(filepath.Join(b, "c"))
	require.NoError(t, err)
	require.Equal(t, ha, hb, "the hash does not depend on where the corpus lives")
	require.True(t, strings.HasPrefix(ha, "sha256:"))

	writeTree(t, b, map[string]string{"c/checks/static.star": "def run_checks(code):\n    return [ ]\n"})
	hb2, err := ContentHash(filepath.Join(b, "c"))
	require.NoError(t, err)
	require.NotEqual(t, hb, hb2, "any byte change changes the hash")

	// Moving content between files changes the hash too (paths and sizes are hashed).
	writeTree(t, a, map[string]string{"c/context/x.h": "", "c/context/y.h": "ab"})
	writeTree(t, b, map[string]string{"c/checks/static.star": "def run_checks(code):\n    return []\n", "c/context/x.h": "a", "c/context/y.h": "b"})
	ha, _ = ContentHash(filepath.Join(a, "c"))
	hb, _ = ContentHash(filepath.Join(b, "c"))
	require.NotEqual(t, ha, hb)
}

func TestFilter(t *testing.T) {
	pub := &Case{Meta: Metadata{ID: "timer-001", Category: "timer", Difficulty: "easy", Tier: "core", Platform: "native_sim", SDK: "zephyr", Visibility: "public", CreatedDate: "2026-03-01"}}
	priv := &Case{Meta: Metadata{ID: "timer-002", Category: "timer", Difficulty: "hard", Tier: "challenge", Platform: "native_sim", SDK: "zephyr", Visibility: "private", CreatedDate: "2026-06-01"}}
	fromPrivateDir := &Case{Entry: Entry{Private: true}, Meta: Metadata{ID: "timer-003", Category: "timer", Difficulty: "hard", Tier: "core", Platform: "native_sim", SDK: "zephyr", Visibility: "public"}}
	all := []*Case{pub, priv, fromPrivateDir}
	sel := func(f Filter) []string {
		var ids []string
		for _, c := range all {
			if f.Match(c) {
				ids = append(ids, c.Meta.ID)
			}
		}
		return ids
	}
	require.Equal(t, []string{"timer-001"}, sel(Filter{}), "private cases are excluded unless asked for")
	require.Equal(t, []string{"timer-001", "timer-002", "timer-003"}, sel(Filter{IncludePrivate: true}))
	require.Equal(t, []string{"timer-002", "timer-003"}, sel(Filter{IncludePrivate: true, Visibility: "private"}))
	require.Equal(t, []string{"timer-002"}, sel(Filter{IncludePrivate: true, AfterDate: "2026-04-01"}), "cases without a date are not after any date")
	require.Equal(t, []string{"timer-002", "timer-003"}, sel(Filter{IncludePrivate: true, Difficulties: []string{"hard"}}))
	require.Equal(t, []string{"timer-001", "timer-003"}, sel(Filter{IncludePrivate: true, Tiers: []string{"core"}}))

	require.EqualError(t, Filter{Categories: []string{"gpio"}}.Validate(), `--category: "gpio" is not one of [adc ble boot device-tree dma gpio-basic isr-concurrency kconfig linux-driver linux-userspace memory-opt networking ota power-mgmt pwm security sensor-driver spi-i2c storage threading timer uart watchdog yocto]`)
	require.EqualError(t, Filter{AfterDate: "2026-13-01"}.Validate(), `--after-date: "2026-13-01" is not an ISO date (YYYY-MM-DD)`)
}

// TestFlatLayoutWithoutSDK: a flat-layout case may omit sdk (taken from its
// platform, with a note); a case in an sdk bucket may not.
func TestFlatLayoutWithoutSDK(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for k, v := range caseFiles("isr-concurrency-001", "isr-concurrency-001", "zephyr") {
		files[k] = v
	}
	for k, v := range caseFiles("zephyr/isr-concurrency-002", "isr-concurrency-002", "zephyr") {
		files[k] = v
	}
	for _, dir := range []string{"isr-concurrency-001", "zephyr/isr-concurrency-002"} {
		files[dir+"/metadata.yaml"] = strings.Replace(files[dir+"/metadata.yaml"], "sdk: \"zephyr\"\n", "", 1)
	}
	writeTree(t, root, files)
	corpus := LoadCorpus(root, "")
	require.Len(t, corpus.Cases, 1)
	c := corpus.Cases[0]
	require.Equal(t, "isr-concurrency-001", c.ID())
	require.True(t, c.LegacyRules())
	require.True(t, c.SDKInferred)
	require.Equal(t, "zephyr", c.Meta.SDK)
	require.Equal(t, []string{`sdk "zephyr" inferred from platform "native_sim" (metadata.yaml has no sdk field)`}, c.Notes)
	broken := corpus.Broken[filepath.Join(root, "zephyr", "isr-concurrency-002")]
	require.Equal(t, []string{filepath.Join(root, "zephyr", "isr-concurrency-002", "metadata.yaml") + `:1:1: missing required field "sdk" [metadata]`}, problemStrings(broken))
}
