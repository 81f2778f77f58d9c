package csyntax

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/isrctx"
)

// isrVocab is the embedded interrupt context vocabulary.
func isrVocab(t testing.TB) *isrctx.Vocabulary {
	t.Helper()
	v, err := isrctx.Default()
	require.NoError(t, err)
	return v
}

func isrNames(t testing.TB, code string) []string {
	t.Helper()
	var out []string
	for _, d := range parse(t, code).ISRDefinitions(isrVocab(t)) {
		out = append(out, d.Name)
	}
	return out
}

func isrForbidden(t testing.TB, code string, forbidden []string) []ISRViolation {
	t.Helper()
	return parse(t, code).ISRForbiddenCalls(forbidden, isrVocab(t))
}

func TestISRDefinitions(t *testing.T) {
	tests := []struct {
		name, code string
		want       []string
	}{
		{"zephyr IRQ_CONNECT", "static void handler(const void *arg) { }\nvoid init(void) { IRQ_CONNECT(DT_INST_IRQN(0), 2, handler, DEVICE_DT_INST_GET(0), 0); }\n", []string{"handler"}},
		{"gpio callback", "static void pressed(const struct device *d, struct gpio_callback *cb, uint32_t p) { }\nvoid init(void) { gpio_init_callback(&cb, pressed, BIT(3)); }\n", []string{"pressed"}},
		{"k_timer both fns", "void expiry(struct k_timer *t) { }\nvoid stopped(struct k_timer *t) { }\nvoid work(struct k_work *w) { }\nvoid init(void) { k_timer_init(&t, expiry, stopped); k_work_init(&w, work); }\n", []string{"expiry", "stopped"}},
		{"irq_connect_dynamic", "void dyn(const void *p) { }\nvoid init(void) { irq_connect_dynamic(5, 1, dyn, NULL, 0); }\n", []string{"dyn"}},
		{"linux request_irq with cast", "static irqreturn_t foo_irq(int irq, void *dev_id) { return IRQ_HANDLED; }\nint probe(void) { return request_irq(irq, (irq_handler_t)foo_irq, 0, \"foo\", NULL); }\n", []string{"foo_irq"}},
		{"devm_request_irq", "static irqreturn_t h(int irq, void *d) { return IRQ_HANDLED; }\nint probe(struct device *dev) { return devm_request_irq(dev, irq, h, 0, \"x\", NULL); }\n", []string{"h"}},
		{"threaded primary only", "static irqreturn_t top(int i, void *d) { return IRQ_WAKE_THREAD; }\nstatic irqreturn_t bottom(int i, void *d) { msleep(1); return IRQ_HANDLED; }\nint probe(void) { return request_threaded_irq(irq, top, bottom, 0, \"x\", NULL); }\n", []string{"top"}},
		{"esp gpio_isr_handler_add", "static void IRAM_ATTR on_edge(void *arg) { }\nvoid app_main(void) { gpio_isr_handler_add(GPIO_NUM_4, on_edge, NULL); }\n", []string{"on_edge"}},
		{"naming conventions", "void uart_isr(void) { }\nvoid TIM2_IRQHandler(void) { }\nvoid HAL_GPIO_EXTI_Callback(uint16_t pin) { }\nvoid spi_irq_handler(void) { }\nvoid TIMER_ISR(void) { }\nvoid HAL_MspInit(void) { }\nvoid isr(void) { }\n", []string{"uart_isr", "TIM2_IRQHandler", "HAL_GPIO_EXTI_Callback", "spi_irq_handler", "TIMER_ISR"}},
		{"decorations", "static void __isr a(const void *p) { }\n__attribute__((interrupt)) void b(void) { }\nvoid __attribute__((interrupt(\"IRQ\"))) c(void) { }\nISR_DIRECT_DECLARE(d) { return 0; }\nISR(INT0_vect) { }\nvoid plain(void) { }\n", []string{"a", "b", "c", "d", "INT0_vect"}},
		{"more decorations", "static __irq void e(void) { }\n__interrupt void g(void) { }\n[[gnu::interrupt]] void h(void) { }\nvoid __attribute__((signal, used)) s(void) { }\nvoid __attribute__((section(\"isr\"))) in_string(void) { }\nstatic void IRAM_ATTR iram_only(void *a) { }\n", []string{"e", "g", "h", "s"}},
		{"registered and named once, source order", "void b_isr(void) { }\nvoid a(void) { }\nvoid init(void) { IRQ_CONNECT(1, 0, b_isr, NULL, 0); IRQ_CONNECT(2, 0, a, NULL, 0); IRQ_CONNECT(3, 0, a, NULL, 0); }\n", []string{"b_isr", "a"}},
		{"registered elsewhere", "void init(void) { IRQ_CONNECT(1, 0, ext_handler, NULL, 0); }\n", nil},
		{"mention in comment does not register", "void h(void) { }\n/* IRQ_CONNECT(1, 0, h, NULL, 0); */\n", nil},
		{"registration on a #define line does not register", "void h(void) { }\n#define HOOK() IRQ_CONNECT(1, 0, h, NULL, 0)\n", nil},
		{"registered through a cast to a function pointer type", "static void tick(void *p) { }\nvoid init(void) { gpio_isr_handler_add(4, (gpio_isr_t)(void (*)(void *))&tick, NULL); }\n", []string{"tick"}},
		{"a function pointer variable is not followed", "static void tick(void *p) { }\nvoid init(void) { gpio_isr_t cb = tick; gpio_isr_handler_add(4, cb, NULL); }\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, isrNames(t, tt.code))
		})
	}
}

