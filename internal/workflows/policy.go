package workflows

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

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
	rePinned     = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(/[^@\s]+)?@[0-9a-f]{40}$`)
	reVersion    = regexp.MustCompile(`^#\s*v\d+(\.\d+)*\b`)
	reSecretName = regexp.MustCompile(`(^|-)(api-key|token|password|secret)$`)
	reDigest     = regexp.MustCompile(`^[^\s@]+@sha256:[0-9a-f]{64}$`)
	reErrLine    = regexp.MustCompile(`\bline (\d+)\b`)
)

// policyRules lists the rules of this file's findings, for the tests and
// docs/WORKFLOWS.md.
func policyRules() []string {
	return []string{"syntax", "keys", "permissions", "pinning", "secrets", "token", "concurrency", "trigger", "fork-safety", "checkout-credentials", "run-expression", "shell", "unset-env"}
}

// checker collects findings of one file.
type checker struct {
	file string
	out  []Finding
}

// add records a finding at n (line 1, column 1 when n is nil), once: copies
// of an aliased value share the alias's position and would repeat it.
func (c *checker) add(n *yaml.Node, rule, format string, args ...any) {
	line, col := 1, 1
	if n != nil {
		line, col = n.Line, n.Column
	}
	f := Finding{File: c.file, Line: line, Col: col, Rule: rule, Message: fmt.Sprintf(format, args...)}
	for _, o := range c.out {
		if o == f {
			return
		}
	}
	c.out = append(c.out, f)
}

// load parses src, reports duplicate and merge keys, and expands aliases;
// nil after a syntax finding.
func (c *checker) load(src []byte) *yaml.Node {
	root, err := decodeDoc(src)
	if err == nil {
		c.structure(root)
		err = expandAliases(root)
	}
	if err != nil {
		// Place the finding on the line the error names, if it names one.
		at := &yaml.Node{Line: 1, Column: 1}
		if m := reErrLine.FindStringSubmatch(err.Error()); m != nil {
			at.Line, _ = strconv.Atoi(m[1])
		}
		c.add(at, "syntax", "%v", err)
		return nil
	}
	return root
}

// CheckWorkflow applies the policy to one workflow; file is its path
// relative to the repository root (its base name selects the policy entry).
func CheckWorkflow(file string, src []byte, p Policy) []Finding {
	c := &checker{file: file}
	root := c.load(src)
	if root == nil {
		return c.out
	}
	name := path.Base(file)
	writer, hasWriter := p.Writers[name]
	c.knownKeys(root, "the workflow", workflowKeys)

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
		c.noSecrets(kv.value, false, "outside a job")
		c.noToken(kv.value, false, "outside a job")
	}

	forkTrigger := c.triggers(lookup(root, "on"))

	for _, s := range p.Concurrency {
		if s != name {
			continue
		}
		cc := lookup(root, "concurrency")
		g := cc
		if cc != nil && cc.Kind == yaml.MappingNode {
			g = lookup(cc, "group")
		}
		if g == nil || g.Kind != yaml.ScalarNode || strings.TrimSpace(g.Value) == "" {
			c.add(root, "concurrency", "this workflow must declare a top-level concurrency group")
		}
	}

	jobs := lookup(root, "jobs")
	for _, job := range mappingPairs(jobs) {
		id := job.key.Value
		c.knownKeys(job.value, fmt.Sprintf("job %q", id), jobKeys)
		writes := c.jobPermissions(job, name, writer, hasWriter)
		if u := lookup(job.value, "uses"); u != nil {
			c.uses(u)
		}
		if s := lookup(job.value, "secrets"); s != nil && s.Kind != yaml.MappingNode {
			c.add(s, "secrets", "job %q: secrets: %s hands every secret of the repository to the called workflow", id, s.Value)
		}
		c.images(job, jobs)
		for _, kv := range mappingPairs(job.value) {
			if kv.key.Value == "steps" && kv.value.Kind == yaml.SequenceNode {
				continue
			}
			implicit := kv.key.Value == "if"
			c.noSecrets(kv.value, implicit, fmt.Sprintf("in job %q outside its steps", id))
			if !writes {
				c.noToken(kv.value, implicit, fmt.Sprintf("in job %q, which has no write permission", id))
			}
		}
		steps := lookup(job.value, "steps")
		if steps == nil {
			continue
		}
		if steps.Kind != yaml.SequenceNode {
			c.add(steps, "keys", "job %q: steps is not a list", id)
			continue
		}
		for _, step := range steps.Content {
			c.step(step, id, writes, forkTrigger, p)
		}
	}
	return c.out
}

