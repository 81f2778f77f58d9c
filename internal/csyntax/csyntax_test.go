package csyntax

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func parse(t testing.TB, code string) *File {
	t.Helper()
	f, err := Parse(code)
	require.NoError(t, err)
	t.Cleanup(f.Close)
	return f
}

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return string(b)
}

func names(fns []Function) []string {
	var out []string
	for _, fn := range fns {
		out = append(out, fn.Name)
	}
	return out
}

func TestFunctions(t *testing.T) {
	tests := []struct {
		name string
		code string
		want []Function
	}{
		{
			name: "zephyr isr decorator",
			code: "static void __isr foo(const void *arg)\n{\n\tk_sem_give(&s);\n}\n",
			want: []Function{{Name: "foo", ReturnType: "void", Params: []Param{{Type: "const void *", Name: "arg"}},
				Body: "{\n\tk_sem_give(&s);\n}", Line: 1, EndLine: 4, Static: true, Attributes: []string{"__isr"}}},
		},
		{
			name: "linux init and exit",
			code: `#include <linux/module.h>
static int __init hello_init(void)
{
	pr_info("hello\n");
	return 0;
}
static void __exit hello_exit(void) { pr_info("bye\n"); }
module_init(hello_init);
module_exit(hello_exit);
MODULE_LICENSE("GPL");
`,
			want: []Function{
				{Name: "hello_init", ReturnType: "int", Body: "{\n\tpr_info(\"hello\\n\");\n\treturn 0;\n}", Line: 2, EndLine: 6, Static: true, Attributes: []string{"__init"}},
				{Name: "hello_exit", ReturnType: "void", Body: `{ pr_info("bye\n"); }`, Line: 7, EndLine: 7, Static: true, Attributes: []string{"__exit"}},
			},
		},
		{
			name: "esp-idf iram isr with gcc attribute",
			code: "static void IRAM_ATTR __attribute__((noinline)) gpio_isr_handler(void* arg)\n{\n    xQueueSendFromISR(q, &arg, NULL);\n}\n",
			want: []Function{{Name: "gpio_isr_handler", ReturnType: "void", Params: []Param{{Type: "void *", Name: "arg"}},
				Body: "{\n    xQueueSendFromISR(q, &arg, NULL);\n}", Line: 1, EndLine: 4, Static: true,
				Attributes: []string{"IRAM_ATTR", "__attribute__((noinline))"}}},
		},
		{
			name: "stm32 weak callback and cmsis static inline",
			code: "__weak void HAL_GPIO_EXTI_Callback(uint16_t GPIO_Pin) { UNUSED(GPIO_Pin); }\n__STATIC_INLINE uint32_t get_tick(void) { return uwTick; }\n",
			want: []Function{
				{Name: "HAL_GPIO_EXTI_Callback", ReturnType: "void", Params: []Param{{Type: "uint16_t", Name: "GPIO_Pin"}},
					Body: "{ UNUSED(GPIO_Pin); }", Line: 1, EndLine: 1, Attributes: []string{"__weak"}},
				{Name: "get_tick", ReturnType: "uint32_t", Body: "{ return uwTick; }", Line: 2, EndLine: 2, Static: true, Inline: true},
			},
		},
		{
			name: "freertos task with pointer return and variadic",
			code: "void vTaskCode( void * pvParameters ) { for( ;; ) { vTaskDelay(1); } }\nstatic const char *fmt(const char *f, ...) { return f; }\n",
			want: []Function{
				{Name: "vTaskCode", ReturnType: "void", Params: []Param{{Type: "void *", Name: "pvParameters"}},
					Body: "{ for( ;; ) { vTaskDelay(1); } }", Line: 1, EndLine: 1},
				{Name: "fmt", ReturnType: "const char *", Params: []Param{{Type: "const char *", Name: "f"}, {Type: "..."}},
					Body: "{ return f; }", Line: 2, EndLine: 2, Static: true},
			},
		},
		{
			name: "two unknown decorators are merged",
			code: "static void MY_SECTION MY_ATTR handler(int x) { work(x); }\n",
			want: []Function{{Name: "handler", ReturnType: "void", Params: []Param{{Type: "int", Name: "x"}},
				Body: "{ work(x); }", Line: 1, EndLine: 1, Static: true, Attributes: []string{"MY_SECTION", "MY_ATTR"}}},
		},
		{
			name: "unknown decorator before the type",
			code: "MY_ATTR void handler(void) { work(); }\n",
			want: []Function{{Name: "handler", ReturnType: "void", Body: "{ work(); }", Line: 1, EndLine: 1, Attributes: []string{"MY_ATTR"}}},
		},
		{
			name: "function pointer and array params, ifdef block",
			code: "#ifdef CONFIG_FOO\nint reg(void (*cb)(int, void *), uint8_t buf[], size_t n) { return 0; }\n#endif\n",
			want: []Function{{Name: "reg", ReturnType: "int",
				Params: []Param{{Type: "void (*)(int, void *)", Name: "cb"}, {Type: "uint8_t[]", Name: "buf"}, {Type: "size_t", Name: "n"}},
				Body:   "{ return 0; }", Line: 2, EndLine: 2}},
		},
		{
			name: "missing closing brace",
			code: "int main(void)\n{\n\twhile (1) {\n\t\tk_msleep(10);\n\t}\n",
			// The body ends where tree-sitter inserts the MISSING '}'.
			want: []Function{{Name: "main", ReturnType: "int", Body: "{\n\twhile (1) {\n\t\tk_msleep(10);\n\t}", Line: 1, EndLine: 5}},
		},
		{
			name: "prototype only",
			code: "void foo(void);\nextern int bar(int);\n",
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, tt.code)
			require.Equal(t, tt.want, f.Functions())
		})
	}
}

