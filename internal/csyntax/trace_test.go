package csyntax

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// brief renders events compactly for comparison.
func brief(evs []Event) []string {
	out := make([]string, 0, len(evs))
	for _, e := range evs {
		s := e.Kind
		switch e.Kind {
		case "call":
			s += " " + e.Name + "(" + strings.Join(e.Args, ", ") + ")"
			if e.Entered {
				s += " >"
			}
		case "store":
			s += " " + e.Name + " " + e.Op + " " + e.Value
		case "return", "if", "loop", "switch":
			if e.Value != "" {
				s += " " + e.Value
			}
		case "goto", "label":
			s += " " + e.Name
		}
		if len(e.Via) > 0 {
			s += " [" + strings.Join(e.Via, "/") + "]"
		}
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

func TestTraceEntersHelpersWithArguments(t *testing.T) {
	f := parse(t, `
#define PERIOD_MS 500
static int set_div(volatile unsigned *reg, unsigned div) {
	unsigned v = *reg;
	v &= ~0xffu;
	v |= div;
	*reg = v;
	return 0;
}
static void blink(int pin) {
	for (;;) {
		gpio_toggle(pin);
		k_msleep(PERIOD_MS);
	}
}
int main(void) {
	int rc = set_div(&UART->BRR, 16);
	if (rc != 0) {
		return rc;
	} else {
		log("ok");
	}
	blink(LED);
	return 0;
}
`)
	got := brief(f.Trace("main", 4, testHalting))
	assert.Equal(t, []string{
		"call set_div(&UART->BRR, 16) >",
		"store v = *(&UART->BRR) [set_div]",
		"store v &= ~0xffu [set_div]",
		"store v |= 16 [set_div]",
		"store *(&UART->BRR) = v [set_div]",
		"return 0 [set_div]",
		"store rc = set_div(&UART->BRR, 16)",
		"if rc != 0",
		"return rc",
		"else",
		"call log(\"ok\")",
		"end",
		"call blink(LED) >",
		"loop [blink]",
		"call gpio_toggle(LED) [blink]",
		"call k_msleep(PERIOD_MS) [blink]",
		"end [blink]",
		"return 0",
	}, got)
	evs := f.Trace("main", 4, testHalting)
	assert.Equal(t, "set_div", evs[1].Function)
	assert.Equal(t, 4, evs[1].Line)
	assert.True(t, evs[13].Forever)
	assert.Nil(t, f.Trace("missing", 4, testHalting))
}

func TestTraceBoundsDepthAndRecursion(t *testing.T) {
	f := parse(t, `
void leaf(void) { hw(); }
void mid(void) { leaf(); }
void top(void) { mid(); top(); }
void ping(int n) { pong(n); }
void pong(int n) { ping(n - 1); }
`)
	assert.Equal(t, []string{"call mid()", "call top()"}, brief(f.Trace("top", 0, nil)))
	assert.Equal(t, []string{"call mid() >", "call leaf() [mid]", "call top()"}, brief(f.Trace("top", 1, nil)))
	assert.Equal(t, []string{"call mid() >", "call leaf() > [mid]", "call hw() [mid/leaf]", "call top()"}, brief(f.Trace("top", 9, nil)),
		"a function being entered is not entered again")
	assert.Equal(t, []string{"call pong(n) >", "call ping(n - 1) [pong]"}, brief(f.Trace("ping", 9, nil)))
}

func TestTraceCallsThroughPointersAreNotEntered(t *testing.T) {
	f := parse(t, `
void handler(void) { work(); }
void (*cb)(void) = handler;
void run(void (*fn)(void)) { fn(); cb(); dev->api->go(dev); }
`)
	evs := f.Trace("run", 4, nil)
	require.Len(t, evs, 3)
	assert.False(t, evs[0].Entered, "a parameter named like nothing defined")
	assert.Equal(t, "fn", evs[0].Name)
	assert.True(t, evs[2].Pointer)
	assert.Equal(t, []string{"dev"}, evs[2].Args)
}

func TestTraceIsBoundedOnHugeFiles(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "void f%d(void) { f%d(); f%d(); }\n", i, i+1, i+1)
	}
	f := parse(t, b.String())
	evs := f.Trace("f0", MaxTraceDepth, nil)
	require.NotEmpty(t, evs)
	assert.LessOrEqual(t, len(evs), maxTraceEvents+1)
	assert.Equal(t, "truncated", evs[len(evs)-1].Kind, "2^16 paths are cut at the event bound")
}

