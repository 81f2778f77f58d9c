package csyntax

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testHalting is a small vocabulary for the tests; the shipped one is
// data/halting_calls.yaml (package halting).
var testHalting = NewHaltingCalls("abort", "exit", "NVIC_SystemReset", "k_panic", "k_oops", "sys_reboot", "CODE_UNREACHABLE").
	WithStatus(sdkStatus{
		success: []string{"pdTRUE", "pdPASS", "ESP_OK", "HAL_OK", "PSA_SUCCESS"},
		failure: []string{"pdFALSE", "pdFAIL", "ESP_FAIL", "HAL_ERROR", "HAL_TIMEOUT", "HAL_BUSY"},
	})

func TestNeverReturns(t *testing.T) {
	f := parse(t, readTestdata(t, "halting.c"))
	want := map[string]Tristate{
		"c11_noreturn": Yes, "stdnoreturn_macro": Yes, "gcc_attribute": Yes, "gcc_attribute_underscores": Yes,
		"c23_attribute": Yes, "cmsis_macro": Yes, "zephyr_macro": Yes, "linux_macro": Yes,
		"proto_cmsis": Yes, "proto_trailing": Yes, "proto_plain": Unknown, "not_in_file": Unknown,
		"abort": Yes, "NVIC_SystemReset": Yes,

		"loop_for": Yes, "loop_while_one": Yes, "loop_while_true": Yes, "loop_while_paren": Yes, "loop_do": Yes,
		"loop_goto": Yes, "loop_with_break": No, "loop_with_return": No, "loop_bounded": No,

		"reset_now": Yes, "panic_after_log": Yes, "unreachable_stmt": Yes, "exit_in_return": Yes, "reset_if_fatal": No,
		"Error_Handler": Yes,
		"halt_leaf":     Yes, "halt_middle": Yes, "halt_top": Yes,

		"if_both_halt": Yes, "switch_all_halt": Yes, "switch_break": No, "switch_no_default": No,
		"goto_out": No, "preproc_both": Yes, "preproc_one": No,

		"via_param": Unknown, "via_member": Unknown, "via_global": Unknown, "via_param_then_return": Unknown,
		"via_unknown_helper": Unknown, "returns_before_pointer": No,

		"mutual_a": Yes, "mutual_b": Yes, "recursive_with_base": No, "self_loop": Yes,

		"plain_return": No, "plain_fall": No, "calls_proto": Yes, "calls_plain_proto": No,
	}
	defined := map[string]bool{}
	for _, fn := range f.Functions() {
		defined[fn.Name] = true
		_, ok := want[fn.Name]
		assert.True(t, ok, "the fixture's %s has no expectation", fn.Name)
	}
	for name, w := range want {
		assert.Equal(t, w, f.NeverReturns(name, testHalting), name)
	}
	// Without the vocabulary, SDK calls are ordinary external calls, but
	// declarations and bodies still decide.
	assert.Equal(t, No, f.NeverReturns("reset_now", nil))
	assert.Equal(t, Unknown, f.NeverReturns("abort", nil))
	assert.Equal(t, Yes, f.NeverReturns("Error_Handler", nil))
	assert.Equal(t, Yes, f.NeverReturns("proto_cmsis", nil))
}

func TestNeverReturnsDefinitionBeatsVocabulary(t *testing.T) {
	f := parse(t, "void panic(const char *m) { printk(m); }\nvoid fail(void) { panic(\"x\"); }\n")
	h := NewHaltingCalls("panic")
	assert.Equal(t, No, f.NeverReturns("panic", h))
	assert.Equal(t, No, f.NeverReturns("fail", h))
	// A local variable or parameter named like a halting call is a pointer.
	g := parse(t, "void run(void (*abort)(void)) { abort(); }\n")
	assert.Equal(t, Unknown, g.NeverReturns("run", testHalting))
}

func TestNeverReturnsDuplicateDefinitions(t *testing.T) {
	// Definitions in #if branches: the function returns when one of them does.
	code := "#ifdef A\nvoid stop(void) { while (1); }\n#else\nvoid stop(void) { }\n#endif\nvoid both(void) { stop(); }\n"
	f := parse(t, code)
	assert.Equal(t, No, f.NeverReturns("stop", nil))
	code = "#ifdef A\nvoid stop(void) { while (1); }\n#else\nvoid stop(void) { abort(); }\n#endif\n"
	assert.Equal(t, Yes, parse(t, code).NeverReturns("stop", testHalting))
}