func TestZephyrFile(t *testing.T) {
	f := parse(t, readTestdata(t, "zephyr_blinky.c"))
	require.Equal(t, []string{"button_pressed", "led_ready", "blink_thread", "main"}, names(f.Functions()))

	isr, ok := f.Function("button_pressed")
	require.True(t, ok)
	require.Equal(t, []string{"__isr"}, isr.Attributes)
	require.Equal(t, []Param{{"const struct device *", "dev"}, {"struct gpio_callback *", "cb"}, {"uint32_t", "pins"}}, isr.Params)
	require.Equal(t, 23, isr.Line)
	require.Equal(t, 30, isr.EndLine)

	ready, ok := f.Function("led_ready")
	require.True(t, ok)
	require.True(t, ready.Static)
	require.True(t, ready.Inline)
	require.Equal(t, "bool", ready.ReturnType)

	_, ok = f.Function("nope")
	require.False(t, ok)

	var isrCalls []string
	for _, c := range f.Calls("button_pressed") {
		isrCalls = append(isrCalls, c.Name)
		require.Equal(t, "button_pressed", c.Function)
	}
	require.Equal(t, []string{"ARG_UNUSED", "atomic_set_bit", "k_sem_give"}, isrCalls)
	require.Nil(t, f.Calls("nope"))

	var fileScope []string
	for _, c := range f.Calls("") {
		if c.Function == "" {
			fileScope = append(fileScope, c.Name)
		}
	}
	require.Equal(t, []string{"LOG_MODULE_REGISTER", "GPIO_DT_SPEC_GET", "DT_ALIAS", "DEVICE_DT_GET", "DT_CHOSEN", "K_SEM_DEFINE", "K_THREAD_DEFINE"}, fileScope)

	var sleep Call
	for _, c := range f.Calls("blink_thread") {
		if c.Name == "k_sleep" {
			sleep = c
		}
	}
	require.Equal(t, Call{Name: "k_sleep", Args: []string{"SLEEP_MS(100)"}, Line: 52, Function: "blink_thread"}, sleep)

	require.Equal(t, []Include{
		{Path: "zephyr/kernel.h", System: true, Line: 4},
		{Path: "zephyr/device.h", System: true, Line: 5},
		{Path: "zephyr/drivers/gpio.h", System: true, Line: 6},
		{Path: "zephyr/logging/log.h", System: true, Line: 7},
		{Path: "app_config.h", Line: 8},
	}, f.Includes())
	require.Equal(t, []Macro{
		{Name: "STACK_SIZE", Value: "1024", Line: 12},
		{Name: "PRIORITY", Value: "5", Line: 13},
		{Name: "SLEEP_MS", Params: []string{"ms"}, FunctionLike: true, Value: "K_MSEC(ms)", Line: 14},
	}, f.Macros())

	globals := f.Declarations(GlobalScope)
	require.Equal(t, []string{"led", "uart", "button_cb", "presses", "flags"}, declNames(globals))
	require.Equal(t, Declaration{Name: "uart", Type: "struct device", Qualifiers: []string{"const"}, PointerQualifiers: []string{"const"},
		Storage: []string{"static"}, Pointer: true, Init: "DEVICE_DT_GET(DT_CHOSEN(zephyr_console))", Line: 17, Scope: GlobalScope}, globals[1])
	require.Equal(t, []string{"ret", "buf"}, declNames(f.Declarations("blink_thread")))
	require.Len(t, f.Declarations(""), 7)
	require.False(t, f.HasErrors())
}

