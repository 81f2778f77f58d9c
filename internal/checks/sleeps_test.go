package checks

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sleepRows renders c.sleeps as (api, kind, ms, ticks) tuples.
const sleepRows = `[(s["api"], s["kind"], s["ms"], s["ticks"]) for s in c.sleeps(code, %s)]`

func TestSleepsFamilies(t *testing.T) {
	for name, tt := range map[string]struct{ code, want string }{
		"zephyr": {
			"#define PERIOD_MS 500\nvoid main(void) {\n\tk_msleep(PERIOD_MS);\n\tk_sleep(K_MSEC(2 * PERIOD_MS));\n\tk_sleep(K_SECONDS(1));\n\tk_usleep(250);\n\tk_sleep(K_TICKS(3));\n\tk_sleep(K_FOREVER);\n\tk_sleep(K_TIMEOUT_ABS_MS(t));\n\tk_msleep(delay_ms);\n}\n",
			`[("k_msleep", "relative", 500, None), ("k_sleep", "relative", 1000, None), ("k_sleep", "relative", 1000, None), ("k_usleep", "relative", 0.25, None), ("k_sleep", "relative", None, 3), ("k_sleep", "forever", None, None), ("k_sleep", "absolute", None, None), ("k_msleep", "relative", None, None)]`,
		},
		"freertos": {
			"void task(void *p) {\n\tconst TickType_t xDelay = 500 / portTICK_PERIOD_MS;\n\tTickType_t last = xTaskGetTickCount();\n\tfor (;;) {\n\t\tvTaskDelay(xDelay);\n\t\tvTaskDelay(pdMS_TO_TICKS(250));\n\t\tvTaskDelay(100);\n\t\tvTaskDelayUntil(&last, pdMS_TO_TICKS(10));\n\t\txTaskDelayUntil(&last, 10);\n\t\tvTaskDelay(portMAX_DELAY);\n\t\tosDelay(5);\n\t}\n}\n",
			`[("vTaskDelay", "relative", 500, None), ("vTaskDelay", "relative", 250, None), ("vTaskDelay", "relative", None, 100), ("vTaskDelayUntil", "absolute", 10, None), ("xTaskDelayUntil", "absolute", None, 10), ("vTaskDelay", "forever", None, None), ("osDelay", "relative", None, 5)]`,
		},
		"freertos rate defined": {
			"#define configTICK_RATE_HZ ((TickType_t)100)\nvoid task(void *p) { vTaskDelay(100); vTaskDelay(pdMS_TO_TICKS(500)); }\n",
			`[("vTaskDelay", "relative", 1000, 100), ("vTaskDelay", "relative", 500, 50)]`,
		},
		"stm32": {
			"#define BLINK_MS 250U\nint main(void) { while (1) { HAL_GPIO_TogglePin(GPIOA, GPIO_PIN_5); HAL_Delay(BLINK_MS); } }\n",
			`[("HAL_Delay", "relative", 250, None)]`,
		},
		"linux kernel": {
			"static int probe(void) {\n\tmsleep(20);\n\tssleep(1);\n\tusleep_range(1000, 2000);\n\tfsleep(50);\n\tschedule_timeout(msecs_to_jiffies(100));\n\tschedule_timeout_interruptible(HZ / 2);\n\tschedule_timeout(10);\n\tschedule_timeout(MAX_SCHEDULE_TIMEOUT);\n\treturn 0;\n}\n",
			`[("msleep", "relative", 20, None), ("ssleep", "relative", 1000, None), ("usleep_range", "relative", 1, None), ("fsleep", "relative", 0.05, None), ("schedule_timeout", "relative", 100, None), ("schedule_timeout_interruptible", "relative", 500, None), ("schedule_timeout", "relative", None, 10), ("schedule_timeout", "forever", None, None)]`,
		},
		"posix": {
			"static const struct timespec period = { .tv_sec = 0, .tv_nsec = 100 * 1000 * 1000 };\nint main(void) {\n\tstruct timespec ts = {0};\n\tstruct timespec u;\n\tstruct timespec next;\n\tts.tv_nsec = 2500000;\n\tu.tv_sec = 1; u.tv_nsec = 0; u.tv_nsec = 5;\n\tsleep(2);\n\tusleep(1500);\n\tnanosleep(&ts, NULL);\n\tnanosleep(&period, NULL);\n\tnanosleep(&u, NULL);\n\tnanosleep(&(struct timespec){ .tv_sec = 1 }, NULL);\n\tclock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);\n\tclock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);\n\treturn 0;\n}\n",
			`[("sleep", "relative", 2000, None), ("usleep", "relative", 1.5, None), ("nanosleep", "relative", 2.5, None), ("nanosleep", "relative", 100, None), ("nanosleep", "relative", None, None), ("nanosleep", "relative", 1000, None), ("clock_nanosleep", "absolute", None, None), ("clock_nanosleep", "relative", 2.5, None)]`,
		},
	} {
		assert.Equal(t, tt.want, evalExpr(t, fmt.Sprintf(sleepRows, "None"), tt.code), name)
	}
}

