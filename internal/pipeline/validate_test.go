package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/runner"
)

// hostile are values an untrusted shard job could put in an artifact to
// inject Markdown or HTML into the reports and the results pull request.
var hostile = []string{
	"<img src=x onerror=alert(1)>", "@octocat", "<!-- hide the rest", "a|b", "line\nbreak", "[x](javascript:alert(1))", "`code`",
}

func TestCollectRefusesInvalidFields(t *testing.T) {
	p := smallPlan(t)
	for _, tc := range []struct {
		name  string
		edit  func(a *Artifact, v string)
		field string // the message names the field
	}{
		{"scenario", func(a *Artifact, v string) { a.Results[1].Scenario = v }, `results[1] (case %s, attempt 2) scenario `},
		{"mutation", func(a *Artifact, v string) { a.Results[0].Mutation = v }, `results[0] (case %s, attempt 1) mutation `},
		{"check name", func(a *Artifact, v string) { a.Results[0].Layers[0].Details[0].CheckName = v }, `results[0] (case %s, attempt 1) layers[0].details[0].check_name `},
		{"mutation check name", func(a *Artifact, v string) {
			a.Results[0].Layers = append(a.Results[0].Layers, result.LayerResult{Layer: 4, Name: "mutation", Status: result.StatusPassed, Passed: true,
				Details: []result.CheckDetail{{CheckName: "neg/" + v, Passed: true, CheckType: result.CheckTypeMutation}}})
		}, `results[0] (case %s, attempt 1) layers[1].details[0].check_name `},
		{"negative name", func(a *Artifact, v string) {
			a.Results[0].Layers[0].Mutations = []result.MutationResult{{Name: v, Outcome: result.MutationApplied}}
		}, `results[0] (case %s, attempt 1) layers[0].mutations[0].name `},
		{"must_fail check", func(a *Artifact, v string) {
			a.Results[0].Layers[0].Mutations = []result.MutationResult{{Name: "neg", Outcome: result.MutationApplied,
				MustFail: []result.CheckVerdict{{CheckName: "ok"}, {CheckName: v}}}}
		}, `results[0] (case %s, attempt 1) layers[0].mutations[0].must_fail[1].check_name `},
		{"result model", func(a *Artifact, v string) { a.Results[0].Model = v }, `results[0] (case %s, attempt 1) model `},
		{"artifact model", func(a *Artifact, v string) { a.Model = v }, `model `},
	} {
		for _, v := range hostile {
			t.Run(tc.name+" "+v, func(t *testing.T) {
				dir := t.TempDir()
				writeArtifacts(t, p, dir)
				a := artifactFor(p, 2)
				tc.edit(a, v)
				require.NoError(t, WriteArtifact(filepath.Join(dir, "shard-2.json"), a))

				_, err := Collect(context.Background(), p, dir, false)
				var re *RefusalError
				require.True(t, errors.As(err, &re), "%v", err)
				require.Len(t, re.Problems, 1)
				pr := re.Problems[0]
				require.Equal(t, KindInvalid, pr.Kind)
				require.Equal(t, 2, pr.Shard)
				field := tc.field
				if strings.Contains(field, "%s") {
					field = strings.Replace(field, "%s", quote(p.Jobs[1].Cases[0].ID), 1)
				}
				require.True(t, strings.HasPrefix(pr.Message, "shard 2 of 4 (shard-2.json) has an invalid field: "+field), pr.Message)
				require.NotContains(t, pr.Message, "\n", "the value is quoted")

				// With --allow-partial the shard is left out and the rest merged.
				c, err := Collect(context.Background(), p, dir, true)
				require.NoError(t, err)
				require.Equal(t, []int{2}, c.Missing)
				require.Equal(t, []Refusal{pr}, c.Dropped)
			})
		}
	}
}