func TestEntryPoints(t *testing.T) {
	f := parse(t, `
static void button_pressed(const struct device *d, struct gpio_callback *cb, uint32_t pins) {}
static void tick(struct k_timer *t) {}
static void worker(void *a, void *b, void *c) {}
static int probe(struct platform_device *pdev) { return 0; }
static void helper(void) {}
void USART2_IRQHandler(void) { helper(); }
static struct platform_driver drv = { .probe = probe };
K_THREAD_DEFINE(worker_id, 1024, worker, NULL, NULL, NULL, 5, 0, 0);
int main(void) {
	gpio_init_callback(&cb, button_pressed, BIT(3));
	k_timer_init(&timer, tick, NULL);
	helper();
	return 0;
}
`)
	kinds := EntryKinds{"gpio_init_callback": "isr", "k_timer_init": "timer", "K_THREAD_DEFINE": "thread", ".probe": "init"}
	var got []string
	for _, e := range f.EntryPoints(kinds) {
		got = append(got, e.Name+":"+e.Kind+":"+e.Via)
	}
	assert.Equal(t, []string{
		"button_pressed:isr:gpio_init_callback", "tick:timer:k_timer_init", "worker:thread:K_THREAD_DEFINE",
		"probe:init:.probe", "USART2_IRQHandler:handler:", "main:main:",
	}, got)
	assert.Equal(t, "helper", functionValue("(void (*)(void))&helper"))
	assert.Equal(t, "", functionValue("helper()"))
}

func TestHappensBefore(t *testing.T) {
	f := parse(t, `
static int init_clock(void) { RCC_EN(); return 0; }
static void configure(void) { if (init_clock() != 0) { return; } write_reg(); }
void good(void) { configure(); }
void bad(int x) { if (x) { init_clock(); } write_reg(); }
void looped(void) { for (int i = 0; i < 3; i++) { if (i) write_reg(); RCC_EN(); } }
void via_pointer(void (*cb)(void)) { cb(); write_reg(); }
void halts_first(int x) { if (x) { abort(); } else { RCC_EN(); } write_reg(); }
void retry(void) {
again:
	if (busy()) goto later;
	write_reg();
	return;
later:
	RCC_EN();
	goto again;
}
void never(void) { nothing(); }
`)
	ask := func(entry string) PathAnswer {
		return f.HappensBefore(entry, []string{"RCC_EN"}, []string{"write_reg"}, 4, testHalting)
	}
	a := ask("good")
	assert.Equal(t, Yes, a.Verdict)
	assert.Equal(t, 1, a.Reached)
	a = ask("bad")
	assert.Equal(t, No, a.Verdict)
	require.Len(t, a.Sites, 1)
	assert.Equal(t, Site{Function: "bad", Line: 5, Via: []string{}, Name: "write_reg", Verdict: No}, a.Sites[0])
	assert.Equal(t, No, ask("looped").Verdict, "the first round of the loop writes before enabling")
	assert.Equal(t, Unknown, ask("via_pointer").Verdict, "cb may enable the clock")
	assert.Equal(t, Yes, ask("halts_first").Verdict, "the path without the clock halts")
	assert.Equal(t, No, ask("retry").Verdict, "the first pass writes without the clock")
	a = ask("never")
	assert.Equal(t, Yes, a.Verdict)
	assert.Equal(t, 0, a.Reached)
	assert.Equal(t, Unknown, ask("missing").Verdict)
}

func TestReleased(t *testing.T) {
	f := parse(t, `
int ok(struct k_mutex *m) {
	k_mutex_lock(m, K_FOREVER);
	if (bad()) { k_mutex_unlock(m); return -EIO; }
	work();
	k_mutex_unlock(m);
	return 0;
}
int leaks(struct k_mutex *m) {
	k_mutex_lock(m, K_FOREVER);
	if (bad()) return -EIO;
	k_mutex_unlock(m);
	return 0;
}
static void unlock_all(struct k_mutex *m) { k_mutex_unlock(m); }
int via_helper(struct k_mutex *m) {
	k_mutex_lock(m, K_FOREVER);
	if (bad()) goto out;
	work();
out:
	unlock_all(m);
	return 0;
}
int halts(struct k_mutex *m) {
	k_mutex_lock(m, K_FOREVER);
	if (bad()) k_panic();
	k_mutex_unlock(m);
	return 0;
}
void falls_off(struct k_mutex *m) { k_mutex_lock(m, K_FOREVER); }
int close_always(int fd) {
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}
`)
	ask := func(entry string) PathAnswer {
		return f.Released(entry, []string{"k_mutex_lock"}, []string{"k_mutex_unlock"}, 4, testHalting)
	}
	assert.Equal(t, Yes, ask("ok").Verdict)
	assert.Equal(t, 1, ask("ok").Reached)
	a := ask("leaks")
	assert.Equal(t, No, a.Verdict)
	require.Len(t, a.Sites, 1)
	assert.Equal(t, 11, a.Sites[0].Line)
	assert.Equal(t, Yes, ask("via_helper").Verdict)
	assert.Equal(t, Yes, ask("halts").Verdict)
	assert.Equal(t, No, ask("falls_off").Verdict)
	always := f.Released("close_always", nil, []string{"close"}, 4, testHalting)
	assert.Equal(t, No, always.Verdict, "the early return does not close")
	assert.Equal(t, 2, always.Reached)
}

