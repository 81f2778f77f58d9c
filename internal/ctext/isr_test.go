package ctext

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func isrNames(code string) []string {
	var names []string
	for _, f := range ISRBodies(code, isrVocab()) {
		names = append(names, f.Name)
	}
	return names
}

func TestISRBodies(t *testing.T) {
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
		{"registered and named once, source order", "void b_isr(void) { }\nvoid a(void) { }\nvoid init(void) { IRQ_CONNECT(1, 0, b_isr, NULL, 0); IRQ_CONNECT(2, 0, a, NULL, 0); IRQ_CONNECT(3, 0, a, NULL, 0); }\n", []string{"b_isr", "a"}},
		{"registered elsewhere", "void init(void) { IRQ_CONNECT(1, 0, ext_handler, NULL, 0); }\n", nil},
		{"mention in comment does not register", "void h(void) { }\n/* IRQ_CONNECT(1, 0, h, NULL, 0); */\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, isrNames(tt.code))
		})
	}
}

func TestISRForbiddenCalls(t *testing.T) {
	tests := []struct {
		name      string
		code      string
		forbidden []string
		want      []Violation
	}{
		{
			name: "sleep in zephyr isr",
			code: "static void my_isr(const void *arg)\n{\n\tprintk(\"x\");\n\tk_msleep(10);\n\tk_busy_wait(5);\n}\n",
			want: []Violation{{Function: "my_isr", API: "k_msleep", Line: 4}},
		},
		{
			name: "not in isr",
			code: "void worker(void)\n{\n\tk_msleep(10);\n}\n",
			want: nil,
		},
		{
			name: "sem take timeout",
			code: "void t_isr(void)\n{\n\tk_sem_take(&s, K_NO_WAIT);\n\tk_sem_take(&s, K_FOREVER);\n\tk_msgq_put(&q, &d, K_NO_WAIT);\n\tk_msgq_get(&q, &d, K_MSEC(5));\n\tk_mutex_lock(&m, K_NO_WAIT);\n}\n",
			want: []Violation{
				{Function: "t_isr", API: "k_sem_take", Line: 4},
				{Function: "t_isr", API: "k_msgq_get", Line: 6},
				{Function: "t_isr", API: "k_mutex_lock", Line: 7},
			},
		},
		{
			name: "gfp flags",
			code: "static irqreturn_t h(int irq, void *d)\n{\n\tp = kmalloc(16, GFP_ATOMIC);\n\tq = kzalloc(16,\n\t\tGFP_KERNEL | __GFP_ZERO);\n\tmutex_lock(&m);\n\treturn IRQ_HANDLED;\n}\nint probe(void) { return request_irq(1, h, 0, \"x\", NULL); }\n",
			want: []Violation{
				{Function: "h", API: "kzalloc", Line: 4},
				{Function: "h", API: "mutex_lock", Line: 6},
			},
		},
		{
			name: "comments strings and FromISR forms",
			code: "void EXTI0_IRQHandler(void)\n{\n\t/* HAL_Delay(10); */\n\tputs(\"vTaskDelay(1)\");\n\txSemaphoreGiveFromISR(s, &w);\n\tHAL_Delay(1);\n}\n",
			want: []Violation{{Function: "EXTI0_IRQHandler", API: "HAL_Delay", Line: 6}},
		},
		{
			name: "FreeRTOS critical sections and timer commands",
			code: "void TIMER0_IRQHandler(void)\n{\n\tUBaseType_t s = taskENTER_CRITICAL_FROM_ISR();\n\ttaskEXIT_CRITICAL_FROM_ISR(s);\n\ttaskENTER_CRITICAL();\n\txTimerStart(t, 0);\n\txTimerStartFromISR(t, &w);\n}\n",
			want: []Violation{{Function: "TIMER0_IRQHandler", API: "taskENTER_CRITICAL", Line: 5}, {Function: "TIMER0_IRQHandler", API: "xTimerStart", Line: 6}},
		},
		{
			name: "esp log",
			code: "static void IRAM_ATTR gpio_isr(void *a)\n{\n\tESP_EARLY_LOGI(TAG, \"x\");\n\tESP_LOGI(TAG, \"y\");\n}\n",
			want: []Violation{{Function: "gpio_isr", API: "ESP_LOGI", Line: 4}},
		},
		{
			name: "member call is not libc free",
			code: "void d_isr(void)\n{\n\tpool->free(p);\n\tops.free(p);\n\tfree(p);\n}\n",
			want: []Violation{{Function: "d_isr", API: "free", Line: 5}},
		},
		{
			name:      "custom list and order",
			code:      "void a_isr(void)\n{\n\tfoo(); bar();\n}\n",
			forbidden: []string{"foo", "bar(", "bar", ""},
			want: []Violation{
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, ISRForbiddenCalls(tt.code, tt.forbidden, isrVocab()))
		})
	}
}
