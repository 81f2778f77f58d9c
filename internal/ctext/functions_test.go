package ctext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const driverC = `#include <linux/module.h>
#define DRV_NAME "demo" /* { not a brace */

static int demo_init(void);   /* prototype */

static irqreturn_t demo_irq(int irq, void *dev_id)
{
	/* } comment brace */
	pr_info("irq { %d }\n", irq);
	return IRQ_HANDLED;
}

static void __isr my_isr(const void *arg)
{
	char c = '}';
	k_sem_give(&sem);
}

void IRAM_ATTR gpio_isr(void *arg)
{
	xQueueSendFromISR(q, &arg, NULL);
}

__attribute__((interrupt("IRQ"))) void raw_handler(void)
{
	flag = 1;
}

ISR_DIRECT_DECLARE(direct_isr)
{
	ISR_DIRECT_PM();
	return 1;
}

static struct k_work *
pick_work(int n)
{
	if (n) {
		return &w1;
	}
	return &w2;
}

int old_style(a, b)
int a;
char *b;
{
	return a;
}

K_THREAD_DEFINE(tid, 512, worker, NULL, NULL, NULL, 7, 0, 0);

static int demo_init(void)
{
	int ret = request_irq(irq, demo_irq, 0, DRV_NAME, NULL);
	while (ret) {
		ret--;
	}
	return ret;
}
`

func TestFunctions(t *testing.T) {
	fs := NewSource(driverC).Functions()
	var names []string
	for _, f := range fs {
		names = append(names, f.Name)
		require.Equal(t, f.Body, StripComments(driverC)[f.BodyOffset:f.BodyOffset+len(f.Body)], f.Name)
		require.Equal(t, byte('{'), driverC[f.BodyOffset-1], f.Name)
	}
	require.Equal(t, []string{"demo_irq", "my_isr", "gpio_isr", "raw_handler", "direct_isr", "pick_work", "old_style", "demo_init"}, names)
	require.Equal(t, 6, fs[0].Line)
	require.Equal(t, 29, fs[4].Line)
}

func TestFunctionBody(t *testing.T) {
	tests := []struct {
		name, fn  string
		wantOK    bool
		contains  []string
		excludes  []string
		trimEqual string
	}{
		{name: "braces in strings and comments", fn: "demo_irq", wantOK: true,
			contains: []string{`pr_info("irq { %d }\n", irq);`, "return IRQ_HANDLED;"}, excludes: []string{"comment brace"}},
		{name: "char brace", fn: "my_isr", wantOK: true, contains: []string{"k_sem_give(&sem);"}},
		{name: "IRAM_ATTR", fn: "gpio_isr", wantOK: true, trimEqual: "xQueueSendFromISR(q, &arg, NULL);"},
		{name: "attribute list", fn: "raw_handler", wantOK: true, trimEqual: "flag = 1;"},
		{name: "wrapper macro", fn: "direct_isr", wantOK: true, contains: []string{"ISR_DIRECT_PM();"}},
		{name: "pointer return with nested braces", fn: "pick_work", wantOK: true, contains: []string{"return &w1;\n\t}", "return &w2;"}},
		{name: "K&R", fn: "old_style", wantOK: true, trimEqual: "return a;"},
		{name: "definition after prototype", fn: "demo_init", wantOK: true, contains: []string{"request_irq", "ret--;"}},
		{name: "macro without body", fn: "K_THREAD_DEFINE", wantOK: false},
		{name: "only called", fn: "request_irq", wantOK: false},
		{name: "keyword", fn: "while", wantOK: false},
		{name: "missing", fn: "nope", wantOK: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, ok := NewSource(driverC).FunctionBody(tt.fn)
			require.Equal(t, tt.wantOK, ok)
			if !ok {
				require.Empty(t, body)
				return
			}
			for _, c := range tt.contains {
				require.Contains(t, body, c)
			}
			for _, c := range tt.excludes {
				require.NotContains(t, body, c)
			}
			if tt.trimEqual != "" {
				require.Equal(t, tt.trimEqual, strings.TrimSpace(body))
			}
		})
	}
}

func TestFunctionsEdgeCases(t *testing.T) {
	tests := []struct {
		name, code string
		want       []string
	}{
		{"unterminated body", "void f(void)\n{\n\tint x;\n", []string{"f"}},
		{"define with braces ignored", "#define INIT(x) { .a = (x) }\nvoid g(void) {}\n", []string{"g"}},
		{"extern C block", "extern \"C\" {\nvoid h(void) { }\n}\n", []string{"h"}},
		{"macro call without semicolon", "LOG_MODULE_REGISTER(app)\nvoid k(void) { }\n", []string{"k"}},
		{"struct and initializer", "struct s { int (*cb)(void); };\nstatic struct s v = { .cb = NULL };\nint m(void) { return 0; }\n", []string{"m"}},
		{"prototype then struct", "int p();\nstruct t { int a; };\n", nil},
		{"ztest", "ZTEST(suite, test_one)\n{\n\tzassert_true(1);\n}\n", []string{"test_one"}},
		{"avr isr", "ISR(TIMER1_COMPA_vect, ISR_NOBLOCK)\n{\n\tPORTB ^= 1;\n}\n", []string{"TIMER1_COMPA_vect"}},
		{"stray closers", "}}) void q(void) { }\n", []string{"q"}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var names []string
			for _, f := range NewSource(tt.code).Functions() {
				names = append(names, f.Name)
			}
			require.Equal(t, tt.want, names)
		})
	}
}

func TestAPIInFunction(t *testing.T) {
	tests := []struct {
		name, fn, api string
		want          bool
	}{
		{"called in body", "demo_init", "request_irq", true},
		{"not in that body", "demo_irq", "request_irq", false},
		{"in string only", "demo_irq", "irq", false},
		{"called", "demo_irq", "pr_info", true},
		{"wrapper", "direct_isr", "ISR_DIRECT_PM", true},
		{"function missing", "nope", "pr_info", false},
		{"file-scope macro is not a body", "worker", "K_THREAD_DEFINE", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, NewSource(driverC).APIInFunction(tt.fn, tt.api))
		})
	}
}
