package workflows

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// repoRoot is the repository root seen from this package's directory.
const repoRoot = "../.."

// lintOptions returns actionlint options with shellcheck when it is on PATH.
// Without it run: scripts are not shellchecked; the test says so, and fails
// instead when EMBEDEVAL_REQUIRE_SHELLCHECK=1 (as in CI).
func lintOptions(t *testing.T) LintOptions {
	t.Helper()
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		if os.Getenv("EMBEDEVAL_REQUIRE_SHELLCHECK") == "1" {
			t.Fatalf("shellcheck is not on PATH and EMBEDEVAL_REQUIRE_SHELLCHECK=1")
		}
		t.Logf("shellcheck is not on PATH: run scripts are linted without it")
		return LintOptions{}
	}
	return LintOptions{Shellcheck: sc}
}

func strs(fs []Finding) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		out = append(out, f.String())
	}
	return out
}

// TestActionlintWorkflows lints every workflow of the repository with
// actionlint (and shellcheck) and fails on any finding.
func TestActionlintWorkflows(t *testing.T) {
	files, err := WorkflowFiles(repoRoot)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{
		".github/workflows/benchmark.yml", ".github/workflows/ci.yml",
		".github/workflows/validate-cases-comment.yml", ".github/workflows/validate-cases.yml",
	}, files)
	opts := lintOptions(t)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			fs, err := LintWorkflow(repoRoot, f, opts)
			require.NoError(t, err)
			require.Empty(t, strs(fs), "actionlint findings")
		})
	}
}

// TestActionlintActions parses every composite action strictly and lints its
// steps with actionlint.
func TestActionlintActions(t *testing.T) {
	files, err := ActionFiles(repoRoot)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{
		"actions/evaluate-shard/action.yml", "actions/merge-publish/action.yml", "actions/setup-embedeval/action.yml",
	}, files)
	opts := lintOptions(t)
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f)), func(t *testing.T) {
			fs, err := LintAction(repoRoot, f, opts)
			require.NoError(t, err)
			require.Empty(t, strs(fs), "findings")
			_, err = os.Stat(filepath.Join(repoRoot, filepath.Dir(f), "README.md"))
			require.NoError(t, err, "every action has a README.md beside it")
		})
	}
}

// TestPolicyRepository applies the security policy to every workflow and action.
func TestPolicyRepository(t *testing.T) {
	fs, err := CheckRepository(repoRoot, DefaultPolicy())
	require.NoError(t, err)
	require.Empty(t, strs(fs))
}

// TestDefaultPolicyNamesRealJobs keeps the policy and the workflows in step:
// every writer names a job that exists, and each workflow has one writer.
func TestDefaultPolicyNamesRealJobs(t *testing.T) {
	for name, w := range DefaultPolicy().Writers {
		root := readDoc(t, ".github/workflows/"+name)
		require.NotNil(t, lookup(lookup(root, "jobs"), w.Job), "%s has no job %q", name, w.Job)
		require.NotEmpty(t, w.Scopes)
	}
}

func readDoc(t *testing.T, rel string) *yaml.Node {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repoRoot, rel))
	require.NoError(t, err)
	root, err := parseDoc(src)
	require.NoError(t, err)
	return root
}

// jobPerms returns job id → scope → level of a workflow.
func jobPerms(t *testing.T, root *yaml.Node) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	for _, j := range mappingPairs(lookup(root, "jobs")) {
		perm := lookup(j.value, "permissions")
		require.NotNil(t, perm, "job %s has no permissions", j.key.Value)
		require.Equal(t, yaml.MappingNode, perm.Kind, "job %s", j.key.Value)
		out[j.key.Value] = map[string]string{}
		for _, s := range mappingPairs(perm) {
			out[j.key.Value][s.key.Value] = s.value.Value
		}
	}
	return out
}

