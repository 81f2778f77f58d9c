package csyntax

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stepText renders steps as "fn:line name(args)" or "fn:line asm[template|clobbers]",
// with "<-via" when reached through helpers.
func stepText(steps []Step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		if s.Asm != nil {
			out[i] = fmt.Sprintf("%s:%d asm[%s|%s]", s.Asm.Function, s.Asm.Line, s.Asm.Template, strings.Join(s.Asm.Clobbers, ","))
		} else {
			out[i] = fmt.Sprintf("%s:%d %s(%s)", s.Call.Function, s.Call.Line, s.Call.Name, strings.Join(s.Call.Args, ", "))
		}
		if via := s.Via(); len(via) > 0 {
			out[i] += " <-" + strings.Join(via, "<-")
		}
		if s.ViaLen() != len(s.Via()) {
			out[i] += " BAD VIALEN"
		}
	}
	return out
}

func TestAsms(t *testing.T) {
	f := parse(t, `#define DSB() __asm volatile ("dsb")
// asm("dmb");
/* __asm__("isb"); */
static const char *s = "asm(\"dsb\")";
__asm(".global vectors");
void f(void)
{
	__asm volatile ("dsb 0xF":::"memory");
	__asm__ __volatile__("isb" : : : "memory", "cc");
	asm("dmb sy");
	asm volatile("" ::: "memory");
	__ASM volatile ("dsb\n\t" "isb");
	__asm { DMB }
	asm goto ("b %l0" : : : : out);
	int asm_count = 0; sizeof(asm_count);
out:
	return;
}
`)
	assert.Equal(t, []string{
		":5 asm[.global vectors|]",
		"f:8 asm[dsb 0xF|memory]",
		"f:9 asm[isb|memory,cc]",
		"f:10 asm[dmb sy|]",
		"f:11 asm[|memory]",
		"f:12 asm[dsb\n\tisb|]",
		"f:13 asm[DMB|]",
		"f:14 asm[b %l0|]",
	}, stepText(asmSteps(f.Asms())))
	assert.Empty(t, parse(t, "void f(void) { asm(; }").Asms(), "an unclosed statement is not reported")
	assert.Equal(t, []string{"f:1 asm[dsb|]"}, stepText(asmSteps(parse(t, `void f(void) { asm("dsb" : : "r"(asm("isb"))); }`).Asms())),
		"a statement inside another is not reported")
}

func asmSteps(as []Asm) []Step {
	out := make([]Step, len(as))
	for i := range as {
		out[i] = Step{Asm: &as[i]}
	}
	return out
}

const stepsCode = `#define BARRIER() __asm__ volatile ("dmb" ::: "memory")
#define DELAY_MS(ms) do { vTaskDelay(pdMS_TO_TICKS(ms)); } while (0)
#define CALL(fn, x) fn(x)
#define OUTER(x) INNER(x + 1); log_it(x)
#define INNER(y) k_msleep(y)
static void log_it(int x) { printf("%d", x); sync(); }
static void sync(void) { __DSB(); __asm volatile ("isb 0xF":::"memory"); }
static void rec(int n) { if (n) rec(n - 1); other(n); k_msleep(n); }
static void other(int n) { rec(n); }
void task(void)
{
	sync();
	BARRIER();
	DELAY_MS(2 * PERIOD);
	CALL(printk, 1);
	OUTER(3);
	rec(3);
	sync();
	register_cb(log_it);
}
`