func TestValidateFieldsAcceptsWhatRunsWrite(t *testing.T) {
	p := smallPlan(t)
	a := artifactFor(p, 1)
	require.Empty(t, validateFields(p, a))
	r := &a.Results[0]
	r.Scenario = ""
	r.Layers = append(r.Layers, result.LayerResult{Layer: 4, Name: "mutation", Status: result.StatusPassed, Passed: true,
		Details:   []result.CheckDetail{{CheckName: "missing_k_msleep/uses_k_msleep", Passed: true, CheckType: result.CheckTypeMutation}},
		Mutations: []result.MutationResult{{Name: "missing_k_msleep", Outcome: result.MutationApplied, MustFail: []result.CheckVerdict{{CheckName: "uses_k_msleep", Caught: true}}}}})
	require.Empty(t, validateFields(p, a), "no scenario means generation; L4 names are <negative>/<check>")

	for _, m := range []string{"reference", "claude-code://sonnet", "openai:gpt-4o-mini", "anthropic:claude-3-5-sonnet@20240620", "claude-3.5/sonnet"} {
		require.True(t, modelSyntax.MatchString(m), m)
	}
	for _, m := range []string{"", "-x", "a b", "m\n", "<b>", "a|b", "@octocat", strings.Repeat("m", 201)} {
		require.False(t, modelSyntax.MatchString(m), m)
	}

	bug := runner.Bugfix
	ok := result.EvalResult{Model: "m", Scenario: "bugfix", Mutation: "wrong_pin"}
	require.Empty(t, validateResult(&ok, bug))
	for _, tc := range []struct {
		r    result.EvalResult
		want string
	}{
		{result.EvalResult{Model: "m", Scenario: "bugfix"}, `mutation "": want a negative's name`},
		{result.EvalResult{Model: "m", Scenario: "generation", Mutation: "x"}, `scenario "generation": want bugfix (the plan's scenario)`},
		{result.EvalResult{Model: "m", Scenario: "bugfix", Mutation: "a/b"}, `mutation "a/b": want a negative's name`},
	} {
		require.True(t, strings.HasPrefix(validateResult(&tc.r, bug), tc.want), validateResult(&tc.r, bug))
	}
	require.True(t, strings.HasPrefix(validateResult(&ok, runner.Generation), `scenario "bugfix": want generation`))
	require.Equal(t, `"`+strings.Repeat("x", 60)+`"…`, quote(strings.Repeat("x", 61)))
}

func TestMergeSummaryEscapesRefusals(t *testing.T) {
	p := smallPlan(t)
	artifacts, results := t.TempDir(), t.TempDir()
	writeArtifacts(t, p, artifacts)
	a := artifactFor(p, 3)
	a.Results[0].Layers[0].Details[0].CheckName = "<!--<img src=x onerror=alert(1)> @octocat | [x](js:1)"
	require.NoError(t, WriteArtifact(filepath.Join(artifacts, "shard-3.json"), a))
	o := mergeInto(t, p, artifacts, results, "r1", true)
	require.Equal(t, []int{3}, o.Record.Missing)
	require.Len(t, o.Record.Problems, 1)
	require.Contains(t, o.Record.Problems[0], "<img src=x onerror=alert(1)>", "merge.json keeps the message as it was")

	sum := MergeSummary(o)
	require.Contains(t, sum, "- left out: shard 3 of 4 (shard-3.json) has an invalid field: ")
	require.Contains(t, sum, `check_name "&lt;!--&lt;img src=x onerror=alert(1)&gt; @&#8203;octocat \| [x\](js:1)": want`)
	for _, raw := range []string{"<img", "<!--", "@octocat", " | ["} {
		require.NotContains(t, sum, raw)
	}
	require.NotRegexp(t, `[^\\]\]\(`, sum, "no link can close")
	raw, err := os.ReadFile(filepath.Join(results, "LEADERBOARD.md"))
	require.NoError(t, err)
	require.NotContains(t, string(raw), "onerror", "the refused shard's names reach no report")
}
