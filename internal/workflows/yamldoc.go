package workflows

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxExpandedNodes bounds the nodes alias expansion may create, so that a
// file of nested aliases ("billion laughs") is refused instead of filling
// memory.
const maxExpandedNodes = 1 << 16

// decodeDoc parses src, which must be one YAML document whose root is a
// mapping, and returns the root as written (aliases not expanded).
func decodeDoc(src []byte) (*yaml.Node, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("parsing YAML: %w", err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("parsing YAML: the document is not a mapping")
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, fmt.Errorf("parsing YAML after the first document: %w", err)
		}
		return nil, fmt.Errorf("parsing YAML: line %d starts a second document; a workflow is one document", next.Line)
	}
	return doc.Content[0], nil
}

// parseDoc parses one YAML document and returns its root mapping with every
// alias replaced by a copy of its anchor's value (GitHub reads anchors and
// aliases), positioned at the alias.
func parseDoc(src []byte) (*yaml.Node, error) {
	root, err := decodeDoc(src)
	if err != nil {
		return nil, err
	}
	if err := expandAliases(root); err != nil {
		return nil, err
	}
	return root, nil
}

// expandAliases replaces, in place, every alias under n by a deep copy of
// the value it names. Every node of a copy takes the alias's line and
// column, so a finding inside it points at the place the value is used.
func expandAliases(n *yaml.Node) error {
	budget := maxExpandedNodes
	var walk func(n *yaml.Node) error
	walk = func(n *yaml.Node) error {
		for i, ch := range n.Content {
			if ch.Kind == yaml.AliasNode {
				cp, err := copyAt(ch, ch, &budget)
				if err != nil {
					return err
				}
				n.Content[i] = cp
				continue
			}
			if err := walk(ch); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(n)
}

// copyAt deep-copies n, following aliases, with every node placed at at.
func copyAt(n, at *yaml.Node, budget *int) (*yaml.Node, error) {
	for depth := 0; n.Kind == yaml.AliasNode; depth++ {
		if n.Alias == nil || depth > 64 {
			return nil, fmt.Errorf("line %d: alias *%s names no anchor", at.Line, at.Value)
		}
		n = n.Alias
	}
	*budget--
	if *budget < 0 {
		return nil, fmt.Errorf("line %d: aliases expand to more than %d nodes", at.Line, maxExpandedNodes)
	}
	cp := *n
	cp.Anchor = ""
	cp.Line, cp.Column = at.Line, at.Column
	if at.Kind == yaml.AliasNode {
		cp.HeadComment, cp.LineComment, cp.FootComment = at.HeadComment, at.LineComment, at.FootComment
	}
	cp.Content = make([]*yaml.Node, len(n.Content))
	for i, ch := range n.Content {
		c, err := copyAt(ch, at, budget)
		if err != nil {
			return nil, err
		}
		cp.Content[i] = c
	}
	return &cp, nil
}

// structure reports, in every mapping under n, keys GitHub would not read as
// this package does: a key written twice (the package would see the first,
// GitHub may refuse or take the last), YAML merge keys ("<<", which GitHub
// refuses) and keys that are not strings.
func (c *checker) structure(n *yaml.Node) {
	if n == nil {
		return
	}
	if n.Kind == yaml.MappingNode {
		seen := map[string]*yaml.Node{}
		for _, kv := range mappingPairs(n) {
			switch {
			case kv.key.ShortTag() == "!!merge":
				c.add(kv.key, "keys", "YAML merge keys (<<) are not supported by GitHub Actions; write the keys out")
			case kv.key.Kind != yaml.ScalarNode:
				c.add(kv.key, "keys", "a mapping key that is not a string")
			case seen[kv.key.Value] != nil:
				c.add(kv.key, "keys", "key %q is written twice (first at line %d)", kv.key.Value, seen[kv.key.Value].Line)
			default:
				seen[kv.key.Value] = kv.key
			}
		}
	}
	for _, ch := range n.Content {
		c.structure(ch)
	}
}

// Keys GitHub knows, by place, separated by spaces. Keys are case-sensitive
// to GitHub: "Uses" is not "uses".
const (
	workflowKeys  = "name run-name on permissions env defaults concurrency jobs"
	jobKeys       = "name permissions needs if runs-on snapshot environment concurrency outputs env defaults steps timeout-minutes strategy continue-on-error container services uses with secrets"
	stepKeys      = "id if name uses run working-directory shell with env continue-on-error timeout-minutes"
	containerKeys = "image credentials env ports volumes options"
)

// knownKeys reports the keys of mapping n that are not among keys: GitHub
// refuses them, and a key that differs from a known one only in case
// ("USES") is not read as that key by this package either.
func (c *checker) knownKeys(n *yaml.Node, what, keys string) {
	known := strings.Fields(keys)
	for _, kv := range mappingPairs(n) {
		k := kv.key.Value
		if contains(known, k) {
			continue
		}
		for _, want := range known {
			if strings.EqualFold(k, want) {
				c.add(kv.key, "keys", "%s: key %q is not %q: GitHub keys are case-sensitive, so neither GitHub nor this policy reads it as %q", what, k, want, want)
				k = ""
				break
			}
		}
		if k != "" {
			c.add(kv.key, "keys", "%s: unknown key %q", what, k)
		}
	}
}
