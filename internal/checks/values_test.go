package checks

import (
	"context"
	"fmt"
	"strings"
	"time"

	"testing"

	"github.com/stretchr/testify/require"
)

// evalCases runs c.* expressions on one code string and compares their reprs.
func evalCases(t *testing.T, code string, cases map[string]string) {
	t.Helper()
	for expr, want := range cases {
		require.Equal(t, want, evalExpr(t, expr, code), expr)
	}
}

func TestEvalIntFollowsLocals(t *testing.T) {
	code := `
#define BASE 0x10
void f(int sel) {
    uint32_t v = BASE;
    v |= 0x3;
    v &= ~0x1;
    REG = v;
    uint8_t small = 300;
    int w = 1;
    if (sel) {
        w = 2;
    }
    use(w);
    int same;
    if (sel) same = 7; else same = 7;
    use(same);
    int later = 1;
    later = later + 4;
    use(later);
}
`
	evalCases(t, code, map[string]string{
		`c.eval_int(code, "v", function = "f")`:            "18",
		`c.eval_int(code, "v", function = "f", line = 5)`:  "16",
		`c.eval_int(code, "v", function = "f", line = 6)`:  "19",
		`c.eval_int(code, "v + 1", function = "f")`:        "19",
		`c.eval_int(code, "small", function = "f")`:        "44",
		`c.eval_int(code, "w", function = "f", line = 13)`: "None",
		`c.eval_int(code, "w", function = "f", line = 12)`: "2",
		`c.eval_int(code, "same", function = "f")`:         "7",
		`c.eval_int(code, "later", function = "f")`:        "5",
		`c.eval_int(code, "v")`:                            "None",
	})
}

func TestEvalIntFollowsParameters(t *testing.T) {
	code := `
static void uart_init(uint32_t baud) { UART->BRR = CLK / baud; }
static void spi_init(int div) { div = div * 2; SPI->CR = div; }
static void tim_init(int psc) { TIM->PSC = psc; }
static int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
static void rec(int k) { if (k) rec(k); }
static void cb_target(int x) { use(x); }
int main(void) {
    uint32_t b = 115200;
    uart_init(b);
    uart_init(115200U);
    spi_init(4);
    tim_init(1);
    tim_init(2);
    fact(5);
    rec(3);
    register_cb(cb_target);
    cb_target(1);
    return 0;
}
`
	evalCases(t, code, map[string]string{
		`c.eval_int(code, "baud", function = "uart_init")`:         "115200",
		`c.eval_int(code, "div", function = "spi_init")`:           "8",
		`c.eval_int(code, "div", function = "spi_init", line = 3)`: "4",
		`c.eval_int(code, "psc", function = "tim_init")`:           "None",
		`c.eval_int(code, "n", function = "fact")`:                 "None",
		`c.eval_int(code, "k", function = "rec")`:                  "None",
		`c.eval_int(code, "x", function = "cb_target")`:            "None",
		`c.eval_int(code, "b", function = "main")`:                 "115200",
	})
}

func TestEvalIntFollowsCalls(t *testing.T) {
	code := `
#define DIV 16
static uint32_t compute_div(void) { return DIV * 2; }
static int either(void) { if (x) return 1; return 2; }
static int same(void) { if (x) return 3; return 1 + 2; }
static int self(void) { return self(); }
static int ping(void);
static int pong(void) { return ping(); }
static int ping(void) { return pong(); }
static int (*cb)(int);
static int with_arg(int a) { return 5; }
void f(void) {
    uint32_t d = compute_div();
    int e = either();
    int r = cb(1);
}
`
	evalCases(t, code, map[string]string{
		`c.eval_int(code, "compute_div()")`:              "32",
		`c.eval_int(code, "(uint8_t)compute_div() + 1")`: "33",
		`c.eval_int(code, "d", function = "f")`:          "32",
		`c.eval_int(code, "either()")`:                   "None",
		`c.eval_int(code, "e", function = "f")`:          "None",
		`c.eval_int(code, "same()")`:                     "3",
		`c.eval_int(code, "self()")`:                     "None",
		`c.eval_int(code, "ping()")`:                     "None",
		`c.eval_int(code, "r", function = "f")`:          "None",
		`c.eval_int(code, "cb(1)")`:                      "None",
		`c.eval_int(code, "with_arg(1)")`:                "None",
	})
}