// TestSecurityShape asserts, on the real files, the properties the brief of
// the pipeline names, independently of the policy checker's wording.
func TestSecurityShape(t *testing.T) {
	t.Run("only the publishing job writes", func(t *testing.T) {
		want := map[string]string{"benchmark.yml": "publish", "ci.yml": "publish-images", "validate-cases-comment.yml": "comment", "validate-cases.yml": ""}
		for file, writer := range want {
			perms := jobPerms(t, readDoc(t, ".github/workflows/"+file))
			var writers []string
			for job, scopes := range perms {
				for _, level := range scopes {
					if level == "write" {
						writers = append(writers, job)
						break
					}
				}
			}
			if writer == "" {
				require.Empty(t, writers, file)
			} else {
				require.Equal(t, []string{writer}, writers, file)
			}
		}
		perms := jobPerms(t, readDoc(t, ".github/workflows/benchmark.yml"))
		require.Equal(t, map[string]string{"contents": "write", "pull-requests": "write"}, perms["publish"])
		require.Equal(t, map[string]string{"contents": "read"}, perms["evaluate"])
	})

	t.Run("secrets only in the step that calls models", func(t *testing.T) {
		files, err := WorkflowFiles(repoRoot)
		require.NoError(t, err)
		var places []string
		for _, f := range files {
			root := readDoc(t, f)
			walkExprs(root, false, func(_ *yaml.Node, refs []exprRef) {
				for _, r := range refs {
					if r.isSecret() {
						places = append(places, filepath.Base(f))
					}
				}
			})
		}
		require.Equal(t, []string{"benchmark.yml", "benchmark.yml"}, places, "ANTHROPIC_API_KEY and OPENAI_API_KEY, nowhere else")
		steps := lookup(lookup(lookup(readDoc(t, ".github/workflows/benchmark.yml"), "jobs"), "evaluate"), "steps")
		var withSecrets []string
		for _, s := range steps.Content {
			if usesSecrets(s) {
				withSecrets = append(withSecrets, lookup(s, "uses").Value)
				require.False(t, usesSecrets(lookup(s, "env")))
			}
		}
		require.Equal(t, []string{"./actions/evaluate-shard"}, withSecrets)
	})

	t.Run("python checks never enabled for forks", func(t *testing.T) {
		// Every place validate-cases.yml turns the Python bridge on is guarded
		// by "the head repository is this repository".
		const guard = "${{ github.event.pull_request.head.repo.full_name == github.repository }}"
		var guarded, places int
		walkScalars(readDoc(t, ".github/workflows/validate-cases.yml"), func(n *yaml.Node) {
			if strings.Contains(n.Value, "allow-python-checks") {
				places++
			}
		})
		var check func(n *yaml.Node)
		check = func(n *yaml.Node) {
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					k, v := n.Content[i].Value, n.Content[i+1]
					if k == "allow-python-checks" || k == "ALLOW_PYTHON" {
						require.Equal(t, guard, v.Value, k)
						guarded++
					}
				}
			}
			for _, c := range n.Content {
				check(c)
			}
		}
		check(readDoc(t, ".github/workflows/validate-cases.yml"))
		require.Equal(t, 2, guarded, "the check-name step and the validate job")
		require.Positive(t, places)
		// The action passes the flag only when the input is exactly "true".
		src, err := os.ReadFile(filepath.Join(repoRoot, "actions/evaluate-shard/action.yml"))
		require.NoError(t, err)
		require.Equal(t, 2, strings.Count(string(src), `if [ "$ALLOW_PYTHON" = true ]; then`))
	})

	t.Run("third-party actions pinned to a commit with a version comment", func(t *testing.T) {
		var refs []PinnedRef
		for _, list := range [][]string{mustList(t, WorkflowFiles), mustList(t, ActionFiles)} {
			for _, f := range list {
				src, err := os.ReadFile(filepath.Join(repoRoot, f))
				require.NoError(t, err)
				r, err := PinnedRefs(f, src)
				require.NoError(t, err)
				refs = append(refs, r...)
			}
		}
		seen := map[string]string{}
		for _, r := range refs {
			require.Regexp(t, `^[0-9a-f]{40}$`, r.Commit)
			require.Regexp(t, `^v\d+\.\d+\.\d+`, r.Version, "%s:%d", r.File, r.Line)
			seen[r.Action] = r.Commit + " " + r.Version
		}
		require.Equal(t, map[string]string{
			"actions/checkout":          "11bd71901bbe5b1630ceea73d27597364c9af683 v4.2.2",
			"actions/setup-go":          "d35c59abb061a4a6fb18e82ac0862c26744d6ab5 v5.5.0",
			"actions/cache":             "5a3ec84eff668545956fd18022155c47e93e2684 v4.2.3",
			"actions/upload-artifact":   "ea165f8d65b6e75b540449e92b4886f43607fa02 v4.6.2",
			"actions/download-artifact": "d3f86a106a0bac45b974a628896c90dbdf5c8093 v4.3.0",
			"docker/login-action":       "74a5d142397b4f367a81961eba4e8cd7edddf772 v3.4.0",
		}, seen)
		doc, err := os.ReadFile(filepath.Join(repoRoot, "docs/WORKFLOWS.md"))
		require.NoError(t, err)
		for action, pin := range seen {
			require.Contains(t, string(doc), strings.Fields(pin)[0], "docs/WORKFLOWS.md lists the pin of %s", action)
		}
	})

	t.Run("benchmark has a concurrency group", func(t *testing.T) {
		g := lookup(lookup(readDoc(t, ".github/workflows/benchmark.yml"), "concurrency"), "group")
		require.NotNil(t, g)
		require.Contains(t, g.Value, "benchmark-")
	})

	t.Run("fork comment workflow never checks out code", func(t *testing.T) {
		root := readDoc(t, ".github/workflows/validate-cases-comment.yml")
		on := lookup(root, "on")
		require.Equal(t, []string{"workflow_run"}, keys(on), "triggered by workflow_run only")
		require.Equal(t, "validate-cases", lookup(lookup(on, "workflow_run"), "workflows").Content[0].Value)
		for _, j := range mappingPairs(lookup(root, "jobs")) {
			for _, s := range lookup(j.value, "steps").Content {
				if u := lookup(s, "uses"); u != nil {
					require.NotContains(t, u.Value, "actions/checkout", "job %s", j.key.Value)
				}
				require.NotContains(t, nodeText(lookup(s, "run")), "git ", "job %s runs no git", j.key.Value)
			}
		}
		// The pull request's workflow itself never writes and never sees a secret.
		vc := readDoc(t, ".github/workflows/validate-cases.yml")
		require.Equal(t, []string{"pull_request"}, keys(lookup(vc, "on")))
		require.False(t, usesSecrets(vc))
		require.False(t, usesToken(vc))
	})

	t.Run("publish-images builds every image directory", func(t *testing.T) {
		dirs, err := filepath.Glob(filepath.Join(repoRoot, "images", "*", "Dockerfile"))
		require.NoError(t, err)
		var want []string
		for _, d := range dirs {
			want = append(want, filepath.Base(filepath.Dir(d)))
		}
		job := lookup(lookup(readDoc(t, ".github/workflows/ci.yml"), "jobs"), "publish-images")
		var got []string
		for _, n := range lookup(lookup(lookup(job, "strategy"), "matrix"), "dir").Content {
			got = append(got, n.Value)
		}
		sort.Strings(want)
		require.Equal(t, want, got)
	})
}

