package workflows

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// edit replaces old, which must occur exactly once in the baseline, by new.
type edit struct{ old, new string }

// mutation is one bypass form: edits to a passing baseline that the rule
// must catch.
type mutation struct {
	name string
	// action selects the composite-action baseline instead of the workflow.
	action bool
	edits  []edit
	// at, when set, is text occurring once in the mutated file: the finding
	// must be on its line. Otherwise it must be on a line of the one edit's
	// new text.
	at string
	// anyLine accepts the finding on any line.
	anyLine bool
}

// one is a mutation of a single edit.
func one(name, old, new string) mutation {
	return mutation{name: name, edits: []edit{{old, new}}}
}

// Lines of the baseline the mutations edit.
const (
	lineX         = "          X: plain\n"
	lineRun       = "      - run: echo \"$X\"\n"
	lineOn        = "on: workflow_dispatch\n"
	lineCheckout  = "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
	linePersist   = "          persist-credentials: false\n"
	lineModelKey  = "          anthropic-api-key: ${{ secrets.ANTHROPIC_API_KEY }}\n"
	lineDBImage   = "        image: postgres@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"
	lineEvalNeeds = "    needs: plan\n"
	lineTopPerm   = "permissions: {}\n"
	lineJobs      = "jobs:\n"
	evalPerm      = "    needs: plan\n    runs-on: ubuntu-latest\n    permissions:\n      contents: read\n"
	evalContainer = "    container: ${{ matrix.image }}\n    strategy:\n      matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}\n"
	concurrency   = "concurrency:\n  group: fixture\n"

	actShardEnv = "        SHARD: ${{ inputs.shard }}\n"
	actCacheKey = "        key: ${{ inputs.shard }}\n"
	actCache    = "    - uses: actions/cache@5a3ec84eff668545956fd18022155c47e93e2684 # v4.2.3\n"
	actOutput   = "    value: ${{ steps.run.outputs.result }}\n"
	actShell    = "    - id: run\n      shell: bash\n"
	actIf       = "    - if: inputs.shard != ''\n"
)

const digest63 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde"

