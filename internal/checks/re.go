package checks

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/embedeval/embedeval-go/internal/bytesize"
)

// The re module mirrors the common part of Python's re on Go's RE2 engine:
// linear time, so a check cannot hang on a pathological pattern; no
// backreferences or look-around.

// Python's flag values.
const (
	reIgnoreCase = 2
	reMultiline  = 8
	reDotAll     = 16
)

type reMode int

const (
	modeSearch reMode = iota
	modeMatch
	modeFull
)

type reKey struct {
	pattern string
	flags   int
	mode    reMode
}

// regexCache holds compiled patterns for every session of a runtime
// (*regexp.Regexp is safe for concurrent use).
type regexCache struct {
	mu       sync.Mutex
	compiled map[reKey]*regexp.Regexp
}

// maxPattern bounds a pattern: compiling one takes time that grows faster
// than its length, and cannot be interrupted. maxCachedPattern bounds the
// patterns the cache keeps.
const (
	maxPattern       = 64 << 10
	maxCachedPattern = 1 << 10
)

func (r *Runtime) compile(pattern string, flags int, mode reMode) (*regexp.Regexp, error) {
	c := r.regexps
	key := reKey{pattern, flags, mode}
	c.mu.Lock()
	re, ok := c.compiled[key]
	c.mu.Unlock()
	if ok {
		return re, nil
	}
	if flags&^(reIgnoreCase|reMultiline|reDotAll) != 0 {
		return nil, fmt.Errorf("unsupported flags %d (supported: re.I, re.M, re.S)", flags)
	}
	p := strings.ReplaceAll(pattern, `\Z`, `\z`)
	prefix := ""
	if flags&reIgnoreCase != 0 {
		prefix += "i"
	}
	if flags&reMultiline != 0 {
		prefix += "m"
	}
	if flags&reDotAll != 0 {
		prefix += "s"
	}
	switch mode {
	case modeMatch:
		p = `\A(?:` + p + `)`
	case modeFull:
		p = `\A(?:` + p + `)\z`
	}
	if prefix != "" {
		p = "(?" + prefix + ")" + p
	}
	re, err := regexp.Compile(p)
	if err != nil {
		msg := err.Error()
		if strings.Contains(msg, "invalid or unsupported Perl syntax") || strings.Contains(msg, "invalid escape sequence: `\\") ||
			strings.Contains(p, "(?<=") || strings.Contains(p, "(?<!") {
			msg += " (patterns use RE2 syntax: no look-around, no backreferences)"
		}
		return nil, fmt.Errorf("bad pattern %q: %s", pattern, msg)
	}
	if len(pattern) > maxCachedPattern {
		return re, nil
	}
	c.mu.Lock()
	if len(c.compiled) >= 1024 {
		clear(c.compiled)
	}
	c.compiled[key] = re
	c.mu.Unlock()
	return re, nil
}

func reModule() *starlarkstruct.Module {
	m := &starlarkstruct.Module{Name: "re", Members: starlark.StringDict{
		"I": starlark.MakeInt(reIgnoreCase), "IGNORECASE": starlark.MakeInt(reIgnoreCase),
		"M": starlark.MakeInt(reMultiline), "MULTILINE": starlark.MakeInt(reMultiline),
		"S": starlark.MakeInt(reDotAll), "DOTALL": starlark.MakeInt(reDotAll),
		"escape": starlark.NewBuiltin("re.escape", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var s string
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &s); err != nil {
				return nil, err
			}
			if err := stateOf(th).newBytes("string", 2*int64(len(s))); err != nil {
				return nil, err
			}
			return starlark.String(regexp.QuoteMeta(s)), nil
		}),
	}}
	for _, name := range []string{"search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"} {
		m.Members[name] = reFunc(name)
	}
	return m
}

// maxMatchMemory bounds the memory of the match positions one call of the
// regular expression engine returns.
const maxMatchMemory = 64 << 20

