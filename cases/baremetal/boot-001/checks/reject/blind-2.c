/* defect: the .data length is computed as a uint32_t pointer difference (a word count) but passed to memcpy as a byte count, so only a quarter of the initial values are copied to RAM.
 * breaks: "`Reset_Handler` must leave the system in the state a C program is entitled to expect when `main` starts (initialised and zero-initialised static storage, working `printf`, constructors already run), then run `main`."
 * must_fail: L2, data_copied_from_flash
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
void Reset_Handler(void) __attribute__((noreturn));

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
    size_t len = (size_t)(_edata - _sdata);

    if (len != 0u) {
        memcpy(_sdata, _sidata, len);
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
    int status;

    init_c_runtime();
    status = main();
    exit(status);
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
