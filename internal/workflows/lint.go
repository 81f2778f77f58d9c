// Package workflows checks the repository's GitHub Actions workflows
// (.github/workflows/*.yml) and composite actions (actions/*/action.yml):
// actionlint, used as a library, on every workflow and on the steps of every
// composite action, and the project's security rules (least-privilege
// permissions, pinned third-party actions, where secrets and tokens may
// appear, no expressions inside run scripts). It reads files only; it does
// not own or generate them.
package workflows

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/rhysd/actionlint"
	"gopkg.in/yaml.v3"
)

// Finding is one problem in a workflow or action file, positioned like a
// compiler error.
type Finding struct {
	// File is the path of the file, relative to the repository root.
	File string
	// Line and Col are 1-based; zero means unknown.
	Line, Col int
	// Rule names the check that found the problem (an actionlint rule such as
	// "expression", or one of this package's rules such as "permissions").
	Rule string
	// Message says what is wrong.
	Message string
}

// String renders the finding as "file:line:col: message [rule]".
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s [%s]", f.File, f.Line, f.Col, f.Message, f.Rule)
}

// LintOptions configures actionlint.
type LintOptions struct {
	// Shellcheck is the shellcheck executable actionlint runs on every run:
	// script; empty disables the shellcheck rule.
	Shellcheck string
}

// WorkflowFiles lists .github/workflows/*.yml and *.yaml under root, sorted,
// relative to root.
func WorkflowFiles(root string) ([]string, error) {
	return globSorted(root, ".github/workflows/*.yml", ".github/workflows/*.yaml")
}

// ActionFiles lists actions/*/action.yml and action.yaml under root, sorted,
// relative to root.
func ActionFiles(root string) ([]string, error) {
	return globSorted(root, "actions/*/action.yml", "actions/*/action.yaml")
}

func globSorted(root string, patterns ...string) ([]string, error) {
	var out []string
	for _, p := range patterns {
		m, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", p, err)
		}
		for _, f := range m {
			rel, err := filepath.Rel(root, f)
			if err != nil {
				return nil, fmt.Errorf("listing %s: %w", p, err)
			}
			out = append(out, filepath.ToSlash(rel))
		}
	}
	sort.Strings(out)
	return out, nil
}

// newLinter builds an actionlint linter rooted at root that prints nothing.
func newLinter(root string, opts LintOptions) (*actionlint.Linter, *actionlint.Project, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, fmt.Errorf("repository root %s: %w", root, err)
	}
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{
		WorkingDir: abs,
		Shellcheck: opts.Shellcheck,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("creating actionlint linter: %w", err)
	}
	// The project resolves local actions (uses: ./actions/...) against root
	// and reads .github/actionlint.yaml when there is one.
	proj, err := actionlint.NewProject(abs)
	if err != nil {
		return nil, nil, fmt.Errorf("actionlint project at %s: %w", root, err)
	}
	return l, proj, nil
}

// LintWorkflow runs actionlint on one workflow file (path relative to root).
// Local actions it uses are resolved under root, so their inputs and outputs
// are checked too.
func LintWorkflow(root, path string, opts LintOptions) ([]Finding, error) {
	l, proj, err := newLinter(root, opts)
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		return nil, fmt.Errorf("reading workflow: %w", err)
	}
	errs, err := l.Lint(filepath.Join(proj.RootDir(), filepath.FromSlash(path)), majorTagsForLint(src), proj)
	if err != nil {
		return nil, fmt.Errorf("actionlint on %s: %w", path, err)
	}
	out := make([]Finding, 0, len(errs))
	for _, e := range errs {
		out = append(out, Finding{File: path, Line: e.Line, Col: e.Column, Rule: e.Kind, Message: e.Message})
	}
	return out, nil
}

