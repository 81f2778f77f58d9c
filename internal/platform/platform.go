// Package platform reads the platform registry (data/platforms.yaml): for
// each kind of case, the backend that builds and runs it, its container
// image, default board and the layers and boards it can run. It resolves a
// case to its target. It does not build anything.
package platform

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/embedeval/embedeval-go/data"
	"github.com/embedeval/embedeval-go/internal/cases"
)

// Target is one registry entry.
type Target struct {
	Name         string            `yaml:"name" json:"name"`
	Match        map[string]string `yaml:"match" json:"match"`
	Backend      string            `yaml:"backend" json:"backend"`
	Image        string            `yaml:"image" json:"image"`
	DefaultBoard string            `yaml:"default_board" json:"default_board"`
	Layers       []string          `yaml:"layers" json:"layers"`
	RunBoards    []string          `yaml:"run_boards" json:"run_boards"`
}

// CanBuild reports whether the target has an L1 at all.
func (t Target) CanBuild() bool { return slices.Contains(t.Layers, "L1") }

// CanRun reports whether L2 can run for board.
func (t Target) CanRun(board string) bool {
	return slices.Contains(t.Layers, "L2") && slices.Contains(t.RunBoards, board)
}

// Board returns the case's build_board, or the target's default.
func (t Target) Board(c *cases.Case) string {
	if c.Meta.BuildBoard != "" {
		return c.Meta.BuildBoard
	}
	return t.DefaultBoard
}

// Registry is the ordered list of targets.
type Registry struct {
	Targets []Target `yaml:"targets"`
}

// matchKeys are the keys a target may match on.
func matchKeys() []string { return []string{"sdk", "platform", "category", "output"} }

// Load decodes a registry strictly; source names the file in errors.
func Load(raw []byte, source string) (*Registry, error) {
	var r Registry
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if len(r.Targets) == 0 {
		return nil, fmt.Errorf("%s: no targets", source)
	}
	names := map[string]bool{}
	for i, t := range r.Targets {
		where := fmt.Sprintf("%s: targets[%d] (%s)", source, i, t.Name)
		switch {
		case t.Name == "":
			return nil, fmt.Errorf("%s: missing name", where)
		case names[t.Name]:
			return nil, fmt.Errorf("%s: duplicate name", where)
		case t.Backend == "":
			return nil, fmt.Errorf("%s: missing backend", where)
		case len(t.Match) == 0:
			return nil, fmt.Errorf("%s: empty match", where)
		}
		names[t.Name] = true
		for k := range t.Match {
			if !slices.Contains(matchKeys(), k) {
				return nil, fmt.Errorf("%s: unknown match key %q (want %s)", where, k, strings.Join(matchKeys(), ", "))
			}
		}
		for _, l := range t.Layers {
			if l != "L1" && l != "L2" {
				return nil, fmt.Errorf("%s: layer %q is not L1 or L2", where, l)
			}
		}
		if len(t.RunBoards) > 0 && !slices.Contains(t.Layers, "L2") {
			return nil, fmt.Errorf("%s: run_boards without L2", where)
		}
	}
	return &r, nil
}

// Default loads the registry shipped in the binary.
func Default() (*Registry, error) { return Load(data.PlatformsYAML(), "data/platforms.yaml") }

// OutputKind names what a case's answer is, from its reference file: c,
// kconfig, devicetree, udev, bitbake or other.
func OutputKind(c *cases.Case) string {
	base := filepath.Base(c.ReferencePath)
	switch ext := filepath.Ext(base); {
	case ext == ".c" || ext == ".h" || ext == ".cpp":
		return "c"
	case ext == ".conf" || base == "Kconfig" || strings.HasPrefix(base, "Kconfig."):
		return "kconfig"
	case ext == ".overlay" || ext == ".dts" || ext == ".dtsi":
		return "devicetree"
	case ext == ".rules":
		return "udev"
	case ext == ".bb" || ext == ".bbappend" || ext == ".bbclass":
		return "bitbake"
	}
	return "other"
}

// Resolve returns the first target whose match fits the case.
func (r *Registry) Resolve(c *cases.Case) (Target, bool) {
	facts := map[string]string{
		"sdk": c.Meta.SDK, "platform": c.Meta.Platform, "category": c.Meta.Category, "output": OutputKind(c),
	}
	for _, t := range r.Targets {
		ok := true
		for k, v := range t.Match {
			if facts[k] != v {
				ok = false
				break
			}
		}
		if ok {
			return t, true
		}
	}
	return Target{}, false
}