func TestTypestateIsBoundedOnHugeFiles(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "void f%d(int x) { if (x) f%d(x); else { f%d(x - 1); lock(); } unlock(); }\n", i, i+1, i+1)
	}
	f := parse(t, b.String())
	a := f.Released("f0", []string{"lock"}, []string{"unlock"}, MaxTraceDepth, nil)
	assert.Equal(t, Yes, a.Verdict)
	h := f.HappensBefore("f0", []string{"lock"}, []string{"unlock"}, MaxTraceDepth, nil)
	assert.Equal(t, Unknown, h.Verdict, "past the depth bound the helpers may lock")
}

func TestTraceHasInlineAssembly(t *testing.T) {
	f := parse(t, `
void publish(void) {
	__asm volatile ("cpsid i" ::: "memory");
	head = next;
	__DSB();
	__asm__ __volatile__ ("cpsie i");
}
`)
	assert.Equal(t, []string{"asm", "store head = next", "call __DSB()", "asm"}, brief(f.Trace("publish", 2, nil)))
	assert.Equal(t, "cpsid i", f.Trace("publish", 2, nil)[0].Value)
}

func TestPathQuestionsOnUnparsableCode(t *testing.T) {
	// A macro use the grammar cannot read becomes an ERROR statement; one
	// holding a control keyword may jump anywhere, so what follows it is
	// not evidence.
	f := parse(t, `
void broken(void) {
	LOCK_OR(goto out;)
	k_sem_give(&s);
out:
	return;
}
void garbage(void) { #### @@ k_sem_give(&s) }
`)
	a := f.HappensBefore("broken", []string{"k_mutex_lock"}, []string{"k_sem_give"}, 4, testHalting)
	assert.NotEqual(t, Yes, a.Verdict, "the give is reached without the lock")
	g := f.HappensBefore("garbage", []string{"k_mutex_lock"}, []string{"k_sem_give"}, 4, testHalting)
	assert.NotEqual(t, Yes, g.Verdict)
	assert.NotPanics(t, func() { f.Trace("garbage", 4, testHalting) })
	r := f.Released("broken", []string{"LOCK_OR"}, []string{"k_sem_give"}, 4, testHalting)
	assert.Contains(t, []Tristate{Yes, Unknown}, r.Verdict, "never a failure from unreadable code alone")
}

func TestReleasedKnowsFailedAcquisitions(t *testing.T) {
	f := parse(t, `
int read_file(const char *path) {
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (read(fd, buf, 4) != 4) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}
int assign_in_condition(const char *path) {
	int fd;
	if ((fd = open(path, O_RDONLY)) == -1) {
		return -1;
	}
	close(fd);
	return 0;
}
int guarded_close(const char *path) {
	FILE *fp = fopen(path, "r");
	int rc = work(fp);
	if (fp != NULL)
		fclose(fp);
	return rc;
}
int pointer_style(struct ctx *c) {
	c->buf = kmalloc(64, GFP_KERNEL);
	if (!c->buf)
		return -ENOMEM;
	kfree(c->buf);
	return 0;
}
int status_style(const struct device *dev) {
	int rc = pm_device_runtime_get(dev);
	if (rc) {
		return rc;
	}
	rc = transfer(dev);
	pm_device_runtime_put(dev);
	return rc;
}
int status_inverted(const struct device *dev) {
	int rc = pm_device_runtime_get(dev);
	if (rc == 0) {
		rc = transfer(dev);
		pm_device_runtime_put(dev);
	}
	return rc;
}
int leaks_after_success(const char *path) {
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (read(fd, buf, 4) != 4)
		return -1;
	close(fd);
	return 0;
}
int ptr_member(struct dev *d) {
	d->fd = open("/dev/x", O_RDWR);
	if (d->fd < 0) return -1;
	close(d->fd);
	return 0;
}
`)
	for entry, want := range map[string]Tristate{
		"read_file": Yes, "assign_in_condition": Yes, "guarded_close": Yes, "status_style": Yes, "status_inverted": Yes,
		"leaks_after_success": No, "ptr_member": Yes,
	} {
		got := f.Released(entry, []string{"open", "fopen", "pm_device_runtime_get"}, []string{"close", "fclose", "pm_device_runtime_put"}, 4, testHalting)
		assert.Equal(t, want, got.Verdict, entry)
	}
	assert.Equal(t, Yes, f.Released("pointer_style", []string{"kmalloc"}, []string{"kfree"}, 4, testHalting).Verdict)
	i, op := comparison("dev->fd >= 0")
	assert.Equal(t, 8, i)
	assert.Equal(t, ">=", op)
	i, _ = comparison("(a << 2) < b && c")
	assert.Equal(t, 9, i)
	i, _ = comparison("a < b < c")
	assert.Equal(t, -1, i, "two comparisons are not read")
}