// policyMutations maps every rule to the bypass forms it must catch.
func policyMutations() map[string][]mutation {
	x := func(name, value string) mutation { return one(name, lineX, "          X: "+value+"\n") }
	act := func(m mutation) mutation { m.action = true; return m }
	return map[string][]mutation{
		"trigger": {
			one("list form", lineOn, "on: [push, pull_request_target]\n"),
			one("string form", lineOn, "on: pull_request_target\n"),
			one("map form", lineOn, "on:\n  pull_request_target:\n    types: [opened]\n"),
			one("block list form", lineOn, "on:\n  - push\n  - pull_request_target\n"),
			one("mixed case", lineOn, "on: [Pull_Request_Target]\n"),
			one("comma-separated string", lineOn, "on: push, pull_request_target\n"),
		},
		"fork-safety": {
			{name: "workflow_run, list form", edits: []edit{{lineOn, "on: [workflow_run]\n"}}, at: "actions/checkout@"},
			{name: "workflow_run, string form", edits: []edit{{lineOn, "on: workflow_run\n"}}, at: "actions/checkout@"},
			{name: "workflow_run, map form", edits: []edit{{lineOn, "on:\n  workflow_run:\n    workflows: [x]\n    types: [completed]\n"}}, at: "actions/checkout@"},
			{name: "issue_comment", edits: []edit{{lineOn, "on: issue_comment\n"}}, at: "actions/checkout@"},
			{name: "pull_request_target in a list", edits: []edit{{lineOn, "on: [push, pull_request_target]\n"}}, at: "actions/checkout@"},
			{name: "mixed-case checkout", edits: []edit{
				{lineOn, "on: [workflow_run]\n"},
				{lineCheckout, strings.Replace(lineCheckout, "actions/checkout", "Actions/Checkout", 1)},
			}, at: "Actions/Checkout@"},
			{name: "checkout with a trailing slash", edits: []edit{
				{lineOn, "on: workflow_run\n"},
				{lineCheckout, strings.Replace(lineCheckout, "actions/checkout", "actions/checkout/", 1)},
			}, at: "actions/checkout/@"},
		},
		"checkout-credentials": {
			{name: "persist-credentials missing", edits: []edit{{"        with:\n" + linePersist, ""}}, at: "actions/checkout@"},
			{name: "persist-credentials true", edits: []edit{{linePersist, "          persist-credentials: true\n"}}, at: "actions/checkout@"},
			{name: "upper-case owner/repo", edits: []edit{
				{lineCheckout, strings.Replace(lineCheckout, "actions/checkout", "ACTIONS/Checkout", 1)},
				{linePersist, "          persist-credentials: true\n"},
			}, at: "ACTIONS/Checkout@"},
			{name: "persist-credentials through an alias", edits: []edit{
				{linePersist, "          persist-credentials: *t\n"},
				{lineTopPerm, lineTopPerm + "env:\n  T: &t true\n"},
			}, at: "actions/checkout@"},
		},
		"pinning": {
			one("tag", lineCheckout, "      - uses: actions/checkout@v4\n"),
			one("mixed-case tag", lineCheckout, "      - uses: Actions/Checkout@v4\n"),
			one("short SHA", lineCheckout, "      - uses: actions/checkout@11bd719 # v4.2.2\n"),
			one("no version comment", lineCheckout, "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n"),
			one("docker action by tag", lineCheckout, "      - uses: docker://alpine:3.20\n"),
			one("docker action with a short digest", lineCheckout, "      - uses: docker://alpine@sha256:abc\n"),
			one("reusable workflow by branch", lineJobs, "jobs:\n  call:\n    uses: octo/repo/.github/workflows/x.yml@main\n    permissions: {}\n"),
			one("container, string form", evalContainer, "    container: alpine:3.20\n"),
			one("container, map form", evalContainer, "    container:\n      image: alpine:3.20\n"),
			one("container, flow map form", evalContainer, "    container: {image: \"alpine:3.20\"}\n"),
			one("container, short digest", evalContainer, "    container: alpine@sha256:"+digest63+"\n"),
			one("container, tag and digest-like text", evalContainer, "    container: alpine:sha256-"+digest63+"f\n"),
			one("container, from an input", evalContainer, "    container: ${{ inputs.image }}\n"),
			one("container, map form without image", evalContainer, "    container:\n      options: --privileged\n"),
			one("container, mis-cased image key", evalContainer, "    container:\n      Image: alpine@sha256:"+digest63+"f\n"),
			{name: "container from a literal matrix", edits: []edit{{evalContainer, "    container: ${{ matrix.image }}\n    strategy:\n      matrix:\n        image: [alpine:3.20]\n"}}, at: "[alpine:3.20]"},
			{name: "container from a literal matrix include", edits: []edit{{evalContainer, "    container: ${{ matrix.image }}\n    strategy:\n      matrix:\n        include:\n          - image: alpine:3.20\n"}}, at: "- image: alpine"},
			{name: "container from a mis-cased matrix key", edits: []edit{{evalContainer, "    container: ${{ MATRIX['Image'] }}\n    strategy:\n      matrix:\n        image: [alpine:3.20]\n"}}, at: "[alpine:3.20]"},
			one("container from a matrix without the key", evalContainer, "    container: ${{ matrix.image }}\n    strategy:\n      matrix:\n        img: [alpine@sha256:"+digest63+"f]\n"),
			one("container from an input matrix", evalContainer, "    container: ${{ matrix.image }}\n    strategy:\n      matrix: ${{ fromJSON(inputs.matrix) }}\n"),
			one("container from a job it does not need", evalContainer, "    container: ${{ matrix.image }}\n    strategy:\n      matrix: ${{ fromJSON(needs.publish.outputs.matrix) }}\n"),
			one("container, matrix image plus text", evalContainer, "    container: ${{ matrix.image }}-slim\n    strategy:\n      matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}\n"),
			one("service, map form", lineDBImage, "        image: postgres:16\n"),
			one("service, string form", "      db:\n"+lineDBImage, "      db: postgres:16\n"),
			one("service, computed", lineDBImage, "        image: ${{ vars.DB_IMAGE }}\n"),
			act(one("action, mixed-case tag", actCache, "    - uses: Actions/Cache@v4\n")),
			act(one("action, docker by tag", actCache, "    - uses: docker://alpine:3.20\n")),
		},
		"secrets": {
			x("toJSON(secrets)", "${{ toJSON(secrets) }}"),
			x("index, single quotes", "${{ secrets['X'] }}"),
			x("index, double quotes and spaces", `${{ secrets [ "X" ] }}`),
			x("capitalised context", "${{ Secrets.X }}"),
			x("upper-case context", "${{ SECRETS.x }}"),
			x("whole, as a function argument", "${{ format('{0}', secrets) }}"),
			x("object filter", "${{ secrets.* }}"),
			x("fromJSON(toJSON(secrets))", "${{ fromJSON(toJSON(secrets)).X }}"),
			x("computed index", "${{ secrets[format('{0}', 'X')] }}"),
			x("long s folds to s", "${{ ſecrets.X }}"),
			x("second expression of a value", "${{ 'a' }} and ${{ secrets.X }}"),
			x("after a string holding }}", "${{ '}}' || secrets.X }}"),
			x("no space after ${{", "${{secrets.X}}"),
			one("if: without ${{ }}", lineRun, "      - if: secrets.X != ''\n        run: echo \"$X\"\n"),
			one("job env", lineEvalNeeds, lineEvalNeeds+"    env:\n      K: ${{ secrets.K }}\n"),
			one("job if", lineEvalNeeds, lineEvalNeeds+"    if: secrets.K != ''\n"),
			one("top-level env", lineTopPerm, lineTopPerm+"env:\n  K: ${{ secrets.K }}\n"),
			one("in the on: filters", lineOn, "on:\n  workflow_dispatch:\n    inputs:\n      k:\n        default: ${{ secrets.K }}\n"),
			one("secrets: inherit", lineJobs, "jobs:\n  call:\n    uses: ./.github/workflows/called.yml\n    permissions: {}\n    secrets: inherit\n"),
			one("named secrets to a called workflow", lineJobs, "jobs:\n  call:\n    uses: ./.github/workflows/called.yml\n    permissions: {}\n    secrets:\n      K: ${{ secrets.K }}\n"),
			one("model step, toJSON(secrets)", lineModelKey, "          anthropic-api-key: ${{ toJSON(secrets) }}\n"),
			one("model step, computed index", lineModelKey, "          anthropic-api-key: ${{ secrets[inputs.name] }}\n"),
			one("model step, env instead of with", lineModelKey, lineModelKey+"        env:\n          K: ${{ secrets.K }}\n"),
			one("model step in the writing job", "      - uses: ./actions/merge-publish\n", "      - uses: ./actions/evaluate-shard\n        with:\n          k: ${{ secrets.K }}\n      - uses: ./actions/merge-publish\n"),
			{name: "alias of the model step's secret", edits: []edit{
				{lineModelKey, "          anthropic-api-key: &k ${{ secrets.ANTHROPIC_API_KEY }}\n"},
				{lineX, "          X: *k\n"},
			}, at: "X: *k"},
			act(one("action, secrets context", actShardEnv, "        SHARD: ${{ secrets.X }}\n")),
			act(one("action, toJSON(secrets)", actShardEnv, "        SHARD: ${{ toJSON(secrets) }}\n")),
			act(one("action, secret input by index", actCacheKey, "        key: ${{ inputs['api-key'] }}\n")),
			act(one("action, secret input upper case", actCacheKey, "        key: ${{ INPUTS.API-KEY }}\n")),
			act(one("action, all inputs", actCacheKey, "        key: ${{ toJSON(inputs) }}\n")),
			act(one("action, secret input in if:", actIf, "    - if: inputs.api-key != ''\n")),
			act(mutation{name: "action, output by index", edits: []edit{{actOutput, "    value: ${{ inputs [ \"api-key\" ] }}\n"}}, at: "  result:"}),
			act(mutation{name: "action, second env user", edits: []edit{{actShardEnv, "        SHARD: ${{ Inputs.Api-Key }}\n"}}, at: "      env:\n        SHARD"}),
		},
		"token": {
			x("github.token", "${{ github.token }}"),
			x("index, single quotes", "${{ github['token'] }}"),
			x("index, double quotes and spaces", `${{ github [ "token" ] }}`),
			x("upper case", "${{ GITHUB.TOKEN }}"),
			x("capitalised", "${{ Github.Token }}"),
			x("toJSON(github)", "${{ toJSON(github) }}"),
			x("object filter", "${{ github.* }}"),
			x("secrets.GITHUB_TOKEN", "${{ secrets.github_token }}"),
			x("computed index", "${{ github[format('to{0}', 'ken')] }}"),
			x("dotless i folds to I", "${{ gıthub.token }}"),
			one("if: without ${{ }}", lineRun, "      - if: github.token != ''\n        run: echo \"$X\"\n"),
			one("model step's with", lineModelKey, lineModelKey+"          github-token: ${{ github.token }}\n"),
			one("job env", lineEvalNeeds, lineEvalNeeds+"    env:\n      T: ${{ github.token }}\n"),
			one("top-level env", lineTopPerm, lineTopPerm+"env:\n  T: ${{ github['token'] }}\n"),
			act(one("action, github.token", actShardEnv, "        SHARD: ${{ github.token }}\n")),
			act(one("action, index", actShardEnv, "        SHARD: ${{ GITHUB['TOKEN'] }}\n")),
			act(one("action, toJSON(github)", actShardEnv, "        SHARD: ${{ toJSON(github) }}\n")),
		},
		"permissions": {
			{name: "top-level missing", edits: []edit{{lineTopPerm, ""}}, at: "name: baseline"},
			one("top-level read-all", lineTopPerm, "permissions: read-all\n"),
			one("job write-all", evalPerm, "    needs: plan\n    runs-on: ubuntu-latest\n    permissions: write-all\n"),
			one("job writes", evalPerm, "    needs: plan\n    runs-on: ubuntu-latest\n    permissions:\n      contents: write\n"),
			one("unknown level", evalPerm, "    needs: plan\n    runs-on: ubuntu-latest\n    permissions:\n      contents: Write\n"),
			{name: "mis-cased key", edits: []edit{{evalPerm, "    needs: plan\n    runs-on: ubuntu-latest\n    Permissions:\n      contents: read\n"}}, at: "  evaluate:"},
			{name: "write through an alias", edits: []edit{
				{"    outputs:\n", "    env: &w\n      contents: write\n    outputs:\n"},
				{evalPerm, "    needs: plan\n    runs-on: ubuntu-latest\n    permissions: *w\n"},
			}, at: "    permissions: *w"},
		},
		"concurrency": {
			{name: "missing", edits: []edit{{concurrency, ""}}, at: "name: baseline"},
			{name: "empty group", edits: []edit{{concurrency, "concurrency:\n  group: \"\"\n"}}, at: "name: baseline"},
			{name: "mis-cased key", edits: []edit{{concurrency, "Concurrency:\n  group: fixture\n"}}, at: "name: baseline"},
			{name: "empty mapping", edits: []edit{{concurrency, "concurrency: {}\n"}}, at: "name: baseline"},
		},
		"run-expression": {
			one("inline", lineRun, "      - run: echo \"${{ github.event.issue.title }}\"\n"),
			one("block scalar", lineRun, "      - run: |\n          echo hi\n          echo ${{ github.head_ref }}\n"),
			{name: "through an alias", edits: []edit{
				{linePersist, linePersist + "          ref: &r echo ${{ github.head_ref }}\n"},
				{lineRun, "      - run: *r\n"},
			}, at: "run: *r"},
			act(one("action", "      run: echo \"$SHARD\"\n", "      run: echo \"${{ inputs.shard }}\"\n")),
		},
		"shell": {
			act(mutation{name: "composite run without shell", edits: []edit{{actShell, "    - id: run\n"}}, at: "run: echo \"$KEY\""}),
			act(mutation{name: "mis-cased shell key", edits: []edit{{actShell, "    - id: run\n      Shell: bash\n"}}, at: "run: echo \"$KEY\""}),
		},
		"unset-env": {
			act(one("read without env", "      run: echo \"$SHARD\"\n", "      run: |\n        set -euo pipefail\n        echo \"$SHARD $MODE\"\n")),
			act(one("braced", "      run: echo \"$SHARD\"\n", "      run: |\n        set -u\n        echo \"${MODE}\"\n")),
			act(one("after set +u and -u again", "      run: echo \"$SHARD\"\n", "      run: |\n        set -u\n        set +u\n        echo \"$A\"\n        set -o nounset\n        echo \"$B\"\n")),
		},
		"keys": {
			one("USES", lineCheckout, strings.Replace(lineCheckout, "uses:", "USES:", 1)),
			one("Uses", lineCheckout, strings.Replace(lineCheckout, "uses:", "Uses:", 1)),
			one("Run", lineRun, "      - Run: echo \"$X\"\n"),
			one("On", lineOn, "On: workflow_dispatch\n"),
			one("job key", lineEvalNeeds, "    Needs: plan\n"),
			one("duplicate with key", linePersist, linePersist+"          persist-credentials: true\n"),
			one("duplicate uses", lineCheckout, lineCheckout+"        uses: ./actions/evaluate-shard\n"),
			{name: "duplicate job", edits: []edit{{lineJobs, "jobs:\n  publish:\n    runs-on: ubuntu-latest\n    permissions: {}\n    steps:\n      - run: echo\n"}}, at: "  publish:\n    needs"},
			{name: "merge key", edits: []edit{
				{"        with:\n" + linePersist, "        with: &p\n" + linePersist},
				{"        env:\n" + lineX, "        env:\n          <<: *p\n" + lineX},
			}, at: "<<: *p"},
			one("step not a mapping", lineRun, "      - echo hi\n      - run: echo \"$X\"\n"),
			act(one("action, USES", actCache, strings.Replace(actCache, "uses:", "USES:", 1))),
		},
		"syntax": {
			{name: "second document", edits: []edit{{"          github-token: ${{ github.token }}\n", "          github-token: ${{ github.token }}\n---\non: pull_request_target\n"}}, at: "---"},
			// yaml.v3 names no line for an unknown anchor and the line
			// before for this one, so their line is not asserted.
			{name: "broken YAML", edits: []edit{{lineOn, "on: [workflow_dispatch\n"}}, anyLine: true},
			{name: "unknown anchor", edits: []edit{{lineX, "          X: *nope\n"}}, anyLine: true},
			{name: "alias bomb", edits: []edit{{lineTopPerm, lineTopPerm + aliasBomb()}}, at: "  f: &f"},
			act(mutation{name: "action, second document", edits: []edit{{actShardEnv, actShardEnv + "---\nname: x\n"}}, at: "---"}),
		},
	}
}