func TestISRDefinitionsPositions(t *testing.T) {
	code := "int x;\nvoid TIM2_IRQHandler(void)\n{\n\tx++;\n}\n"
	defs := parse(t, code).ISRDefinitions(isrVocab(t))
	require.Len(t, defs, 1)
	require.Equal(t, 2, defs[0].Line)
	require.Equal(t, "\n\tx++;\n", code[defs[0].Open+1:defs[0].Close])
}

func TestISRForbiddenCalls(t *testing.T) {
	tests := []struct {
		name      string
		code      string
		forbidden []string
		want      []ISRViolation
	}{
		{
			name: "sleep in zephyr isr",
			code: "static void my_isr(const void *arg)\n{\n\tprintk(\"x\");\n\tk_msleep(10);\n\tk_busy_wait(5);\n}\n",
			want: []ISRViolation{{Function: "my_isr", API: "k_msleep", Line: 4}},
		},
		{
			name: "not in isr",
			code: "void worker(void)\n{\n\tk_msleep(10);\n}\n",
			want: nil,
		},
		{
			name: "sem take timeout",
			code: "void t_isr(void)\n{\n\tk_sem_take(&s, K_NO_WAIT);\n\tk_sem_take(&s, K_FOREVER);\n\tk_msgq_put(&q, &d, K_NO_WAIT);\n\tk_msgq_get(&q, &d, K_MSEC(5));\n\tk_mutex_lock(&m, K_NO_WAIT);\n}\n",
			want: []ISRViolation{
				{Function: "t_isr", API: "k_sem_take", Line: 4},
				{Function: "t_isr", API: "k_msgq_get", Line: 6},
				{Function: "t_isr", API: "k_mutex_lock", Line: 7},
			},
		},
		{
			name: "gfp flags",
			code: "static irqreturn_t h(int irq, void *d)\n{\n\tp = kmalloc(16, GFP_ATOMIC);\n\tq = kzalloc(16,\n\t\tGFP_KERNEL | __GFP_ZERO);\n\tmutex_lock(&m);\n\treturn IRQ_HANDLED;\n}\nint probe(void) { return request_irq(1, h, 0, \"x\", NULL); }\n",
			want: []ISRViolation{
				{Function: "h", API: "kzalloc", Line: 4},
				{Function: "h", API: "mutex_lock", Line: 6},
			},
		},
		{
			name: "comments strings and FromISR forms",
			code: "void EXTI0_IRQHandler(void)\n{\n\t/* HAL_Delay(10); */\n\tputs(\"vTaskDelay(1)\");\n\txSemaphoreGiveFromISR(s, &w);\n\tHAL_Delay(1);\n}\n",
			want: []ISRViolation{{Function: "EXTI0_IRQHandler", API: "HAL_Delay", Line: 6}},
		},
		{
			name: "FreeRTOS critical sections and timer commands",
			code: "void TIMER0_IRQHandler(void)\n{\n\tUBaseType_t s = taskENTER_CRITICAL_FROM_ISR();\n\ttaskEXIT_CRITICAL_FROM_ISR(s);\n\ttaskENTER_CRITICAL();\n\txTimerStart(t, 0);\n\txTimerStartFromISR(t, &w);\n}\n",
			want: []ISRViolation{{Function: "TIMER0_IRQHandler", API: "taskENTER_CRITICAL", Line: 5}, {Function: "TIMER0_IRQHandler", API: "xTimerStart", Line: 6}},
		},
		{
			name: "esp log",
			code: "static void IRAM_ATTR gpio_isr(void *a)\n{\n\tESP_EARLY_LOGI(TAG, \"x\");\n\tESP_LOGI(TAG, \"y\");\n}\n",
			want: []ISRViolation{{Function: "gpio_isr", API: "ESP_LOGI", Line: 4}},
		},
		{
			name: "member call is not libc free",
			code: "void d_isr(void)\n{\n\tpool->free(p);\n\tops.free(p);\n\tfree(p);\n}\n",
			want: []ISRViolation{{Function: "d_isr", API: "free", Line: 5}},
		},
		{
			name: "call through an api table is a member call",
			code: "void d_isr(void)\n{\n\tdev->api->k_msleep(1);\n\t(*fp)(2);\n\tk_msleep(3);\n}\n",
			want: []ISRViolation{{Function: "d_isr", API: "k_msleep", Line: 5}},
		},
		{
			name: "calls in macro arguments count",
			code: "void log_isr(void)\n{\n\tLOG_INF(\"%d\", osDelay(1));\n\tCHECK(k_sem_take(&s, K_NO_WAIT) == 0);\n}\n",
			want: []ISRViolation{{Function: "log_isr", API: "osDelay", Line: 3}},
		},
		{
			name:      "custom list and order",
			code:      "void a_isr(void)\n{\n\tfoo(); bar();\n}\n",
			forbidden: []string{"foo", "bar(", "bar", ""},
			want: []ISRViolation{
				{Function: "a_isr", API: "bar", Line: 3},
				{Function: "a_isr", API: "foo", Line: 3},
			},
		},
		{
			name:      "empty custom list",
			code:      "void a_isr(void)\n{\n\tk_msleep(1);\n}\n",
			forbidden: []string{},
			want:      nil,
		},
		{
			name:      "attribute arguments are not calls in the body",
			code:      "void __attribute__((interrupt(\"IRQ\"))) c(void)\n{\n\tk_msleep(1);\n}\n",
			forbidden: []string{"interrupt", "k_msleep"},
			want:      []ISRViolation{{Function: "c", API: "k_msleep", Line: 3}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, isrForbidden(t, tt.code, tt.forbidden))
		})
	}
}

