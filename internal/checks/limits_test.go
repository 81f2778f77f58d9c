package checks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.starlark.net/starlark"

	"github.com/embedeval/embedeval-go/internal/result"
)

// bounded runs a check body on code and fails the test, instead of hanging,
// if the call has not returned after a generous 30 seconds.
func bounded(t *testing.T, rt *Runtime, s *Session, body, code string) ([]result.CheckDetail, error) {
	t.Helper()
	m, err := rt.LoadChecks(context.Background(), "t.star", []byte("def run_checks(code):\n"+body+"\n    return [CheckDetail(check_name = \"done\", passed = True)]\n"))
	if err != nil {
		return nil, err
	}
	type outcome struct {
		ds  []result.CheckDetail
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		ds, err := m.Run(context.Background(), s, code)
		done <- outcome{ds, err}
	}()
	select {
	case out := <-done:
		return out.ds, out.err
	case <-time.After(30 * time.Second):
		t.Fatal("the check call did not return within 30s")
		return nil, nil
	}
}

// indent turns lines into a function body.
func indent(lines ...string) string {
	return "    " + strings.Join(lines, "\n    ")
}

func TestHostileChecksEndWithALimitError(t *testing.T) {
	const size = "exceeded the size limit of 64 MiB per value"
	tests := []struct {
		name string
		body string
		want string
	}{
		{"string multiplication", indent(`x = "x" * (1 << 30)`),
			`t.star:2:13: ` + size + ` (the result would be a string of 1073741824 bytes) [check-runtime]`},
		{"list multiplication", indent(`x = [0] * (1 << 29)`),
			`t.star:2:13: ` + size + ` (the result would be a list of 536870912 elements, at most 4194304 fit) [check-runtime]`},
		{"string doubling", indent(`s = "ab"`, `for i in range(40):`, `    s = s + s`),
			`t.star:4:15: ` + size + ` (the result would be a string of 134217728 bytes) [check-runtime]`},
		{"augmented string doubling", indent(`s = "ab"`, `for i in range(40):`, `    s += s`),
			`t.star:4:11: ` + size + ` (the result would be a string of 134217728 bytes) [check-runtime]`},
		{"list doubling in place", indent(`l = [0]`, `for i in range(40):`, `    l += l`),
			`t.star:4:11: ` + size + ` (the result would be a list of 8388608 elements, at most 4194304 fit) [check-runtime]`},
		{"extend doubling", indent(`l = [0]`, `for i in range(40):`, `    l.extend(l)`),
			`t.star:4:17: ` + size + ` (the result would be a list of 8388608 elements, at most 4194304 fit) (in extend) [check-runtime]`},
		{"join", indent(`x = ",".join(["x" * 1000000] * 100000)`),
			`t.star:2:17: ` + size + ` (the result would be a string of more than 67108864 bytes) (in join) [check-runtime]`},
		{"replace", indent(`x = ("a" * 1000).replace("", "b" * 100000)`),
			`t.star:2:29: ` + size + ` (the result would be a string of 100101000 bytes) (in replace) [check-runtime]`},
		{"percent format", indent(`s = "y" * 60000000`, `x = "%s%s" % (s, s)`),
			`t.star:3:16: ` + size + ` (the result would be a string of 120000004 bytes) [check-runtime]`},
		{"format method", indent(`x = ("{}" * 1000).format(*(["q" * 1000000] * 1000))`),
			`t.star:2:29: ` + size + ` (the result would be a string of 1000002000 bytes) (in format) [check-runtime]`},
		{"str of a shared structure", indent(`x = []`, `for i in range(60):`, `    x = [x, x]`, `s = str(x)`),
			`t.star:5:12: ` + size + ` (the result would be a string of more than 67108864 bytes) (in str) [check-runtime]`},
		{"repr of a struct cycle", indent(`l = []`, `s = struct(l = l)`, `l.append(s)`, `r = repr(s)`),
			`t.star:5:13: ` + size + ` (the result would be a string of more than 67108864 bytes) (in repr) [check-runtime]`},
		{"list of a huge range", indent(`x = list(range(1 << 30))`),
			`t.star:2:13: ` + size + ` (the result would be a list of 1073741824 elements, at most 4194304 fit) (in list) [check-runtime]`},
		{"split", indent(`l = ("q" * 50000000).split("q")`),
			`t.star:2:31: ` + size + ` (the result would be a list of 50000001 elements, at most 4194304 fit) (in split) [check-runtime]`},
		{"regex findall on a huge string", indent(`x = re.findall("", "y" * 15000000)`),
			`t.star:2:19: ` + size + ` (more than 1677721 matches) (in re.findall) [check-runtime]`},
		{"regex sub repeating groups", indent(`x = re.sub("(a)", "\\1" * 100, "a" * 1000000)`),
			`t.star:2:15: ` + size + ` (the result would be a string of more than 67108864 bytes) (in re.sub) [check-runtime]`},
		{"integer squaring", indent(`x = 3`, `for i in range(40):`, `    x = x * x`),
			`t.star:4:15: exceeded the size limit of 65536 bits per integer (the result would have 103874 bits) [check-runtime]`},
		{"int of a long string", indent(`x = int("1" * 70000)`),
			`t.star:2:12: exceeded the size limit of 65536 bits per integer (int of a string of 70000 characters) (in int) [check-runtime]`},
		{"int of a string with too many digits", indent(`x = int("1" * 60000)`),
			`t.star:2:12: exceeded the size limit of 65536 bits per integer (the result would have 199313 bits) (in int) [check-runtime]`},
		{"helper input", indent(`x = strip_comments("/" * (17 << 20))`),
			`t.star:2:23: exceeded the size limit of 16 MiB for the text a helper reads (strip_comments got 17825792 bytes) (in strip_comments) [check-runtime]`},
		{"missing key too long to print", indent(`k = ("x" * 1000,) * 1000`, `v = {}[k]`),
			`t.star:3:11: key (a tuple of length 1000) not in dict [check-runtime]`},
	}
	rt := newRuntime(t, Limits{Timeout: time.Minute})
	s := rt.NewSession()
	defer s.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := bounded(t, rt, s, tt.body, "")
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestIntegerSquaringStopsAtTheBitLimit(t *testing.T) {
	// The exact bit count depends on where squaring crosses the limit; what
	// matters is that it stops there.
	rt := newRuntime(t, Limits{Timeout: time.Minute})
	s := rt.NewSession()
	defer s.Close()
	_, err := bounded(t, rt, s, indent(`x = 2`, `for i in range(40):`, `    x = x * x`), "")
	require.ErrorContains(t, err, "exceeded the size limit of 65536 bits per integer")
}

func TestMemoryLimitCountsTheWholeCall(t *testing.T) {
	rt := newRuntime(t, Limits{Timeout: time.Minute, MaxAllocBytes: 64 << 20})
	s := rt.NewSession()
	defer s.Close()
	// Each value is small; together they pass the limit.
	_, err := bounded(t, rt, s, indent(`l = []`, `for i in range(1000):`, `    l.append("x" * 1000000)`), "")
	require.EqualError(t, err, "t.star:4:22: exceeded the memory limit of 64 MiB per call [check-runtime]")
	// Copies count too, as do helper results.
	_, err = bounded(t, rt, s, indent(`l = [0] * 1000000`, `m = [l[:] for i in range(1000)]`), "")
	require.EqualError(t, err, "t.star:3:11: exceeded the memory limit of 64 MiB per call [check-runtime]")
	_, err = bounded(t, rt, s, indent(`m = [strip_comments(code) for i in range(1000)]`), strings.Repeat("int x;\n", 100000))
	require.EqualError(t, err, "t.star:2:24: exceeded the memory limit of 64 MiB per call (in strip_comments) [check-runtime]")
	// Every call starts afresh.
	ds, err := bounded(t, rt, s, indent(`x = "x" * 1000000`), "")
	require.NoError(t, err)
	require.True(t, ds[0].Passed)
}

func TestLongBuiltinsStopAtTheTimeLimit(t *testing.T) {
	rt := newRuntime(t, Limits{Timeout: time.Second, MaxSteps: 1 << 40})
	s := rt.NewSession()
	defer s.Close()
	// Parsing 15 MB of C takes several seconds: the parser stops at the
	// deadline and the helper itself reports it (hence "in c.calls").
	var code strings.Builder
	for i := 0; code.Len() < 15<<20; i++ {
		fmt.Fprintf(&code, "static int f%d(int a) { int b = g(a, %d); if (b < 0) { return h(b); } return b * 2; }\n", i, i)
	}
	_, err := bounded(t, rt, s, indent(`n = len(c.calls(code))`), code.String())
	require.EqualError(t, err, "t.star:2:20: exceeded the time limit of 1s (in c.calls) [check-runtime]")

	// A regular expression over 16 MB with many live states takes far
	// longer than the limit; the helper returns at the deadline.
	_, err = bounded(t, rt, s, indent(`m = re.search("(" + "x+" * 32 + ")+y", "x" * 16000000)`), "")
	require.EqualError(t, err, "t.star:2:18: exceeded the time limit of 1s (in re.search) [check-runtime]")

	// Text helpers on large inputs stop too.
	_, err = bounded(t, rt, s, indent(`for i in range(1000):`, `    n = len(find_isr_bodies(code + str(i)))`), code.String())
	require.ErrorContains(t, err, "exceeded the time limit of 1s")

	// The session is still usable afterwards.
	ds, err := bounded(t, rt, s, indent(`n = len(c.functions(code))`), "int main(void) { return 0; }")
	require.NoError(t, err)
	require.True(t, ds[0].Passed)
}

func TestStuckInterpreterBuiltinIsAbandoned(t *testing.T) {
	rt := newRuntime(t, Limits{Timeout: time.Second})
	s := rt.NewSession()
	defer s.Close()
	// Hashing a tuple that shares itself 2^31 times runs inside the
	// interpreter, which cannot stop it: the call is abandoned after the
	// grace period (the hash finishes later, in the background).
	_, err := bounded(t, rt, s, indent(`t = ()`, `for i in range(31):`, `    t = (t, t)`, `d = {t: 1}`), "")
	require.ErrorContains(t, err, "exceeded the time limit of 1s")
	require.ErrorContains(t, err, "[check-runtime]")

	// The session goes on with fresh caches.
	ds, err := bounded(t, rt, s, indent(`n = len(c.functions(code)) + len(find_isr_bodies(code))`), "void f(void) { }")
	require.NoError(t, err)
	require.True(t, ds[0].Passed)
}

func TestHostileModelCodeStaysBounded(t *testing.T) {
	rt := newRuntime(t, Limits{Timeout: time.Minute})
	s := rt.NewSession()
	defer s.Close()
	// Nested calls: every call's argument text contains the inner calls.
	// The texts share the source instead of copying it.
	nested := "int f(void) { return " + strings.Repeat("g(", 100000) + "1" + strings.Repeat(")", 100000) + "; }"
	ds, err := bounded(t, rt, s, indent(`n = len(c.calls(code))`, `if n != 100000:`, `    fail(n)`), nested)
	require.NoError(t, err)
	require.True(t, ds[0].Passed)

	// Macros doubling at every level: the evaluation gives up (None).
	var macros strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&macros, "#define A%d (A%d + A%d)\n", i, i+1, i+1)
	}
	macros.WriteString("#define A40 1\n")
	ds, err = bounded(t, rt, s, indent(`v = c.eval_int(code, "A0")`, `if v != None:`, `    fail(v)`), macros.String())
	require.NoError(t, err)
	require.True(t, ds[0].Passed)
}

