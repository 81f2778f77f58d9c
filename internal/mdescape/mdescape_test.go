package mdescape

import (
	"html"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func TestTextKeepsOrdinaryValues(t *testing.T) {
	for _, s := range []string{
		"", "uses_k_msleep", "gpio-basic-001", "claude-3.5/sonnet", "claude-code://sonnet", "openai:gpt-4o-mini",
		"claude-3-5-sonnet@20240620", "87.5%", "12", "-", "—", "[35.0, 47.6]", "new check → 50.0%",
		"gpio-basic-001 [bugfix wrong_pin]", "isr-concurrency", "L0 L1 L2 L3 L4", "Periodic timer", "a - b", "1.5",
		"dma, gpio (+3 more)", "wrong_pin/uses_k_msleep", "R & D", "x = 1; y != 2?", "Ünïcödé_naïve", "über_größe",
		"warning: 2 results for 1 cases that are not in the case metadata (removed or renamed?) were excluded from every score: a-001",
	} {
		require.Equal(t, s, Text(s), "%q must not change", s)
	}
}

func TestTextHostile(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"},
		{"<!-- hide the rest", "&lt;!-- hide the rest"},
		{"-->", "--&gt;"},
		{"@octocat", "@&#8203;octocat"},
		{"cc @octo/team and @me", "cc @&#8203;octo/team and @&#8203;me"},
		{"(@x)", "(@&#8203;x)"},
		{"user@example", "user@example"},
		{"_@x", `\_@x`},
		{"a|b", `a\|b`},
		{`a\|b`, `a\\\|b`},
		{"line1\nline2\r\n", "line1 line2  "},
		{"tab\there", "tab here"},
		{"\u2028sep\u2029", " sep "},
		{"evil\u202Etxt.exe", "evil txt.exe"},
		{"nul\x00del\x7fc1\u0085", "nul del c1 "},
		{"[x](javascript:alert(1))", `\[x\](javascript:alert(1))`},
		{"![img](http://e/x.png)", `![img\](http://e/x.png)`},
		{"see [a][b]", `see [a\][b]`},
		{"[ref]: http://evil", `[ref\]: http://evil`},
		{"[ ] task", `\[ ] task`},
		{"[x] done", `\[x] done`},
		{"  [x]: y", `  \[x\]: y`},
		{"[^1]: note", `[^1\]: note`},
		{"`code`", "\\`code\\`"},
		{"```", "\\`\\`\\`"},
		{"*bold* and **strong**", `\*bold\* and \*\*strong\*\*`},
		{"_em_", `\_em\_`},
		{"__init__", `\_\_init\_\_`},
		{"a__b", "a__b"},
		{"snake_", `snake\_`},
		{"~~strike~~", `\~\~strike\~\~`},
		{"$x^2$", "&#36;x^2&#36;"},
		{"&lt;script&gt;", "&amp;lt;script&amp;gt;"},
		{"&#60;b&#62;", "&amp;#&#8203;60;b&amp;#&#8203;62;"},
		{"a & b", "a & b"},
		{"fixes #123", "fixes #&#8203;123"},
		{"octo/repo#7", "octo/repo#&#8203;7"},
		{"GH-42", "GH-&#8203;42"},
		{"see gh-1", "see gh-&#8203;1"},
		{"ugh-1", "ugh-1"},
		{"# Heading", `\# Heading`},
		{"### h", `\### h`},
		{"name #", `name \#`},
		{"C#", `C\#`},
		{"> quote", "&gt; quote"},
		{"- item", `\- item`},
		{"+ item", `\+ item`},
		{"---", `\---`},
		{"- - -", `\- - -`},
		{"1. first", `1\. first`},
		{"12) first", `12\) first`},
		{"1.", `1\.`},
		{`back\slash`, `back\\slash`},
		{"bad\xffutf8", "bad\uFFFDutf8"},
	} {
		got := Text(tc.in)
		require.Equal(t, tc.want, got, "Text(%q)", tc.in)
		checkText(t, tc.in, got)
	}
}