func TestStepsFollowsHelpersAndMacros(t *testing.T) {
	f := parse(t, stepsCode)
	assert.Equal(t, []string{
		"task:12 sync()",
		"sync:7 __DSB() <-sync",
		"sync:7 asm[isb 0xF|memory] <-sync",
		"task:13 BARRIER()",
		"task:13 asm[dmb|memory] <-BARRIER",
		"task:14 DELAY_MS(2 * PERIOD)",
		"task:14 vTaskDelay(pdMS_TO_TICKS((2 * PERIOD))) <-DELAY_MS",
		"task:14 pdMS_TO_TICKS((2 * PERIOD)) <-DELAY_MS",
		"task:15 CALL(printk, 1)",
		"task:16 OUTER(3)",
		"task:16 INNER(3 + 1) <-OUTER",
		"task:16 k_msleep((3 + 1)) <-OUTER<-INNER",
		"task:16 log_it(3) <-OUTER",
		"log_it:6 printf(\"%d\", x) <-OUTER<-log_it",
		"log_it:6 sync() <-OUTER<-log_it",
		"task:17 rec(3)",
		"rec:8 rec(n - 1) <-rec",
		"rec:8 other(n) <-rec",
		"other:9 rec(n) <-rec<-other",
		"rec:8 k_msleep(n) <-rec",
		"task:18 sync()",
		"task:19 register_cb(log_it)",
	}, stepText(f.Steps("task", true, nil, nil)))

	// Without follow, helpers are not entered; macros are still expanded.
	assert.Equal(t, []string{"task:12 sync()", "task:13 BARRIER()", "task:13 asm[dmb|memory] <-BARRIER"},
		stepText(f.Steps("task", false, nil, nil))[:3])
	// Recursion: a function calling itself is not entered again.
	assert.Equal(t, []string{"rec:8 rec(n - 1)", "rec:8 other(n)", "other:9 rec(n) <-other", "rec:8 k_msleep(n)"},
		stepText(f.Steps("rec", true, nil, nil)))
	// leaf stops the walk at a name; keep filters what is returned.
	leaf := func(s Step) bool { return s.Call.Name == "sync" || s.Call.Name == "INNER" }
	keep := func(s Step) bool { return s.Asm != nil || s.Call.Name == "k_msleep" || s.Call.Name == "__DSB" }
	assert.Equal(t, []string{"task:13 asm[dmb|memory] <-BARRIER", "rec:8 k_msleep(n) <-rec"},
		stepText(f.Steps("task", true, leaf, keep)))
	// Unknown functions have no steps.
	assert.Empty(t, f.Steps("nope", true, nil, nil))
}

func TestStepsOfTheWholeFile(t *testing.T) {
	f := parse(t, "K_THREAD_DEFINE(t, 512, task, NULL, NULL, NULL, 7, 0, 0);\nstatic void a(void) { __asm(\"dsb\"); b(); }\nstatic void b(void) { __ISB(); }\n")
	assert.Equal(t, []string{
		":1 K_THREAD_DEFINE(t, 512, task, NULL, NULL, NULL, 7, 0, 0)",
		"a:2 asm[dsb|]",
		"a:2 b()",
		"b:3 __ISB()",
	}, stepText(f.Steps("", true, nil, nil)), "each step once, at its own place; no function entered")
}

func TestStepsOrderOnOneLine(t *testing.T) {
	f := parse(t, "void f(void) { __DSB(); __asm(\"isb\"); g(); }\nvoid h(void) { asm(\"dsb\"); __ISB(); }\n")
	assert.Equal(t, []string{"f:1 __DSB()", "f:1 asm[isb|]", "f:1 g()"}, stepText(f.Steps("f", true, nil, nil)))
	assert.Equal(t, []string{"h:2 asm[dsb|]", "h:2 __ISB()"}, stepText(f.Steps("h", true, nil, nil)))
}

func TestStepsHostileMacros(t *testing.T) {
	// Macros that expand to themselves, twice at each level, or do not
	// parse: expansion stops at its bounds.
	f := parse(t, `#define SELF(x) SELF(x)
#define TWICE(x) TWICE(x); TWICE(x)
#define BAD(x) ) ( } { "
#define MANY(x) `+strings.Repeat("k_msleep(x); ", 1000)+`
#define DEEP(x) `+strings.Repeat("f(", 5000)+`
void g(void) { SELF(1); TWICE(2); BAD(3); MANY(4); DEEP(5); }
`)
	start := time.Now()
	steps := f.Steps("g", true, nil, nil)
	assert.Less(t, time.Since(start), time.Minute, "bounded: a blow-up takes hours, a loaded machine seconds")
	n := map[string]int{}
	for _, s := range steps {
		n[s.Call.Name]++
		assert.LessOrEqual(t, s.ViaLen(), maxMacroDepth)
	}
	assert.Equal(t, 1+maxMacroDepth, n["SELF"])
	assert.LessOrEqual(t, n["TWICE"], 1+maxMacroSteps)
	assert.Equal(t, 1, n["BAD"])
	assert.Equal(t, maxMacroSteps, n["k_msleep"])
	assert.Equal(t, 1, n["DEEP"], "an unclosed body has no calls")
}