func TestHonestWorkOnLargeCodePasses(t *testing.T) {
	// 1 MiB is the largest generated solution the evaluator checks. The
	// time limit is lifted: this test is about the size and memory limits.
	var code strings.Builder
	for i := 0; code.Len() < 1<<20; i++ {
		fmt.Fprintf(&code, "/* step %d */\nstatic int f%d(int a) { return g(a, \"s%d\") + %d; }\n", i, i, i, i)
	}
	rt := newRuntime(t, Limits{Timeout: time.Hour})
	s := rt.NewSession()
	defer s.Close()
	ds, err := bounded(t, rt, s, indent(
		`lines = code.split("\n")`,
		`out = ""`,
		`for l in lines[:2000]:`,
		`    out += l.upper() + "\n"`,
		`words = re.findall(r"\w+", code)`,
		`body = "\n".join(sorted(set(lines)))`,
		`fixed = re.sub(r"f(\d+)", r"fn_\1", code).replace("static", "static inline")`,
		`text = "%s\n%s" % (strip_comments(code), repr(lines[:1000]))`,
		`calls = c.calls(code)`,
		`pairs = {k: v for k, v in enumerate(lines)}`,
		`if len(words) < 100000 or len(calls) < 10000 or len(pairs) != len(lines) or len(fixed) <= len(code):`,
		`    fail("unexpected")`,
	), code.String())
	require.NoError(t, err)
	require.True(t, ds[0].Passed)
}