func declNames(ds []Declaration) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

func TestDeclarations(t *testing.T) {
	tests := []struct {
		name string
		code string
		want []Declaration
	}{
		{
			name: "static volatile with init",
			code: "static volatile uint32_t counter = 0;",
			want: []Declaration{{Name: "counter", Type: "uint32_t", Qualifiers: []string{"volatile"}, Storage: []string{"static"}, Init: "0", Line: 1, Scope: GlobalScope}},
		},
		{
			name: "two declarators",
			code: "volatile bool a, b;",
			want: []Declaration{
				{Name: "a", Type: "bool", Qualifiers: []string{"volatile"}, Line: 1, Scope: GlobalScope},
				{Name: "b", Type: "bool", Qualifiers: []string{"volatile"}, Line: 1, Scope: GlobalScope},
			},
		},
		{
			name: "struct and atomic",
			code: "struct k_sem sem;\natomic_t flags;\n_Atomic int counter;",
			want: []Declaration{
				{Name: "sem", Type: "struct k_sem", Line: 1, Scope: GlobalScope},
				{Name: "flags", Type: "atomic_t", Line: 2, Scope: GlobalScope},
				{Name: "counter", Type: "int", Qualifiers: []string{"_Atomic"}, Line: 3, Scope: GlobalScope},
			},
		},
		{
			name: "const pointer to const device",
			code: "static const struct device *const dev = DEVICE_DT_GET(DT_NODELABEL(i2c0));",
			want: []Declaration{{Name: "dev", Type: "struct device", Qualifiers: []string{"const"}, PointerQualifiers: []string{"const"},
				Storage: []string{"static"}, Pointer: true, Init: "DEVICE_DT_GET(DT_NODELABEL(i2c0))", Line: 1, Scope: GlobalScope}},
		},
		{
			name: "aligned array",
			code: "uint8_t buf[64] __aligned(4);",
			want: []Declaration{{Name: "buf", Type: "uint8_t", Attributes: []string{"__aligned(4)"}, Array: true, Dims: []string{"64"}, Line: 1, Scope: GlobalScope}},
		},
		{
			name: "macro definitions, prototypes and typedefs are not declarations",
			code: "K_SEM_DEFINE(my_sem, 0, 1);\nstatic K_THREAD_STACK_DEFINE(stack, 1024);\nvoid f(void);\ntypedef int myint;\nstruct s { int field; };",
			want: nil,
		},
		{
			name: "cmsis __IO register and esp-idf rtc data",
			code: "__IO uint32_t tick;\nRTC_DATA_ATTR static int boots = 0;",
			want: []Declaration{
				{Name: "tick", Type: "uint32_t", Qualifiers: []string{"volatile"}, Line: 1, Scope: GlobalScope},
				{Name: "boots", Type: "int", Storage: []string{"static"}, Attributes: []string{"RTC_DATA_ATTR"}, Init: "0", Line: 2, Scope: GlobalScope},
			},
		},
		{
			name: "locals, for init and function pointer",
			code: "void f(int p)\n{\n\tregister int r;\n\tfor (int i = 0; i < 3; i++) {}\n\tvoid (*cb)(int) = NULL;\n\tconst char *s = \"x\";\n}",
			want: []Declaration{
				{Name: "r", Type: "int", Storage: []string{"register"}, Line: 3, Scope: "f"},
				{Name: "i", Type: "int", Init: "0", Line: 4, Scope: "f"},
				{Name: "cb", Type: "void", Pointer: true, Init: "NULL", Line: 5, Scope: "f"},
				{Name: "s", Type: "char", Qualifiers: []string{"const"}, Pointer: true, Init: `"x"`, Line: 6, Scope: "f"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, tt.code)
			require.Equal(t, tt.want, f.Declarations(""))
		})
	}
}