func TestSleepsPassFailUnknown(t *testing.T) {
	// A check that wants a 500 ms period passes, fails, or is inconclusive.
	src := `
def run_checks(code):
    ms = [s["ms"] for s in c.sleeps(code, "blink")]
    if not ms:
        return [CheckDetail(check_name = "period", passed = False)]
    if None in ms:
        return [CheckDetail(check_name = "period", passed = True, inconclusive = True)]
    return [CheckDetail(check_name = "period", passed = 500 in ms, actual = str(ms))]
`
	rt := newRuntime(t, Limits{})
	for code, want := range map[string]string{
		"#define P 500\nvoid blink(void) { for (;;) { toggle(); k_msleep(P); } }\n":     "pass",
		"void blink(void) { for (;;) { toggle(); vTaskDelay(pdMS_TO_TICKS(100)); } }\n": "fail",
		"void blink(int p) { for (;;) { toggle(); k_msleep(p); } }\n":                   "unknown",
		"void blink(void) { for (;;) { toggle(); vTaskDelay(50); } }\n":                 "unknown",
		"void blink(void) { for (;;) { toggle(); } }\n":                                 "fail",
	} {
		ds, err := run(t, rt, src, code)
		require.NoError(t, err, code)
		got := "fail"
		switch {
		case ds[0].Inconclusive:
			got = "unknown"
		case ds[0].Passed:
			got = "pass"
		}
		assert.Equal(t, want, got, code)
	}
}

func TestSleepsFollowHelpers(t *testing.T) {
	code := "#define WAIT(ms) k_msleep(ms)\nstatic void pause_a_bit(void) { k_msleep(10); k_busy_wait(5); }\nstatic void step(int n) { if (n) step(n - 1); pause_a_bit(); }\nvoid main(void) { step(3); WAIT(20); k_msleep(30); }\n"
	assert.Equal(t, `[("pause_a_bit", 2, 10, ["step", "pause_a_bit"]), ("main", 4, 20, ["WAIT"]), ("main", 4, 30, [])]`,
		evalExpr(t, `[(s["function"], s["line"], s["ms"], s["via"]) for s in c.sleeps(code, "main")]`, code))
	assert.Equal(t, `[("main", 20, ["WAIT"]), ("main", 30, [])]`,
		evalExpr(t, `[(s["function"], s["ms"], s["via"]) for s in c.sleeps(code, "main", follow = False)]`, code))
	assert.Equal(t, `[("pause_a_bit", 10, []), ("main", 20, ["WAIT"]), ("main", 30, [])]`,
		evalExpr(t, `[(s["function"], s["ms"], s["via"]) for s in c.sleeps(code)]`, code), "without function: every call, once")
	assert.Equal(t, `[{"function": "pause_a_bit", "line": 2, "api": "k_busy_wait", "ms": 0.005, "arg": "5", "via": ["step", "pause_a_bit"]}]`,
		evalExpr(t, `c.busy_waits(code, "main")`, code))
	assert.Equal(t, `[{"function": "main", "line": 4, "api": "k_msleep", "kind": "relative", "ms": 30, "ticks": None, "arg": "30", "via": []}]`,
		evalExpr(t, `c.sleeps(code, "main", False)[1:]`, code))
	// A function the code defines under an API's name is the API.
	code = "void HAL_Delay(uint32_t ms) { vTaskDelay(pdMS_TO_TICKS(ms)); }\nint main(void) { HAL_Delay(5); }\n"
	assert.Equal(t, `[("HAL_Delay", 5, [])]`, evalExpr(t, `[(s["api"], s["ms"], s["via"]) for s in c.sleeps(code, "main")]`, code))
}

