package workflows

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// Policy is the security shape every workflow and action must have, beyond
// what actionlint checks.
type Policy struct {
	// Writers maps a workflow file name to the one job allowed write
	// permissions and the scopes it may write. Every other job reads only.
	Writers map[string]Writer
	// ModelStepUses is the "uses:" of the step that calls models: the only
	// place a workflow may name secrets (in its "with:").
	ModelStepUses string
	// Concurrency lists workflow file names that must declare a top-level
	// concurrency group.
	Concurrency []string
}

// Writer is the publishing job of a workflow and what it may write.
type Writer struct {
	// Job is the job id.
	Job string
	// Scopes are the permission scopes the job may set to "write".
	Scopes []string
}

// DefaultPolicy is the repository's policy: the benchmark's publish job
// opens the results pull request, the comment job of the fork-safe
// follow-up writes the validation comment, and ci's publish-images job
// pushes the SDK images on main; validate-cases writes nothing.
func DefaultPolicy() Policy {
	return Policy{
		Writers: map[string]Writer{
			"benchmark.yml":              {Job: "publish", Scopes: []string{"contents", "pull-requests"}},
			"validate-cases-comment.yml": {Job: "comment", Scopes: []string{"pull-requests"}},
			"ci.yml":                     {Job: "publish-images", Scopes: []string{"packages"}},
		},
		ModelStepUses: "./actions/evaluate-shard",
		Concurrency:   []string{"benchmark.yml"},
	}
}

var (
	reSecrets    = regexp.MustCompile(`\bsecrets\s*(\.|\[)`)
	reToken      = regexp.MustCompile(`\bgithub\.token\b|(?i)\bsecrets\.github_token\b`)
	rePinned     = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(/[^@\s]+)?@[0-9a-f]{40}$`)
	reVersion    = regexp.MustCompile(`^#\s*v\d+(\.\d+)*\b`)
	reSecretName = regexp.MustCompile(`(^|-)(api-key|token|password|secret)$`)
)

// checker collects findings of one file.
type checker struct {
	file string
	out  []Finding
}