// aliasBomb is top-level env whose aliases expand to 8^6 nodes.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("env:\n  a: &a [x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f"} {
		fmt.Fprintf(&b, "  %s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", n, n, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = n
	}
	return b.String()
}

// lineOf returns the 1-based line of the one occurrence of text in src.
func lineOf(t *testing.T, src, text string) int {
	t.Helper()
	require.Equal(t, 1, strings.Count(src, text), "%q must occur once in the mutated file:\n%s", text, src)
	return strings.Count(src[:strings.Index(src, text)], "\n") + 1
}

// mutate applies m's edits to base and returns the result and the lines the
// finding may be on.
func mutate(t *testing.T, base string, m mutation) (string, int, int) {
	t.Helper()
	require.NotEmpty(t, m.edits)
	src := base
	first, last := 0, 0
	for _, e := range m.edits {
		require.Equal(t, 1, strings.Count(src, e.old), "%q must occur once in the baseline", e.old)
		i := strings.Index(src, e.old)
		first = strings.Count(src[:i], "\n") + 1
		last = first + max(0, strings.Count(strings.TrimSuffix(e.new, "\n"), "\n"))
		src = src[:i] + e.new + src[i+len(e.old):]
	}
	if m.at != "" {
		l := lineOf(t, src, m.at)
		return src, l, l
	}
	require.Len(t, m.edits, 1, "a mutation of several edits names its line with at")
	return src, first, last
}

