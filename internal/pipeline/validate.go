package pipeline

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/runner"
)

// KindInvalid is the refusal of an artifact with a field that fails
// validation (validateFields): a check, negative or model name outside its
// syntax, or a scenario other than the plan's.
const KindInvalid = "invalid"

// Field syntax of the names an artifact carries into the reports. Check
// names are produced by run_checks at run time, so merge cannot know a
// case's set; it enforces the syntax every bundled check and negative
// follows. Model names are the plan's (a result for another model is a
// mismatch) and follow the syntax of llm specs ("claude-code://sonnet",
// "openai:gpt-4o", "vertex:claude@20240620").
var (
	nameSyntax  = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,128}$`)
	modelSyntax = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:/@+-]{0,199}$`)
)

const (
	nameRule  = "letters, digits, '_', '.', ':' and '-', 1 to 128 characters"
	modelRule = "letters, digits, '_', '.', ':', '/', '@', '+' and '-', starting with a letter or digit, at most 200 characters"
)

// validateFields checks the fields of a's results that reports and the
// results pull request show as text, against the plan p: every model name
// has the model syntax; the scenario is the plan's ("" counts as
// generation); a generation result names no mutation and a bugfix result's
// mutation has the name syntax; every check name (of layer details and of
// L4's negatives) has the name syntax, and an L4 detail (check_type
// "mutation") is "<negative>/<check>" with both parts in that syntax. It
// returns "" or the first problem, naming the result and the field.
func validateFields(p *Plan, a *Artifact) string {
	if !modelSyntax.MatchString(a.Model) {
		return fmt.Sprintf("model %s: want %s", quote(a.Model), modelRule)
	}
	want, err := runner.ParseScenario(p.Inputs.Scenario)
	if err != nil {
		return fmt.Sprintf("the plan's scenario: %v", err)
	}
	for i := range a.Results {
		r := &a.Results[i]
		if why := validateResult(r, want); why != "" {
			return fmt.Sprintf("results[%d] (case %s, attempt %d) %s", i, quote(r.CaseID), r.Attempt, why)
		}
	}
	return ""
}

func validateResult(r *result.EvalResult, want runner.Scenario) string {
	if !modelSyntax.MatchString(r.Model) {
		return fmt.Sprintf("model %s: want %s", quote(r.Model), modelRule)
	}
	if r.Scenario != "" && r.Scenario != string(want) {
		return fmt.Sprintf("scenario %s: want %s (the plan's scenario)", quote(r.Scenario), want)
	}
	switch {
	case want == runner.Generation && r.Mutation != "":
		return fmt.Sprintf("mutation %s: a generation result names no mutation", quote(r.Mutation))
	case want == runner.Bugfix && !nameSyntax.MatchString(r.Mutation):
		return fmt.Sprintf("mutation %s: want a negative's name: %s", quote(r.Mutation), nameRule)
	}
	for li, l := range r.Layers {
		for di, d := range l.Details {
			if why := checkName(d.CheckName, d.CheckType == result.CheckTypeMutation); why != "" {
				return fmt.Sprintf("layers[%d].details[%d].check_name %s", li, di, why)
			}
		}
		for mi, m := range l.Mutations {
			if !nameSyntax.MatchString(m.Name) {
				return fmt.Sprintf("layers[%d].mutations[%d].name %s: want %s", li, mi, quote(m.Name), nameRule)
			}
			for _, f := range []struct {
				field string
				vs    []result.CheckVerdict
			}{{"must_fail", m.MustFail}, {"should_fail", m.ShouldFail}} {
				for vi, v := range f.vs {
					if !nameSyntax.MatchString(v.CheckName) {
						return fmt.Sprintf("layers[%d].mutations[%d].%s[%d].check_name %s: want %s", li, mi, f.field, vi, quote(v.CheckName), nameRule)
					}
				}
			}
		}
	}
	return ""
}

// checkName says what is wrong with a check name, or "". An L4 check is
// named "<negative>/<check>".
func checkName(name string, mutation bool) string {
	if !mutation {
		if !nameSyntax.MatchString(name) {
			return fmt.Sprintf("%s: want %s", quote(name), nameRule)
		}
		return ""
	}
	neg, check, ok := strings.Cut(name, "/")
	if !ok || !nameSyntax.MatchString(neg) || !nameSyntax.MatchString(check) {
		return fmt.Sprintf("%s: want <negative>/<check> (a mutation check), each %s", quote(name), nameRule)
	}
	return ""
}

// quote quotes an untrusted value for a message, clipped to 60 bytes.
func quote(s string) string {
	if len(s) > 60 {
		return fmt.Sprintf("%q…", strings.ToValidUTF8(s[:60], ""))
	}
	return fmt.Sprintf("%q", s)
}