func TestStepsOnManyFunctions(t *testing.T) {
	// 5,000 functions calling each other in a chain and in a cycle, each
	// sleeping: every function is entered once, and the chain's via links
	// are shared.
	var b strings.Builder
	const n = 5000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "static void f%d(void) { k_msleep(%d); f%d(); f%d(); }\n", i, i, (i+1)%n, i/2)
	}
	f := parse(t, b.String())
	start := time.Now()
	keep := func(s Step) bool { return s.Call.Name == "k_msleep" }
	steps := f.Steps("f0", true, nil, keep)
	assert.Less(t, time.Since(start), time.Minute, "bounded: a blow-up takes hours, a loaded machine seconds")
	require.Len(t, steps, n)
	assert.Equal(t, "f0:1 k_msleep(0)", stepText(steps[:1])[0])
	assert.Equal(t, n-1, steps[n-1].ViaLen())
	assert.Equal(t, "f4999", steps[n-1].Via()[n-2])
	assert.Len(t, f.Steps("", true, nil, keep), n)
}

func TestSubstitute(t *testing.T) {
	for _, tt := range []struct {
		params []string
		body   string
		args   []string
		want   string
		ok     bool
	}{
		{[]string{"ms"}, "K_MSEC(ms)", []string{"500"}, "K_MSEC(500)", true},
		{[]string{"ms"}, "K_MSEC(ms * 2)", []string{"a + b"}, "K_MSEC((a + b) * 2)", true},
		{[]string{"x"}, `printf("x=%d", x) + ms2x + x1 + 1x`, []string{"v"}, `printf("x=%d", v) + ms2x + x1 + 1x`, true},
		{[]string{"fmt", "..."}, "printk(fmt, __VA_ARGS__)", []string{`"a"`, "1", "2"}, `printk("a", 1, 2)`, true},
		{[]string{"x"}, "f(x)", []string{}, "f()", true},
		{[]string{"x", "y"}, "f(x)", []string{"1"}, "", false},
		{[]string{"a", "..."}, "f(a)", nil, "", false},
		{nil, "f()", nil, "f()", true},
		{[]string{"x"}, strings.Repeat("x ", 10), []string{strings.Repeat("y", maxExpansion/5)}, "", false},
	} {
		got, ok := Substitute(tt.params, tt.body, tt.args)
		assert.Equal(t, tt.ok, ok, tt.body)
		assert.Equal(t, tt.want, got, tt.body)
	}
}

func TestStepsStopAtTheDeadline(t *testing.T) {
	c := NewParseCache(4)
	defer c.Close()
	f, err := c.Get(stepsCode)
	require.NoError(t, err)
	c.SetDeadline(time.Now().Add(-time.Second))
	_ = f.Steps("task", true, nil, nil)
	assert.True(t, f.Interrupted(), "an incomplete walk says so")
}

func TestAsmsOnHostileText(t *testing.T) {
	// Many comments, literals, unclosed statements and nested brackets:
	// one linear pass.
	var b strings.Builder
	b.WriteString("void f(void) {\n")
	for b.Len() < 1<<20 {
		b.WriteString("/* c */ \"s\" 'c' asm( __asm volatile { ((( [[ ")
	}
	b.WriteString("}\n")
	f := parse(t, b.String())
	start := time.Now()
	_ = f.Asms()
	_ = f.Steps("f", true, nil, nil)
	assert.Less(t, time.Since(start), time.Minute, "bounded: a blow-up takes hours, a loaded machine seconds")
	start = time.Now()
	assert.Empty(t, bodySteps(strings.Repeat("f(", maxExpansion/2), nil))
	assert.Len(t, bodySteps(strings.Repeat("g(1) /* x */ ", 4000), nil), 4000)
	assert.Less(t, time.Since(start), time.Minute, "bounded: a blow-up takes hours, a loaded machine seconds")
}