// TestPolicyMutations feeds every rule each bypass form of
// policyMutations, applied to a baseline that passes, and requires a
// finding of that rule on the mutated line.
func TestPolicyMutations(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "policy", name))
		require.NoError(t, err)
		return string(b)
	}
	const wf, act = ".github/workflows/benchmark.yml", "actions/baseline/action.yml"
	check := func(m mutation, src string) []Finding {
		if m.action {
			return CheckAction(act, []byte(src))
		}
		return CheckWorkflow(wf, []byte(src), DefaultPolicy())
	}
	bases := map[bool]string{false: read("baseline.yml"), true: read("baseline-action.yml")}
	require.Empty(t, strs(check(mutation{}, bases[false])), "the workflow baseline passes")
	require.Empty(t, strs(check(mutation{action: true}, bases[true])), "the action baseline passes")

	table := policyMutations()
	var covered []string
	for rule := range table {
		covered = append(covered, rule)
	}
	sort.Strings(covered)
	want := policyRules()
	sort.Strings(want)
	require.Equal(t, want, covered, "every policy rule has bypass forms")

	for _, rule := range covered {
		for _, m := range table[rule] {
			t.Run(rule+"/"+m.name, func(t *testing.T) {
				src, first, last := mutate(t, bases[m.action], m)
				fs := check(m, src)
				file := wf
				if m.action {
					file = act
				}
				caught := false
				for _, f := range fs {
					require.Equal(t, file, f.File)
					require.Positive(t, f.Line, f.String())
					require.Positive(t, f.Col, f.String())
					if f.Rule == rule && (m.anyLine || f.Line >= first && f.Line <= last) {
						caught = true
					}
				}
				require.True(t, caught, "no %q finding on lines %d-%d of\n%s\nfindings:\n%s", rule, first, last, src, strings.Join(strs(fs), "\n"))
			})
		}
	}
}