// nodeText joins every scalar under n.
func nodeText(n *yaml.Node) string {
	var b strings.Builder
	walkScalars(n, func(s *yaml.Node) { b.WriteString(s.Value); b.WriteByte('\n') })
	return b.String()
}

func keys(n *yaml.Node) []string {
	var out []string
	for _, kv := range mappingPairs(n) {
		out = append(out, kv.key.Value)
	}
	return out
}

func mustList(t *testing.T, fn func(string) ([]string, error)) []string {
	t.Helper()
	l, err := fn(repoRoot)
	require.NoError(t, err)
	return l
}

// TestPolicyFixtures runs the policy on bad inputs, each with the exact findings.
func TestPolicyFixtures(t *testing.T) {
	tests := []struct {
		fixture, as string
		want        []string
	}{
		{"good.yml", "benchmark.yml", nil},
		{"permissions.yml", "benchmark.yml", []string{
			`x:3:14: top-level permissions must be {}; grant per job [permissions]`,
			`x:2:1: this workflow must declare a top-level concurrency group [concurrency]`,
			`x:5:3: job "none" has no permissions; declare the least it needs [permissions]`,
			`x:11:18: job "all": permissions "write-all"; list scopes explicitly [permissions]`,
			`x:17:17: job "evaluate" may not write "contents": in benchmark.yml only job "publish" writes (contents, pull-requests) [permissions]`,
			`x:18:15: job "evaluate": permission issues: "maybe" is not read, write or none [permissions]`,
			`x:25:17: job "publish" may not write "packages": in benchmark.yml only job "publish" writes (contents, pull-requests) [permissions]`,
		}},
		{"permissions.yml", "other.yml", []string{
			`x:3:14: top-level permissions must be {}; grant per job [permissions]`,
			`x:5:3: job "none" has no permissions; declare the least it needs [permissions]`,
			`x:11:18: job "all": permissions "write-all"; list scopes explicitly [permissions]`,
			`x:17:17: job "evaluate" may not write "contents": no job of other.yml writes [permissions]`,
			`x:18:15: job "evaluate": permission issues: "maybe" is not read, write or none [permissions]`,
			`x:24:17: job "publish" may not write "contents": no job of other.yml writes [permissions]`,
			`x:25:17: job "publish" may not write "packages": no job of other.yml writes [permissions]`,
		}},
		{"pinning.yml", "other.yml", []string{
			`x:9:15: actions/cache@v4: pin third-party actions to a full 40-hex commit SHA [pinning]`,
			`x:10:15: actions/cache@5a3ec84eff668545956fd18022155c47e93e2684: add the version the commit is, as a comment (# v4.2.2) [pinning]`,
			`x:11:15: actions/cache@5a3ec84: pin third-party actions to a full 40-hex commit SHA [pinning]`,
			`x:12:15: docker://alpine:3.20: pin docker actions to a digest (@sha256:...) [pinning]`,
		}},
		{"secrets.yml", "benchmark.yml", []string{
			`x:5:8: secrets outside a job [secrets]`,
			`x:2:1: this workflow must declare a top-level concurrency group [concurrency]`,
			`x:12:15: secrets in job "evaluate" outside its steps [secrets]`,
			`x:16:19: secrets in job "evaluate": secrets may only appear in the with: of the step that uses ./actions/evaluate-shard [secrets]`,
			`x:21:14: the GitHub token is used in job "evaluate", which has no write permission [token]`,
			`x:29:16: secrets in the step that calls models, which runs in job "publish" with write permissions [secrets]`,
		}},
		{"fork.yml", "other.yml", []string{
			`x:7:3: pull_request_target runs fork code with a write token; use pull_request plus a workflow_run follow-up [trigger]`,
			`x:13:22: job "comment" may not write "pull-requests": no job of other.yml writes [permissions]`,
			`x:15:15: a workflow_run workflow must not check out code: it holds a write token while handling fork pull requests [fork-safety]`,
			`x:15:15: actions/checkout must set persist-credentials: false so later steps cannot use the token left in .git/config [checkout-credentials]`,
			`x:18:14: run scripts must not contain ${{ }}: pass values through env (script injection) [run-expression]`,
		}},
		{"concurrency.yml", "benchmark.yml", []string{
			`x:2:1: the workflow has no top-level permissions; set permissions: {} and grant per job [permissions]`,
			`x:2:1: this workflow must declare a top-level concurrency group [concurrency]`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture+" as "+tt.as, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "policy", tt.fixture))
			require.NoError(t, err)
			got := strs(CheckWorkflow(".github/workflows/"+tt.as, src, DefaultPolicy()))
			for i := range got {
				got[i] = "x" + strings.TrimPrefix(got[i], ".github/workflows/"+tt.as)
			}
			require.Equal(t, tt.want, nilIfEmpty(got))
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestActionPolicyFixture runs the action rules on a bad composite action.
func TestActionPolicyFixture(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "policy", "action.yml"))
	require.NoError(t, err)
	require.Equal(t, []string{
		`a.yml:20:12: secrets in a composite action (pass them as inputs) [secrets]`,
		`a.yml:9:3: output "leak" exposes input "api-key" [secrets]`,
		`a.yml:15:12: run scripts must not contain ${{ }}: pass values through env (script injection) [run-expression]`,
		`a.yml:15:12: run steps of a composite action need shell: [shell]`,
		`a.yml:15:12: input "api-key" holds a secret: use it only in the env: of the one step that needs it [secrets]`,
		`a.yml:25:13: actions/cache@v4: pin third-party actions to a full 40-hex commit SHA [pinning]`,
		`a.yml:23:7: input "github-token" holds a secret and reaches 2 steps; give it to one [secrets]`,
	}, strs(CheckAction("a.yml", src)))
}