func TestEvalIntFollowsMembersAndGlobals(t *testing.T) {
	code := `
struct cfg { int baud; struct { int BaudRate; } Init; };
static struct cfg g_cfg = { .baud = 115200, .Init = { .BaudRate = 9600 } };
static struct cfg g_pos = { 1, { 2 } };
static uint32_t g_once;
static uint32_t g_twice = 1;
static uint32_t g_agree = 4;
static int g_inc = 1;
const uint32_t g_const = 7;
void setup(void) { g_once = 50; g_twice = 2; g_agree = 4; g_inc++; }
void f(UART_HandleTypeDef *p) {
    UART_HandleTypeDef h;
    h.Init.BaudRate = 9600;
    h.Init.WordLength = 8;
    HAL_UART_Init(&h);
    p->baud = 300;
    struct cfg c = { .baud = 57600 };
    use(p->baud);
    struct cfg d = { .baud = 1 };
    if (x) d.baud = 2;
    use(d.baud);
}
`
	evalCases(t, code, map[string]string{
		`c.eval_int(code, "h.Init.BaudRate", function = "f")`:                "9600",
		`c.eval_int(code, "h.Init.BaudRate / 2", function = "f", line = 14)`: "4800",
		`c.eval_int(code, "h.Init.BaudRate", function = "f", line = 13)`:     "None",
		`c.eval_int(code, "p->baud", function = "f", line = 18)`:             "300",
		`c.eval_int(code, "c.baud", function = "f")`:                         "57600",
		`c.eval_int(code, "d.baud", function = "f")`:                         "None",
		`c.eval_int(code, "d.baud", function = "f", line = 20)`:              "1",
		`c.eval_int(code, "g_cfg.baud")`:                                     "115200",
		`c.eval_int(code, "g_cfg.Init.BaudRate")`:                            "9600",
		`c.eval_int(code, "g_pos.baud")`:                                     "None",
		`c.eval_int(code, "g_once")`:                                         "50",
		`c.eval_int(code, "g_twice")`:                                        "None",
		`c.eval_int(code, "g_agree")`:                                        "4",
		`c.eval_int(code, "g_inc")`:                                          "None",
		`c.eval_int(code, "g_const + g_once")`:                               "57",
	})
}

func TestEvalIntControlFlow(t *testing.T) {
	code := `
void f(int n) {
    int a = 1;
    for (int i = 0; i < n; i++) { a = 2; }
    use(a);
    int b = 3;
    while (n--) { b = 3; }
    use(b);
    int c = 0;
    switch (n) { case 1: c = 5; break; case 2: c = 5; break; default: c = 5; }
    use(c);
    int d = 0;
    switch (n) { case 1: d = 5; break; }
    use(d);
    int e = 0;
    if (n) { e = 9; return; }
    use(e);
    int g = 0;
    do { g = 4; } while (n);
    use(g);
#ifdef FAST
    int h = 1;
#else
    int h = 2;
#endif
    use(h);
    int k = 1;
    read_reg(&k);
    use(k);
}
`
	evalCases(t, code, map[string]string{
		`c.eval_int(code, "a", function = "f", line = 5)`:  "None",
		`c.eval_int(code, "a", function = "f", line = 4)`:  "1",
		`c.eval_int(code, "b", function = "f", line = 8)`:  "3",
		`c.eval_int(code, "c", function = "f", line = 11)`: "5",
		`c.eval_int(code, "d", function = "f", line = 14)`: "None",
		`c.eval_int(code, "e", function = "f", line = 17)`: "0",
		`c.eval_int(code, "g", function = "f", line = 20)`: "4",
		`c.eval_int(code, "h", function = "f", line = 26)`: "None",
		`c.eval_int(code, "k", function = "f", line = 29)`: "None",
		`c.eval_int(code, "k", function = "f", line = 28)`: "1",
	})
}