// triggers reports pull_request_target and returns the first trigger that
// runs with the base repository's token and secrets on an event a fork can
// cause (pull_request_target, workflow_run, issue_comment), or "". It reads
// every form of on: a string ("on: pull_request_target"), a list
// ("on: [push, pull_request_target]") and a mapping of events; names are
// compared without case, and a string is split at commas and spaces.
func (c *checker) triggers(on *yaml.Node) string {
	if on == nil {
		return ""
	}
	var events []*yaml.Node
	switch on.Kind {
	case yaml.ScalarNode:
		events = append(events, on)
	case yaml.SequenceNode:
		for _, e := range on.Content {
			if e.Kind != yaml.ScalarNode {
				c.add(e, "trigger", "on: lists something that is not an event name")
				continue
			}
			events = append(events, e)
		}
	case yaml.MappingNode:
		for _, kv := range mappingPairs(on) {
			events = append(events, kv.key)
		}
	}
	fork := ""
	for _, e := range events {
		for _, ev := range strings.FieldsFunc(e.Value, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
			switch ev = fold(ev); ev {
			case "pull_request_target":
				c.add(e, "trigger", "pull_request_target runs fork code with a write token; use pull_request plus a workflow_run follow-up")
			case "workflow_run", "issue_comment":
			default:
				continue
			}
			if fork == "" {
				fork = ev
			}
		}
	}
	return fork
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

// images checks that the job's container and service images are pinned by
// digest, in the string form (container: img) and the mapping form
// (container: {image: img}).
func (c *checker) images(job pair, jobs *yaml.Node) {
	id := job.key.Value
	if n := lookup(job.value, "container"); n != nil {
		c.image(n, job, jobs, fmt.Sprintf("job %q: container", id))
	}
	services := lookup(job.value, "services")
	if services != nil && services.Kind != yaml.MappingNode {
		c.add(services, "pinning", "job %q: services is not a mapping of service to image", id)
	}
	for _, s := range mappingPairs(services) {
		c.image(s.value, job, jobs, fmt.Sprintf("job %q: service %q", id, s.key.Value))
	}
}

// image checks one container or service: a literal image must be pinned by
// digest; the only computed image accepted is ${{ matrix.<key> }}, checked
// against the job's matrix.
func (c *checker) image(n *yaml.Node, job pair, jobs *yaml.Node, what string) {
	img := n
	if n.Kind == yaml.MappingNode {
		c.knownKeys(n, what, containerKeys)
		if img = lookup(n, "image"); img == nil {
			c.add(n, "pinning", "%s has no image", what)
			return
		}
	}
	if ref, ok := soleRef(img.Value); ok && img.Kind == yaml.ScalarNode && ref.ctx == "matrix" {
		c.matrixImage(img, ref.prop, job, jobs, what)
		return
	}
	c.literalImage(img, what)
}

// literalImage checks an image written out: name@sha256:<64 hex>.
func (c *checker) literalImage(img *yaml.Node, what string) {
	switch {
	case img.Kind != yaml.ScalarNode:
		c.add(img, "pinning", "%s: the image is not a string", what)
	case strings.Contains(img.Value, "${{"):
		c.add(img, "pinning", "%s: image %q is computed; write it pinned by digest, or use ${{ matrix.<key> }} of a checked matrix", what, img.Value)
	case !reDigest.MatchString(img.Value):
		c.add(img, "pinning", "%s: image %q is not pinned by digest (name@sha256:<64 hex>)", what, img.Value)
	}
}

// matrixImage checks an image that is ${{ matrix.<key> }}. A literal matrix
// must list only digest-pinned images under key (in the key's list and in
// include entries). A computed matrix is accepted only when it is exactly
// ${{ fromJSON(needs.<job>.outputs.<name>) }} of a job of this workflow that
// this job needs: that job's code, not the event, chooses the image.
func (c *checker) matrixImage(img *yaml.Node, key string, job pair, jobs *yaml.Node, what string) {
	m := lookup(lookup(job.value, "strategy"), "matrix")
	switch {
	case m == nil:
		c.add(img, "pinning", "%s: %s names a matrix the job does not have", what, img.Value)
		return
	case m.Kind == yaml.ScalarNode:
		if dep, ok := jobOutputMatrix(m.Value); ok && needsJob(job.value, dep) && hasJob(jobs, dep) {
			return
		}
		c.add(img, "pinning", "%s: %s comes from a computed matrix other than ${{ fromJSON(needs.<job>.outputs.<name>) }} of a job it needs", what, img.Value)
		return
	}
	found := false
	for _, kv := range mappingPairs(m) {
		switch k := fold(kv.key.Value); {
		case k == "include":
			if kv.value.Kind != yaml.SequenceNode {
				c.add(kv.value, "pinning", "%s: matrix include is computed, so its images cannot be checked", what)
				continue
			}
			for _, e := range kv.value.Content {
				if e.Kind != yaml.MappingNode {
					c.add(e, "pinning", "%s: a matrix include entry is not a mapping", what)
					continue
				}
				for _, ekv := range mappingPairs(e) {
					if fold(ekv.key.Value) == key {
						found = true
						c.literalImage(ekv.value, what)
					}
				}
			}
		case k == key:
			found = true
			if kv.value.Kind != yaml.SequenceNode {
				c.add(kv.value, "pinning", "%s: matrix %s is computed, so its images cannot be checked", what, kv.key.Value)
				continue
			}
			for _, v := range kv.value.Content {
				c.literalImage(v, what)
			}
		}
	}
	if !found {
		c.add(img, "pinning", "%s: %s: the job's matrix has no %q", what, img.Value, key)
	}
}

// needsJob reports whether a job's needs: names dep (job ids compared
// without case, as GitHub does).
func needsJob(job *yaml.Node, dep string) bool {
	n := lookup(job, "needs")
	if n == nil {
		return false
	}
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	for _, it := range items {
		if it.Kind == yaml.ScalarNode && fold(it.Value) == fold(dep) {
			return true
		}
	}
	return false
}

// hasJob reports whether the jobs mapping has a job id (without case).
func hasJob(jobs *yaml.Node, id string) bool {
	for _, kv := range mappingPairs(jobs) {
		if fold(kv.key.Value) == fold(id) {
			return true
		}
	}
	return false
}

// step checks one workflow step.
func (c *checker) step(step *yaml.Node, job string, writes bool, forkTrigger string, p Policy) {
	where := fmt.Sprintf("in job %q: secrets may only appear in the with: of the step that uses %s", job, p.ModelStepUses)
	if step.Kind != yaml.MappingNode {
		c.add(step, "keys", "job %q: a step is not a mapping", job)
		c.noSecrets(step, false, where)
		return
	}
	c.knownKeys(step, fmt.Sprintf("job %q: step", job), stepKeys)
	u := lookup(step, "uses")
	if u != nil {
		c.uses(u)
		if isAction(u.Value, "actions/checkout") {
			if forkTrigger != "" {
				c.add(u, "fork-safety", "a %s workflow must not check out code: it holds a write token while handling fork pull requests", forkTrigger)
			}
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
		implicit := kv.key.Value == "if"
		if modelStep && kv.key.Value == "with" {
			c.namedSecretsOnly(kv.value)
			if writes {
				c.noSecrets(kv.value, false, fmt.Sprintf("in the step that calls models, which runs in job %q with write permissions", job))
			}
		} else {
			c.noSecrets(kv.value, implicit, where)
		}
		if !writes {
			c.noToken(kv.value, implicit, fmt.Sprintf("in job %q, which has no write permission", job))
		}
	}
}

// isAction reports whether a remote uses: reference names the action name
// (owner/repo[/path]). GitHub resolves owner and repository without case.
func isAction(ref, name string) bool {
	return !strings.HasPrefix(strings.TrimSpace(ref), "./") && !strings.HasPrefix(strings.TrimSpace(ref), "docker://") && actionName(ref) == name
}

// actionName returns owner/repo[/path] of a uses: reference, with owner and
// repository in lower case and the path cleaned.
func actionName(ref string) string {
	ref = strings.TrimSpace(ref)
	if at := strings.LastIndexByte(ref, '@'); at >= 0 {
		ref = ref[:at]
	}
	parts := strings.SplitN(ref, "/", 3)
	if len(parts) < 2 {
		return strings.ToLower(ref)
	}
	name := strings.ToLower(parts[0] + "/" + parts[1])
	if len(parts) == 3 {
		if p := path.Clean(parts[2]); p != "." && p != "/" {
			name += "/" + strings.TrimPrefix(p, "/")
		}
	}
	return name
}

// uses checks that a third-party action is pinned to a commit with a version comment.
func (c *checker) uses(u *yaml.Node) {
	ref := u.Value
	switch {
	case u.Kind != yaml.ScalarNode:
		c.add(u, "pinning", "uses: is not a string")
		return
	case strings.HasPrefix(ref, "./"):
		return
	case strings.HasPrefix(ref, "docker://"):
		if !reDigest.MatchString(strings.TrimPrefix(ref, "docker://")) {
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
	walkScalars(r, func(s *yaml.Node) {
		if strings.Contains(s.Value, "${{") {
			c.add(s, "run-expression", "run scripts must not contain ${{ }}: pass values through env (script injection)")
		}
	})
}

// Shell variables in a composite step's script: set -u / set +u switches,
// references, and the statements that assign a name.
var (
	reNounsetOn  = regexp.MustCompile(`^\s*set\s+(-[A-Za-z]*u[A-Za-z]*\b|-o\s+nounset\b)`)
	reNounsetOff = regexp.MustCompile(`^\s*set\s+(\+[A-Za-z]*u[A-Za-z]*\b|\+o\s+nounset\b)`)
	reVarRef     = regexp.MustCompile(`\$(?:\{([A-Z_][A-Z0-9_]*)(:?[-+=?])?|([A-Z_][A-Z0-9_]*))`)
	reAssigned   = regexp.MustCompile(`(?:^|[\s;(])(?:export\s+|local\s+|declare\s+(?:-\w+\s+)*)?([A-Z_][A-Z0-9_]*)=|\bfor\s+([A-Z_][A-Z0-9_]*)\s+in\b|\bread\s+(?:-\w+\s+)*([A-Z_][A-Z0-9_ ]*)`)
)

// runnerVariable reports a name the runner or the shell sets for every step.
func runnerVariable(name string) bool {
	return strings.HasPrefix(name, "GITHUB_") || strings.HasPrefix(name, "RUNNER_") || strings.HasPrefix(name, "BASH_") ||
		contains([]string{"HOME", "PATH", "PWD", "OLDPWD", "IFS", "RANDOM", "LINENO", "SECONDS", "CI", "UID", "EUID", "HOSTNAME", "SHELL", "USER"}, name)
}

// unsetEnv reports upper-case variables a composite step's script reads
// under set -u without a default when neither the step's env: nor the
// script sets them: the step would stop with "unbound variable" on every
// run. (A composite action's steps see no env of the calling job that the
// action can rely on.)
func (c *checker) unsetEnv(r, env *yaml.Node) {
	if r.Kind != yaml.ScalarNode {
		return
	}
	known := map[string]bool{}
	for _, kv := range mappingPairs(env) {
		known[kv.key.Value] = true
	}
	for _, m := range reAssigned.FindAllStringSubmatch(r.Value, -1) {
		for _, g := range m[1:] {
			for _, name := range strings.Fields(g) {
				known[name] = true
			}
		}
	}
	nounset := false
	reported := map[string]bool{}
	for _, line := range strings.Split(r.Value, "\n") {
		switch {
		case reNounsetOn.MatchString(line):
			nounset = true
		case reNounsetOff.MatchString(line):
			nounset = false
		}
		if !nounset || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, m := range reVarRef.FindAllStringSubmatch(line, -1) {
			name := m[1] + m[3]
			if m[2] != "" || known[name] || runnerVariable(name) || reported[name] {
				continue
			}
			reported[name] = true
			c.add(r, "unset-env", "the script reads $%s under set -u, but the step's env: does not set it (unbound variable on every run)", name)
		}
	}
}

// walkExprs calls fn on every scalar under n with the context uses of its
// expressions. Values of "if" keys are expressions even without ${{ }};
// implicit says n itself is one.
func walkExprs(n *yaml.Node, implicit bool, fn func(s *yaml.Node, refs []exprRef)) {
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if refs := exprRefs(n.Value, implicit); len(refs) > 0 {
			fn(n, refs)
		}
	case yaml.MappingNode:
		for _, kv := range mappingPairs(n) {
			walkExprs(kv.key, false, fn)
			walkExprs(kv.value, kv.key.Value == "if", fn)
		}
	default:
		for _, ch := range n.Content {
			walkExprs(ch, false, fn)
		}
	}
}

// usesSecrets reports whether an expression under n uses the secrets context.
func usesSecrets(n *yaml.Node) bool {
	found := false
	walkExprs(n, false, func(_ *yaml.Node, refs []exprRef) {
		for _, r := range refs {
			found = found || r.isSecret()
		}
	})
	return found
}

// usesToken reports whether an expression under n may yield the GitHub token.
func usesToken(n *yaml.Node) bool {
	found := false
	walkExprs(n, false, func(_ *yaml.Node, refs []exprRef) {
		for _, r := range refs {
			found = found || r.isToken()
		}
	})
	return found
}

// noSecrets reports every expression under n that uses the secrets context,
// in any syntax.
func (c *checker) noSecrets(n *yaml.Node, implicit bool, where string) {
	walkExprs(n, implicit, func(s *yaml.Node, refs []exprRef) {
		for _, r := range refs {
			if r.isSecret() {
				c.add(s, "secrets", "secrets %s", where)
				return
			}
		}
	})
}

// namedSecretsOnly reports, where secrets are allowed, an expression that
// hands over the secrets context whole: toJSON(secrets), secrets.*,
// secrets[<computed>].
func (c *checker) namedSecretsOnly(n *yaml.Node) {
	walkExprs(n, false, func(s *yaml.Node, refs []exprRef) {
		for _, r := range refs {
			if r.isSecret() && r.whole() {
				c.add(s, "secrets", "the secrets context is used whole; name the one secret the input needs (secrets.NAME)")
				return
			}
		}
	})
}

// noToken reports every expression under n that may yield the GitHub token:
// github.token and secrets.GITHUB_TOKEN in any syntax and case, and the
// github or secrets context used whole (toJSON(github)).
func (c *checker) noToken(n *yaml.Node, implicit bool, where string) {
	walkExprs(n, implicit, func(s *yaml.Node, refs []exprRef) {
		for _, r := range refs {
			if r.isToken() {
				c.add(s, "token", "the GitHub token is used %s", where)
				return
			}
		}
	})
}

// CheckAction applies the policy to one composite action; file is its path
// relative to the repository root.
func CheckAction(file string, src []byte) []Finding {
	c := &checker{file: file}
	root := c.load(src)
	if root == nil {
		return c.out
	}
	c.noSecrets(root, false, "in a composite action (pass them as inputs)")
	c.noToken(root, false, "in a composite action (pass it as an input)")

	var secretInputs []string
	for _, in := range mappingPairs(lookup(root, "inputs")) {
		if reSecretName.MatchString(in.key.Value) {
			secretInputs = append(secretInputs, in.key.Value)
		}
	}
	// readsInputs calls fn for every scalar under n with an expression that
	// reads a secret input: by name in any syntax or case, or all of them
	// through inputs used whole (toJSON(inputs)).
	readsInputs := func(n *yaml.Node, implicit bool, fn func(s *yaml.Node, input string)) {
		walkExprs(n, implicit, func(s *yaml.Node, refs []exprRef) {
			for _, name := range secretInputs {
				for _, r := range refs {
					if r.ctx == "inputs" && (r.whole() || r.prop == fold(name)) {
						fn(s, name)
						break
					}
				}
			}
		})
	}
	for _, o := range mappingPairs(lookup(root, "outputs")) {
		readsInputs(o.value, false, func(_ *yaml.Node, name string) {
			c.add(o.key, "secrets", "output %q exposes input %q", o.key.Value, name)
		})
	}
	users := map[string][]*yaml.Node{}
	steps := lookup(lookup(root, "runs"), "steps")
	for _, step := range stepList(steps) {
		c.knownKeys(step, "step", stepKeys)
		if u := lookup(step, "uses"); u != nil {
			c.uses(u)
		}
		if r := lookup(step, "run"); r != nil {
			c.runScript(r)
			if lookup(step, "shell") == nil {
				c.add(r, "shell", "run steps of a composite action need shell:")
			}
			c.unsetEnv(r, lookup(step, "env"))
		}
		for _, kv := range mappingPairs(step) {
			readsInputs(kv.value, kv.key.Value == "if", func(s *yaml.Node, name string) {
				if kv.key.Value != "env" {
					c.add(s, "secrets", "input %q holds a secret: use it only in the env: of the one step that needs it", name)
				} else if u := users[name]; len(u) == 0 || u[len(u)-1] != kv.key {
					users[name] = append(users[name], kv.key)
				}
			})
		}
	}
	for _, name := range secretInputs {
		if n := users[name]; len(n) > 1 {
			c.add(n[1], "secrets", "input %q holds a secret and reaches %d steps; give it to one", name, len(n))
		}
	}
	return c.out
}

// stepList returns the steps of a steps: list, nil for anything else.
func stepList(steps *yaml.Node) []*yaml.Node {
	if steps == nil || steps.Kind != yaml.SequenceNode {
		return nil
	}
	return steps.Content
}

// PinnedRef is one third-party action reference.
type PinnedRef struct {
	// File, Line and Col locate the "uses:" value.
	File      string
	Line, Col int
	// Action is owner/repo[/path], owner and repository in lower case
	// (GitHub compares them without case); Commit the SHA; Version the
	// comment.
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
					Action: actionName(kv.value.Value), Commit: kv.value.Value[at+1:],
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

// lookup returns the value of key in mapping n, or nil.
func lookup(n *yaml.Node, key string) *yaml.Node {
	for _, kv := range mappingPairs(n) {
		if kv.key.Value == key {
			return kv.value
		}
	}
	return nil
}

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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
