package csyntax

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var testSharing = ISRSharing{
	Enter:   []string{"irq_lock", "k_spin_lock", "__disable_irq", "taskENTER_CRITICAL", "NVIC_DisableIRQ"},
	Exit:    []string{"irq_unlock", "k_spin_unlock", "__enable_irq", "taskEXIT_CRITICAL", "NVIC_EnableIRQ"},
	Enable:  []string{"__enable_irq", "NVIC_EnableIRQ", "irq_enable", "gpio_add_callback"},
	Objects: []string{"k_spinlock"},
}

var testKinds = EntryKinds{"gpio_init_callback": "isr", "K_THREAD_DEFINE": "thread", "k_work_init": "work"}

func sharedByName(t *testing.T, code string) map[string]SharedVar {
	t.Helper()
	out := map[string]SharedVar{}
	for _, v := range parse(t, code).SharedWithISR(testKinds, testSharing, 6, testHalting) {
		out[v.Name] = v
	}
	return out
}

func TestSharedWithISRIdioms(t *testing.T) {
	vars := sharedByName(t, `
static volatile uint32_t ticks;
static uint32_t events;
static atomic_t presses;
static uint32_t nested;
static uint32_t helper_guarded;
static uint32_t masked_line;
static uint32_t racy;
static uint32_t isr_only;
static const uint32_t table[4] = {1, 2, 3, 4};
static struct k_spinlock lock;

static void bump(void) { helper_guarded++; }

void TIM2_IRQHandler(void) {
	ticks++; events++; atomic_inc(&presses); nested++; helper_guarded++; masked_line++; racy++; isr_only++;
	(void)table[0];
}

int main(void) {
	racy = 0;           /* before the handler is live: fine */
	NVIC_EnableIRQ(TIM2_IRQn);
	for (;;) {
		unsigned key = irq_lock();
		events = 0;
		irq_unlock(key);
		if (atomic_get(&presses) > 3) { }
		__disable_irq();
		taskENTER_CRITICAL();
		nested = 0;
		taskEXIT_CRITICAL();
		nested += 1;        /* still inside __disable_irq */
		__enable_irq();
		k_spinlock_key_t k = k_spin_lock(&lock);
		bump();
		k_spin_unlock(&lock, k);
		NVIC_DisableIRQ(TIM2_IRQn);
		masked_line = 0;
		NVIC_EnableIRQ(TIM2_IRQn);
		if (ticks > 100) { racy = 1; }
		(void)table[1];
	}
}
`)
	for name, want := range map[string]Tristate{
		"events": Yes, "presses": Yes, "nested": Yes, "helper_guarded": Yes, "masked_line": Yes, "racy": No, "ticks": No,
	} {
		v, ok := vars[name]
		require.True(t, ok, name)
		assert.Equal(t, want, v.Protected, name)
		assert.Equal(t, []string{"TIM2_IRQHandler"}, v.ISR, name)
		assert.Equal(t, []string{"main"}, v.Threads, name)
	}
	assert.True(t, vars["ticks"].Volatile)
	assert.True(t, vars["presses"].Atomic)
	require.Len(t, vars["racy"].Unprotected, 1)
	assert.Equal(t, Site{Function: "main", Line: 40, Via: []string{}, Name: "racy", Verdict: No}, vars["racy"].Unprotected[0])
	assert.NotContains(t, vars, "isr_only")
	assert.NotContains(t, vars, "table", "const data is not shared state")
	assert.NotContains(t, vars, "lock", "only main uses the spinlock object")
}

func TestSharedWithISRThreadsAreLiveFromTheStart(t *testing.T) {
	vars := sharedByName(t, `
static int count;
static void on_press(const struct device *d, struct gpio_callback *cb, uint32_t pins) { count++; }
static void worker(void *a, void *b, void *c) { for (;;) { count = 0; k_msleep(10); } }
K_THREAD_DEFINE(tid, 512, worker, NULL, NULL, NULL, 5, 0, 0);
int main(void) {
	count = 5;
	gpio_init_callback(&cb, on_press, BIT(3));
	gpio_add_callback(dev, &cb);
	return 0;
}
`)
	v := vars["count"]
	assert.Equal(t, No, v.Protected)
	assert.Equal(t, []string{"worker", "main"}, v.Threads, "in the order of their definitions")
	require.Len(t, v.Unprotected, 1, "main's store comes before the callback is live; the thread's does not")
	assert.Equal(t, "worker", v.Unprotected[0].Function)
}

func TestSharedWithISRUnknowns(t *testing.T) {
	// Inline assembly in functions opens and closes sections; in macros,
	// or writing PRIMASK, it leaves the answer open, as does a call through
	// a pointer that may unlock.
	asm := sharedByName(t, `
static int n;
void SysTick_Handler(void) { n++; }
int main(void) { NVIC_EnableIRQ(SysTick_IRQn); __asm volatile ("cpsid i"); n = 0; __asm volatile ("cpsie i"); return 0; }
`)
	assert.Equal(t, Yes, asm["n"].Protected, "cpsid i ... cpsie i is a critical section")
	macro := sharedByName(t, `
#define LOCK() __asm volatile ("cpsid i")
#define UNLOCK() __asm volatile ("cpsie i")
static int n;
void SysTick_Handler(void) { n++; }
int main(void) { NVIC_EnableIRQ(SysTick_IRQn); LOCK(); n = 0; UNLOCK(); return 0; }
`)
	assert.Equal(t, Unknown, macro["n"].Protected, "a masking macro is a call the analysis cannot see into")
	primask := sharedByName(t, `
static int n;
void SysTick_Handler(void) { n++; }
int main(void) { NVIC_EnableIRQ(SysTick_IRQn); __asm volatile ("msr primask, %0" :: "r" (1)); n = 0; return 0; }
`)
	assert.Equal(t, Unknown, primask["n"].Protected)
	open := sharedByName(t, `
static int n;
void SysTick_Handler(void) { n++; }
int main(void) { NVIC_EnableIRQ(SysTick_IRQn); __asm volatile ("cpsid i"); __asm volatile ("cpsie i"); n = 0; return 0; }
`)
	assert.Equal(t, No, open["n"].Protected, "the section closed before the store")
	ptr := sharedByName(t, `
static int n;
void (*hook)(void);
void SysTick_Handler(void) { n++; }
int main(void) { NVIC_EnableIRQ(SysTick_IRQn); __disable_irq(); hook(); n = 0; __enable_irq(); return 0; }
`)
	assert.Equal(t, Unknown, ptr["n"].Protected)
}

func TestSharedWithISRIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("static int n;\nvoid SysTick_Handler(void) { n++; }\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "void f%d(void) { if (n) f%d(); else { irq_lock(); f%d(); irq_unlock(0); } n = %d; }\n", i, i+1, i+1, i)
	}
	b.WriteString("int main(void) { NVIC_EnableIRQ(1); f0(); return 0; }\n")
	vars := parse(t, b.String()).SharedWithISR(testKinds, testSharing, MaxTraceDepth, testHalting)
	require.Len(t, vars, 1)
	assert.Equal(t, No, vars[0].Protected, "f0's own store after the if is unguarded on the first path")
}