func TestEvalFloats(t *testing.T) {
	code := `
#define F_CPU 16000000UL
#define RATIO 1.5f
float duty(void) { return 0.25f; }
void f(int n) {
    float scale = 1e-3;
    double period = 1.0 / 50;
    uint32_t ticks = (uint32_t)(F_CPU * 0.5);
    int trunc = (int)-2.7;
    float mixed = 3 / 2;
    float pick;
    if (n) pick = 1.0f; else pick = 2.0f;
    use(scale, period, ticks, trunc, mixed, pick);
}
`
	evalCases(t, code, map[string]string{
		`c.eval(code, "RATIO * 2")`:                 "3.0",
		`c.eval(code, ".5 + 1")`:                    "1.5",
		`c.eval(code, "10 / 4")`:                    "2",
		`c.eval(code, "10 / 4.0")`:                  "2.5",
		`c.eval(code, "(double)7 / 2")`:             "3.5",
		`c.eval(code, "scale", function = "f")`:     "0.0010000000474974513",
		`c.eval(code, "period", function = "f")`:    "0.02",
		`c.eval(code, "ticks", function = "f")`:     "8000000",
		`c.eval(code, "trunc", function = "f")`:     "-2",
		`c.eval(code, "mixed", function = "f")`:     "1.0",
		`c.eval(code, "pick", function = "f")`:      "None",
		`c.eval(code, "duty() * 100")`:              "25.0",
		`c.eval(code, "1.0 / 0")`:                   "None",
		`c.eval(code, "(uint8_t)300.0")`:            "None",
		`c.eval(code, "1.5 % 2")`:                   "None",
		`c.eval_int(code, "1.5")`:                   "None",
		`c.eval_int(code, "ticks", function = "f")`: "None",
		`c.eval(code, "", function = "f")`:          "None",
		`c.eval(code, "n", function = "nope")`:      "None",
	})
}

func TestExpand(t *testing.T) {
	code := `
#define BASE 0x40000000UL
#define REG(off) (*(volatile uint32_t *)(BASE + (off)))
#define SELF SELF + 1
#define A B
#define B A
#define CAT(a, b) a ## b
#define STR(x) #x
#define LOG(fmt, ...) printf(fmt, __VA_ARGS__)
#define BROKEN(x (x + 1)
#define Q(x) x x x x
`
	evalCases(t, code, map[string]string{
		`c.expand(code, "REG(0x10) = BIT(3)")`:           `"(*(volatile uint32_t *)(0x40000000UL + (0x10))) = (1UL << (3))"`,
		`c.expand(code, "SELF")`:                         `"SELF + 1"`,
		`c.expand(code, "A")`:                            `"A"`,
		`c.expand(code, "CAT(UART, 1)->CR")`:             `"UART1->CR"`,
		`c.expand(code, "STR(a + b)")`:                   `"\"a + b\""`,
		`c.expand(code, "LOG(\"%d %d\", x, y)")`:         `"printf(\"%d %d\", x, y)"`,
		`c.expand(code, "unknown(x)  +   y")`:            `"unknown(x) + y"`,
		`c.expand(code, "BROKEN(1)")`:                    `"BROKEN(1)"`,
		`c.expand(code, "REG(1")`:                        `"REG(1"`,
		`c.expand(code, "UINT8_MAX")`:                    `"255"`,
		`c.expand(code, "Q(Q(Q(Q(Q(Q(Q(Q(Q(1)))))))))")`: "None",
		`c.expand(code, "x", function = "f")`:            `"x"`,
	})
}