// TestExprRefs pins down how expressions are read.
func TestExprRefs(t *testing.T) {
	tests := []struct {
		in       string
		implicit bool
		want     []exprRef
	}{
		{"plain text secrets.X", false, nil},
		{"secrets.X", true, []exprRef{{"secrets", "x"}}},
		{"${{ secrets.X }}", false, []exprRef{{"secrets", "x"}}},
		{"${{ steps.secrets.outputs.github }}", false, []exprRef{{"steps", "secrets"}}},
		{"${{ toJSON(secrets) }}", false, []exprRef{{"tojson", ""}, {"secrets", ""}}},
		{"${{ github [ 'To''ken' ] }}", false, []exprRef{{"github", "to'ken"}}},
		{"${{ github[inputs.k] }}", false, []exprRef{{"github", ""}, {"inputs", "k"}}},
		{"${{ '${{ secrets.X }}' }}", false, nil},
		{"a ${{ 'x' }} b ${{ vars.V }}", false, []exprRef{{"vars", "v"}}},
		{"${{ github.event.pull_request.head.repo.full_name == github.repository }}", false, []exprRef{{"github", "event"}, {"github", "repository"}}},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, exprRefs(tt.in, tt.implicit), tt.in)
	}
	r, ok := soleRef("${{ matrix.image }}")
	require.True(t, ok)
	require.Equal(t, exprRef{"matrix", "image"}, r)
	for _, s := range []string{"${{ matrix.image }}x", "x${{ matrix.image }}", "${{ matrix.image", "${{ matrix.image.x }}", "${{ matrix }}"} {
		_, ok := soleRef(s)
		require.False(t, ok, s)
	}
	dep, ok := jobOutputMatrix("${{ fromJSON(needs.plan.outputs.matrix) }}")
	require.True(t, ok)
	require.Equal(t, "plan", dep)
	_, ok = jobOutputMatrix("${{ fromJSON(needs.plan.outputs.matrix) || fromJSON(inputs.m) }}")
	require.False(t, ok)
}