func TestCode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"uses_k_msleep", "`uses_k_msleep`"},
		{"gpio-basic-001", "`gpio-basic-001`"},
		{"<img src=x>", "`<img src=x>`"},
		{"@octocat #1 *x* [a](b)", "`@octocat #1 *x* [a](b)`"},
		{"sha256:0123abcd", "`sha256:0123abcd`"},
		{"", ""},
		{"a`b", "a\\`b"},
		{"a|b", `a\|b`},
		{`a\b`, `a\\b`},
		{"a\nb", "a b"},
		{" lead", " lead"},
		{"<x>|", `&lt;x&gt;\|`},
	} {
		require.Equal(t, tc.want, Code(tc.in), "Code(%q)", tc.in)
	}
}

func TestURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://github.com/octo/bench/actions/runs/1", "https://github.com/octo/bench/actions/runs/1"},
		{"https://github.com/o/r/blob/results/r1/results/heatmap.svg?raw=true", "https://github.com/o/r/blob/results/r1/results/heatmap.svg?raw=true"},
		{"http://example.test/a(b)c", "http://example.test/a%28b%29c"},
		{"https://e.test/x) [y](z", "https://e.test/x%29%20%5By%5D%28z"},
		{"https://e.test/<script>", "https://e.test/%3Cscript%3E"},
		{"javascript:alert(1)", ""},
		{"data:text/html,<b>", ""},
		{"/tmp/results/heatmap.svg", "/tmp/results/heatmap.svg"},
		{"heatmap.svg", "heatmap.svg"},
		{"dir with space/a(1).svg", "dir%20with%20space/a%281%29.svg"},
		{"//evil.test/x", ""},
		{"", ""},
		{"mailto:a@b.test", ""},
		{"https://user:pw@e.test/", ""},
		{"https:///nohost", ""},
		{"%zz", ""},
	} {
		require.Equal(t, tc.want, URL(tc.in), "URL(%q)", tc.in)
	}
}

func TestUnescapeInvertsText(t *testing.T) {
	for _, s := range []string{
		"a|b\\c", "<img src=x onerror=alert(1)>", "@octocat", "#12", "GH-1", "[x](javascript:alert(1))", "&amp;", "&#8203;",
		"_em_", "# h", "- i", "1. x", "$5", "`", "~", "*", "\u200b@x", "plain",
	} {
		require.Equal(t, s, Unescape(Text(s)), "round trip of %q", s)
	}
	require.Equal(t, "a & b", Unescape("a & b"))
	require.Equal(t, `\q`, Unescape(`\q`), "a backslash before a non-punctuation character stays")
}