func TestCMSISHandlersAreISRs(t *testing.T) {
	code := "void Reset_Handler(void) { main(); }\nvoid SysTick_Handler(void) { ticks++; printf(\"x\"); }\nvoid UART0_Handler(void) { }\n"
	require.Equal(t, []string{"SysTick_Handler", "UART0_Handler"}, isrNames(t, code))
	require.Equal(t, []ISRViolation{{Function: "SysTick_Handler", API: "printf", Line: 2}}, isrForbidden(t, code, nil))
}

func TestKTimerDefineExpiryIsAnISR(t *testing.T) {
	code := "static void expiry(struct k_timer *t) { k_msleep(1); }\nstatic void stopped(struct k_timer *t) { }\nK_TIMER_DEFINE(tick, expiry, stopped);\nint main(void) { k_timer_start(&tick, K_MSEC(1), K_MSEC(1)); return 0; }\n"
	require.Equal(t, []string{"expiry", "stopped"}, isrNames(t, code))
	require.Equal(t, []ISRViolation{{Function: "expiry", API: "k_msleep", Line: 1}}, isrForbidden(t, code, nil))
}

func TestSampleZephyrAppISR(t *testing.T) {
	code := readTestdata(t, "zephyr_button.c")
	require.Equal(t, []string{"button_pressed"}, isrNames(t, code))
	require.Empty(t, isrForbidden(t, code, nil), "printk and k_cycle_get_32 are ISR-safe")
	f := parse(t, code)
	require.True(t, f.QualifierOnVariable("presses", "volatile"))
	require.False(t, f.QualifierOnVariable("button_cb", "volatile"))
}

