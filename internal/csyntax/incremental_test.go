package csyntax

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// realisticSources are whole files and snippets in the styles the package is
// used on; incremental and narrow extraction are compared on them.
func realisticSources(t testing.TB) map[string]string {
	return map[string]string{
		"zephyr blinky": readTestdata(t, "zephyr_blinky.c"),
		"linux chardev": `#include <linux/module.h>
#include <linux/fs.h>
static int major;
static ssize_t dev_read(struct file *f, char __user *buf, size_t len, loff_t *off)
{
	return simple_read_from_buffer(buf, len, off, "hi\n", 3);
}
static const struct file_operations fops = {
	.owner = THIS_MODULE,
	.read = dev_read,
};
static int __init chardev_init(void)
{
	major = register_chrdev(0, "chardev", &fops);
	if (major < 0)
		return major;
	pr_info("major %d\n", major);
	return 0;
}
static void __exit chardev_exit(void) { unregister_chrdev(major, "chardev"); }
module_init(chardev_init);
module_exit(chardev_exit);
MODULE_LICENSE("GPL");
`,
		"esp-idf gpio isr": `#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "driver/gpio.h"
#define ESP_INTR_FLAG_DEFAULT 0
static QueueHandle_t gpio_evt_queue = NULL;
static void IRAM_ATTR __attribute__((noinline)) gpio_isr_handler(void *arg)
{
	uint32_t gpio_num = (uint32_t) arg;
	xQueueSendFromISR(gpio_evt_queue, &gpio_num, NULL);
}
static void gpio_task(void *arg)
{
	uint32_t io_num;
	for (;;) {
		if (xQueueReceive(gpio_evt_queue, &io_num, portMAX_DELAY)) {
			printf("GPIO[%"PRIu32"] intr\n", io_num);
		}
	}
}
RTC_DATA_ATTR static int boots = 0;
void app_main(void)
{
	gpio_evt_queue = xQueueCreate(10, sizeof(uint32_t));
	gpio_install_isr_service(ESP_INTR_FLAG_DEFAULT);
	gpio_isr_handler_add(GPIO_NUM_4, gpio_isr_handler, (void *) GPIO_NUM_4);
	xTaskCreate(gpio_task, "gpio_task", 2048, NULL, 10, NULL);
}
`,
		"stm32 hal": `#include "stm32f4xx_hal.h"
UART_HandleTypeDef huart2;
volatile uint8_t rx_byte;
__IO uint32_t tick;
uint8_t buf[64] __aligned(4);
__weak void HAL_GPIO_EXTI_Callback(uint16_t GPIO_Pin) { UNUSED(GPIO_Pin); }
__STATIC_INLINE uint32_t get_tick(void) { return uwTick; }
#ifdef USE_UART
void HAL_UART_RxCpltCallback(UART_HandleTypeDef *huart)
{
	if (huart->Instance == USART2) {
#define LOCAL_RETRIES 3
		HAL_UART_Receive_IT(&huart2, (uint8_t *)&rx_byte, 1);
	}
}
#else
static void MY_SECTION MY_ATTR handler(int x) { work(x); }
#endif
`,
		"freertos and macros": `#include <FreeRTOS.h>
#include "task.h"
#define LOG(fmt, ...) printf(fmt, \
  __VA_ARGS__)
static K_THREAD_STACK_DEFINE(stack, 1024);
K_MUTEX_DEFINE(lock);
static const struct device *const dev = DEVICE_DT_GET(DT_NODELABEL(i2c0));
void vTaskCode( void * pvParameters ) { for( ;; ) { vTaskDelay(1); } }
static const char *fmt(const char *f, ...) { return f; }
MY_ATTR void decorated(void) { work(); }
int reg(void (*cb)(int, void *), uint8_t buf[], size_t n) { return 0; }
void f(int p)
{
	register int r;
	for (int i = 0; i < 3; i++) {}
	void (*cb)(int) = NULL;
	const char *s = "x";
	dev->api->read(dev, &r);
	(*cb)(1);
}
`,
	}
}

// snapshot is everything a File answers, for comparing two Files.
type snapshot struct {
	Functions    []Function
	Calls        []Call
	Decls        []Declaration
	Globals      []Declaration
	Includes     []Include
	Macros       []Macro
	HasErrors    bool
	PerFunction  map[string][]Call
	LocalsByFunc map[string][]Declaration
}

func snap(f *File) snapshot {
	s := snapshot{
		Functions:    f.Functions(),
		Calls:        f.Calls(""),
		Decls:        f.Declarations(""),
		Globals:      f.Declarations(GlobalScope),
		Includes:     f.Includes(),
		Macros:       f.Macros(),
		HasErrors:    f.HasErrors(),
		PerFunction:  map[string][]Call{},
		LocalsByFunc: map[string][]Declaration{},
	}
	for _, fn := range s.Functions {
		s.PerFunction[fn.Name] = f.Calls(fn.Name)
		s.LocalsByFunc[fn.Name] = f.Declarations(fn.Name)
	}
	return s
}