// checkText asserts the invariants of Text's output out for input in.
func checkText(t *testing.T, in, out string) {
	t.Helper()
	require.True(t, utf8.ValidString(out), "invalid UTF-8 in %q", out)
	require.False(t, strings.ContainsAny(out, "<>$\n\r"), "raw <, >, $ or line break in %q", out)
	for _, r := range out {
		require.False(t, isControl(r), "control character %U in %q", r, out)
	}
	// Walk the output as Markdown does: a backslash escapes the next byte.
	raw := []byte{} // the unescaped (active) bytes, with their positions
	pos := []int{}
	for i := 0; i < len(out); i++ {
		if e := entityAt(out[i:]); e != "" {
			i += len(e) - 1
			continue
		}
		if out[i] == '\\' {
			require.Less(t, i+1, len(out), "trailing backslash in %q", out)
			require.True(t, isASCIIPunct(out[i+1]), "backslash before %q in %q", out[i+1], out)
			i++
			continue
		}
		raw = append(raw, out[i])
		pos = append(pos, i)
	}
	for k, c := range raw {
		i := pos[k]
		next := byte(0)
		if i+1 < len(out) {
			next = out[i+1]
		}
		switch c {
		case '|', '`', '*', '~':
			t.Fatalf("unescaped %q at %d in %q", c, i, out)
		case '_':
			require.True(t, isAlnum(lastRune(strings.TrimRight(out[:i], "_"))) && isAlnum(firstRune(strings.TrimLeft(out[i:], "_"))),
				"unescaped '_' outside a word at %d in %q", i, out)
		case '&':
			require.True(t, !isASCIILetter(rune(next)) && next != '#', "'&' that is not one of Text's entities at %d in %q", i, out)
		case '@':
			require.False(t, isASCIIAlnum(rune(next)) && (i == 0 || !isWord(rune(out[i-1]))), "mention at %d in %q", i, out)
		case '#':
			require.False(t, isDigit(rune(next)), "issue reference at %d in %q", i, out)
			require.NotEqual(t, strings.TrimLeft(out, " \t"), out[i:], "unescaped '#' at the start of %q", out)
		case ']':
			require.NotContains(t, "([:", string(next), "']' that could close a link at %d in %q", i, out)
		case '[':
			if u := Unescape(out[i:]); strings.TrimLeft(out, " \t") == out[i:] && len(u) >= 3 {
				require.False(t, strings.IndexByte(" xX", u[1]) >= 0 && u[2] == ']', "task-list box at the start of %q", out)
			}
		}
	}
	lower := strings.ToLower(out)
	for i := strings.Index(lower, "gh-"); i >= 0; {
		if i+3 < len(lower) {
			require.False(t, isDigit(rune(lower[i+3])) && (i == 0 || !isWord(rune(lower[i-1]))), "GH- reference at %d in %q", i, out)
		}
		j := strings.Index(lower[i+1:], "gh-")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if !strings.ContainsFunc(in, isControl) && utf8.ValidString(in) {
		require.Equal(t, in, Unescape(out), "Unescape(Text(%q))", in)
	}
}

// entityAt returns the entity of Text's that s starts with, or "".
func entityAt(s string) string {
	for _, e := range []string{entAmp, entLt, entGt, entDollar, breaker} {
		if strings.HasPrefix(s, e) {
			return e
		}
	}
	return ""
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	if s == "" {
		return 0
	}
	return r
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	if s == "" {
		return 0
	}
	return r
}

func FuzzText(f *testing.F) {
	for _, s := range []string{
		"", "uses_k_msleep", "<img src=x onerror=alert(1)>", "@octocat", "<!--", "a|b", "x\ny", "[x](javascript:alert(1))",
		"`", "#123", "GH-9", "_a_", "__x__", "1. a", "- a", "---", "&lt;", "$x$", "\\|", "\u202e", "\xff", "a@b", "[ ] t",
		"## h #", "@_x", "~~s~~", "**b**", "a__b_", "é_@x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Text(in)
		checkText(t, in, out)
		code := Code(in)
		require.NotContains(t, code, "\n")
		if strings.HasPrefix(code, "`") && code != Text(in) {
			inner := code[1 : len(code)-1]
			require.Equal(t, "`"+inner+"`", code)
			require.False(t, strings.ContainsAny(inner, "`|\\"), "unsafe code span %q", code)
		}
	})
}

func TestHTML(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"pass@1 by model and category", "pass@1 by model and category"},
		{"48 rows: 2 ▲ and 1 ▼ beyond noise", "48 rows: 2 ▲ and 1 ▼ beyond noise"},
		{"uses_k_msleep *x* `y` [a](b) a|b", "uses_k_msleep *x* `y` [a](b) a|b"},
		{"</summary><script>alert(1)</script>", "&lt;/summary&gt;&lt;script&gt;alert(1)&lt;/script&gt;"},
		{`x" onmouseover="alert(1)`, "x&quot; onmouseover=&quot;alert(1)"},
		{"it's", "it&#39;s"},
		{"R & D &amp;", "R &amp; D &amp;amp;"},
		{"<!-- hide", "&lt;!-- hide"},
		{"@octocat and (@me)", "@&#8203;octocat and (@&#8203;me)"},
		{"user@example", "user@example"},
		{"fixes #12, GH-3, gh-4", "fixes #&#8203;12, GH-&#8203;3, gh-&#8203;4"},
		{"ugh-1", "ugh-1"},
		{"$x$", "&#36;x&#36;"},
		{"[x](javascript:alert(1))", "[x](javascript:alert(1))"},
		{"line1\n\nline2\r", "line1  line2 "},
		{"evil\u202Etxt", "evil txt"},
		{"bad\xffutf8", "bad\uFFFDutf8"},
	} {
		got := HTML(tc.in)
		require.Equal(t, tc.want, got, "HTML(%q)", tc.in)
		checkHTML(t, got)
	}
}