// TestPinsAgree reports one action pinned two ways.
func TestPinsAgree(t *testing.T) {
	got := CheckPinsAgree([]PinnedRef{
		{File: "a.yml", Line: 3, Col: 5, Action: "actions/cache", Commit: strings.Repeat("a", 40), Version: "v4.2.3"},
		{File: "b.yml", Line: 7, Col: 9, Action: "actions/cache", Commit: strings.Repeat("b", 40), Version: "v4.2.0"},
		{File: "b.yml", Line: 8, Col: 9, Action: "actions/cache", Commit: strings.Repeat("a", 40), Version: "v4.2.3"},
	})
	require.Equal(t, []string{"b.yml:7:9: actions/cache is pinned to " + strings.Repeat("b", 40) + " (v4.2.0) here but to " + strings.Repeat("a", 40) + " (v4.2.3) at a.yml:3 [pinning]"}, strs(got))
}

// TestLintFixtures checks that actionlint findings carry file, line, column
// and rule, for a workflow and for a composite action's steps (mapped back
// to the action file's lines).
func TestLintFixtures(t *testing.T) {
	root := filepath.Join("testdata", "lint")
	t.Run("workflow", func(t *testing.T) {
		fs, err := LintWorkflow(root, ".github/workflows/bad.yml", LintOptions{})
		require.NoError(t, err)
		require.Equal(t, []string{
			`.github/workflows/bad.yml:15:11: input "go-version-fil" is not defined in action "actions/setup-go@v5". available inputs are "architecture", "cache", "cache-dependency-path", "check-latest", "go-version", "go-version-file", "token" [action]`,
			`.github/workflows/bad.yml:19:11: input "nope" is not defined in action "bad" defined at "./actions/bad". available inputs are "shard", "undocumented" [action]`,
			`.github/workflows/bad.yml:22:18: property "model" is not defined in object type {models: string} [expression]`,
		}, strs(fs))
	})
	t.Run("action", func(t *testing.T) {
		fs, err := LintAction(root, "actions/bad/action.yml", LintOptions{})
		require.NoError(t, err)
		require.Equal(t, []string{
			`actions/bad/action.yml:7:3: input "undocumented" has no description [action-docs]`,
			`actions/bad/action.yml:19:20: property "shards" is not defined in object type {shard: string; undocumented: string} [expression]`,
			`actions/bad/action.yml:21:13: missing input "key" which is required by action "actions/cache@v4". all required inputs are "key", "path" [action]`,
			`actions/bad/action.yml:21:13: missing input "path" which is required by action "actions/cache@v4". all required inputs are "key", "path" [action]`,
			`actions/bad/action.yml:23:9: input "paths" is not defined in action "actions/cache@v4". available inputs are "enableCrossOsArchive", "fail-on-cache-miss", "key", "lookup-only", "path", "restore-keys", "save-always", "upload-chunk-size" [action]`,
		}, strs(fs))
	})
	t.Run("action with shellcheck", func(t *testing.T) {
		opts := lintOptions(t)
		if opts.Shellcheck == "" {
			t.Skip("shellcheck is not on PATH (set EMBEDEVAL_REQUIRE_SHELLCHECK=1 to fail instead)")
		}
		fs, err := LintAction(root, "actions/bad/action.yml", opts)
		require.NoError(t, err)
		require.Contains(t, strs(fs), `actions/bad/action.yml:20:7: shellcheck reported issue in this script: SC2086:info:1:6: Double quote to prevent globbing and word splitting [shellcheck]`)
	})
}