func reFunc(name string) *starlark.Builtin {
	return starlark.NewBuiltin("re."+name, polled(func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		st := stateOf(th)
		var pattern, str string
		flags, count, maxsplit := 0, 0, 0
		var repl starlark.Value
		var err error
		switch name {
		case "sub", "subn":
			err = starlark.UnpackArgs(b.Name(), args, kwargs, "pattern", &pattern, "repl", &repl, "string", &str, "count?", &count, "flags?", &flags)
		case "split":
			err = starlark.UnpackArgs(b.Name(), args, kwargs, "pattern", &pattern, "string", &str, "maxsplit?", &maxsplit, "flags?", &flags)
		default:
			err = starlark.UnpackArgs(b.Name(), args, kwargs, "pattern", &pattern, "string", &str, "flags?", &flags)
		}
		if err != nil {
			return nil, err
		}
		if err := checkInput(b.Name(), len(str)); err != nil {
			return nil, err
		}
		if len(pattern) > maxPattern {
			return nil, &limitError{msg: fmt.Sprintf("exceeded the size limit of %s for a pattern (%s got %d bytes)", bytesize.Format(maxPattern), b.Name(), len(pattern))}
		}
		mode := modeSearch
		switch name {
		case "match":
			mode = modeMatch
		case "fullmatch":
			mode = modeFull
		}
		re, err := st.rt.compile(pattern, flags, mode)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), err)
		}
		if name == "search" || name == "match" || name == "fullmatch" {
			var loc []int
			if err := st.await(len(str), func() { loc = re.FindStringSubmatchIndex(str) }); err != nil {
				return nil, err
			}
			if loc == nil {
				return starlark.None, nil
			}
			return newMatch(re, str, loc), nil
		}
		// The engine returns every match at once: ask for one more than
		// may be kept, and refuse more.
		most := min(st.maxElems(), maxMatchMemory/int64(24+16*(re.NumSubexp()+1)))
		ask := most + 1
		switch {
		case name == "split" && maxsplit > 0:
			ask = min(ask, int64(maxsplit))
		case (name == "sub" || name == "subn") && count > 0:
			ask = min(ask, int64(count))
		}
		var all [][]int
		if err := st.await(len(str), func() { all = re.FindAllStringSubmatchIndex(str, int(ask)) }); err != nil {
			return nil, err
		}
		if int64(len(all)) > most {
			return nil, &limitError{msg: fmt.Sprintf("exceeded the size limit of %s per value (more than %d matches)", bytesize.Format(st.maxBytes()), most)}
		}
		switch name {
		case "findall":
			if err := st.newElems("list", int64(len(all))*int64(max(1, re.NumSubexp()))); err != nil {
				return nil, err
			}
			return findall(re, str, all), nil
		case "finditer":
			if err := st.structList(len(all), 0); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(all))
			for i, loc := range all {
				out[i] = newMatch(re, str, loc)
			}
			return starlark.NewList(out), nil
		case "sub", "subn":
			res, n, err := substitute(th, re, repl, str, all)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", b.Name(), err)
			}
			if err := st.newBytes("string", int64(len(res))); err != nil {
				return nil, err
			}
			if name == "subn" {
				return starlark.Tuple{starlark.String(res), starlark.MakeInt(n)}, nil
			}
			return starlark.String(res), nil
		default: // split
			out := split(re, str, all)
			if err := st.newElems("list", int64(out.Len())); err != nil {
				return nil, err
			}
			return out, nil
		}
	}))
}

func findall(re *regexp.Regexp, str string, all [][]int) starlark.Value {
	out := make([]starlark.Value, len(all))
	groups := re.NumSubexp()
	for i, loc := range all {
		switch groups {
		case 0:
			out[i] = starlark.String(str[loc[0]:loc[1]])
		case 1:
			out[i] = starlark.String(groupText(str, loc, 1))
		default:
			t := make(starlark.Tuple, groups)
			for g := 1; g <= groups; g++ {
				t[g-1] = starlark.String(groupText(str, loc, g))
			}
			out[i] = t
		}
	}
	return starlark.NewList(out)
}