func TestArgValues(t *testing.T) {
	code := `
static void uart_init(uint32_t baud) { USART1->BRR = SystemCoreClock / baud; }
static void setup(uint32_t rate) { uart_init(rate); }
static void fixed(uint32_t rate) { uart_init(rate); }
static void loop(int k) { if (k) loop(k - 1); uart_init(k); }
void main(void) {
    uint32_t b = 9600;
    uart_init(b);
    setup(115200);
    setup(57600);
    fixed(19200);
    uart_init(cb(1));
    loop(3);
}
`
	got := evalExpr(t, `[(a.function, a.line, a.text, a.value, a.via) for a in c.arg_values(code, "uart_init", 0)]`, code)
	require.Equal(t, `[("main", 9, "115200", 115200, ["setup"]), ("main", 10, "57600", 57600, ["setup"]), `+
		`("fixed", 4, "rate", 19200, []), ("loop", 5, "k - 1", None, ["loop"]), ("main", 13, "3", 3, ["loop"]), `+
		`("main", 8, "b", 9600, []), ("main", 12, "cb(1)", None, [])]`, got)
	require.Equal(t, `[("main", 3, "", None, [])]`, evalExpr(t, `[(a.function, a.line, a.text, a.value, a.via) for a in c.arg_values(code, "f", 1)]`,
		"void f(int a, int b) {}\nvoid main(void) {\n f(1);\n}\n"))
}

// generated is a file of n functions: a chain passing a parameter down
// (pass<i> calls pass<i-1>), a chain of returns (ret<i> returns ret<i-1>()
// + 1), and in each function a store to the global g and a call of set(i).
func generated(n int) string {
	var b strings.Builder
	b.WriteString("static int g;\nvoid set(int v) { g = 1; }\nint pass0(int x) { return x; }\nint ret0(void) { return 1; }\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "int pass%d(int x) { g = 1; set(%d); return pass%d(x); }\n", i, i, i-1)
		fmt.Fprintf(&b, "int ret%d(void) { return ret%d() + 1; }\n", i, i-1)
	}
	fmt.Fprintf(&b, "int main(void) { return pass%d(7); }\n", n-1)
	return b.String()
}

func TestFollowingOnManyFunctions(t *testing.T) {
	code := generated(5000)
	exprs := []string{
		`c.eval_int(code, "x", function = "pass0")`, // deeper than the follow bound
		`c.eval_int(code, "x", function = "pass4998")`,
		`c.eval_int(code, "ret4999()")`,
		`c.eval_int(code, "ret3()")`,
		`c.eval_int(code, "g")`,
		`len(c.arg_values(code, "set", 0))`,
		`c.arg_values(code, "set", 0)[-1].value`,
	}
	// Bounded work, not a deadline, keeps this small: a generous wall clock
	// keeps the test independent of the machine's load.
	rt := newRuntime(t, Limits{Timeout: time.Minute})
	src := "def run_checks(code):\n    c.has_errors(code)\n    return [CheckDetail(check_name = \"x\", passed = True, actual = repr([" + strings.Join(exprs, ", ") + "]))]\n"
	m, err := rt.LoadChecks(context.Background(), "t.star", []byte(src))
	require.NoError(t, err)
	s := rt.NewSession()
	defer s.Close()
	start := time.Now()
	ds, err := m.Run(context.Background(), s, code)
	require.NoError(t, err)
	require.Equal(t, "[None, 7, None, 4, 1, 4999, 4999]", *ds[0].Actual)
	t.Logf("5,000 functions: %v (parse included)", time.Since(start))
}