// TestActionName normalises uses: references as GitHub resolves them.
func TestActionName(t *testing.T) {
	for in, want := range map[string]string{
		"actions/checkout@v4":                 "actions/checkout",
		"Actions/Checkout@v4":                 "actions/checkout",
		" actions/checkout/@v4":               "actions/checkout",
		"github/codeql-action/Init@v3":        "github/codeql-action/Init",
		"github/codeql-action/./init/@v3":     "github/codeql-action/init",
		"actions/checkout@11bd71901bbe5b1630": "actions/checkout",
	} {
		require.Equal(t, want, actionName(in), in)
	}
}

// TestUnsetEnv pins down which reads under set -u are findings.
func TestUnsetEnv(t *testing.T) {
	action := func(run, env string) string {
		return "name: a\ndescription: d\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: |\n" + run + "      env:\n        SHARD: x\n" + env
	}
	tests := []struct {
		name, run, env string
		want           []string
	}{
		{"from env", "        set -euo pipefail\n        echo \"$SHARD\" >> \"$GITHUB_OUTPUT\"\n", "", nil},
		{"missing", "        set -euo pipefail\n        echo \"$SHARD $MODE ${MODE}\"\n", "", []string{"MODE"}},
		{"defaults and assignments", "        set -u\n        echo \"${MODE:-x} ${LEVEL-y}\"\n        OUT=a\n        export DIR=b\n        for F in 1 2; do echo \"$F\"; done\n        read -r A B < f\n        echo \"$OUT $DIR $A $B $HOME $RUNNER_TEMP\"\n", "", nil},
		{"set +u region", "        set -eu\n        set +u\n        . \"$IDF_PATH/export.sh\"\n        set -u\n        echo \"$IDF_PATH $SHARD\"\n", "", []string{"IDF_PATH"}},
		{"no set -u", "        echo \"$MODE\"\n", "", nil},
		{"lower case is local", "        set -u\n        echo \"$mode\"\n", "", nil},
		{"comment", "        set -u\n        # uses $MODE later\n", "", nil},
		{"env of the step", "        set -u\n        echo \"$MODE\"\n", "        MODE: y\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range CheckAction("actions/a/action.yml", []byte(action(tt.run, tt.env))) {
				require.Equal(t, "unset-env", f.Rule, f.String())
				require.Equal(t, 7, f.Line, "the run: line")
				got = append(got, f.Message[strings.Index(f.Message, "$")+1:strings.Index(f.Message, " under")])
			}
			require.Equal(t, tt.want, got)
		})
	}
}