func TestTraceConditions(t *testing.T) {
	f := parse(t, "void f(void) {\n\tfor (int i = 0; i < COUNT_OF(pool); i++) { use(i); }\n\twhile ((x = next()) != 0) { }\n\tif ((a) && (b)) { }\n\tswitch (mode(m)) { default: break; }\n}\n")
	var conds []string
	for _, e := range f.Trace("f", 2, nil) {
		if e.Kind == "loop" || e.Kind == "if" || e.Kind == "switch" {
			conds = append(conds, e.Value)
		}
	}
	assert.Equal(t, []string{"i < COUNT_OF(pool)", "(x = next()) != 0", "(a) && (b)", "mode(m)"}, conds)
}

func TestConditionalOperandsMayRun(t *testing.T) {
	f := parse(t, `
void a(void) { if (ready() && k_sem_take(&s, K_NO_WAIT) == 0) { k_sem_give(&s); } }
void b(int x) { int v = x ? k_mutex_lock(&m, K_FOREVER) : 0; k_mutex_unlock(&m); }
void c(int x) { if (x || clock_on()) { write_reg(); } }
`)
	evs := f.Trace("a", 2, nil)
	require.Len(t, evs, 5)
	assert.Equal(t, "ready", evs[0].Name)
	assert.False(t, evs[0].Maybe)
	assert.Equal(t, "k_sem_take", evs[1].Name)
	assert.True(t, evs[1].Maybe, "the right of && may not run")
	b := f.HappensBefore("b", []string{"k_mutex_lock"}, []string{"k_mutex_unlock"}, 2, testHalting)
	assert.Equal(t, No, b.Verdict, "the lock in a ?: branch may not have run")
	c := f.HappensBefore("c", []string{"clock_on"}, []string{"write_reg"}, 2, testHalting)
	assert.Equal(t, No, c.Verdict, "x true skips clock_on")
	assert.Equal(t, No, f.NeverReturns("a", nil))
}

func TestPathQuestionsOnStoresAndAssembly(t *testing.T) {
	f := parse(t, `
static void relocate(void) {
	copy_table();
	SCB->VTOR = (uint32_t)&ram_table;
	__asm volatile ("dsb 0xF" ::: "memory");
	__asm volatile ("isb");
}
static void early(void) { SCB -> VTOR = 0x20000000; copy_table(); }
void boot(void) { relocate(); }
void bad_boot(void) { early(); }
void sleep_safe(void) { __asm volatile ("cpsid i"); if (!pending()) { __asm volatile ("wfi"); } __asm volatile ("cpsie i"); }
`)
	ok := f.HappensBefore("boot", []string{"copy_table"}, []string{"store:SCB->VTOR"}, 4, testHalting)
	assert.Equal(t, Yes, ok.Verdict)
	assert.Equal(t, 1, ok.Reached)
	bad := f.HappensBefore("bad_boot", []string{"copy_table"}, []string{"store: SCB->VTOR"}, 4, testHalting)
	assert.Equal(t, No, bad.Verdict, "white space in the target does not matter")
	barrier := f.HappensBefore("boot", []string{"store:SCB->VTOR"}, []string{"asm:isb"}, 4, testHalting)
	assert.Equal(t, Yes, barrier.Verdict)
	masked := f.HappensBefore("sleep_safe", []string{"asm:CPSID I"}, []string{"asm:wfi"}, 4, testHalting)
	assert.Equal(t, Yes, masked.Verdict)
	assert.Equal(t, 1, masked.Reached)
	unmasked := f.Released("sleep_safe", []string{"asm:cpsid"}, []string{"asm:cpsie"}, 4, testHalting)
	assert.Equal(t, Yes, unmasked.Verdict)
}

func TestReleasedReadsSDKSuccessValues(t *testing.T) {
	f := parse(t, `
esp_err_t add(void) {
	esp_err_t err = spi_bus_initialize(HOST, &cfg, SPI_DMA_CH_AUTO);
	if (err != ESP_OK) {
		return err;
	}
	err = spi_bus_add_device(HOST, &dev, &h);
	if (err != ESP_OK) {
		spi_bus_free(HOST);
		return err;
	}
	spi_bus_free(HOST);
	return ESP_OK;
}
int take(void) {
	BaseType_t got = xSemaphoreTake(lock, pdMS_TO_TICKS(10));
	if (got == pdTRUE) {
		work();
		xSemaphoreGive(lock);
	}
	return 0;
}
void HAL_UART_TxCpltCallback(UART_HandleTypeDef *h) { done = 1; }
void app_main(void) { take(); }
`)
	assert.Equal(t, Yes, f.Released("add", []string{"spi_bus_initialize"}, []string{"spi_bus_free"}, 4, testHalting).Verdict)
	assert.Equal(t, Yes, f.Released("take", []string{"xSemaphoreTake"}, []string{"xSemaphoreGive"}, 4, testHalting).Verdict)
	eps := f.EntryPoints(nil)
	require.Len(t, eps, 2)
	assert.Equal(t, EntryPoint{Name: "HAL_UART_TxCpltCallback", Kind: "isr", Via: "HAL IRQ handler", Line: 23}, eps[0])
	assert.Equal(t, EntryPoint{Name: "app_main", Kind: "main", Line: 24}, eps[1])
}