// mutationPieces are inserted or substituted by the random edits: tokens,
// whole statements and lines, and pieces that change the lexical state
// (comments, strings, preprocessor lines, decorators).
var mutationPieces = []string{
	"{", "}", ";", "(", ")", ",", "*", "\n", " ", "#", "\"", "'", "/*", "*/", "//",
	"static ", "const ", "volatile ", "__isr ", "IRAM_ATTR ", "__aligned(8) ", "__IO ",
	"k_msleep(20);\n", "int x = 0;\n", "atomic_t flag;\n", "#define X 1\n", "#include <a.h>\n",
	"#if 0\n", "#endif\n", "#ifdef CONFIG_X\n", "void g(void) {\n", "return ret;\n", "é",
	"static K_SEM_DEFINE(s, 0, 1);\n", "MY_ATTR ", "struct k_sem ", "ret = f(a, b);",
}

// randomEdit applies one random single-range edit to code: an insertion, a
// deletion, a replacement, a removed line or a replaced word.
func randomEdit(r *rand.Rand, code string) string {
	if code == "" {
		return mutationPieces[r.IntN(len(mutationPieces))]
	}
	at := r.IntN(len(code) + 1)
	piece := mutationPieces[r.IntN(len(mutationPieces))]
	switch r.IntN(5) {
	case 0: // insertion
		return code[:at] + piece + code[at:]
	case 1: // deletion
		end := min(len(code), at+1+r.IntN(40))
		return code[:at] + code[end:]
	case 2: // replacement
		end := min(len(code), at+1+r.IntN(12))
		return code[:at] + piece + code[end:]
	case 3: // a whole line removed
		lines := strings.SplitAfter(code, "\n")
		i := r.IntN(len(lines))
		return strings.Join(append(lines[:i:i], lines[i+1:]...), "")
	default: // a word replaced everywhere, like code.replace(a, b)
		words := strings.FieldsFunc(code, func(c rune) bool { return c > 127 || !isIdentPart(byte(c)) })
		if len(words) == 0 {
			return code + piece
		}
		w := words[r.IntN(len(words))]
		return strings.Replace(code, w, strings.TrimSpace(piece), 1)
	}
}

// requireIncrementalMatches gets mutant through the cache (which holds the
// code it was made from) and checks that its File answers exactly like a
// fresh Parse. It returns whether the fresh parse is new to the cache and has
// no syntax errors, that is whether an incremental parse from an error-free
// base is expected to be kept.
func requireIncrementalMatches(t testing.TB, c *ParseCache, mutant string) bool {
	t.Helper()
	_, cached := c.entries[mutant]
	got, err := c.Get(mutant)
	require.NoError(t, err)
	fresh, err := Parse(mutant)
	require.NoError(t, err)
	defer fresh.Close()
	require.Equal(t, fresh.tree.RootNode().ToSexp(), got.tree.RootNode().ToSexp(), "tree of %q", mutant)
	want := snap(fresh)
	require.Equal(t, want, snap(got), "mutant %q", mutant)
	// The narrow walks find what the full walk finds.
	narrow, err := Parse(mutant)
	require.NoError(t, err)
	defer narrow.Close()
	require.Equal(t, want.Includes, narrow.Includes(), "mutant %q", mutant)
	require.Equal(t, want.Macros, narrow.Macros(), "mutant %q", mutant)
	require.Equal(t, want.Globals, narrow.Declarations(GlobalScope), "mutant %q", mutant)
	return !cached && !fresh.HasErrors()
}

func TestIncrementalParseMatchesFreshParse(t *testing.T) {
	// EMBEDEVAL_CSYNTAX_SEED varies the random edits.
	seed, _ := strconv.ParseUint(os.Getenv("EMBEDEVAL_CSYNTAX_SEED"), 10, 64)
	sources := realisticSources(t)
	for _, name := range slices.Sorted(maps.Keys(sources)) {
		code := sources[name]
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(len(code)), seed))
			c := NewParseCache(64)
			defer c.Close()
			orig, err := c.Get(code)
			require.NoError(t, err)
			origErrors := orig.HasErrors()
			for i := 0; i < 200; i++ {
				mutant, single := randomEdit(r, code), true
				if i%3 == 2 {
					mutant, single = randomEdit(r, mutant), false // two ranges apart
				}
				before := c.IncrementalParses()
				anchored := slices.ContainsFunc(c.anchors, func(e *cacheEntry) bool { return e.code == code })
				clean := requireIncrementalMatches(t, c, mutant)
				if single && clean && anchored {
					require.Equal(t, before+1, c.IncrementalParses(), "an error-free mutant reuses the original's tree: %q", mutant)
				}
			}
			if !origErrors {
				require.Positive(t, c.IncrementalParses())
			}
		})
	}
}

