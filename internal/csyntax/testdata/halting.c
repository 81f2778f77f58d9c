/* Fixture for TestNeverReturns: each function's name says what it is. */
#include <stdlib.h>

/* noreturn spellings: the body alone would return. */
_Noreturn void c11_noreturn(void) { }
noreturn void stdnoreturn_macro(void) { }
void __attribute__((noreturn)) gcc_attribute(void) { }
void __attribute__((__noreturn__)) gcc_attribute_underscores(void) { }
[[noreturn]] void c23_attribute(void) { }
__NO_RETURN void cmsis_macro(void) { }
FUNC_NORETURN void zephyr_macro(void) { }
static void __noreturn linux_macro(void) { }

/* Prototypes only. */
__NO_RETURN void proto_cmsis(void);
void proto_trailing(const char *why) __attribute__((noreturn));
void proto_plain(void);

/* Endless loops. */
void loop_for(void) { for (;;) { } }
void loop_while_one(void) { while (1); }
void loop_while_true(void) { while (true) { led_toggle(); } }
void loop_while_paren(void) { while ((1U)) { } }
void loop_do(void) { do { tick(); } while (1); }
void loop_goto(void) { again: poll(); goto again; }
void loop_with_break(void) { for (;;) { if (ready()) break; } }
void loop_with_return(void) { while (1) { if (ready()) return; } }
void loop_bounded(int n) { while (n--) { } }

/* SDK calls that never return. */
void reset_now(void) { __disable_irq(); NVIC_SystemReset(); }
void panic_after_log(void) { printk("fatal\n"); k_panic(); }
void unreachable_stmt(void) { k_oops(); CODE_UNREACHABLE; }
void exit_in_return(void) { return exit(1); }
void reset_if_fatal(int fatal) { if (fatal) NVIC_SystemReset(); }

/* STM32CubeMX's Error_Handler, judged from its body. */
void Error_Handler(void)
{
	__disable_irq();
	while (1)
	{
	}
}

/* Transitive halt through two helpers. */
static void halt_leaf(void) { log_flush(); while (1) { } }
static void halt_middle(int code) { record(code); halt_leaf(); }
void halt_top(void) { halt_middle(3); }

/* Both branches and switches. */
void if_both_halt(int x) { if (x) abort(); else for (;;) { } }
void switch_all_halt(int x) { switch (x) { case 0: abort(); default: while (1) { } } }
void switch_break(int x) { switch (x) { case 0: abort(); case 1: break; default: abort(); } }
void switch_no_default(int x) { switch (x) { case 0: abort(); } }
void goto_out(int x) { if (x) goto out; while (1) { } out: return; }
void preproc_both(void)
{
#ifdef CONFIG_REBOOT
	sys_reboot(0);
#else
	abort();
#endif
}
void preproc_one(void)
{
#ifdef CONFIG_REBOOT
	sys_reboot(0);
#endif
}

/* Calls the analysis cannot judge. */
void via_param(void (*fail)(void)) { fail(); }
void via_member(const struct device *dev) { dev->api->halt(dev); }
static void (*hook)(void);
void via_global(void) { hook(); }
void via_param_then_return(void (*fail)(void)) { fail(); return; }
void via_unknown_helper(void) { via_param(halt_leaf); }
void returns_before_pointer(void (*fail)(void), int x) { if (x) return; fail(); }

/* Recursion. */
void mutual_a(int n);
void mutual_b(int n) { mutual_a(n); }
void mutual_a(int n) { mutual_b(n - 1); }
void recursive_with_base(int n) { if (n == 0) return; recursive_with_base(n - 1); }
void self_loop(void) { self_loop(); }

/* Plain functions. */
int plain_return(void) { return 0; }
void plain_fall(void) { printk("hi\n"); }
void calls_proto(void) { proto_trailing("x"); }
void calls_plain_proto(void) { proto_plain(); }
