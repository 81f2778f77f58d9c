package devicetree

import (
	"errors"
	"sort"
	"strings"
)

// LabelNames returns every label, sorted.
func (t *Tree) LabelNames() []string {
	var out []string
	for l := range t.Labels() {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// Child returns the first child whose name (with or without unit address)
// is name.
func (n *Node) Child(name string) (*Node, bool) {
	for _, c := range n.Children {
		full := c.Name
		if c.UnitAddress != "" {
			full += "@" + c.UnitAddress
		}
		if full == name || (!strings.Contains(name, "@") && c.Name == name) {
			return c, true
		}
	}
	return nil, false
}

// ErrorPosition returns the line and column of a Parse error, if it is one.
func ErrorPosition(err error) (line, col int, ok bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Line, e.Col, true
	}
	return 0, 0, false
}