func TestBusyWaits(t *testing.T) {
	code := "void f(void) { k_busy_wait(100); esp_rom_delay_us(10); ets_delay_us(1); udelay(2); ndelay(500); mdelay(3); k_msleep(1); }\n"
	assert.Equal(t, `[("k_busy_wait", 0.1), ("esp_rom_delay_us", 0.01), ("ets_delay_us", 0.001), ("udelay", 0.002), ("ndelay", 0.0005), ("mdelay", 3)]`,
		evalExpr(t, `[(b["api"], b["ms"]) for b in c.busy_waits(code, "f")]`, code))
	assert.Equal(t, `[("k_msleep", 1)]`, evalExpr(t, `[(b["api"], b["ms"]) for b in c.sleeps(code, "f")]`, code), "busy-waits are not sleeps")
}

func TestBarriers(t *testing.T) {
	code := `#define MB() __asm__ volatile ("dmb ish" ::: "memory")
static inline void sync_all(void) { __DSB(); __ISB(); }
void f(void)
{
	__DSB();
	__ISB();
	__DMB();
	__builtin_arm_dsb(15);
	__asm volatile ("dsb 0xF" ::: "memory");
	__asm__ __volatile__ ("isb");
	asm("dsb sy\n\tisb sy");
	__ASM volatile ("DMB");
	barrier_dsync_fence_full();
	barrier_isync_fence_full();
	barrier_dmem_fence_full();
	__asm__ volatile ("" ::: "memory");
	__COMPILER_BARRIER();
	barrier();
	compiler_barrier();
	atomic_thread_fence(memory_order_seq_cst);
	atomic_thread_fence(memory_order_relaxed);
	asm volatile ("nop");
	asm volatile ("");
	barrier(x);
	/* __DSB(); */
	sync_all();
	MB();
}
`
	assert.Equal(t, `[(5, "dsb", "__DSB", []), (6, "isb", "__ISB", []), (7, "dmb", "__DMB", []), (8, "dsb", "__builtin_arm_dsb", []), `+
		`(9, "dsb", "asm", []), (10, "isb", "asm", []), (11, "dsb", "asm", []), (11, "isb", "asm", []), (12, "dmb", "asm", []), `+
		`(13, "dsb", "barrier_dsync_fence_full", []), (14, "isb", "barrier_isync_fence_full", []), (15, "dmb", "barrier_dmem_fence_full", []), `+
		`(16, "compiler", "asm", []), (17, "compiler", "__COMPILER_BARRIER", []), (18, "compiler", "barrier", []), (19, "compiler", "compiler_barrier", []), `+
		`(20, "dmb", "atomic_thread_fence", []), (2, "dsb", "__DSB", ["sync_all"]), (2, "isb", "__ISB", ["sync_all"]), (27, "dmb", "asm", ["MB"])]`,
		evalExpr(t, `[(b["line"], b["kind"], b["api"], b["via"]) for b in c.barriers(code, "f")]`, code))
	assert.Equal(t, `[("sync_all", "dsb"), ("sync_all", "isb")]`,
		evalExpr(t, `[(b["function"], b["kind"]) for b in c.barriers(code)][:2]`, code))
	assert.Equal(t, `[]`, evalExpr(t, `[b for b in c.barriers(code, "f", follow = False) if b["via"] == ["sync_all"]]`, code))
	assert.Equal(t, `{"function": "f", "line": 27, "kind": "dmb", "api": "asm", "via": ["MB"]}`, evalExpr(t, `c.barriers(code, "f")[-1]`, code))
}

