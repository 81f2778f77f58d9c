package ctext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHasWord(t *testing.T) {
	tests := []struct {
		name, code, word string
		want             bool
	}{
		{"plain", "k_sem_take(&s, K_FOREVER);", "K_FOREVER", true},
		{"prefix of longer word", "k_sem_take(&s, K_FOREVER_X);", "K_FOREVER", false},
		{"suffix of longer word", "MY_K_FOREVER", "K_FOREVER", false},
		{"in comment", "/* K_FOREVER */ x", "K_FOREVER", false},
		{"in string", `printk("K_FOREVER");`, "K_FOREVER", false},
		{"in line comment", "x; // volatile", "volatile", false},
		{"multi word", "const struct device *dev;", "struct device", true},
		{"multi word across newline", "const struct\n\tdevice *dev;", "struct device", true},
		{"multi word needs space", "const structdevice *dev;", "struct device", false},
		{"multi word boundary", "struct devices *d;", "struct device", false},
		{"arrow operator", "dev->name", "->", true},
		{"punct end no boundary", "foo(x)", "foo(", true},
		{"punct end with ident start", "myfoo(x)", "foo(", false},
		{"digit boundary", "uart0", "uart", false},
		{"second occurrence", "uart0 uart", "uart", true},
		{"empty word", "x", "", false},
		{"space word", "x", "  ", false},
		{"macro line counts", "#define LED_PIN 13", "LED_PIN", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, NewSource(tt.code).HasWord(tt.word))
		})
	}
}

func TestHasAPICall(t *testing.T) {
	tests := []struct {
		name, code, api string
		want            bool
	}{
		{"call", "k_sleep(K_MSEC(10));", "k_sleep", true},
		{"space before paren", "k_sleep (K_MSEC(10));", "k_sleep", true},
		{"newline before paren", "k_sleep\n\t(K_MSEC(10));", "k_sleep", true},
		{"trailing paren in name", "k_sleep(K_MSEC(10));", "k_sleep(", true},
		{"prefixed name", "my_k_sleep(1);", "k_sleep", false},
		{"suffixed name", "k_sleep_ms(1);", "k_sleep", false},
		{"declaration only", "int foo;", "foo", false},
		{"address of", "cb = &foo;", "foo", false},
		{"in comment", "// foo(1)\nbar();", "foo", false},
		{"in string", `printk("foo(1)");`, "foo", false},
		{"definition matches", "void foo(void) {}", "foo", true},
		{"member call", "dev->api->send(buf);", "send", true},
		{"dotted name", "Serial.begin(9600);", "Serial.begin", true},
		{"dotted name boundary", "MySerial.begin(9600);", "Serial.begin", false},
		{"empty name", "foo();", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, NewSource(tt.code).HasAPICall(tt.api))
		})
	}
}

func TestAPICalls(t *testing.T) {
	code := "void foo(void);\n/* foo() */\nint main(void)\n{\n\tfoo();\n\tfoo ();\n}\n"
	want := []Match{
		{Offset: 5, Line: 1},
		{Offset: strings.Index(code, "\tfoo();") + 1, Line: 5},
		{Offset: strings.Index(code, "\tfoo ();") + 1, Line: 6},
	}
	require.Equal(t, want, NewSource(code).APICalls("foo"))
	require.Empty(t, NewSource(code).APICalls("bar"))
}

func TestCallSites(t *testing.T) {
	tests := []struct {
		name, code string
		wantLines  []int
	}{
		{"definition and prototype excluded", "int foo(int a);\nint foo(int a)\n{\n\treturn a;\n}\nint main(void)\n{\n\treturn foo(1);\n}\n", []int{8}},
		{"decorated definition", "static void __isr foo(const void *arg)\n{\n}\nvoid bar(void) { foo(NULL); }\n", []int{4}},
		{"pointer return type", "static struct k_work *\nfoo(int x)\n{\n}\n", nil},
		{"K&R style", "int foo(a, b)\nint a; char *b;\n{\n}\n", nil},
		{"implicit int at file scope", "foo(x)\n{\n}\n", nil},
		{"statement call", "void f(void)\n{\n\tfoo(1);\n\tx = foo(2);\n\tif (foo(3)) {}\n\t(void)foo(4);\n}\n", []int{3, 4, 5, 6}},
		{"keywords before call", "int f(void)\n{\n\tif (a) return foo(1);\n\telse foo(2);\n\tdo foo(3); while (0);\n}\n", []int{3, 4, 5}},
		{"macro definition excluded", "#define foo(x) ((x) + 1)\n#define BAR(y) foo(y)\n", []int{2}},
		{"file scope macro invocation", "K_THREAD_DEFINE(tid, 512, foo, NULL, NULL, NULL, 7, 0, 0);\nLOG_MODULE_REGISTER(app);\n", nil},
		{"multi-line call", "void f(void)\n{\n\tfoo(\n\t\t1,\n\t\t2);\n}\n", []int{3}},
		{"cast and deref", "void f(void)\n{\n\tint r = (int)foo(1) * *foo(2);\n}\n", []int{3, 3}},
		{"function pointer member", "struct ops { int (*foo)(int); };\nvoid f(struct ops *o) { o->foo(1); }\n", []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lines []int
			for _, m := range NewSource(tt.code).CallSites("foo") {
				lines = append(lines, m.Line)
			}
			require.Equal(t, tt.wantLines, lines)
		})
	}
}