func TestDeclarationScopes(t *testing.T) {
	f := parse(t, "int g;\nvoid a(void) { int x; }\nvoid b(void) { int y; }\n")
	require.Equal(t, []string{"g"}, declNames(f.Declarations(GlobalScope)))
	require.Equal(t, []string{"x"}, declNames(f.Declarations("a")))
	require.Equal(t, []string{"y"}, declNames(f.Declarations("b")))
	require.Equal(t, []string{"g", "x", "y"}, declNames(f.Declarations("")))
	require.Nil(t, f.Declarations("c"))
}

func TestCalls(t *testing.T) {
	tests := []struct {
		name string
		code string
		want []Call
	}{
		{
			name: "member and pointer callees",
			code: "void f(void) {\n\tdev->api->read(dev, &v);\n\t(*cb)(1);\n}",
			want: []Call{
				{Name: "dev->api->read", Args: []string{"dev", "&v"}, Line: 2, Function: "f"},
				{Name: "(*cb)", Args: []string{"1"}, Line: 3, Function: "f"},
			},
		},
		{
			name: "macro calls and nested args",
			code: "void f(void) { k_sleep(K_MSEC(10)); }",
			want: []Call{
				{Name: "k_sleep", Args: []string{"K_MSEC(10)"}, Line: 1, Function: "f"},
				{Name: "K_MSEC", Args: []string{"10"}, Line: 1, Function: "f"},
			},
		},
		{
			name: "file scope macro declarations",
			code: "static K_THREAD_STACK_DEFINE(stack, 1024);\nK_MUTEX_DEFINE(lock);",
			want: []Call{
				{Name: "K_THREAD_STACK_DEFINE", Args: []string{"stack", "1024"}, Line: 1},
				{Name: "K_MUTEX_DEFINE", Args: []string{"lock"}, Line: 2},
			},
		},
		{
			name: "comments are not arguments",
			code: "void f(void) { g(a /* first */, b); }",
			want: []Call{{Name: "g", Args: []string{"a", "b"}, Line: 1, Function: "f"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, tt.code)
			require.Equal(t, tt.want, f.Calls(""))
		})
	}
}

func TestMacrosAndIncludes(t *testing.T) {
	f := parse(t, "#include <stdio.h>\n#include \"a/b.h\"\n#define IRAM_ATTR __attribute__((section(\".iram1\")))\n#define EMPTY\n#define LOG(fmt, ...) printf(fmt, \\\n  __VA_ARGS__)\n")
	require.Equal(t, []Include{{Path: "stdio.h", System: true, Line: 1}, {Path: "a/b.h", Line: 2}}, f.Includes())
	require.Equal(t, []Macro{
		{Name: "IRAM_ATTR", Value: `__attribute__((section(".iram1")))`, Line: 3},
		{Name: "EMPTY", Line: 4},
		{Name: "LOG", Params: []string{"fmt", "..."}, FunctionLike: true, Value: "printf(fmt, \\\n  __VA_ARGS__)", Line: 5},
	}, f.Macros())
}

func TestMaskingSkipsCommentsAndStrings(t *testing.T) {
	code := "// IRAM_ATTR in a comment\nconst char *s = \"__init\";\n/* __isr */ void IRAM_ATTR f(void) {}\n"
	masked, masks := maskDecorators([]byte(code))
	require.Len(t, masks, 1)
	require.Equal(t, "IRAM_ATTR", masks[0].text)
	require.Len(t, masked, len(code))
	require.Equal(t, strings.Count(code, "\n"), strings.Count(string(masked), "\n"))
	require.Contains(t, string(masked), `"__init"`)
}

func TestQuery(t *testing.T) {
	f := parse(t, readTestdata(t, "zephyr_blinky.c"))
	ms, err := f.Query(`(call_expression function: (identifier) @fn (#eq? @fn "k_sem_give")) @call`)
	require.NoError(t, err)
	require.Len(t, ms, 1)
	code := readTestdata(t, "zephyr_blinky.c")
	require.Equal(t, []Capture{{Text: "k_sem_give", Kind: "identifier", Line: 29, EndLine: 29, Start: strings.Index(code, "k_sem_give(&blink_sem)")}}, ms[0].Captures["fn"])
	require.Equal(t, "k_sem_give(&blink_sem)", ms[0].Captures["call"][0].Text)

	ms, err = f.Query(`(function_definition declarator: (function_declarator declarator: (identifier) @name)) @def`)
	require.NoError(t, err)
	require.Len(t, ms, 4)
	require.Equal(t, 58, ms[3].Captures["def"][0].Line)
	require.Equal(t, 68, ms[3].Captures["def"][0].EndLine)

	tests := []struct {
		pattern string
		wantErr string
	}{
		{`(call_expresion) @c`, `csyntax: bad query at offset 1 (line 1, column 2): unknown node type "call_expresion"`},
		{`(call_expression functon: (identifier))`, `csyntax: bad query at offset 17 (line 1, column 18): unknown field "functon"`},
		{`(call_expression`, `csyntax: bad query at offset 16 (line 1, column 17): invalid syntax`},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			_, err := f.Query(tt.pattern)
			require.EqualError(t, err, tt.wantErr)
		})
	}
}