func TestNeverReturnsUnconditionalCallsOnly(t *testing.T) {
	tests := []struct {
		body string
		want Tristate
	}{
		{"ok() || abort();", No},
		{"ok() && abort();", No},
		{"x ? abort() : (void)0;", No},
		{"(void)abort();", Yes},
		{"int r = abort();", Yes},
		{"log(abort());", Yes},
		{"if (abort()) { }", Yes},
		{"n = sizeof(abort());", No},
		{"switch (x) { case 1: abort(); }", No},
		{"__attribute__((fallthrough)); abort();", Yes},
	}
	for _, tt := range tests {
		f := parse(t, "void f(int x) { "+tt.body+" }\n")
		assert.Equal(t, tt.want, f.NeverReturns("f", testHalting), tt.body)
	}
}

func TestBranchExits(t *testing.T) {
	code := `#include <zephyr/kernel.h>
static void fatal(void) { LOG_ERR("fatal"); k_panic(); }
int init(const struct device *dev, void (*cb)(int))
{
	int ret = gpio_pin_configure_dt(&led, GPIO_OUTPUT);
	if (ret < 0) {
		printk("failed\n");
	}
	if (ret < 0) {
		fatal();
	}
	if (ret < 0) {
		return ret;
	}
	if (ret < 0)
		goto err;
	if (ret < 0) {
		cb(ret);
	}
	if (ret < 0) {
		cb(ret);
		return ret;
	}
	if (ret != 0) {
		goto err;
	} else if (ret == 1) {
		for (;;) { }
	} else {
		k_oops();
	}
	while (ret) {
		if (ret == 2) {
			break;
		}
		if (ret == 3)
			continue;
		if (ret == 4) {
			int i;
			for (i = 0; i < 3; i++) {
				if (i) goto found;
			}
found:
			ret = 0;
		}
	}
	if (ret < 0) {
		if (ret == -EIO) {
			return ret;
		}
	}
	if (ret < 0) {
		BROKEN(; while
	}
	return 0;
err:
	return ret;
}
`
	f := parse(t, code)
	got := f.BranchExits("init", "", 0, testHalting)
	type row struct {
		line      int
		cond      string
		then, els []string
		hasElse   bool
	}
	var rows []row
	for _, b := range got {
		assert.Equal(t, "init", b.Function)
		rows = append(rows, row{b.Line, b.Condition, b.Then.Names(), b.Else.Names(), b.HasElse})
	}
	assert.Equal(t, []row{
		{6, "ret < 0", []string{"falls_through"}, []string{}, false},
		{9, "ret < 0", []string{"halt"}, []string{}, false},
		{12, "ret < 0", []string{"return"}, []string{}, false},
		{15, "ret < 0", []string{"goto"}, []string{}, false},
		{17, "ret < 0", []string{"unknown"}, []string{}, false},
		{20, "ret < 0", []string{"return"}, []string{}, false},
		{24, "ret != 0", []string{"goto"}, []string{"halt"}, true},
		{26, "ret == 1", []string{"halt"}, []string{"halt"}, true},
		{32, "ret == 2", []string{"break"}, []string{}, false},
		{35, "ret == 3", []string{"continue"}, []string{}, false},
		{37, "ret == 4", []string{"falls_through"}, []string{}, false},
		{40, "i", []string{"goto"}, []string{}, false},
		{46, "ret < 0", []string{"return", "falls_through"}, []string{}, false},
		{47, "ret == -EIO", []string{"return"}, []string{}, false},
		{51, "ret < 0", []string{"unknown"}, []string{}, false},
	}, rows)

	// Selecting by condition (whitespace ignored) and by line.
	sel := f.BranchExits("init", "ret==-EIO", 0, testHalting)
	require.Len(t, sel, 1)
	assert.Equal(t, 47, sel[0].Line)
	sel = f.BranchExits("", "ret", 9, testHalting)
	require.Len(t, sel, 1)
	assert.Equal(t, ExitHalt, sel[0].Then)
	assert.Empty(t, f.BranchExits("fatal", "", 0, testHalting))
	assert.Empty(t, f.BranchExits("missing", "", 0, testHalting))
	assert.Empty(t, f.BranchExits("init", "no such condition", 0, testHalting))
}

func TestExitsNames(t *testing.T) {
	assert.Equal(t, []string{}, Exits(0).Names())
	assert.Equal(t, []string{"return", "goto", "break", "continue", "halt", "unknown", "falls_through"}, Exits(0x7f).Names())
}

func TestHaltingCalls(t *testing.T) {
	h := NewHaltingCalls("b", "a", "", "a")
	assert.True(t, h.Contains("a"))
	assert.False(t, h.Contains(""))
	assert.False(t, (*HaltingCalls)(nil).Contains("a"))
	assert.Equal(t, NewHaltingCalls("a", "b").memoKey(), h.memoKey(), "the key depends on the names only")
	assert.NotEqual(t, NewHaltingCalls("a").memoKey(), h.memoKey())
	assert.Equal(t, "unknown", Unknown.String())
	assert.Equal(t, "yes", Yes.String())
	assert.Equal(t, "no", No.String())
}