func TestIncrementalParseCounts(t *testing.T) {
	code := readTestdata(t, "zephyr_blinky.c")
	c := NewParseCache(64)
	defer c.Close()
	_, err := c.Get(code)
	require.NoError(t, err)
	require.Equal(t, 0, c.IncrementalParses())
	// Each mutant of the original is reparsed from the original, even after
	// other mutants were parsed in between.
	for i, word := range []string{"k_sem_give", "STACK_SIZE", "blink_thread"} {
		_, err := c.Get(strings.Replace(code, word, word+"_x", 1))
		require.NoError(t, err)
		require.Equal(t, i+1, c.IncrementalParses())
		require.Same(t, c.entries[code].Value, c.anchors[0], "the original stays the anchor")
	}
	// A mutant with a syntax error is parsed from scratch.
	_, err = c.Get(strings.Replace(code, "k_sem_give(", "k_sem_give((", 1))
	require.NoError(t, err)
	require.Equal(t, 3, c.IncrementalParses())
	// An unrelated string is parsed from scratch.
	_, err = c.Get("int unrelated;")
	require.NoError(t, err)
	require.Equal(t, 6, c.Parses())
	require.Equal(t, 3, c.IncrementalParses())
	// After Close the cache still works and parses afresh.
	c.Close()
	f, err := c.Get(code)
	require.NoError(t, err)
	require.Len(t, f.Functions(), 4)
	require.Equal(t, 3, c.IncrementalParses())
}

func TestDiffRange(t *testing.T) {
	tests := []struct {
		old, new string
		want     textEdit
	}{
		{"abc", "abc", textEdit{3, 3, 3}},
		{"abc", "abXc", textEdit{2, 2, 3}},
		{"aXbc", "abc", textEdit{1, 2, 1}},
		{"aaaa", "aa", textEdit{2, 4, 2}},
		{"", "x", textEdit{0, 0, 1}},
		{"x\xc3\xa9y", "x\xc3\xa8y", textEdit{1, 3, 3}}, // é -> è: not split
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q->%q", tt.old, tt.new), func(t *testing.T) {
			require.Equal(t, tt.want, diffRange([]byte(tt.old), []byte(tt.new)))
		})
	}
	require.Equal(t, "{0 0}", fmt.Sprint(pointAt([]byte("ab\ncd"), 0)))
	require.Equal(t, "{1 1}", fmt.Sprint(pointAt([]byte("ab\ncd"), 4)))
}

func FuzzIncrementalParse(f *testing.F) {
	blinky := readTestdata(f, "zephyr_blinky.c")
	f.Add(blinky, uint16(300), uint8(5), "k_msleep(20);")
	f.Add(blinky, uint16(0), uint8(0), "/*")
	f.Add(blinky, uint16(900), uint8(40), "#if 0\n")
	f.Add("static void __isr foo(const void *arg)\n{\n\tk_sem_give(&s);\n}\nint x;\n#define A 1\nvoid main(void) { foo(0); }\n",
		uint16(20), uint8(3), "IRAM_ATTR")
	f.Fuzz(func(t *testing.T, base string, pos uint16, del uint8, ins string) {
		if len(base) > 1<<16 {
			return
		}
		at := int(pos) % (len(base) + 1)
		end := min(len(base), at+int(del))
		mutant := base[:at] + ins + base[end:]
		c := NewParseCache(4)
		defer c.Close()
		_, err := c.Get(base)
		require.NoError(t, err)
		requireIncrementalMatches(t, c, mutant)
	})
}

func TestNarrowExtractionMatchesFullWalk(t *testing.T) {
	sources := realisticSources(t)
	// Directives and declarations in unusual places: inside a function body,
	// a top-level block, an unrecognized function and an #if block.
	sources["odd places"] = "#if X\n#include <a.h>\nint g1;\n#endif\n{ int blockvar; }\n" +
		"int f(void) {\n#define LOCAL 1\n#include \"inner.h\"\n\tint local = LOCAL;\n\tchar *s = \"#\";\n\treturn local;\n}\n" +
		"int x { int y; }\nstatic void A B h(void) { int z; }\nint g2 = 3;\n"
	for _, name := range slices.Sorted(maps.Keys(sources)) {
		code := sources[name]
		t.Run(name, func(t *testing.T) {
			narrow := parse(t, code)
			includes, macros, globals := narrow.Includes(), narrow.Macros(), narrow.Declarations(GlobalScope)
			require.False(t, narrow.idx.bodyDone, "narrow questions do not walk every node")
			full := parse(t, code)
			all := full.Declarations("")
			require.True(t, full.idx.bodyDone)
			var fullGlobals []Declaration
			for _, d := range all {
				if d.Scope == GlobalScope {
					fullGlobals = append(fullGlobals, d)
				}
			}
			require.Equal(t, fullGlobals, globals)
			require.Equal(t, full.Declarations(GlobalScope), globals)
			require.Equal(t, full.Includes(), includes)
			require.Equal(t, full.Macros(), macros)
			require.Equal(t, full.Functions(), narrow.Functions())
			require.Equal(t, snap(full), snap(narrow))
		})
	}
	f := parse(t, sources["odd places"])
	require.Equal(t, []string{"a.h", "inner.h"}, []string{f.Includes()[0].Path, f.Includes()[1].Path})
	require.Equal(t, "LOCAL", f.Macros()[0].Name)
	require.Contains(t, declNames(f.Declarations(GlobalScope)), "blockvar")
	require.NotContains(t, declNames(f.Declarations(GlobalScope)), "local")
}