func TestReleasedForgetsAReassignedStatus(t *testing.T) {
	f := parse(t, `
int resolve(void) {
	int ret = getaddrinfo(host, port, &hints, &res);
	if (ret != 0) {
		return ret;
	}
	ret = connect_to(res);
	if (ret < 0) {
		return ret;
	}
	freeaddrinfo(res);
	return 0;
}
`)
	a := f.Released("resolve", []string{"getaddrinfo"}, []string{"freeaddrinfo"}, 4, testHalting)
	assert.Equal(t, No, a.Verdict, "the second test is about connect_to, not the acquisition")
}

func TestReleasedAcquireTestedInTheCondition(t *testing.T) {
	f := parse(t, `
int read_sensor(const struct device *dev) {
	if (pm_device_runtime_get(dev) < 0) {
		return -EIO;
	}
	int rc = fetch(dev);
	pm_device_runtime_put(dev);
	return rc;
}
int use_key(psa_key_id_t key) {
	psa_status_t status = psa_cipher_encrypt(key, alg, in, 16, out, 32, &len);
	if (status != PSA_SUCCESS) {
		return -1;
	}
	psa_destroy_key(key);
	return 0;
}
`)
	assert.Equal(t, Yes, f.Released("read_sensor", []string{"pm_device_runtime_get"}, []string{"pm_device_runtime_put"}, 4, testHalting).Verdict)
	assert.Equal(t, Yes, f.Released("use_key", []string{"psa_cipher_encrypt"}, []string{"psa_destroy_key"}, 4, testHalting).Verdict)
	assert.Equal(t, No, f.ReleasedEvenIfFailed("use_key", []string{"psa_cipher_encrypt"}, []string{"psa_destroy_key"}, 4, testHalting).Verdict,
		"a key that exists must be destroyed even when its use failed")
}

func TestNotAfter(t *testing.T) {
	f := parse(t, `
static int finish(void) { return esp_ota_end(h); }
int good(void) {
	if (esp_ota_write(h, buf, n) != ESP_OK) {
		esp_ota_abort(h);
		return -1;
	}
	return finish();
}
int bad(void) {
	int err = finish();
	if (err != ESP_OK) {
		esp_ota_abort(h);
	}
	return err;
}
`)
	g := f.NotAfter("good", []string{"esp_ota_end"}, []string{"esp_ota_abort"}, 4, testHalting)
	assert.Equal(t, Yes, g.Verdict)
	assert.Equal(t, 1, g.Reached)
	b := f.NotAfter("bad", []string{"esp_ota_end"}, []string{"esp_ota_abort"}, 4, testHalting)
	assert.Equal(t, No, b.Verdict)
	require.Len(t, b.Sites, 1)
	assert.Equal(t, 13, b.Sites[0].Line)
}