func TestFlowIsBuiltOncePerVocabulary(t *testing.T) {
	f := parse(t, "void stop(void) { abort(); }\n")
	assert.Equal(t, Yes, f.NeverReturns("stop", testHalting))
	assert.Same(t, f.flow(testHalting), f.flow(NewHaltingCalls("abort", "exit", "NVIC_SystemReset", "k_panic", "k_oops", "sys_reboot", "CODE_UNREACHABLE")))
	assert.Equal(t, No, f.NeverReturns("stop", nil), "another vocabulary, another analysis")
}

func TestFlowOnHostileCode(t *testing.T) {
	t.Run("5000 functions in a chain", func(t *testing.T) {
		var b strings.Builder
		const n = 5000
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "void f%d(int x) { if (x) { log(%d); } f%d(x); }\n", i, i, i+1)
		}
		fmt.Fprintf(&b, "void f%d(int x) { while (1) { } }\n", n)
		f := parse(t, b.String())
		require.Len(t, f.Functions(), n+1)
		assert.Equal(t, Yes, f.NeverReturns("f0", nil), "the halt at the end of the chain reaches the start")
		assert.Equal(t, Yes, f.NeverReturns(fmt.Sprintf("f%d", n/2), nil))
		assert.Len(t, f.BranchExits("", "x", 0, nil), n)
	})
	t.Run("5000 functions calling each other", func(t *testing.T) {
		var b strings.Builder
		const n = 5000
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "void g%d(int x) { if (x == %d) return; g%d(x); g%d(x); }\n", i, i, (i+1)%n, (i*7)%n)
		}
		f := parse(t, b.String())
		assert.Equal(t, No, f.NeverReturns("g0", nil))
		assert.Equal(t, No, f.NeverReturns("g4999", nil))
	})
	t.Run("deep nesting", func(t *testing.T) {
		const depth = 3000
		code := "void f(int x) { " + strings.Repeat("if (x) { ", depth) + "abort();" + strings.Repeat(" }", depth) + " }\n"
		f := parse(t, code)
		assert.Equal(t, No, f.NeverReturns("f", testHalting))
		code = "void f(int x) { " + strings.Repeat("{ ", depth) + "abort();" + strings.Repeat(" }", depth) + " }\n"
		assert.Equal(t, Unknown, parse(t, code).NeverReturns("f", testHalting), "past the depth bound nothing is decided")
	})
	t.Run("deep expression", func(t *testing.T) {
		const depth = 20000
		code := "void f(void) { " + strings.Repeat("g(", depth) + "abort()" + strings.Repeat(")", depth) + "; }\n"
		assert.Equal(t, Yes, parse(t, code).NeverReturns("f", testHalting))
	})
	t.Run("macros that do not parse", func(t *testing.T) {
		code := `#define FOREVER for (;;
LOG_MODULE_REGISTER(app, LOG_LEVEL_INF);
void a(void) { FOREVER ) { } }
void b(void) { IF_ENABLED(CONFIG_X, (k_panic();)) LOG_ERR("x %d", ##__VA_ARGS__); }
void c(void) { K_SPINLOCK(&lock) { return; } abort(); }
void d(int x) { if (x) { UNKNOWN_MACRO(x) while } abort(); }
void e(void) { SYS_SLIST_FOR_EACH_NODE(&list, node) { k_panic(); } }
`
		f := parse(t, code)
		for _, fn := range f.Functions() {
			_ = f.NeverReturns(fn.Name, testHalting)
			_ = f.BranchExits(fn.Name, "", 0, testHalting)
		}
		assert.Equal(t, No, f.NeverReturns("c", testHalting), "a loop macro's body may run, or not")
		assert.Equal(t, No, f.NeverReturns("e", testHalting), "a loop macro's body may not run")
	})
	t.Run("deadline", func(t *testing.T) {
		c := NewParseCache(2)
		defer c.Close()
		var b strings.Builder
		for i := 0; i < 2000; i++ {
			fmt.Fprintf(&b, "void f%d(int x) { if (x) { f%d(x); } }\n", i, i+1)
		}
		f, err := c.Get(b.String())
		require.NoError(t, err)
		c.SetDeadline(time.Now().Add(-time.Second))
		assert.Equal(t, Unknown, f.NeverReturns("f0", nil))
		assert.True(t, f.Interrupted())
	})
}

func TestFlowOnClosedOrEmptyFile(t *testing.T) {
	f, err := Parse("void f(void) { abort(); }")
	require.NoError(t, err)
	f.Close()
	assert.Equal(t, Unknown, f.NeverReturns("f", testHalting))
	assert.Nil(t, f.BranchExits("", "", 0, testHalting))
	var nilFile *File
	assert.Equal(t, Unknown, nilFile.NeverReturns("f", testHalting))
	assert.Equal(t, Unknown, parse(t, "").NeverReturns("abort", nil))
	assert.Equal(t, Yes, parse(t, "").NeverReturns("abort", testHalting))
}
