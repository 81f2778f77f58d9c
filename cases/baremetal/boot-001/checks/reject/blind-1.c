/* defect: __libc_init_array() runs the constructors before .bss is zeroed, so the flag the constructor sets (a zero-initialised object) is wiped again and main sees "ctor FAIL".
 * breaks: "`Reset_Handler` must leave the system in the state a C program is entitled to expect when `main` starts (initialised and zero-initialised static storage, working `printf`, constructors already run), then run `main`."
 * must_fail: L2, runtime_started_after_memory_init
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Symbols provided by mps2_an385.ld (all 4-byte aligned). */
extern uint32_t _sidata;
extern uint32_t _sdata;
extern uint32_t _edata;
extern uint32_t _sbss;
extern uint32_t _ebss;

/* newlib / librdimon entry points used by the start-up code. */
extern void initialise_monitor_handles(void);
extern void __libc_init_array(void);

int main(void);
void Reset_Handler(void);

/* Objects checked by main. External linkage keeps the compiler from
 * assuming their values at compile time. */
#define DATA_MAGIC 0xC0FFEE42u
#define DATA_TEXT  "hello, reset"
#define BSS_WORDS  128u

uint32_t data_word = DATA_MAGIC;
char data_text[] = DATA_TEXT;
uint32_t bss_words[BSS_WORDS];
volatile int ctor_flag;

__attribute__((constructor))
static void set_ctor_flag(void)
{
    ctor_flag = 1;
}

void Reset_Handler(void)
{
    uint32_t *src = &_sidata;
    uint32_t *dst = &_sdata;

    /* Copy the initial values of .data from FLASH into RAM. */
    while (dst < &_edata) {
        *dst++ = *src++;
    }

    /* Static constructors. */
    __libc_init_array();

    /* Zero-fill .bss, then bring up semihosted stdio. */
    for (dst = &_sbss; dst < &_ebss; ) {
        *dst++ = 0u;
    }
    initialise_monitor_handles();

    exit(main());

    for (;;) {
    }
}

int main(void)
{
    const volatile uint32_t *vw = &data_word;
    const volatile char *vt = data_text;
    const volatile uint32_t *vb = bss_words;
    static const char expected[] = DATA_TEXT;
    int data_good = (*vw == DATA_MAGIC);
    int bss_good = 1;
    int ctor_good = (ctor_flag == 1);
    size_t i;

    for (i = 0; i < sizeof(expected); i++) {
        if (vt[i] != expected[i]) {
            data_good = 0;
            break;
        }
    }

    for (i = 0; i < BSS_WORDS; i++) {
        if (vb[i] != 0u) {
            bss_good = 0;
            break;
        }
    }

    printf("data %s\n", data_good ? "ok" : "FAIL");
    printf("bss %s\n", bss_good ? "ok" : "FAIL");
    printf("ctor %s\n", ctor_good ? "ok" : "FAIL");

    return (data_good && bss_good && ctor_good) ? 0 : 1;
}
