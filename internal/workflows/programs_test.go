package workflows

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWorkflowsRunThePipelinePrograms: the planning and merging steps run
// the shard and merge programs built from cmd/shard and cmd/merge (the
// pipeline's documented entry points), never `embedeval shard` or
// `embedeval merge`, and each reaches them through setup-embedeval's outputs.
func TestWorkflowsRunThePipelinePrograms(t *testing.T) {
	viaEmbedeval := regexp.MustCompile(`(?m)(\$\{?EMBEDEVAL\}?"?\s+(shard|merge)\b|args=\((shard|merge)\b|^\s*embedeval\s+(shard|merge)\b)`)
	files, err := filepath.Glob(filepath.Join(repoRoot, ".github", "workflows", "*.yml"))
	require.NoError(t, err)
	actions, err := filepath.Glob(filepath.Join(repoRoot, "actions", "*", "action.yml"))
	require.NoError(t, err)
	files = append(files, actions...)
	require.NotEmpty(t, files)
	texts := map[string]string{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		rel, err := filepath.Rel(repoRoot, f)
		require.NoError(t, err)
		texts[filepath.ToSlash(rel)] = string(raw)
		require.Empty(t, viaEmbedeval.FindAllString(string(raw), -1), "%s runs shard or merge through the embedeval binary", rel)
	}

	uses := func(file, output, program string) {
		t.Helper()
		text := texts[file]
		require.Contains(t, text, "${{ steps.bin.outputs."+output+" }}", "%s takes the %s program from setup-embedeval", file, output)
		require.Regexp(t, `"\$`+program+`" "\$\{args\[@\]\}"|"\$`+program+`" --cases`, text, "%s runs the %s program", file, output)
	}
	uses(".github/workflows/benchmark.yml", "shard", "SHARD")
	uses(".github/workflows/validate-cases.yml", "shard", "SHARD")
	uses("actions/merge-publish/action.yml", "merge", "MERGE")

	setup := texts["actions/setup-embedeval/action.yml"]
	for _, prog := range []string{"shard", "merge"} {
		require.Contains(t, setup, "value: ${{ steps.check.outputs."+prog+" }}")
		require.Contains(t, setup, `echo "`+prog+`=$OUT/`+prog+`"`)
	}
	require.True(t, strings.Contains(setup, `chmod +x "$OUT/embedeval" "$OUT/shard" "$OUT/merge"`))
}

// TestCIRunsTheTestCommand: ci.yml's test job runs .ci/run (the README's
// test command with every toolchain required) in Debian 12 as root, instead
// of a copy of it that can drift (it once lacked the kernel headers and
// EMBEDEVAL_REQUIRE_TOOLCHAINS, so kbuild tests skipped and passed).
func TestCIRunsTheTestCommand(t *testing.T) {
	doc := readDoc(t, ".github/workflows/ci.yml")
	var wf struct {
		Jobs map[string]struct {
			Container struct {
				Image string `yaml:"image"`
			} `yaml:"container"`
			Steps []struct {
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	require.NoError(t, doc.Decode(&wf))
	job, ok := wf.Jobs["test"]
	require.True(t, ok, "ci.yml has a test job")
	require.Regexp(t, `^debian:12@sha256:[0-9a-f]{64}$`, job.Container.Image)
	var runs []string
	for _, s := range job.Steps {
		runs = append(runs, strings.TrimSpace(s.Run))
	}
	require.Contains(t, runs, ".ci/run")
	for _, r := range runs {
		require.NotContains(t, r, "go test", "the test job runs the suite only through .ci/run")
	}
}