// checkHTML asserts the invariants of HTML's output out.
func checkHTML(t *testing.T, out string) {
	t.Helper()
	require.True(t, utf8.ValidString(out), "invalid UTF-8 in %q", out)
	require.False(t, strings.ContainsAny(out, "<>\"'$\n\r"), "raw markup character in %q", out)
	for _, r := range out {
		require.False(t, isControl(r), "control character %U in %q", r, out)
	}
	for i := 0; i < len(out); i++ {
		if out[i] != '&' {
			continue
		}
		ok := false
		for _, e := range []string{entAmp, entLt, entGt, entDollar, entQuot, entApos, breaker} {
			ok = ok || strings.HasPrefix(out[i:], e)
		}
		require.True(t, ok, "'&' that is not one of HTML's entities at %d in %q", i, out)
	}
	// GitHub finds mentions and references in the decoded text.
	rs := []rune(html.UnescapeString(out))
	for i := range rs {
		require.False(t, breakAfter(rs, i), "mention or reference at rune %d in %q", i, out)
	}
}

func TestPlain(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"claude-3.5/sonnet@20240620", "claude-3.5/sonnet@20240620"},
		{"<script>alert(1)</script> & co", "<script>alert(1)</script> & co"},
		{"a\nb\tc\x00d\x7f", "a b c d "},
		{"evil\u202Etxt\u2028", "evil txt "},
		{"bad\xffutf8", "bad\uFFFDutf8"},
		{"nonchar\uFFFE\uFFFF", "nonchar\uFFFD\uFFFD"},
		{"Ünïcödé ▲", "Ünïcödé ▲"},
	} {
		require.Equal(t, tc.want, Plain(tc.in), "Plain(%q)", tc.in)
	}
}

// TestHostileEveryContext feeds the same hostile values to every escaper
// and checks each one's promise for its context.
func TestHostileEveryContext(t *testing.T) {
	for _, in := range []string{
		"a|b||c", "`x` ``y``", "line1\nline2\r\n\n", "<script>alert('x')</script>", "</summary></details>",
		"@octocat", "cc @org/team", "#1 GH-2", "[click](javascript:alert(1))", "![i](javascript:x)", "a](javascript:alert(1))",
		"&lt;b&gt; &#60;", "$\\sum$", "\u202Egnp.exe", "\xff\xfe", "- [ ] task", "# title", "x\" onload=\"y",
	} {
		checkText(t, in, Text(in))
		checkHTML(t, HTML(in))
		code := Code(in)
		require.NotContains(t, code, "\n")
		if strings.HasPrefix(code, "`") && strings.HasSuffix(code, "`") && len(code) > 1 && code != Text(in) {
			require.False(t, strings.ContainsAny(code[1:len(code)-1], "`|\\"), "unsafe code span %q", code)
		}
		p := Plain(in)
		require.True(t, utf8.ValidString(p))
		require.False(t, strings.ContainsFunc(p, notPlain), "Plain(%q) = %q", in, p)
		require.NotContains(t, URL(in), "javascript")
	}
}

func FuzzHTML(f *testing.F) {
	for _, s := range []string{"", "<x>", "@a", "#1", "GH-1", "a\nb", "\xff", "&amp;", `"'`, "\uFFFE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkHTML(t, HTML(in))
		p := Plain(in)
		require.True(t, utf8.ValidString(p))
		require.False(t, strings.ContainsFunc(p, notPlain))
	})
}
