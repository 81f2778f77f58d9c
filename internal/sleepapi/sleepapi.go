// Package sleepapi loads the vocabulary of calls that wait
// (data/sleep_apis.yaml): sleeps such as k_msleep, vTaskDelay or nanosleep,
// and busy-waits such as k_busy_wait or udelay, with the units of their
// arguments. It owns the file's schema and validation, and reads the wait a
// call's arguments state (Vocabulary.Wait); finding the calls is csyntax's.
package sleepapi

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/embedeval/embedeval-go/data"
)

// Classes of API.
const (
	ClassSleep    = "sleep"
	ClassBusyWait = "busy_wait"
)

// Kinds of wait.
const (
	Relative = "relative"
	Absolute = "absolute"
	Forever  = "forever"
)

// Clock is a tick clock.
type Clock struct {
	Name string
	// Rate is the macro giving ticks per second.
	Rate string
	// PeriodMS are macros worth 1000 / Rate.
	PeriodMS []string
	// Forever are tick counts that mean no timeout.
	Forever []string
	Source  string
}

// Converter is a function-like macro turning a time into ticks of Clock.
type Converter struct {
	Name, Unit, Clock, Source string
}

// Timeout is a Zephyr k_timeout_t constructor.
type Timeout struct {
	Name string
	// Unit is the unit of a function-like constructor's argument.
	Unit string
	// Clock is the clock of Unit "ticks".
	Clock string
	// Kind is Relative, Absolute (the argument is a point in time) or
	// Forever.
	Kind string
	// MS is the fixed duration of an object-like constructor.
	MS *int64
	// Source says where it is documented.
	Source string
}

// API is one call of the vocabulary.
type API struct {
	Name string
	// Class is ClassSleep or ClassBusyWait.
	Class string
	// Kind is Relative or Absolute for sleeps, "" for busy-waits.
	Kind string
	// Unit is that of argument Arg: s, ms, us, ns, ticks, timeout,
	// timespec or deadline.
	Unit string
	// Clock is the clock of Unit "ticks".
	Clock string
	// Arg is the index of the duration argument.
	Arg int
	// AbsoluteFlag makes the call absolute when argument FlagsArg names it.
	AbsoluteFlag string
	FlagsArg     int
	// Source says where the signature and unit are documented.
	Source string
	// Line is the entry's line in the file.
	Line int
}

// Vocabulary is a loaded sleep_apis.yaml.
type Vocabulary struct {
	apis       []API
	byName     map[string]int
	clocks     map[string]Clock
	converters map[string]Converter
	timeouts   map[string]Timeout
	// names are every name the vocabulary gives a meaning to, which the
	// code's macros of the same name do not override.
	names map[string]bool
}

// APIs returns the calls in file order.
func (v *Vocabulary) APIs() []API { return slices.Clone(v.apis) }

// API returns the call named name.
func (v *Vocabulary) API(name string) (API, bool) {
	i, ok := v.byName[name]
	if !ok {
		return API{}, false
	}
	return v.apis[i], true
}

// Default loads the vocabulary embedded in the binary.
func Default() (*Vocabulary, error) {
	v, err := Load(data.SleepAPIsYAML(), "data/sleep_apis.yaml")
	if err != nil {
		return nil, fmt.Errorf("embedded sleep API table: %w", err)
	}
	return v, nil
}