// split is re.split given the matches to split at (at most maxsplit).
func split(re *regexp.Regexp, str string, all [][]int) *starlark.List {
	var out []starlark.Value
	last := 0
	for _, loc := range all {
		if loc[1] == loc[0] && loc[0] == last && loc[0] != 0 {
			continue
		}
		out = append(out, starlark.String(str[last:loc[0]]))
		for g := 1; g <= re.NumSubexp(); g++ {
			if loc[2*g] < 0 {
				out = append(out, starlark.None)
			} else {
				out = append(out, starlark.String(str[loc[2*g]:loc[2*g+1]]))
			}
		}
		last = loc[1]
	}
	out = append(out, starlark.String(str[last:]))
	return starlark.NewList(out)
}

func groupText(str string, loc []int, g int) string {
	if 2*g+1 >= len(loc) || loc[2*g] < 0 {
		return ""
	}
	return str[loc[2*g]:loc[2*g+1]]
}

// substitute implements re.sub with Python's replacement syntax (\1, \g<1>,
// \g<name>, \n, \t, \\) or a function of the match, replacing the
// matches all. The result may not grow past the size limit.
func substitute(th *starlark.Thread, re *regexp.Regexp, repl starlark.Value, str string, all [][]int) (string, int, error) {
	st := stateOf(th)
	b := &boundedBuilder{limit: st.maxBytes()}
	last, n := 0, 0
	for _, loc := range all {
		if n%1024 == 1023 {
			if err := st.poll(); err != nil {
				return "", 0, err
			}
		}
		b.WriteString(str[last:loc[0]])
		switch r := repl.(type) {
		case starlark.String:
			if err := expandRepl(b, re, string(r), str, loc); err != nil {
				return "", 0, err
			}
		case starlark.Callable:
			v, err := starlark.Call(th, r, starlark.Tuple{newMatch(re, str, loc)}, nil)
			if err != nil {
				return "", 0, err
			}
			s, ok := starlark.AsString(v)
			if !ok {
				return "", 0, fmt.Errorf("replacement function returned %s, want a string", v.Type())
			}
			b.WriteString(s)
		default:
			return "", 0, fmt.Errorf("repl must be a string or a function, got %s", repl.Type())
		}
		if b.over {
			break
		}
		last = loc[1]
		n++
	}
	b.WriteString(str[last:])
	if b.over {
		return "", 0, st.newBytes("string", b.limit+1) // more than the limit
	}
	return b.String(), n, nil
}

// boundedBuilder is a strings.Builder that stops growing past limit bytes.
type boundedBuilder struct {
	strings.Builder
	limit, wanted int64
	over          bool
}

func (b *boundedBuilder) WriteString(s string) {
	b.wanted += int64(len(s))
	if b.over || b.wanted > b.limit {
		b.over = true
		return
	}
	b.Builder.WriteString(s)
}

func (b *boundedBuilder) WriteByte(c byte) error {
	b.WriteString(string([]byte{c}))
	return nil
}

func expandRepl(b *boundedBuilder, re *regexp.Regexp, repl, str string, loc []int) error {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '\\' || i+1 == len(repl) {
			b.WriteByte(c)
			continue
		}
		i++
		switch d := repl[i]; {
		case d >= '0' && d <= '9':
			j := i
			for j < len(repl) && j < i+2 && repl[j] >= '0' && repl[j] <= '9' {
				j++
			}
			g, _ := strconv.Atoi(repl[i:j])
			if g > re.NumSubexp() {
				return fmt.Errorf("invalid group reference %d", g)
			}
			b.WriteString(groupText(str, loc, g))
			i = j - 1
		case d == 'g':
			end := strings.IndexByte(repl[i:], '>')
			if i+1 >= len(repl) || repl[i+1] != '<' || end < 0 {
				return fmt.Errorf("bad \\g reference in replacement %q", repl)
			}
			ref := repl[i+2 : i+end]
			g, err := strconv.Atoi(ref)
			if err != nil {
				g = re.SubexpIndex(ref)
			}
			if g < 0 || g > re.NumSubexp() {
				return fmt.Errorf("unknown group %q in replacement", ref)
			}
			b.WriteString(groupText(str, loc, g))
			i += end
		case d == 'n':
			b.WriteByte('\n')
		case d == 't':
			b.WriteByte('\t')
		case d == '\\':
			b.WriteByte('\\')
		default:
			b.WriteByte('\\')
			b.WriteByte(d)
		}
	}
	return nil
}