func TestCloseIsIdempotent(t *testing.T) {
	f, err := Parse("int x;")
	require.NoError(t, err)
	require.Len(t, f.Declarations(""), 1)
	f.Close()
	f.Close()
	require.Nil(t, f.Functions())
	require.Nil(t, f.Declarations(""))
	require.False(t, f.HasErrors())
	_, err = f.Query("(identifier) @i")
	require.Error(t, err)
}

func TestMalformedInputDoesNotPanic(t *testing.T) {
	big := strings.Repeat("void f(void) { k_msleep(1); }\n", 2<<20/30)
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(i*7919 + i/3)
	}
	tests := []struct {
		name       string
		code       string
		wantErrors bool
	}{
		{"empty", "", false},
		{"unterminated function", "int main(void) {\n\tif (x) {\n\t\tfoo(", true},
		{"random bytes", string(random), true},
		{"invalid utf8", "int \xff\xfe x = \"\xc3\x28\";\nvoid f(void) { g(); }", true},
		{"only garbage braces", "}}}{{{)))(((", true},
		{"2 MB", big, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, tt.code)
			require.Equal(t, tt.wantErrors, f.HasErrors())
			for _, fn := range f.Functions() {
				require.LessOrEqual(t, fn.Line, fn.EndLine)
			}
			_ = f.Calls("")
			_ = f.Declarations("")
			_ = f.Includes()
			_ = f.Macros()
		})
	}
	f := parse(t, big)
	require.Len(t, f.Functions(), 2<<20/30)
}

func TestParseTooLarge(t *testing.T) {
	_, err := Parse(strings.Repeat(" ", MaxSourceBytes+1))
	require.EqualError(t, err, "csyntax: source is 16777217 bytes, more than the limit of 16777216")
}

func TestParseCache(t *testing.T) {
	c := NewParseCache(2)
	defer c.Close()
	a1, err := c.Get("int a;")
	require.NoError(t, err)
	a2, err := c.Get("int a;")
	require.NoError(t, err)
	require.Same(t, a1, a2)
	require.Equal(t, 1, c.Parses())

	_, err = c.Get("int b;")
	require.NoError(t, err)
	_, err = c.Get("int a;") // a becomes most recent, b least
	require.NoError(t, err)
	_, err = c.Get("int c;") // evicts b
	require.NoError(t, err)
	require.Equal(t, 3, c.Parses())
	require.Equal(t, 2, c.Len())

	b, err := c.Get("int b;")
	require.NoError(t, err)
	require.Equal(t, 4, c.Parses())
	require.Equal(t, []string{"b"}, declNames(b.Declarations("")))
	// a was evicted by b and closed.
	require.Nil(t, a1.Declarations(""))

	c.Close()
	require.Equal(t, 0, c.Len())
	require.Nil(t, b.Declarations(""))
}

func FuzzParse(f *testing.F) {
	f.Add("")
	f.Add("static void __isr foo(const void *arg) { k_sem_give(&s); }")
	f.Add("static void A B f(int x) { g(x); }\nK_SEM_DEFINE(s, 0, 1);")
	f.Add("#define X(a, ...) a\n#include <x.h>\nuint8_t buf[4] __aligned(4);")
	f.Add("int main(void) {\n while (1) {")
	f.Fuzz(func(t *testing.T, code string) {
		file, err := Parse(code)
		require.NoError(t, err)
		defer file.Close()
		for _, fn := range file.Functions() {
			if fn.Line > fn.EndLine {
				t.Fatalf("function %q: Line %d > EndLine %d", fn.Name, fn.Line, fn.EndLine)
			}
			if fn.Line < 1 {
				t.Fatalf("function %q: Line %d", fn.Name, fn.Line)
			}
		}
		for _, c := range file.Calls("") {
			if c.Line < 1 {
				t.Fatalf("call %q at line %d", c.Name, c.Line)
			}
		}
		_ = file.Declarations("")
		_ = file.Macros()
		_ = file.Includes()
		if utf8.ValidString(code) {
			_ = file.HasErrors()
		}
	})
}