func (c *checker) add(n *yaml.Node, rule, format string, args ...any) {
	line, col := 1, 1
	if n != nil {
		line, col = n.Line, n.Column
	}
	c.out = append(c.out, Finding{File: c.file, Line: line, Col: col, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// CheckWorkflow applies the policy to one workflow; file is its path
// relative to the repository root (its base name selects the policy entry).
func CheckWorkflow(file string, src []byte, p Policy) []Finding {
	c := &checker{file: file}
	root, err := parseDoc(src)
	if err != nil {
		c.add(nil, "syntax", "%v", err)
		return c.out
	}
	name := path.Base(file)
	writer, hasWriter := p.Writers[name]

	// Top level: deny by default, every job says what it needs.
	if perm := lookup(root, "permissions"); perm == nil {
		c.add(root, "permissions", "the workflow has no top-level permissions; set permissions: {} and grant per job")
	} else if perm.Kind != yaml.MappingNode || len(perm.Content) != 0 {
		c.add(perm, "permissions", "top-level permissions must be {}; grant per job")
	}
	for _, kv := range mappingPairs(root) {
		if kv.key.Value == "jobs" {
			continue
		}
		c.noSecrets(kv.value, "outside a job")
		c.noToken(kv.value, "outside a job")
	}

	on := lookup(root, "on")
	if hasKey(on, "pull_request_target") || (on != nil && on.Kind == yaml.ScalarNode && on.Value == "pull_request_target") {
		c.add(on, "trigger", "pull_request_target runs fork code with a write token; use pull_request plus a workflow_run follow-up")
	}
	workflowRun := hasKey(on, "workflow_run") || (on != nil && on.Kind == yaml.ScalarNode && on.Value == "workflow_run")

	for _, s := range p.Concurrency {
		if s != name {
			continue
		}
		if g := lookup(lookup(root, "concurrency"), "group"); g == nil || strings.TrimSpace(g.Value) == "" {
			c.add(root, "concurrency", "this workflow must declare a top-level concurrency group")
		}
	}

	for _, job := range mappingPairs(lookup(root, "jobs")) {
		id := job.key.Value
		writes := c.jobPermissions(job, name, writer, hasWriter)
		if u := lookup(job.value, "uses"); u != nil {
			c.uses(u)
		}
		for _, kv := range mappingPairs(job.value) {
			if kv.key.Value == "steps" {
				continue
			}
			c.noSecrets(kv.value, fmt.Sprintf("in job %q outside its steps", id))
			if !writes {
				c.noToken(kv.value, fmt.Sprintf("in job %q, which has no write permission", id))
			}
		}
		steps := lookup(job.value, "steps")
		if steps == nil {
			continue
		}
		for _, step := range steps.Content {
			c.step(step, id, writes, workflowRun, p)
		}
	}
	return c.out
}

// jobPermissions checks a job's permissions and reports whether it writes.
func (c *checker) jobPermissions(job pair, workflow string, writer Writer, hasWriter bool) bool {
	id := job.key.Value
	perm := lookup(job.value, "permissions")
	if perm == nil {
		c.add(job.key, "permissions", "job %q has no permissions; declare the least it needs", id)
		return false
	}
	if perm.Kind != yaml.MappingNode {
		c.add(perm, "permissions", "job %q: permissions %q; list scopes explicitly", id, perm.Value)
		return perm.Value == "write-all"
	}
	writes := false
	for _, s := range mappingPairs(perm) {
		switch s.value.Value {
		case "read", "none":
		case "write":
			writes = true
			allowed := hasWriter && writer.Job == id && contains(writer.Scopes, s.key.Value)
			if !allowed {
				if hasWriter {
					c.add(s.value, "permissions", "job %q may not write %q: in %s only job %q writes (%s)", id, s.key.Value, workflow, writer.Job, strings.Join(writer.Scopes, ", "))
				} else {
					c.add(s.value, "permissions", "job %q may not write %q: no job of %s writes", id, s.key.Value, workflow)
				}
			}
		default:
			c.add(s.value, "permissions", "job %q: permission %s: %q is not read, write or none", id, s.key.Value, s.value.Value)
		}
	}
	return writes
}

// step checks one workflow step.
func (c *checker) step(step *yaml.Node, job string, writes, workflowRun bool, p Policy) {
	u := lookup(step, "uses")
	if u != nil {
		c.uses(u)
		if workflowRun && strings.HasPrefix(u.Value, "actions/checkout@") {
			c.add(u, "fork-safety", "a workflow_run workflow must not check out code: it holds a write token while handling fork pull requests")
		}
		if strings.HasPrefix(u.Value, "actions/checkout@") {
			if v := lookup(lookup(step, "with"), "persist-credentials"); v == nil || v.Value != "false" {
				c.add(u, "checkout-credentials", "actions/checkout must set persist-credentials: false so later steps cannot use the token left in .git/config")
			}
		}
	}
	if r := lookup(step, "run"); r != nil {
		c.runScript(r)
	}
	modelStep := u != nil && p.ModelStepUses != "" && u.Value == p.ModelStepUses
	for _, kv := range mappingPairs(step) {
		if modelStep && kv.key.Value == "with" {
			if writes && reSecrets.MatchString(nodeText(kv.value)) {
				c.add(kv.key, "secrets", "the step that calls models runs in job %q, which has write permissions", job)
			}
			continue
		}
		c.noSecrets(kv.value, fmt.Sprintf("in job %q: secrets may only appear in the with: of the step that uses %s", job, p.ModelStepUses))
		if !writes {
			c.noToken(kv.value, fmt.Sprintf("in job %q, which has no write permission", job))
		}
	}
}

// uses checks that a third-party action is pinned to a commit with a version comment.
func (c *checker) uses(u *yaml.Node) {
	ref := u.Value
	switch {
	case strings.HasPrefix(ref, "./"):
		return
	case strings.HasPrefix(ref, "docker://"):
		if !strings.Contains(ref, "@sha256:") {
			c.add(u, "pinning", "%s: pin docker actions to a digest (@sha256:...)", ref)
		}
		return
	}
	if !rePinned.MatchString(ref) {
		c.add(u, "pinning", "%s: pin third-party actions to a full 40-hex commit SHA", ref)
		return
	}
	if !reVersion.MatchString(strings.TrimSpace(u.LineComment)) {
		c.add(u, "pinning", "%s: add the version the commit is, as a comment (# v4.2.2)", ref)
	}
}

// runScript checks that a run script interpolates no expressions.
func (c *checker) runScript(r *yaml.Node) {
	if strings.Contains(r.Value, "${{") {
		c.add(r, "run-expression", "run scripts must not contain ${{ }}: pass values through env (script injection)")
	}
}

func (c *checker) noSecrets(n *yaml.Node, where string) {
	walkScalars(n, func(s *yaml.Node) {
		if reSecrets.MatchString(s.Value) {
			c.add(s, "secrets", "secrets %s", where)
		}
	})
}

func (c *checker) noToken(n *yaml.Node, where string) {
	walkScalars(n, func(s *yaml.Node) {
		if reToken.MatchString(s.Value) {
			c.add(s, "token", "the GitHub token is used %s", where)
		}
	})
}

// CheckAction applies the policy to one composite action; file is its path
// relative to the repository root.
func CheckAction(file string, src []byte) []Finding {
	c := &checker{file: file}
	root, err := parseDoc(src)
	if err != nil {
		c.add(nil, "syntax", "%v", err)
		return c.out
	}
	c.noSecrets(root, "in a composite action (pass them as inputs)")

	var secretInputs []string
	for _, in := range mappingPairs(lookup(root, "inputs")) {
		if reSecretName.MatchString(in.key.Value) {
			secretInputs = append(secretInputs, in.key.Value)
		}
	}
	for _, o := range mappingPairs(lookup(root, "outputs")) {
		for _, name := range secretInputs {
			if strings.Contains(nodeText(o.value), "inputs."+name) {
				c.add(o.key, "secrets", "output %q exposes input %q", o.key.Value, name)
			}
		}
	}
	users := map[string][]*yaml.Node{}
	steps := lookup(lookup(root, "runs"), "steps")
	if steps != nil {
		for _, step := range steps.Content {
			if u := lookup(step, "uses"); u != nil {
				c.uses(u)
			}
			if r := lookup(step, "run"); r != nil {
				c.runScript(r)
				if lookup(step, "shell") == nil {
					c.add(r, "shell", "run steps of a composite action need shell:")
				}
			}
			for _, kv := range mappingPairs(step) {
				for _, name := range secretInputs {
					if !strings.Contains(nodeText(kv.value), "inputs."+name) {
						continue
					}
					if kv.key.Value != "env" {
						c.add(kv.key, "secrets", "input %q holds a secret: use it only in the env: of the one step that needs it", name)
						continue
					}
					users[name] = append(users[name], kv.key)
				}
			}
		}
	}
	for _, name := range secretInputs {
		if n := users[name]; len(n) > 1 {
			c.add(n[1], "secrets", "input %q holds a secret and reaches %d steps; give it to one", name, len(n))
		}
	}
	return c.out
}

// PinnedRef is one third-party action reference.
type PinnedRef struct {
	// File, Line and Col locate the "uses:" value.
	File      string
	Line, Col int
	// Action is owner/repo[/path]; Commit the SHA; Version the comment.
	Action, Commit, Version string
}

// PinnedRefs lists the pinned third-party references of a workflow or action.
func PinnedRefs(file string, src []byte) ([]PinnedRef, error) {
	root, err := parseDoc(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var out []PinnedRef
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for _, kv := range mappingPairs(n) {
			if kv.key.Value == "uses" && kv.value.Kind == yaml.ScalarNode && rePinned.MatchString(kv.value.Value) {
				at := strings.LastIndexByte(kv.value.Value, '@')
				out = append(out, PinnedRef{
					File: file, Line: kv.value.Line, Col: kv.value.Column,
					Action: kv.value.Value[:at], Commit: kv.value.Value[at+1:],
					Version: strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(kv.value.LineComment), "#")),
				})
			}
		}
		for _, ch := range n.Content {
			walk(ch)
		}
	}
	walk(root)
	return out, nil
}

// CheckPinsAgree reports an action pinned to different commits or versions
// in different places.
func CheckPinsAgree(refs []PinnedRef) []Finding {
	first := map[string]PinnedRef{}
	var out []Finding
	for _, r := range refs {
		f, ok := first[r.Action]
		if !ok {
			first[r.Action] = r
			continue
		}
		if f.Commit != r.Commit || f.Version != r.Version {
			out = append(out, Finding{File: r.File, Line: r.Line, Col: r.Col, Rule: "pinning",
				Message: fmt.Sprintf("%s is pinned to %s (%s) here but to %s (%s) at %s:%d", r.Action, r.Commit, r.Version, f.Commit, f.Version, f.File, f.Line)})
		}
	}
	return out
}

// CheckRepository applies the policy to every workflow and action under root.
func CheckRepository(root string, p Policy) ([]Finding, error) {
	wfs, err := WorkflowFiles(root)
	if err != nil {
		return nil, err
	}
	acts, err := ActionFiles(root)
	if err != nil {
		return nil, err
	}
	var out []Finding
	var refs []PinnedRef
	for _, f := range append(append([]string{}, wfs...), acts...) {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", f, err)
		}
		if strings.HasPrefix(f, "actions/") {
			out = append(out, CheckAction(f, src)...)
		} else {
			out = append(out, CheckWorkflow(f, src, p)...)
		}
		r, err := PinnedRefs(f, src)
		if err != nil {
			return nil, err
		}
		refs = append(refs, r...)
	}
	out = append(out, CheckPinsAgree(refs)...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out, nil
}

// parseDoc parses one YAML document and returns its root mapping.
func parseDoc(src []byte) (*yaml.Node, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("parsing YAML: %w", err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("parsing YAML: the document is not a mapping")
	}
	return doc.Content[0], nil
}

// lookup returns the value of key in mapping n, or nil.
func lookup(n *yaml.Node, key string) *yaml.Node {
	for _, kv := range mappingPairs(n) {
		if kv.key.Value == key {
			return kv.value
		}
	}
	return nil
}

func hasKey(n *yaml.Node, key string) bool { return lookup(n, key) != nil }

// walkScalars calls fn on every scalar under n.
func walkScalars(n *yaml.Node, fn func(*yaml.Node)) {
	if n == nil {
		return
	}
	if n.Kind == yaml.ScalarNode {
		fn(n)
		return
	}
	for _, ch := range n.Content {
		walkScalars(ch, fn)
	}
}

// nodeText joins every scalar under n.
func nodeText(n *yaml.Node) string {
	var b strings.Builder
	walkScalars(n, func(s *yaml.Node) { b.WriteString(s.Value); b.WriteByte('\n') })
	return b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
