package checks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const traceFixture = `
#include <zephyr/kernel.h>
static struct k_mutex lock;
static int shared;
static void bump(int by) { k_mutex_lock(&lock, K_FOREVER); shared += by; k_mutex_unlock(&lock); }
static void leaky(void) { k_mutex_lock(&lock, K_FOREVER); if (shared > 9) return; k_mutex_unlock(&lock); }
static void on_timer(struct k_timer *t) { bump(1); }
K_TIMER_DEFINE(tick, on_timer, NULL);
int main(void) {
	k_timer_start(&tick, K_MSEC(10), K_MSEC(10));
	bump(2);
	return 0;
}
`

func TestTraceBuiltin(t *testing.T) {
	got := evalExpr(t, `[(e.kind, e.name, e.args, e.via) for e in c.trace(code, "main") if e.kind == "call"]`, traceFixture)
	// Arguments are evaluated before the call that takes them.
	assert.Equal(t, `[("call", "K_MSEC", ["10"], []), ("call", "K_MSEC", ["10"], []), `+
		`("call", "k_timer_start", ["&tick", "K_MSEC(10)", "K_MSEC(10)"], []), `+
		`("call", "bump", ["2"], []), ("call", "k_mutex_lock", ["&lock", "K_FOREVER"], ["bump"]), `+
		`("call", "k_mutex_unlock", ["&lock"], ["bump"])]`, got)
	assert.Equal(t, `[("store", "shared", "+=", "2")]`,
		evalExpr(t, `[(e.kind, e.name, e.op, e.value) for e in c.trace(code, "main") if e.kind == "store"]`, traceFixture))
	assert.Equal(t, `[]`, evalExpr(t, `c.trace(code, "nothing")`, traceFixture))
	assert.Equal(t, `["bump"]`, evalExpr(t, `[e.name for e in c.trace(code, "main", depth = 0) if e.kind == "call" and e.name == "bump"]`, traceFixture))
	assert.Equal(t, `[("bump", False)]`, evalExpr(t, `[(e.name, e.entered) for e in c.trace(code, "main", stop = ["bump"]) if e.name == "bump"]`, traceFixture))
	assert.Equal(t, `0`, evalExpr(t, `len([e for e in c.trace(code, "main", stop = "bump") if e.via])`, traceFixture))
}

func TestEntryPointsBuiltin(t *testing.T) {
	assert.Equal(t, `[("on_timer", "timer", "K_TIMER_DEFINE"), ("main", "main", "")]`,
		evalExpr(t, `[(e.name, e.kind, e.via) for e in c.entry_points(code)]`, traceFixture))
}

func TestPathBuiltinsPassFailUnknown(t *testing.T) {
	src := `
def run_checks(code):
    r = c.released(code, "k_mutex_lock", "k_mutex_unlock")
    b = c.happens_before(code, ["k_mutex_lock"], "k_mutex_unlock")
    out = []
    for name, a in [("released", r), ("ordered", b)]:
        if a.verdict == None:
            out.append(CheckDetail(check_name = name, passed = True, inconclusive = True))
        else:
            out.append(CheckDetail(check_name = name, passed = a.verdict,
                                   actual = ", ".join(["%s:%d" % (s.function, s.line) for s in a.sites])))
    return out
`
	rt := newRuntime(t, Limits{})
	for code, want := range map[string]string{
		traceFixture: "released=pass ordered=pass",
		strings.Replace(traceFixture, "bump(2);", "leaky();", 1):                                             "released=fail(main:12) ordered=pass",
		strings.Replace(traceFixture, "bump(2);", "k_mutex_unlock(&lock);", 1):                               "released=pass ordered=fail(main:11)",
		strings.Replace(traceFixture, "bump(2);", "void (*f)(void) = get(); f(); k_mutex_unlock(&lock);", 1): "released=pass ordered=unknown",
	} {
		ds, err := run(t, rt, src, code)
		require.NoError(t, err)
		var got []string
		for _, d := range ds {
			v := "pass"
			switch {
			case d.Inconclusive:
				v = "unknown"
			case !d.Passed:
				v = fmt.Sprintf("fail(%s)", *d.Actual)
			}
			got = append(got, d.CheckName+"="+v)
		}
		assert.Equal(t, want, strings.Join(got, " "), code)
	}
}