func TestFollowingOnHostileCode(t *testing.T) {
	deep := "void f(int n) { int v = 1; " + strings.Repeat("if (n) { ", 5000) + "v = 2;" + strings.Repeat(" }", 5000) + " use(v); }\n"
	loops := "void h(int n) { int v = 1; " + strings.Repeat("while (n) { ", 150) + "v = v + 1;" + strings.Repeat(" }", 150) + " use(v); }\n"
	chain := "void k(void) { int a0 = 1;\n"
	for i := 1; i < 200; i++ {
		chain += fmt.Sprintf("int a%d = a%d + 1;\n", i, i-1)
	}
	chain += "}\n"
	evalCases(t, deep+loops+chain+"#define M(x) M(x) + x\nstatic int z = z;\n", map[string]string{
		`c.eval_int(code, "v", function = "f")`:    "None",
		`c.eval_int(code, "v", function = "h")`:    "None",
		`c.eval_int(code, "a10", function = "k")`:  "11",
		`c.eval_int(code, "a199", function = "k")`: "None", // deeper than the follow bound
		`c.eval_int(code, "M(1)")`:                 "None",
		`c.eval_int(code, "z")`:                    "None",
		`c.eval(code, "z + M(2)")`:                 "None",
		`c.expand(code, "M(1)")`:                   `"M(1) + 1"`,
	})
}

func TestEvalIntCastsAndScope(t *testing.T) {
	code := `
#define BROKEN(x (x + 1)
#define SIZE ((size_t)16)
#define DIVISOR div
static const int k = 3;
int f(void) {
    int x = -1;
    int div = 8;
    return (uint32_t)x + ((SIZE)) / DIVISOR;
}
`
	evalCases(t, code, map[string]string{
		`c.eval_int(code, "(uint32_t)x", function = "f")`:             "4294967295",
		`c.eval_int(code, "((uint8_t)(x))", function = "f")`:          "255",
		`c.eval_int(code, "SIZE / DIVISOR", function = "f")`:          "2",
		`c.eval_int(code, "SIZE / DIVISOR")`:                          "None",
		`c.eval_int(code, "f()")`:                                     "1", // (uint32_t)-1 + 2 wraps
		`c.eval_int(code, "k", line = 3)`:                             "3",
		`c.eval_int(code, "BROKEN(1)")`:                               "None",
		`c.eval(code, "BROKEN(1)", function = "f")`:                   "None",
		`c.eval_int("int f(void) { int x = ; ", "x", function = "f")`: "None",
	})
}

func TestValueBuiltinsMisuse(t *testing.T) {
	for expr, msg := range map[string]string{
		`c.eval_int("", "1", line = "x")`: "line must be an int or None",
		`c.eval("", "1", function = 1)`:   "function must be a string or None",
		`c.expand("", "1", line = 3)`:     "unexpected keyword argument line",
		`c.arg_values("", "f", -1)`:       "need a callee name and an index >= 0",
		`c.arg_values("", "", 0)`:         "need a callee name and an index >= 0",
		`c.arg_values("", "f")`:           "missing argument for index",
		`c.eval("")`:                      "missing argument for expr",
	} {
		src := "def run_checks(code):\n    return [CheckDetail(check_name = \"x\", passed = True, actual = repr(" + expr + "))]\n"
		_, err := run(t, newRuntime(t, Limits{}), src, "int x;")
		require.ErrorContains(t, err, msg, expr)
	}
}

func TestEvalIntReadsAreNotStores(t *testing.T) {
	code := `
void f(int a) {
    int v = 6;
    int x = a * v;
    int y, w;
    call(v, w);
    x = v;
    w = 2;
    use(x, y, w);
}
`
	evalCases(t, code, map[string]string{
		`c.eval_int(code, "v", function = "f")`:           "6",
		`c.eval_int(code, "w", function = "f")`:           "2",
		`c.eval_int(code, "w", function = "f", line = 7)`: "None", // declared without a value
		`c.eval_int(code, "y", function = "f")`:           "None",
		`c.eval_int(code, "x", function = "f")`:           "6",
	})
}

func TestValueBuiltinsStopAtTheTimeLimit(t *testing.T) {
	rt := newRuntime(t, Limits{Timeout: time.Second, MaxSteps: 1 << 40})
	s := rt.NewSession()
	defer s.Close()
	var code strings.Builder
	for i := 0; code.Len() < 15<<20; i++ {
		fmt.Fprintf(&code, "static int f%d(int a) { int b = g(a, %d); return b * 2; }\n", i, i)
	}
	_, err := bounded(t, rt, s, indent(`n = c.eval(code, "b", function = "f1")`), code.String())
	require.ErrorContains(t, err, "exceeded the time limit of 1s")
}