// reMatch is a Python-like match object.
type reMatch struct {
	re  *regexp.Regexp
	str string
	loc []int
}

func newMatch(re *regexp.Regexp, str string, loc []int) *reMatch {
	return &reMatch{re: re, str: str, loc: loc}
}

var _ starlark.HasAttrs = (*reMatch)(nil)

func (m *reMatch) String() string {
	return fmt.Sprintf("<re.Match span=(%d, %d) match=%q>", m.loc[0], m.loc[1], m.str[m.loc[0]:m.loc[1]])
}
func (m *reMatch) Type() string          { return "re.Match" }
func (m *reMatch) Freeze()               {}
func (m *reMatch) Truth() starlark.Bool  { return true }
func (m *reMatch) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: re.Match") }
func (m *reMatch) AttrNames() []string {
	return []string{"end", "group", "groupdict", "groups", "span", "start", "string"}
}

func (m *reMatch) groupIndex(v starlark.Value) (int, error) {
	if s, ok := starlark.AsString(v); ok {
		g := m.re.SubexpIndex(s)
		if g < 0 {
			return 0, fmt.Errorf("no such group %q", s)
		}
		return g, nil
	}
	g, err := starlark.AsInt32(v)
	if err != nil {
		return 0, fmt.Errorf("group must be an int or a name, got %s", v.Type())
	}
	if g < 0 || g > m.re.NumSubexp() {
		return 0, fmt.Errorf("no such group %d", g)
	}
	return g, nil
}

func (m *reMatch) groupValue(g int) starlark.Value {
	if m.loc[2*g] < 0 {
		return starlark.None
	}
	return starlark.String(m.str[m.loc[2*g]:m.loc[2*g+1]])
}

func (m *reMatch) Attr(name string) (starlark.Value, error) {
	method := func(f func(args starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return starlark.NewBuiltin("re.Match."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(kwargs) > 0 {
				return nil, fmt.Errorf("%s: unexpected keyword arguments", b.Name())
			}
			return f(args)
		})
	}
	oneGroup := func(args starlark.Tuple) (int, error) {
		if len(args) == 0 {
			return 0, nil
		}
		if len(args) > 1 {
			return 0, fmt.Errorf("%s: takes at most one group", name)
		}
		return m.groupIndex(args[0])
	}
	switch name {
	case "string":
		return starlark.String(m.str), nil
	case "group":
		return method(func(args starlark.Tuple) (starlark.Value, error) {
			if len(args) <= 1 {
				g, err := oneGroup(args)
				if err != nil {
					return nil, err
				}
				return m.groupValue(g), nil
			}
			t := make(starlark.Tuple, len(args))
			for i, a := range args {
				g, err := m.groupIndex(a)
				if err != nil {
					return nil, err
				}
				t[i] = m.groupValue(g)
			}
			return t, nil
		}), nil
	case "groups":
		return method(func(starlark.Tuple) (starlark.Value, error) {
			t := make(starlark.Tuple, m.re.NumSubexp())
			for g := 1; g <= m.re.NumSubexp(); g++ {
				t[g-1] = m.groupValue(g)
			}
			return t, nil
		}), nil
	case "groupdict":
		return method(func(starlark.Tuple) (starlark.Value, error) {
			d := starlark.NewDict(len(m.re.SubexpNames()))
			for g, n := range m.re.SubexpNames() {
				if n != "" {
					_ = d.SetKey(starlark.String(n), m.groupValue(g))
				}
			}
			return d, nil
		}), nil
	case "start", "end", "span":
		return method(func(args starlark.Tuple) (starlark.Value, error) {
			g, err := oneGroup(args)
			if err != nil {
				return nil, err
			}
			start, end := m.loc[2*g], m.loc[2*g+1]
			switch name {
			case "start":
				return starlark.MakeInt(start), nil
			case "end":
				return starlark.MakeInt(end), nil
			}
			return starlark.Tuple{starlark.MakeInt(start), starlark.MakeInt(end)}, nil
		}), nil
	}
	return nil, nil
}