func TestWaitBuiltinsOnBrokenCode(t *testing.T) {
	for _, code := range []string{
		"", "garbage (((", "#define K_MSEC(x) )(\n#define P P P\n#define Q(x) Q(x) Q(x)\nvoid f(void) { k_sleep(K_MSEC(P)); k_msleep(P); Q(1); vTaskDelay(pdMS_TO_TICKS(P)); __asm volatile (",
		"void f(void) { k_msleep(1 +; __DSB(",
	} {
		assert.NotPanics(t, func() {
			evalExpr(t, `(c.sleeps(code), c.sleeps(code, "f"), c.busy_waits(code, "f"), c.barriers(code), c.barriers(code, "f"))`, code)
		}, code)
	}
	code := "#define P P + 1\nvoid f(void) { k_msleep(P); vTaskDelay(P); }\n"
	assert.Equal(t, `[None, None]`, evalExpr(t, `[s["ms"] for s in c.sleeps(code, "f")]`, code))
}

func TestWaitBuiltinsOnManyFunctions(t *testing.T) {
	var b strings.Builder
	const n = 5000
	b.WriteString("#define PERIOD 10\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "static void f%d(void) { k_msleep(PERIOD + %d); __DMB(); f%d(); }\n", i, i, i/2)
	}
	b.WriteString("int main(void) {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\tf%d();\n", i)
	}
	b.WriteString("}\n")
	// The walk's cost is bounded by its work limits, not by time: a
	// generous wall clock keeps the test independent of the machine's load
	// (docs/BENCHMARKS.md has the timings).
	got := evalExprWithin(t, time.Minute, `(len(c.sleeps(code, "main")), c.sleeps(code, "main")[-1]["ms"], len(c.sleeps(code)), len(c.barriers(code, "main")), len(c.busy_waits(code, "main")))`, b.String())
	assert.Equal(t, fmt.Sprintf("(%d, %d, %d, %d, 0)", n, 10+n-1, n, n), got)
}

func TestWaitBuiltinsMisuse(t *testing.T) {
	rt := newRuntime(t, Limits{})
	for expr, msg := range map[string]string{
		`c.sleeps()`:                        "c.sleeps: missing argument for code",
		`c.sleeps(1)`:                       "c.sleeps: for parameter code: got int, want string",
		`c.sleeps(code, 3)`:                 "c.sleeps: function must be a non-empty string or None, got 3",
		`c.sleeps(code, "")`:                `c.sleeps: function must be a non-empty string or None, got ""`,
		`c.sleeps(code, "f", "yes")`:        "got string, want bool",
		`c.sleeps(code, "f", True, 4)`:      "c.sleeps: got 4 arguments, want at most 3",
		`c.busy_waits(code, function = [])`: "c.busy_waits: function must be a non-empty string or None, got []",
		`c.barriers(code, colour = "red")`:  `c.barriers: unexpected keyword argument "colour"`,
		`c.barriers(code, follow = None)`:   "got NoneType, want bool",
	} {
		_, err := run(t, rt, "def run_checks(code):\n    return [CheckDetail(check_name = \"x\", passed = True, actual = repr("+expr+"))]\n", "void f(void) { k_msleep(1); }")
		require.Error(t, err, expr)
		assert.Contains(t, err.Error(), msg, expr)
	}
}

func TestWaitBuiltinsCountMemory(t *testing.T) {
	// A chain of 3,000 helpers, each sleeping: the via lists hold 4.5
	// million names, which the memory limit refuses before they are built.
	var b strings.Builder
	const n = 3000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "void f%d(void) { k_msleep(1); f%d(); }\n", i, i+1)
	}
	rt := newRuntime(t, Limits{Timeout: time.Minute, MaxAllocBytes: 32 << 20})
	_, err := run(t, rt, "def run_checks(code):\n    return [CheckDetail(check_name = \"x\", passed = len(c.sleeps(code, \"f0\")) > 0)]\n", b.String())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exceeded the memory limit")
	ds, err := run(t, newRuntime(t, Limits{Timeout: time.Minute}), "def run_checks(code):\n    return [CheckDetail(check_name = \"x\", passed = len(c.sleeps(code, \"f0\")) == 3000)]\n", b.String())
	require.NoError(t, err)
	assert.True(t, ds[0].Passed)
}