func TestCheckFileSizeCap(t *testing.T) {
	rt := newRuntime(t, Limits{})
	big := []byte("def run_checks(code):\n    return []\n" + strings.Repeat("# padding\n", MaxCheckFileBytes/10))
	_, err := rt.LoadChecks(context.Background(), "t.star", big)
	require.EqualError(t, err, fmt.Sprintf("t.star: check file is %d bytes; the limit is 1048576 bytes [check-load]", len(big)))

	dir := t.TempDir()
	for _, name := range []string{"static.star", "negatives.star"} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, big, 0o644))
		want := fmt.Sprintf("%s: check file is %d bytes; the limit is 1048576 bytes [check-load]", path, len(big))
		if name == "static.star" {
			_, err = rt.LoadChecksFile(context.Background(), path)
		} else {
			_, err = rt.LoadNegativesFile(context.Background(), path)
		}
		require.EqualError(t, err, want)
	}

	// At the cap, a file loads.
	ok := []byte("def run_checks(code):\n    return []\n")
	ok = append(ok, strings.Repeat("#", MaxCheckFileBytes-len(ok)-1)+"\n"...)
	_, err = rt.LoadChecks(context.Background(), "t.star", ok)
	require.NoError(t, err)
}

// TestInstrumentationKeepsSemantics runs snippets through the instrumented
// runtime and through the plain interpreter: results and errors (message
// and position) must be the same.
func TestInstrumentationKeepsSemantics(t *testing.T) {
	snippets := []string{
		`out = (1 + 2, "a" + "b", [1] + [2], (1,) + (2,), b"a" + b"b", 2.5 + 1)`,
		`out = ("ab" * 3, 3 * "ab", [0] * 2, 2 * (1,), [1] * -1, "x" * 0)`,
		`out = ("%s-%d-%r" % ("a", 3, "q"), "%(x)s" % {"x": 1}, "%d%%" % 5, 7 % 3)`,
		`out = ({1: 2} | {3: 4}, set([1]) | set([2]), set([1, 2]) & set([2]), set([1, 2]) - set([2]), set([1]) ^ set([2]))`,
		`out = (7 & 3, 7 | 8, 7 ^ 2, 5 - 8, 1 << 10, 1024 >> 3, 7 // 2, 7 / 2, -(3), ~5)`,
		`out = "a" + 1`,
		`out = [] * "x"`,
		`out = 1 << -1`,
		`out = 1 << 600`,
		`out = "%d" % "x"`,
		`out = {}["k"]`,
		`out = [][0]`,
		`out = [1, 2][5]`,
		`out = [1, 2][-3]`,
		`out = "abc"["x"]`,
		`out = 1[0]`,
		`out = ("abc"[1], [1, 2][-1], (1, 2, 3)[0], {"a": 1}["a"], b"xy"[1])`,
		`out = "abc".nope`,
		`out = [1].join`,
		`out = None.split`,
		`out = "abc".jion`,
		`out = [1].extend(3)`,
		`out = "a".join([1])`,
		`out = "a".replace(1, 2)`,
		`out = "{0}".format()`,
		`out = "a,b".split("")`,
		`out = (",".join(["a", "b"]), "aXbX".replace("X", "yy"), "aXbX".replace("X", "yy", 1), "a b  c".split(), "a,b".split(","), "a,b,c".rsplit(",", 1))`,
		`out = ("x\ny".splitlines(), "ab".upper(), "AB".lower(), "ab cd".title(), "ab".capitalize(), "{}-{x}".format(1, x = "y"), "{!r}".format("q"))`,
		`out = ({1: 2}.items(), {1: 2}.keys(), {1: 2}.values(), set([1]).union([2]), set([1, 2]).intersection([2]), set([1, 2]).difference([2]), set([1]).symmetric_difference([2]))`,
		"l = [1]\nr = l.extend([2, 3])\nd = {1: 2}\nd.update({3: 4}, x = 5)\ns = set([1])\ns.update([2])\nout = (l, r, d, s)",
		`out = (getattr("a,b", "split")(","), getattr([], "nope", 7), str(getattr("a", "join")))`,
		`out = getattr("a", "nope")`,
		`out = ("abcdef"[1:4], "abcdef"[::-2], [1, 2, 3][::-1], (1, 2, 3)[1:], "abc"[5:], b"abc"[1:], [1, 2, 3][-2:])`,
		`out = "abc"[::0]`,
		`out = "abc"["a":]`,
		"a = [1]\nb = a\na += [2]\nd = {1: 2}\ne = d\nd |= {3: 4}\nt = (1,)\nu = t\nt += (2,)\nout = (a, b, d, e, t, u)",
		"s = \"a\"\ns += \"b\"\ns *= 2\nx = 5\nx -= 2\nx *= 3\nx //= 2\nx %= 4\nx <<= 3\nx >>= 1\nx |= 8\nx &= 12\nx ^= 1\nf = 1.5\nf /= 2\nout = (s, x, f)",
		"calls = []\ndef k():\n    calls.append(1)\n    return \"a\"\nd = {\"a\": 1}\nd[k()] += 5\nl = [[1]]\nl[len(calls) - 1] += [2]\nout = (d, len(calls), l)",
		"d = {}\nd[\"k\"] += 1",
		"x = [1]\nx[3] += 1",
		"x = 1\nx += \"a\"",
		"l = [1]\nl += 3",
		"def f():\n    x += 1\nf()",
		"def f(*a, **k):\n    return (a, k)\nout = (f(*[1, 2], **{\"x\": 3}), f(*(1,), y = 2))",
		"def f(*a):\n    return a\nout = f(*3)",
		"f = lambda a = 1 + 2, b = \"x\" * 2: (a, b)\nout = (f(), [x * 2 for x in range(4) if x % 2 == 0], {k + \"!\": v * 2 for k, v in {\"a\": 1}.items()})",
		`out = (str([1, "a", (2,), {"k": None}]), repr("q\n"), str(b"ab"), repr(b"ab"), str(1.5), str(12345678901234567890), str(struct(a = 1)))`,
		"l = [1]\nl.append(l)\nd = {}\nd[\"self\"] = d\nout = (str(l), repr(d))",
		`out = (list(range(3)), tuple("abc".elems()), sorted([3, 1, 2], reverse = True), list(reversed([1, 2])), list(enumerate("ab".elems(), 1)), list(zip([1, 2], "ab".elems())), dict([(1, 2)], x = 3), set([1, 1]))`,
		`out = (all([1, 0]), any([]), max([1, 3]), min(2, 1), int("12"), int("ff", 16), bytes("ab"), len(dir([])))`,
		`out = list(1)`,
		`out = list("x" * 1000)`,
		`out = int("x")`,
		`fail("boom", 1, [2], sep = "|")`,
		`out = print("a", 1, sep = "-")`,
		`out = print("a", end = "")`,
	}
	rt := newRuntime(t, Limits{})
	for _, src := range snippets {
		t.Run(src, func(t *testing.T) {
			want := plainOutcome(src)
			globals, err := rt.loadModule(context.Background(), "t.star", []byte(src))
			got := ""
			if err != nil {
				got = "error: " + err.Error()
			} else {
				got = globals["out"].String()
			}
			require.Equal(t, want, got)
		})
	}
}