func TestNotWhileHeld(t *testing.T) {
	f := parse(t, `
static void log_state(void) { printk("state\n"); }
void good(void) {
	k_spinlock_key_t k = k_spin_lock(&l);
	count++;
	k_spin_unlock(&l, k);
	log_state();
	k_msleep(10);
}
void bad(void) {
	k_spinlock_key_t k = k_spin_lock(&l);
	if (count > 3) {
		log_state();
	}
	k_spin_unlock(&l, k);
}
void early_return(void) {
	k_spinlock_key_t k = k_spin_lock(&l);
	if (count == 0) {
		k_spin_unlock(&l, k);
		k_msleep(1);
		return;
	}
	k_msleep(5);
	k_spin_unlock(&l, k);
}
void via_pointer(void (*cb)(void)) {
	k_spinlock_key_t k = k_spin_lock(&l);
	cb();
	k_spin_unlock(&l, k);
}
`)
	acq, rel, calls := []string{"k_spin_lock"}, []string{"k_spin_unlock"}, []string{"printk", "k_msleep"}
	g := f.NotWhileHeld("good", acq, rel, calls, 4, testHalting)
	assert.Equal(t, Yes, g.Verdict)
	assert.Equal(t, 2, g.Reached, "printk in the helper and k_msleep, both after the unlock")
	b := f.NotWhileHeld("bad", acq, rel, calls, 4, testHalting)
	assert.Equal(t, No, b.Verdict, "printk through the helper while the lock is held")
	require.Len(t, b.Sites, 1)
	assert.Equal(t, "printk", b.Sites[0].Name)
	assert.Equal(t, []string{"log_state"}, b.Sites[0].Via)
	e := f.NotWhileHeld("early_return", acq, rel, calls, 4, testHalting)
	assert.Equal(t, No, e.Verdict, "the sleep on the path that keeps the lock")
	require.Len(t, e.Sites, 1)
	assert.Equal(t, 24, e.Sites[0].Line)
	assert.Equal(t, Yes, f.NotWhileHeld("via_pointer", acq, rel, calls, 4, testHalting).Verdict, "a call through a pointer is not one of the named calls (as for NotAfter)")

	g2 := parse(t, `
void sampler(void) {
	for (;;) {
		if (xSemaphoreTake(m, pdMS_TO_TICKS(5)) == pdTRUE) {
			stats.n++;
			xSemaphoreGive(m);
		} else {
			dropped++;
		}
		vTaskDelayUntil(&last, period);
	}
}
void reporter(void) {
	BaseType_t got = xSemaphoreTake(m, pdMS_TO_TICKS(20));
	if (got != pdTRUE) {
		vTaskDelay(10);
		return;
	}
	copy = stats;
	xSemaphoreGive(m);
}
`)
	take, give, sleeps := []string{"xSemaphoreTake"}, []string{"xSemaphoreGive"}, []string{"vTaskDelay", "vTaskDelayUntil"}
	assert.Equal(t, Yes, g2.NotWhileHeld("sampler", take, give, sleeps, 4, testHalting).Verdict, "the else branch of a take tested for pdTRUE holds nothing")
	assert.Equal(t, Yes, g2.NotWhileHeld("reporter", take, give, sleeps, 4, testHalting).Verdict, "a stored take result tested as failed holds nothing")
	assert.Equal(t, No, g2.NotWhileHeldEvenIfFailed("sampler", take, give, sleeps, 4, testHalting).Verdict, "without the exemption, the failed take's branch still holds")

	g3 := parse(t, `
void worker(void) {
	for (;;) {
		BaseType_t take = xSemaphoreTake(m, pdMS_TO_TICKS(5));
		if (take == pdFALSE) {
			vTaskDelay(1);
			continue;
		}
		stats.n++;
		xSemaphoreGive(m);
		vTaskDelay(10);
	}
}
`)
	assert.Equal(t, Yes, g3.NotWhileHeld("worker", take, give, sleeps, 4, testHalting).Verdict, "a take compared == pdFALSE failed: its branch holds nothing")
}

func TestTraceBlocks(t *testing.T) {
	f := parse(t, `
static void put(int v) { if (v) { store(v); } }
void run(int n) {
	for (int i = 0; i < n; i++) {
		if (i & 1) {
			put(i);
		} else {
			skip();
		}
	}
	done();
}
`)
	got := map[string][]string{}
	for _, e := range f.Trace("run", 4, nil) {
		if e.Kind == "call" {
			got[e.Name] = e.Blocks
		}
	}
	assert.Equal(t, []string{"loop:run:4", "then:run:5"}, got["put"])
	assert.Equal(t, []string{"loop:run:4", "then:run:5", "then:put:2"}, got["store"])
	assert.Equal(t, []string{"loop:run:4", "else:run:5"}, got["skip"])
	assert.Equal(t, []string{}, got["done"])
}

func TestTraceJumpLines(t *testing.T) {
	f := parse(t, `int f(int a) {
	for (int i = 0; i < a; i++) {
		if (i == 2)
			continue;
		if (i == 5)
			break;
	}
	if (a < 0)
		goto fail;
	return 0;
fail:
	return -1;
}
`)
	got := map[string]int{}
	for _, e := range f.Trace("f", 2, nil) {
		switch e.Kind {
		case "goto", "label", "break", "continue":
			got[e.Kind] = e.Line
		}
	}
	assert.Equal(t, map[string]int{"continue": 4, "break": 6, "goto": 9, "label": 11}, got)
}