func BenchmarkParse(b *testing.B) {
	code := readTestdata(b, "zephyr_blinky.c")
	b.SetBytes(int64(len(code)))
	for b.Loop() {
		f, err := Parse(code)
		if err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

func BenchmarkFunctionsCalls(b *testing.B) {
	f := parse(b, readTestdata(b, "zephyr_blinky.c"))
	for b.Loop() {
		f.idx = nil // drop the lazily built index so every iteration extracts
		if len(f.Functions()) != 4 || len(f.Calls("")) == 0 {
			b.Fatal("unexpected extraction result")
		}
	}
}

func TestPlatformSnippetsParseCleanly(t *testing.T) {
	tests := []struct {
		name      string
		code      string
		wantFuncs []string
		wantCalls []string // calls of the last function
	}{
		{
			name: "linux character device module",
			code: `#include <linux/module.h>
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
module_init(chardev_init);
MODULE_LICENSE("GPL");
`,
			wantFuncs: []string{"dev_read", "chardev_init"},
			wantCalls: []string{"register_chrdev", "pr_info"},
		},
		{
			name: "esp-idf gpio isr with freertos queue",
			code: `#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "driver/gpio.h"
static QueueHandle_t gpio_evt_queue = NULL;
static void IRAM_ATTR gpio_isr_handler(void *arg)
{
	uint32_t gpio_num = (uint32_t) arg;
	xQueueSendFromISR(gpio_evt_queue, &gpio_num, NULL);
}
void app_main(void)
{
	gpio_evt_queue = xQueueCreate(10, sizeof(uint32_t));
	gpio_install_isr_service(ESP_INTR_FLAG_DEFAULT);
	gpio_isr_handler_add(GPIO_NUM_4, gpio_isr_handler, (void *) GPIO_NUM_4);
	xTaskCreate(gpio_task, "gpio_task", 2048, NULL, 10, NULL);
}
`,
			wantFuncs: []string{"gpio_isr_handler", "app_main"},
			wantCalls: []string{"xQueueCreate", "gpio_install_isr_service", "gpio_isr_handler_add", "xTaskCreate"},
		},
		{
			name: "stm32 hal uart callback",
			code: `#include "stm32f4xx_hal.h"
UART_HandleTypeDef huart2;
volatile uint8_t rx_byte;
void HAL_UART_RxCpltCallback(UART_HandleTypeDef *huart)
{
	if (huart->Instance == USART2) {
		HAL_UART_Receive_IT(&huart2, (uint8_t *)&rx_byte, 1);
	}
}
`,
			wantFuncs: []string{"HAL_UART_RxCpltCallback"},
			wantCalls: []string{"HAL_UART_Receive_IT"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, tt.code)
			require.False(t, f.HasErrors())
			require.Equal(t, tt.wantFuncs, names(f.Functions()))
			var calls []string
			for _, c := range f.Calls(tt.wantFuncs[len(tt.wantFuncs)-1]) {
				calls = append(calls, c.Name)
			}
			require.Equal(t, tt.wantCalls, calls)
		})
	}
}

func TestParenthesizedMacroIsACall(t *testing.T) {
	f, err := Parse("static DEVICE_ATTR_RO(count);\nstatic DEVICE_ATTR_WO(reset);\nstatic int (plain);\nstatic Foo_t (x);\nvoid f(void)\n{\n\tstatic K_MUTEX_DEFINE(lock);\n}\n")
	require.NoError(t, err)
	defer f.Close()
	var calls []string
	for _, c := range f.Calls("") {
		calls = append(calls, fmt.Sprintf("%s(%s)@%d in %q", c.Name, strings.Join(c.Args, ","), c.Line, c.Function))
	}
	require.Equal(t, []string{`DEVICE_ATTR_RO(count)@1 in ""`, `DEVICE_ATTR_WO(reset)@2 in ""`, `K_MUTEX_DEFINE(lock)@7 in "f"`}, calls)
	var decls []string
	for _, d := range f.Declarations("") {
		decls = append(decls, d.Name)
	}
	require.Equal(t, []string{"plain", "x"}, decls, "a parenthesized declarator of a real type stays a declaration")
}

func TestCallees(t *testing.T) {
	f, err := Parse("static void log_it(int x) { printf(\"%d\", x); }\nstatic void step(int x) { if (x) step(x - 1); log_it(x); }\n" +
		"static void unused(void) { }\nstatic void cb(void) { log_it(0); }\nvoid TIMER0_Handler(void) { step(3); register_cb(cb); TIMER0_Handler(); }\n")
	require.NoError(t, err)
	defer f.Close()
	require.Equal(t, []string{"step", "log_it"}, f.Callees("TIMER0_Handler"), "callbacks passed as arguments and the function itself are not followed")
	require.Empty(t, f.Callees("log_it"))
	require.Equal(t, []string{"log_it"}, f.Callees("cb"))
	require.Empty(t, f.Callees("TIMER0_Handler", "step"), "a stop function is neither reported nor entered")
	require.Empty(t, f.Callees("no_such_function"))
}

func TestAssignments(t *testing.T) {
	code := "#define SYST_RVR (*(volatile uint32_t *)0xE000E014UL)\n" +
		"static TIM_HandleTypeDef htim = { .Instance = TIM2, .Init = { .Period = 999 } };\n" +
		"static const uint32_t reload = 24999U;\n" +
		"void setup(TIM_TypeDef *t)\n{\n\tSYST_RVR = reload;\n\thtim.Init.Period = 4999;\n\tt->ARR |= 0x10;\n\tuint32_t *p = &x, period[2] = {1, 2};\n\t*(volatile uint32_t *) 0x40000008 = 7;\n}\n"
	f, err := Parse(code)
	require.NoError(t, err)
	defer f.Close()
	got := func(target string) []string {
		var out []string
		for _, a := range f.Assignments(target) {
			out = append(out, fmt.Sprintf("%d %s %s %s %q", a.Line, a.Function, a.Target, a.Op, a.Value))
		}
		return out
	}
	require.Equal(t, []string{`6 setup SYST_RVR = "reload"`}, got("SYST_RVR"))
	require.Equal(t, []string{`2  .Period = "999"`, `7 setup htim.Init.Period = "4999"`}, got("Period"))
	require.Equal(t, []string{`8 setup t->ARR |= "0x10"`}, got("ARR"))
	require.Equal(t, []string{`3  reload = "24999U"`}, got("reload"))
	require.Equal(t, []string{`10 setup *(volatile uint32_t*)0x40000008 = "7"`}, got("*(volatile uint32_t *)0x40000008"))
	require.Equal(t, []string{`9 setup p = "&x"`}, got("p"))
	f2, err := Parse("static unsigned n;\nvoid isr(void) { n++; ++n; n += 2; n--; }\n")
	require.NoError(t, err)
	defer f2.Close()
	var ops []string
	for _, a := range f2.Assignments("n") {
		ops = append(ops, a.Op)
	}
	require.Equal(t, []string{"++", "++", "+=", "--"}, ops)
	f3, err := Parse("static volatile unsigned *const syst_rvr = (volatile unsigned *)0xE000E014UL;\nstatic TIM_HandleTypeDef h = { .Init.Prescaler = 15, .Instance = TIM2 };\n")
	require.NoError(t, err)
	defer f3.Close()
	var got3 []string
	for _, target := range []string{"syst_rvr", "Prescaler", "Init"} {
		for _, a := range f3.Assignments(target) {
			got3 = append(got3, a.Target+"="+a.Value)
		}
	}
	require.Equal(t, []string{"syst_rvr=(volatile unsigned *)0xE000E014UL", ".Init.Prescaler=15"}, got3, "a *const declarator names the variable; a designator chain its last field")
	require.Empty(t, got("LOAD"))
	require.Len(t, got(""), 11, "every store: 4 declarations, 3 designators, 4 statements")
}

func TestDeclarationDims(t *testing.T) {
	f := parse(t, "#define LEN 8\nstatic char buf[2][LEN];\nint tab[] = {1, 2};\nint n;\nvoid g(void) { uint8_t rx[LEN * 2]; }\n")
	dims := map[string][]string{}
	for _, d := range append(f.Declarations(GlobalScope), f.Declarations("g")...) {
		dims[d.Name] = d.Dims
	}
	require.Equal(t, map[string][]string{"buf": {"2", "LEN"}, "tab": {""}, "n": nil, "rx": {"LEN * 2"}}, dims)
}