// LintAction checks one composite action's metadata file (path relative to
// root). actionlint cannot lint action.yml files directly (it reads them
// only as metadata of actions a workflow uses), so this
//
//  1. parses the file with actionlint's own action-metadata parser,
//     through a project rooted at root, as a workflow using the action would;
//  2. parses it strictly (unknown keys are errors) and requires a
//     description on the action and on every input and output, and "runs" to
//     be a composite action whose "steps" end the file;
//  3. wraps the steps, unchanged and at their own lines, in a synthetic
//     workflow whose workflow_call inputs are the action's inputs (all
//     strings), and lints that with actionlint: expressions, inputs.* and
//     steps.* references, local and popular actions' inputs, shell scripts.
//     Findings are mapped back to the action file's lines.
func LintAction(root, path string, opts LintOptions) ([]Finding, error) {
	l, proj, err := newLinter(root, opts)
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		return nil, fmt.Errorf("reading action: %w", err)
	}

	var out []Finding
	// 1. actionlint's metadata parser (the one rule "action" applies).
	spec := "./" + filepath.ToSlash(filepath.Dir(filepath.FromSlash(path)))
	if _, _, err := actionlint.NewLocalActionsCache(proj, nil).FindMetadata(spec); err != nil {
		out = append(out, Finding{File: path, Line: 1, Col: 1, Rule: "action-metadata", Message: err.Error()})
	}

	// 2. strict parse and documentation.
	md, problems := parseAction(path, src)
	out = append(out, problems...)
	if md == nil || md.stepsLine == 0 {
		return out, nil
	}

	// 3. steps as a workflow.
	syn, headerLines := syntheticWorkflow(md, src)
	errs, err := l.Lint(filepath.Join(proj.RootDir(), filepath.FromSlash(path)), majorTagsForLint(syn), proj)
	if err != nil {
		return nil, fmt.Errorf("actionlint on the steps of %s: %w", path, err)
	}
	for _, e := range errs {
		line := e.Line - headerLines + md.stepsLine
		if e.Line <= headerLines {
			line = md.stepsLine
		}
		out = append(out, Finding{File: path, Line: line, Col: e.Column, Rule: e.Kind, Message: e.Message})
	}
	return out, nil
}

// pinnedUses matches a third-party action pinned to a commit with its version
// comment: "uses: owner/repo[/path]@<40 hex> # v4.2.2".
var pinnedUses = regexp.MustCompile(`(uses:\s*["']?[\w.-]+/[\w.-]+(?:/[^@\s"']*)?)@[0-9a-f]{40}(["']?\s+#\s*(v\d+)\b)`)

// majorTagsForLint rewrites pinned references to the major tag their version
// comment names (actions/setup-go@<sha> # v5.5.0 → actions/setup-go@v5), only
// for linting: actionlint knows the inputs and outputs of popular actions by
// tag, not by commit, and would otherwise check none of them. The rewrite
// stays on its line, so positions of findings are unchanged.
func majorTagsForLint(src []byte) []byte {
	return pinnedUses.ReplaceAll(src, []byte("${1}@${3}${2}"))
}

// actionFile is the strict shape of a composite action's metadata.
type actionFile struct {
	Name        string                  `yaml:"name"`
	Author      string                  `yaml:"author"`
	Description string                  `yaml:"description"`
	Inputs      map[string]actionInput  `yaml:"inputs"`
	Outputs     map[string]actionOutput `yaml:"outputs"`
	Runs        yaml.Node               `yaml:"runs"`
	Branding    map[string]string       `yaml:"branding"`
}

type actionInput struct {
	Description        string  `yaml:"description"`
	Required           bool    `yaml:"required"`
	Default            *string `yaml:"default"`
	DeprecationMessage string  `yaml:"deprecationMessage"`
}

type actionOutput struct {
	Description string `yaml:"description"`
	Value       string `yaml:"value"`
}

// parsedAction is what LintAction needs from a parsed action file.
type parsedAction struct {
	inputs    []string // input names, sorted
	stepsLine int      // 1-based line of the "steps:" key of runs
}