func TestReleasedHandle(t *testing.T) {
	f := parse(t, `
static int listener;
static void close_sock(int s) { if (s >= 0) close(s); }
int leaks_tx(void) {
	int rx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0)
		return -1;
	int tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (tx < 0) {
		close(rx);
		return -1;
	}
	if (sendto(tx, buf, n, 0, &a, sizeof a) < 0) {
		close(rx);
		return -1;
	}
	close(tx);
	close_sock(rx);
	return 0;
}
int global_sock(void) {
	listener = socket(AF_INET, SOCK_STREAM, 0);
	if (listener < 0)
		return -1;
	stop();
	return 0;
}
static void stop(void) { close(listener); }
int out_param(void) {
	esp_timer_handle_t h;
	esp_err_t err = esp_timer_create(&args, &h);
	if (err != ESP_OK)
		return err;
	if (esp_timer_start_periodic(h, 100000) != ESP_OK) {
		return -1;
	}
	esp_timer_delete(h);
	return 0;
}
`)
	acq, rel := []string{"socket"}, []string{"close"}
	tx := f.ReleasedHandle("leaks_tx", acq, rel, "tx", 4, testHalting, true)
	assert.Equal(t, No, tx.Verdict, "tx is not closed when sendto fails, although rx is")
	require.Len(t, tx.Sites, 1)
	assert.Equal(t, 15, tx.Sites[0].Line)
	assert.Equal(t, Yes, f.ReleasedHandle("leaks_tx", acq, rel, "rx", 4, testHalting, true).Verdict, "rx is closed on every path, once through a helper")
	assert.Equal(t, Yes, f.Released("leaks_tx", acq, rel, 4, testHalting).Verdict, "without a handle any close counts: the leak is hidden")
	assert.Equal(t, Yes, f.ReleasedHandle("global_sock", acq, rel, "listener", 4, testHalting, true).Verdict, "a file-scope handle keeps its name in the helper")
	timer := []string{"esp_timer_create"}
	o := f.ReleasedHandle("out_param", timer, []string{"esp_timer_delete"}, "h", 4, testHalting, true)
	assert.Equal(t, No, o.Verdict, "the start failure returns with the timer created")
	require.Len(t, o.Sites, 1)
	assert.Equal(t, 35, o.Sites[0].Line)
	assert.Equal(t, Unknown, f.ReleasedHandle("leaks_tx", acq, rel, " ", 4, testHalting, true).Verdict)

	g := parse(t, `
struct link { int rx; int tx; };
static void link_close(struct link *l) {
	if (l->rx >= 0)
		close(l->rx);
}
static void open_tx(struct link *l) { l->tx = socket(AF_INET, SOCK_DGRAM, 0); }
int main(void) {
	struct link link;
	link.rx = socket(AF_INET, SOCK_DGRAM, 0);
	if (link.rx < 0)
		return 1;
	open_tx(&link);
	if (link.tx < 0) {
		link_close(&link);
		return 1;
	}
	work(&link);
	link_close(&link);
	return 0;
}
`)
	rx := g.ReleasedHandle("main", acq, rel, "link.rx", 4, testHalting, true)
	assert.Equal(t, Yes, rx.Verdict, "closed through a helper that gets &link and sees l->rx")
	assert.Equal(t, 1, rx.Reached)
	txm := g.ReleasedHandle("main", acq, rel, "link.tx", 4, testHalting, true)
	assert.Equal(t, No, txm.Verdict, "opened through a helper that gets &link; link_close never closes tx")
	var lines []int
	for _, st := range txm.Sites {
		lines = append(lines, st.Line)
	}
	assert.Equal(t, []int{20}, lines, "the failed open holds nothing")
	assert.Equal(t, 1, txm.Reached)
}

func TestReleasedHandleOutParameterGuard(t *testing.T) {
	f := parse(t, `
int app(void) {
	adc_oneshot_unit_handle_t adc = NULL;
	esp_err_t err = adc_oneshot_new_unit(&cfg, &adc);
	if (err != ESP_OK)
		goto out;
	err = adc_oneshot_config_channel(adc, CH, &ch);
	if (err != ESP_OK)
		goto out;
	read_all(adc);
out:
	if (adc != NULL)
		adc_oneshot_del_unit(adc);
	return err;
}
int leaky(void) {
	adc_oneshot_unit_handle_t adc = NULL;
	if (adc_oneshot_new_unit(&cfg, &adc) != ESP_OK)
		return -1;
	if (adc_oneshot_config_channel(adc, CH, &ch) != ESP_OK)
		return -1;
	adc_oneshot_del_unit(adc);
	return 0;
}
`)
	acq, rel := []string{"adc_oneshot_new_unit"}, []string{"adc_oneshot_del_unit"}
	assert.Equal(t, Yes, f.ReleasedHandle("app", acq, rel, "adc", 4, testHalting, true).Verdict, "a NULL test of an out-parameter handle guards its release")
	l := f.ReleasedHandle("leaky", acq, rel, "adc", 4, testHalting, true)
	assert.Equal(t, No, l.Verdict)
	require.Len(t, l.Sites, 1)
	assert.Equal(t, 21, l.Sites[0].Line)
}