func TestPathBuiltinArguments(t *testing.T) {
	assert.Equal(t, `(True, 1)`, evalExpr(t, `(lambda a: (a.verdict, a.reached))(c.released(code, "k_mutex_lock", ["k_mutex_unlock"], entry = "leaky_free", depth = 2))`,
		"void leaky_free(void) { k_mutex_lock(&l, K_FOREVER); k_mutex_unlock(&l); }\n"))
	assert.Equal(t, `(None, 0)`, evalExpr(t, `(lambda a: (a.verdict, a.reached))(c.happens_before(code, "a", "b", entry = "missing"))`, "void f(void) {}\n"))
	held := "void f(void) {\n\tk_mutex_lock(&l, K_FOREVER);\n\tk_sleep(K_MSEC(5));\n\tk_mutex_unlock(&l);\n\tk_sleep(K_MSEC(5));\n}\n"
	assert.Equal(t, `(False, 2, [("f", 3, "k_sleep")])`, evalExpr(t, `(lambda a: (a.verdict, a.reached, [(s.function, s.line, s.name) for s in a.sites]))(c.not_while_held(code, "k_mutex_lock", "k_mutex_unlock", ["k_sleep", "k_msleep"], entry = "f"))`, held))
	assert.Equal(t, `True`, evalExpr(t, `c.not_while_held(code, "k_mutex_lock", "k_mutex_unlock", "printk").verdict`, held))
	socks := "int f(void) {\n\tint rx = socket(1, 2, 0);\n\tif (rx < 0)\n\t\treturn -1;\n\tint tx = socket(1, 2, 0);\n\tif (tx < 0) {\n\t\tclose(rx);\n\t\treturn -1;\n\t}\n\tif (send(tx) < 0) {\n\t\tclose(rx);\n\t\treturn -1;\n\t}\n\tclose(tx);\n\tclose(rx);\n\treturn 0;\n}\n"
	assert.Equal(t, `(True, False, [12], True)`, evalExpr(t, `(c.released(code, "socket", "close").verdict, c.released(code, "socket", "close", handle = "tx").verdict, [s.line for s in c.released(code, "socket", "close", handle = "tx").sites], c.released(code, "socket", "close", handle = "rx").verdict)`, socks))
	taken := "void f(void) {\n\tif (xSemaphoreTake(m, 5) != pdTRUE) {\n\t\tvTaskDelay(1);\n\t\treturn;\n\t}\n\txSemaphoreGive(m);\n}\n"
	assert.Equal(t, `(True, False)`, evalExpr(t, `(c.not_while_held(code, "xSemaphoreTake", "xSemaphoreGive", "vTaskDelay").verdict, c.not_while_held(code, "xSemaphoreTake", "xSemaphoreGive", "vTaskDelay", failures = False).verdict)`, taken))
	for expr, msg := range map[string]string{
		`c.happens_before(code, "a", [])`:                "then must name at least one call",
		`c.happens_before(code, "a", "b", depth = 99)`:   "depth must be an int from 0 to 16",
		`c.released(code, 3, "b")`:                       "acquire must be a name or a list of names",
		`c.not_while_held(code, "a", "b", [])`:           "calls must name at least one call",
		`c.released(code, "a", "b", handle = "")`:        "handle must be a non-empty string",
		`c.released(code, "a", "b", handle = 3)`:         "handle must be a non-empty string",
		`c.happens_before(code, "a", "b", handle = "x")`: "unexpected keyword argument \"handle\"",
		`c.not_while_held(code, "a", "b")`:               "missing argument for calls",
		`c.released(code, "a", ["b", ""])`:               "release must hold non-empty strings",
		`c.trace(code)`:                                  "missing argument for function",
	} {
		src := "def run_checks(code):\n    return [CheckDetail(check_name = \"x\", passed = True, actual = repr(" + expr + "))]\n"
		_, err := run(t, newRuntime(t, Limits{}), src, "void f(void) {}\n")
		require.Error(t, err, expr)
		assert.Contains(t, err.Error(), msg, expr)
	}
}

func TestISRSharedBuiltin(t *testing.T) {
	code := `
static volatile int flag;
static int count;
static struct k_spinlock lock;
static void on_press(const struct device *d, struct gpio_callback *cb, uint32_t pins) {
	flag = 1;
	k_spinlock_key_t k = k_spin_lock(&lock);
	count++;
	k_spin_unlock(&lock, k);
}
int main(void) {
	gpio_init_callback(&cb, on_press, BIT(3));
	gpio_add_callback(dev, &cb);
	for (;;) {
		if (flag) {
			flag = 0;
			k_spinlock_key_t k = k_spin_lock(&lock);
			count = 0;
			k_spin_unlock(&lock, k);
		}
		k_msleep(10);
	}
}
`
	assert.Equal(t, `[("flag", False, [15, 16], ["on_press"], ["main"]), ("count", True, [], ["on_press"], ["main"])]`,
		evalExpr(t, `[(v.name, v.protected, [s.line for s in v.unprotected], v.isr, v.threads) for v in c.isr_shared(code)]`, code))
}