func TestEvalIntZeroInitialisedMembers(t *testing.T) {
	code := `
#define TIM_ICPOLARITY_FALLING 0x2U
typedef struct { unsigned ICPolarity; unsigned ICFilter; } TIM_IC_InitTypeDef;
struct gs { int a; int b; };
static struct gs g = { .a = 5 };
static struct gs h = { 1, 2 };
void setup(void) {
	const TIM_IC_InitTypeDef rising = { .ICPolarity = TIM_ICPOLARITY_FALLING };
	TIM_IC_InitTypeDef cfg = {0};
	TIM_IC_InitTypeDef z = {};
	cfg.ICPolarity = 2;
	use(&rising, &cfg, &z);
}
`
	require.Equal(t, "[2, 0, 0, 2, 0, 0, 5, None]", evalExpr(t, `[c.eval_int(code, "rising.ICPolarity", function = "setup"), c.eval_int(code, "rising.ICFilter", function = "setup"), c.eval_int(code, "cfg.ICFilter", function = "setup", line = 11), c.eval_int(code, "cfg.ICPolarity", function = "setup", line = 12), c.eval_int(code, "z.ICFilter", function = "setup", line = 12), c.eval_int(code, "g.b"), c.eval_int(code, "g.a"), c.eval_int(code, "h.b")]`, code))
}

func TestEvalIntEnumConstants(t *testing.T) {
	code := `
enum {
    NUM_VECTORS = 16 + 32,
    EXC_PENDSV = 14, // trailing comment
    /* Smallest power of two >= 48 * 4 bytes. */
    VTOR_ALIGNMENT = 256,
    NEXT
};
enum { A, B = 4, C };
`
	evalCases(t, code, map[string]string{
		`c.eval_int(code, "NUM_VECTORS")`:    "48",
		`c.eval_int(code, "EXC_PENDSV")`:     "14",
		`c.eval_int(code, "VTOR_ALIGNMENT")`: "256",
		`c.eval_int(code, "NEXT")`:           "257",
		`c.eval_int(code, "A + B + C")`:      "9",
	})
}

func TestEvalIntSizeof(t *testing.T) {
	code := `
#define NUM_VECTORS 48
typedef uint32_t vector_t;
static vector_t ram_table[NUM_VECTORS];
static uint8_t frames[4][16];
static char *names[3];
static struct cfg settings;
void copy(void) {
    uint16_t local[10];
    memcpy(ram_table, (void *)0, sizeof(ram_table));
    use(sizeof local / sizeof local[0]);
}
`
	evalCases(t, code, map[string]string{
		`c.eval_int(code, "sizeof(ram_table)")`:                                 "192",
		`c.eval_int(code, "sizeof(ram_table) / sizeof(ram_table[0])")`:          "48",
		`c.eval_int(code, "NUM_VECTORS * sizeof(vector_t)")`:                    "192",
		`c.eval_int(code, "sizeof(frames)")`:                                    "64",
		`c.eval_int(code, "sizeof(frames[1])")`:                                 "16",
		`c.eval_int(code, "sizeof *frames")`:                                    "16",
		`c.eval_int(code, "sizeof(local)", function = "copy")`:                  "20",
		`c.eval_int(code, "sizeof local / sizeof local[0]", function = "copy")`: "10",
		`c.eval_int(code, "sizeof(local)")`:                                     "None",
		`c.eval_int(code, "sizeof(names)")`:                                     "None",
		`c.eval_int(code, "sizeof(settings)")`:                                  "None",
		`c.eval_int(code, "sizeof(long)")`:                                      "None",
		`c.eval_int(code, "sizeof(frames[0][0][0])")`:                           "None",
	})
}