// Load decodes and validates sleep_apis.yaml. source names the file in
// errors, which read "source:line: message". The document is a mapping with
// the keys clocks, converters, timeouts and apis (see the file's header for
// their fields); names are C identifiers, unique within their list (and API
// names across the file), every entry has a source, units and kinds come
// from fixed sets, and clocks named by other entries exist.
func Load(b []byte, source string) (*Vocabulary, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: empty document, want a mapping with keys clocks, converters, timeouts and apis", source)
	}
	l := &loader{source: source}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, l.at(root, "want a mapping with keys clocks, converters, timeouts and apis")
	}
	sections := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		switch k.Value {
		case "clocks", "converters", "timeouts", "apis":
		default:
			return nil, l.at(k, "unknown top-level key %q (want clocks, converters, timeouts, apis)", k.Value)
		}
		if sections[k.Value] != nil {
			return nil, l.at(k, "duplicate top-level key %s", k.Value)
		}
		if v := root.Content[i+1]; v.Kind != yaml.SequenceNode {
			return nil, l.at(v, "%s: want a list of mappings", k.Value)
		}
		sections[k.Value] = root.Content[i+1]
	}
	for _, s := range []string{"clocks", "converters", "timeouts", "apis"} {
		if sections[s] == nil {
			return nil, l.at(root, "missing top-level key %s", s)
		}
	}
	v := &Vocabulary{byName: map[string]int{}, clocks: map[string]Clock{}, converters: map[string]Converter{},
		timeouts: map[string]Timeout{}, names: map[string]bool{}}
	if err := l.clocks(sections["clocks"], v); err != nil {
		return nil, err
	}
	if err := l.converters(sections["converters"], v); err != nil {
		return nil, err
	}
	if err := l.timeouts(sections["timeouts"], v); err != nil {
		return nil, err
	}
	if err := l.apis(sections["apis"], v); err != nil {
		return nil, err
	}
	return v, nil
}

// loader decodes the entries of one file.
type loader struct{ source string }

func (l *loader) at(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", l.source, n.Line, fmt.Sprintf(format, args...))
}

// fields reads the mapping e of list[i] into a map from key to value node,
// allowing only the keys of allowed.
func (l *loader) fields(list string, i int, e *yaml.Node, allowed ...string) (map[string]*yaml.Node, error) {
	if e.Kind != yaml.MappingNode {
		return nil, l.at(e, "%s[%d]: want a mapping", list, i)
	}
	out := map[string]*yaml.Node{}
	for j := 0; j+1 < len(e.Content); j += 2 {
		k, val := e.Content[j], e.Content[j+1]
		if !slices.Contains(allowed, k.Value) {
			return nil, l.at(k, "%s[%d]: unknown key %q (allowed: %s)", list, i, k.Value, strings.Join(allowed, ", "))
		}
		if out[k.Value] != nil {
			return nil, l.at(k, "%s[%d]: duplicate key %s", list, i, k.Value)
		}
		out[k.Value] = val
	}
	return out, nil
}

// str returns field key of fs as a trimmed string ("" when absent).
func (l *loader) str(list string, i int, fs map[string]*yaml.Node, key string) (string, error) {
	n := fs[key]
	if n == nil {
		return "", nil
	}
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!str" && n.Tag != "") {
		return "", l.at(n, "%s[%d]: %s must be a string", list, i, key)
	}
	return strings.TrimSpace(n.Value), nil
}

// integer returns field key of fs as a non-negative int; ok is false when
// absent.
func (l *loader) integer(list string, i int, fs map[string]*yaml.Node, key string) (int64, bool, error) {
	n := fs[key]
	if n == nil {
		return 0, false, nil
	}
	var x int64
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&x) != nil || x < 0 {
		return 0, false, l.at(n, "%s[%d]: %s must be a non-negative integer", list, i, key)
	}
	return x, true, nil
}

// names returns field key of fs, a list of C identifiers.
func (l *loader) names(list string, i int, fs map[string]*yaml.Node, key string) ([]string, error) {
	n := fs[key]
	if n == nil {
		return nil, nil
	}
	var out []string
	if n.Kind != yaml.SequenceNode || n.Decode(&out) != nil {
		return nil, l.at(n, "%s[%d]: %s must be a list of names", list, i, key)
	}
	for _, s := range out {
		if !isIdentifier(s) {
			return nil, l.at(n, "%s[%d]: %s: %q is not a C identifier", list, i, key, s)
		}
	}
	return out, nil
}