// plainOutcome runs src in the uninstrumented interpreter and returns out's
// repr or the error as loadModule reports it.
func plainOutcome(src string) string {
	thread := &starlark.Thread{Print: func(*starlark.Thread, string) {}}
	predeclared := starlark.StringDict{"struct": predeclared()["struct"]}
	g, err := starlark.ExecFileOptions(fileOptions(), thread, "t.star", src, predeclared)
	if err != nil {
		return "error: " + positioned("t.star", "check-load", err).Error()
	}
	return g["out"].String()
}

func TestTextSize(t *testing.T) {
	rt := newRuntime(t, Limits{})
	// The bound is never below the real size, and exact for plain values.
	src := `
l = [1, "a\n", (2, None), {"k": [True, 1.5]}, b"\xff", struct(x = "y")]
l.append(l)
d = {"self": None}
d["self"] = d
shared = ["q" * 2000] * 3
VALUES = [l, d, shared, (shared, shared), "plain", 12345678901234567890, set([1, 2]), [[]] * 4]
`
	globals, err := rt.loadModule(context.Background(), "t.star", []byte(src))
	require.NoError(t, err)
	values := globals["VALUES"].(*starlark.List)
	for i := 0; i < values.Len(); i++ {
		v := values.Index(i)
		for _, repr := range []bool{false, true} {
			real := v.String()
			if s, ok := v.(starlark.String); ok && !repr {
				real = string(s)
			}
			require.GreaterOrEqual(t, textSize(v, repr, 1<<30), int64(len(real)), "value %d repr %v", i, repr)
		}
	}
	require.Equal(t, int64(len(`"plain"`)), textSize(starlark.String("plain"), true, 100))
	require.Equal(t, int64(101), textSize(starlark.String(strings.Repeat("x", 200)), false, 100), "stops past the limit")
}