// parseAction decodes src strictly and reports undocumented inputs and
// outputs and a "runs" that is not a composite action ending the file.
func parseAction(path string, src []byte) (*parsedAction, []Finding) {
	var out []Finding
	add := func(line, col int, rule, format string, args ...any) {
		out = append(out, Finding{File: path, Line: line, Col: col, Rule: rule, Message: fmt.Sprintf(format, args...)})
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		add(1, 1, "syntax", "%v", err)
		return nil, out
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	var a actionFile
	if err := dec.Decode(&a); err != nil {
		add(1, 1, "syntax", "%v", err)
		return nil, out
	}
	root := doc.Content[0]
	if strings.TrimSpace(a.Name) == "" {
		add(1, 1, "action-docs", "the action has no name")
	}
	if strings.TrimSpace(a.Description) == "" {
		add(1, 1, "action-docs", "the action has no description")
	}
	md := &parsedAction{}
	for _, kv := range mappingPairs(root) {
		switch kv.key.Value {
		case "inputs":
			for _, in := range mappingPairs(kv.value) {
				md.inputs = append(md.inputs, in.key.Value)
				if strings.TrimSpace(a.Inputs[in.key.Value].Description) == "" {
					add(in.key.Line, in.key.Column, "action-docs", "input %q has no description", in.key.Value)
				}
			}
		case "outputs":
			for _, o := range mappingPairs(kv.value) {
				if strings.TrimSpace(a.Outputs[o.key.Value].Description) == "" {
					add(o.key.Line, o.key.Column, "action-docs", "output %q has no description", o.key.Value)
				}
				if strings.TrimSpace(a.Outputs[o.key.Value].Value) == "" {
					add(o.key.Line, o.key.Column, "action-docs", "output %q of a composite action has no value", o.key.Value)
				}
			}
		}
	}
	sort.Strings(md.inputs)

	pairs := mappingPairs(root)
	if len(pairs) == 0 || pairs[len(pairs)-1].key.Value != "runs" {
		add(1, 1, "action-layout", `"runs" must be the last key of the file`)
		return md, out
	}
	runs := pairs[len(pairs)-1]
	var using string
	var steps *pair
	rp := mappingPairs(runs.value)
	for i := range rp {
		switch rp[i].key.Value {
		case "using":
			using = rp[i].value.Value
		case "steps":
			steps = &rp[i]
		}
	}
	if using != "composite" {
		add(runs.key.Line, runs.key.Column, "action-layout", `runs.using must be "composite", got %q`, using)
		return md, out
	}
	if steps == nil || rp[len(rp)-1].key != steps.key {
		add(runs.key.Line, runs.key.Column, "action-layout", `"steps" must be the last key of "runs"`)
		return md, out
	}
	if steps.value.Kind != yaml.SequenceNode || len(steps.value.Content) == 0 {
		add(steps.key.Line, steps.key.Column, "action-layout", `"steps" must be a non-empty list`)
		return md, out
	}
	if c := steps.value.Content[0].Column; c < 5 {
		add(steps.value.Content[0].Line, c, "action-layout", "steps must be indented by at least 4 columns, found %d", c-1)
		return md, out
	}
	md.stepsLine = steps.key.Line
	return md, out
}

// syntheticWorkflow wraps the action's step lines in a workflow. It returns
// the workflow and the number of lines before the first step line, so that
// synthetic line n is line n - header + stepsLine of the action file.
func syntheticWorkflow(md *parsedAction, src []byte) ([]byte, int) {
	var b strings.Builder
	b.WriteString("on:\n  workflow_call:\n")
	if len(md.inputs) > 0 {
		b.WriteString("    inputs:\n")
		for _, in := range md.inputs {
			fmt.Fprintf(&b, "      %s:\n        type: string\n        required: false\n", in)
		}
	}
	b.WriteString("permissions: {}\njobs:\n  composite:\n    runs-on: ubuntu-latest\n    steps:\n")
	header := strings.Count(b.String(), "\n")
	lines := strings.SplitAfter(string(src), "\n")
	for _, l := range lines[md.stepsLine:] {
		b.WriteString(l)
	}
	return []byte(b.String()), header
}

// pair is one key and value of a YAML mapping.
type pair struct{ key, value *yaml.Node }

// mappingPairs returns the pairs of a mapping node, nil for anything else.
func mappingPairs(n *yaml.Node) []pair {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := make([]pair, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, pair{n.Content[i], n.Content[i+1]})
	}
	return out
}