// common reads the name and source every entry has, and checks that name
// is a C identifier not used before in seen.
func (l *loader) common(list string, i int, e *yaml.Node, fs map[string]*yaml.Node, seen map[string]int) (name, source string, err error) {
	if name, err = l.str(list, i, fs, "name"); err != nil {
		return "", "", err
	}
	if source, err = l.str(list, i, fs, "source"); err != nil {
		return "", "", err
	}
	switch {
	case !isIdentifier(name):
		return "", "", l.at(e, "%s[%d]: name %q is not a C identifier", list, i, name)
	case source == "":
		return "", "", l.at(e, "%s[%d]: %s has no source", list, i, name)
	}
	if line, dup := seen[name]; dup {
		return "", "", l.at(e, "%s[%d]: duplicate name %q (first at line %d)", list, i, name, line)
	}
	seen[name] = e.Line
	return name, source, nil
}

// oneOf checks that field key of fs, value s, is one of allowed.
func (l *loader) oneOf(list string, i int, fs map[string]*yaml.Node, key, s string, allowed ...string) error {
	if !slices.Contains(allowed, s) {
		return l.at(fs[key], "%s[%d]: %s %q is not one of %s", list, i, key, s, strings.Join(allowed, ", "))
	}
	return nil
}

// clockRef checks that an entry of unit ticks names a known clock, and that
// no other entry names one.
func (l *loader) clockRef(list string, i int, e *yaml.Node, unit, clock string, v *Vocabulary) error {
	if unit != "ticks" {
		if clock != "" {
			return l.at(e, "%s[%d]: clock is only for unit ticks", list, i)
		}
		return nil
	}
	if _, ok := v.clocks[clock]; !ok {
		return l.at(e, "%s[%d]: unit ticks needs the clock of a clocks entry, got %q", list, i, clock)
	}
	return nil
}

func (l *loader) clocks(list *yaml.Node, v *Vocabulary) error {
	seen := map[string]int{}
	for i, e := range list.Content {
		fs, err := l.fields("clocks", i, e, "name", "rate", "period_ms", "forever", "source")
		if err != nil {
			return err
		}
		c := Clock{}
		if c.Name, c.Source, err = l.common("clocks", i, e, fs, seen); err != nil {
			return err
		}
		if c.Rate, err = l.str("clocks", i, fs, "rate"); err != nil {
			return err
		}
		if !isIdentifier(c.Rate) {
			return l.at(e, "%s[%d]: rate %q is not a C identifier", "clocks", i, c.Rate)
		}
		if c.PeriodMS, err = l.names("clocks", i, fs, "period_ms"); err != nil {
			return err
		}
		if c.Forever, err = l.names("clocks", i, fs, "forever"); err != nil {
			return err
		}
		v.clocks[c.Name] = c
		for _, n := range append(slices.Clone(c.Forever), c.PeriodMS...) {
			v.names[n] = true
		}
	}
	return nil
}

func (l *loader) converters(list *yaml.Node, v *Vocabulary) error {
	seen := map[string]int{}
	for i, e := range list.Content {
		fs, err := l.fields("converters", i, e, "name", "unit", "clock", "source")
		if err != nil {
			return err
		}
		c := Converter{}
		if c.Name, c.Source, err = l.common("converters", i, e, fs, seen); err != nil {
			return err
		}
		if c.Unit, err = l.str("converters", i, fs, "unit"); err != nil {
			return err
		}
		if err := l.oneOf("converters", i, fs, "unit", c.Unit, "s", "ms", "us", "ns"); err != nil {
			return err
		}
		if c.Clock, err = l.str("converters", i, fs, "clock"); err != nil {
			return err
		}
		if err := l.clockRef("converters", i, e, "ticks", c.Clock, v); err != nil {
			return err
		}
		v.converters[c.Name] = c
		v.names[c.Name] = true
	}
	return nil
}

