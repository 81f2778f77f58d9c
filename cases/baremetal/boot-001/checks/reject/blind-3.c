/* defect: main's return value is discarded and the handler parks the core in a WFI loop instead of calling exit(), so the QEMU session never ends and no exit status is reported.
 * breaks: "When `main` returns, the program ends with `main`'s return value as the exit status."
 * must_fail: main_status_passed_to_exit, scenario_ends_with_main_status
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Linker-script symbols: only their addresses are meaningful. */
extern uint32_t _sidata[];
extern uint32_t _sdata[];
extern uint32_t _edata[];
extern uint32_t _sbss[];
extern uint32_t _ebss[];

void initialise_monitor_handles(void);
void __libc_init_array(void);

int main(void);
void Reset_Handler(void);

/* ---- objects verified by main ------------------------------------------ */

uint32_t init_value = 0x12345678u;
char init_string[16] = "startup-test";
uint32_t zero_area[64];
int constructor_ran;

__attribute__((constructor))
static void mark_constructor(void)
{
    constructor_ran = 1;
}

/* ---- start-up ------------------------------------------------------------ */

static void init_data_section(void)
{
    size_t bytes = (size_t)((uintptr_t)_edata - (uintptr_t)_sdata);

    if (bytes != 0u) {
        memcpy(_sdata, _sidata, bytes);
    }
}

static void init_bss_section(void)
{
    size_t bytes = (size_t)((uintptr_t)_ebss - (uintptr_t)_sbss);

    if (bytes != 0u) {
        memset(_sbss, 0, bytes);
    }
}

static void init_c_runtime(void)
{
    init_data_section();
    init_bss_section();
    initialise_monitor_handles();
    __libc_init_array();
}

void Reset_Handler(void)
{
    init_c_runtime();
    (void)main();

    for (;;) {
        __asm__ volatile ("wfi");
    }
}

/* ---- checks -------------------------------------------------------------- */

static int check_data(void)
{
    __asm__ volatile ("" ::: "memory");
    return init_value == 0x12345678u && strcmp(init_string, "startup-test") == 0;
}

static int check_bss(void)
{
    size_t i;

    __asm__ volatile ("" ::: "memory");
    for (i = 0; i < sizeof(zero_area) / sizeof(zero_area[0]); i++) {
        if (zero_area[i] != 0u) {
            return 0;
        }
    }
    return 1;
}

static int check_ctor(void)
{
    __asm__ volatile ("" ::: "memory");
    return constructor_ran != 0;
}

static int report(const char *what, int good)
{
    printf("%s %s\n", what, good ? "ok" : "FAIL");
    return good;
}

int main(void)
{
    int all = 1;

    all &= report("data", check_data());
    all &= report("bss", check_bss());
    all &= report("ctor", check_ctor());

    return all ? 0 : 1;
}