func TestLockBlockMacro(t *testing.T) {
	f := parse(t, `void f(void) {
	K_SPINLOCK(&lock) {
		count++;
		k_yield();
	}
	k_msleep(1);
}
int g(void) {
	K_SPINLOCK(&lock) {
		if (count == 0) {
			return -1;
		}
		if (count > 9) {
			K_SPINLOCK_BREAK;
		}
		count--;
	}
	return 0;
}
`)
	var got []string
	for _, e := range f.Trace("f", 2, nil) {
		if e.Kind == "call" {
			got = append(got, fmt.Sprintf("%s@%d", e.Name, e.Line))
		}
	}
	assert.Equal(t, []string{"k_spin_lock@2", "k_yield@4", "k_spin_unlock@5", "k_msleep@6"}, got)
	sleeps := []string{"k_yield", "k_msleep"}
	held := f.NotWhileHeld("f", []string{"k_spin_lock"}, []string{"k_spin_unlock"}, sleeps, 4, testHalting)
	assert.Equal(t, No, held.Verdict, "k_yield inside the block runs with the lock held")
	require.Len(t, held.Sites, 1)
	assert.Equal(t, 4, held.Sites[0].Line)
	r := f.Released("g", []string{"k_spin_lock"}, []string{"k_spin_unlock"}, 4, testHalting)
	assert.Equal(t, No, r.Verdict, "a return inside the block leaves with the lock held")
	require.Len(t, r.Sites, 1)
	assert.Equal(t, 11, r.Sites[0].Line)
}

func TestReleasedHandleStatusHelper(t *testing.T) {
	f := parse(t, `
struct link { int rx; int tx; };
static int link_open(struct link *l) {
	l->rx = socket(AF_INET, SOCK_DGRAM, 0);
	if (l->rx < 0)
		return -1;
	l->tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (l->tx < 0) {
		close(l->rx);
		return -1;
	}
	return 0;
}
static int leaky_open(struct link *l) {
	l->rx = socket(AF_INET, SOCK_DGRAM, 0);
	if (l->rx < 0)
		return -1;
	if (bind(l->rx, &a, sizeof a) < 0)
		return -1;
	return 0;
}
static int reset_open(struct link *l) {
	l->rx = socket(AF_INET, SOCK_DGRAM, 0);
	if (l->rx < 0)
		return -1;
	if (bind(l->rx, &a, sizeof a) < 0) {
		close(l->rx);
		l->rx = -1;
		return -1;
	}
	return 0;
}
static void link_close(struct link *l) { close(l->rx); close(l->tx); }
int reset(void) {
	struct link link;
	if (reset_open(&link) != 0)
		return 1;
	link_close(&link);
	return 0;
}
int good(void) {
	struct link link;
	if (link_open(&link) != 0)
		return 1;
	work(&link);
	link_close(&link);
	return 0;
}
int stored(void) {
	struct link link;
	int err = link_open(&link);
	if (err < 0)
		return 1;
	link_close(&link);
	return 0;
}
int bad(void) {
	struct link link;
	if (leaky_open(&link) != 0)
		return 1;
	link_close(&link);
	return 0;
}
`)
	acq, rel := []string{"socket"}, []string{"close"}
	for _, entry := range []string{"good", "stored"} {
		for _, h := range []string{"link.rx", "link.tx"} {
			a := f.ReleasedHandle(entry, acq, rel, h, 4, testHalting, true)
			assert.Equal(t, Yes, a.Verdict, "%s %s: the helper's failure returns hold nothing, so the caller's test of its status is a failure test (%v)", entry, h, a.Sites)
			assert.Equal(t, 1, a.Reached, "%s %s", entry, h)
		}
	}
	assert.Equal(t, Yes, f.ReleasedHandle("reset", acq, rel, "link.rx", 4, testHalting, true).Verdict, "a handle reset after its release (l->rx = -1) still reads as the helper's acquisition")
	b := f.ReleasedHandle("bad", acq, rel, "link.rx", 4, testHalting, true)
	assert.Equal(t, No, b.Verdict, "the bind failure returns -1 with rx open: the helper's status says nothing about rx")
}

func TestReleasedHandleSpellings(t *testing.T) {
	f := parse(t, `
static int import_key(psa_key_id_t *key) {
	if (psa_import_key(&attr, raw, sizeof raw, key) != PSA_SUCCESS)
		return -1;
	return 0;
}
int main(void) {
	psa_key_id_t key;
	if (import_key(&key) != 0)
		return 1;
	if (use(key) != 0)
		return 1;
	psa_destroy_key(key);
	return 0;
}
`)
	acq, rel := []string{"psa_import_key"}, []string{"psa_destroy_key"}
	a := f.ReleasedHandle("main", acq, rel, "key", 4, testHalting, true)
	assert.Equal(t, 1, a.Reached, "a pointer parameter passed on (key in the helper is &*key of the caller)")
	assert.Equal(t, No, a.Verdict, "use() failing returns with the key imported")
	require.Len(t, a.Sites, 1)
	assert.Equal(t, 12, a.Sites[0].Line)
	assert.Equal(t, "s.fd", canonLvalue("(&s)->fd"))
	assert.Equal(t, "&s.fd", canonLvalue("& ( &s )->fd"))
	assert.Equal(t, "p->x", canonLvalue("(*p).x"))
	assert.Equal(t, "key", canonLvalue("&*key"))
}