func (l *loader) timeouts(list *yaml.Node, v *Vocabulary) error {
	seen := map[string]int{}
	for i, e := range list.Content {
		fs, err := l.fields("timeouts", i, e, "name", "unit", "clock", "kind", "ms", "source")
		if err != nil {
			return err
		}
		t := Timeout{}
		if t.Name, t.Source, err = l.common("timeouts", i, e, fs, seen); err != nil {
			return err
		}
		if t.Unit, err = l.str("timeouts", i, fs, "unit"); err != nil {
			return err
		}
		if t.Clock, err = l.str("timeouts", i, fs, "clock"); err != nil {
			return err
		}
		if t.Kind, err = l.str("timeouts", i, fs, "kind"); err != nil {
			return err
		}
		if t.Kind == "" {
			t.Kind = Relative
		}
		if err := l.oneOf("timeouts", i, fs, "kind", t.Kind, Relative, Absolute, Forever); err != nil {
			return err
		}
		ms, hasMS, err := l.integer("timeouts", i, fs, "ms")
		if err != nil {
			return err
		}
		switch {
		case hasMS && (t.Unit != "" || t.Kind != Relative):
			return l.at(e, "timeouts[%d]: ms is for an object-like relative timeout, without unit", i)
		case hasMS:
			t.MS = &ms
		case t.Kind == Forever && t.Unit != "":
			return l.at(e, "timeouts[%d]: a forever timeout has no unit", i)
		case t.Kind != Forever:
			if err := l.oneOf("timeouts", i, fs, "unit", t.Unit, "h", "min", "s", "ms", "us", "ns", "ticks"); err != nil {
				return err
			}
		}
		if err := l.clockRef("timeouts", i, e, t.Unit, t.Clock, v); err != nil {
			return err
		}
		v.timeouts[t.Name] = t
		v.names[t.Name] = true
	}
	return nil
}

func (l *loader) apis(list *yaml.Node, v *Vocabulary) error {
	seen := map[string]int{}
	for i, e := range list.Content {
		fs, err := l.fields("apis", i, e, "name", "class", "kind", "unit", "clock", "arg", "absolute_flag", "flags_arg", "source")
		if err != nil {
			return err
		}
		a := API{Line: e.Line}
		if a.Name, a.Source, err = l.common("apis", i, e, fs, seen); err != nil {
			return err
		}
		for key, dst := range map[string]*string{"class": &a.Class, "kind": &a.Kind, "unit": &a.Unit, "clock": &a.Clock, "absolute_flag": &a.AbsoluteFlag} {
			if *dst, err = l.str("apis", i, fs, key); err != nil {
				return err
			}
		}
		if err := l.oneOf("apis", i, fs, "class", a.Class, ClassSleep, ClassBusyWait); err != nil {
			return err
		}
		switch {
		case a.Class == ClassSleep:
			if err := l.oneOf("apis", i, fs, "kind", a.Kind, Relative, Absolute); err != nil {
				return err
			}
			if err := l.oneOf("apis", i, fs, "unit", a.Unit, "s", "ms", "us", "ns", "ticks", "timeout", "timespec", "deadline"); err != nil {
				return err
			}
		case a.Kind != "":
			return l.at(e, "apis[%d]: a busy_wait has no kind", i)
		default:
			if err := l.oneOf("apis", i, fs, "unit", a.Unit, "s", "ms", "us", "ns"); err != nil {
				return err
			}
		}
		if err := l.clockRef("apis", i, e, a.Unit, a.Clock, v); err != nil {
			return err
		}
		arg, ok, err := l.integer("apis", i, fs, "arg")
		if err != nil {
			return err
		}
		if !ok {
			return l.at(e, "apis[%d]: %s has no arg", i, a.Name)
		}
		a.Arg = int(arg)
		flags, hasFlags, err := l.integer("apis", i, fs, "flags_arg")
		if err != nil {
			return err
		}
		if hasFlags != (a.AbsoluteFlag != "") || (hasFlags && !isIdentifier(a.AbsoluteFlag)) {
			return l.at(e, "apis[%d]: absolute_flag (a C identifier) and flags_arg go together", i)
		}
		a.FlagsArg = int(flags)
		if v.names[a.Name] {
			return l.at(e, "apis[%d]: %s is already a clock macro, converter or timeout", i, a.Name)
		}
		v.byName[a.Name] = len(v.apis)
		v.apis = append(v.apis, a)
	}
	return nil
}

func isIdentifier(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