// A macro the parser cannot read leaves the rest of the handler readable:
// the forbidden call after it is still found, the one inside it too.
func TestISRForbiddenAfterUnparsableMacro(t *testing.T) {
	code := "void uart_isr(void)\n{\n\tLISTIFY(3, SLOT, (;), buf)\n\tFOR_EACH(k_msleep, (;), 1, 2);\n\tHAL_Delay(1);\n}\n"
	require.Equal(t, []string{"uart_isr"}, isrNames(t, code))
	require.Equal(t, []ISRViolation{{Function: "uart_isr", API: "HAL_Delay", Line: 5}}, isrForbidden(t, code, nil))
}

// Helpers an ISR calls are not followed, so a recursive helper neither
// loops nor counts; a handler that calls itself is reported once per call.
func TestISRRecursion(t *testing.T) {
	code := "static void deep(int n) { if (n) deep(n - 1); k_msleep(1); }\nvoid tick_isr(void)\n{\n\tdeep(3);\n\ttick_isr();\n\tprintf(\"x\");\n}\n"
	require.Equal(t, []string{"tick_isr"}, isrNames(t, code))
	require.Equal(t, []ISRViolation{{Function: "tick_isr", API: "printf", Line: 6}}, isrForbidden(t, code, nil))
}

// manyFunctions is a file of n small functions, every tenth an ISR that
// sleeps and every one registering the next as a timer handler.
func manyFunctions(n int) string {
	var b strings.Builder
	for i := range n {
		if i%10 == 0 {
			fmt.Fprintf(&b, "void f%d_isr(void)\n{\n\tk_msleep(%d);\n}\n", i, i)
			continue
		}
		fmt.Fprintf(&b, "static volatile int v%d;\nvoid f%d(void)\n{\n\tv%d++;\n\tk_timer_init(&t, f%d, NULL);\n\tfree_irq(%d, d);\n\tclk_disable_unprepare(c);\n\treturn;\n}\n", i, i, i, i+1, i)
	}
	return b.String()
}

// The helpers stay fast on a 5,000-function file; the time is logged,
// never asserted.
func TestISRHelpersOnFiveThousandFunctions(t *testing.T) {
	code := manyFunctions(5000)
	v := isrVocab(t)
	start := time.Now()
	f := parse(t, code)
	parsed := time.Since(start)
	defs := f.ISRDefinitions(v)
	vs := f.ISRForbiddenCalls(nil, v)
	ok, why := f.ExplainCleanupOrder([][2]string{{"clk_prepare_enable", "clk_disable_unprepare"}, {"request_irq", "free_irq"}})
	q := f.QualifierOnVariable("v4999", "volatile")
	t.Logf("5000 functions, %d bytes: parse %v, ISR bodies + forbidden calls + cleanup order + qualifier %v", len(code), parsed, time.Since(start)-parsed)
	require.Len(t, vs, 500)
	require.Len(t, defs, 4500, "500 ISRs by name, and f2..f9 of every ten registered as timer handlers")
	require.True(t, ok, why)
	require.True(t, q)
}
