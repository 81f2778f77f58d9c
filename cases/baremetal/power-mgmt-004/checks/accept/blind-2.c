/* Data logger firmware: tickless millisecond tick on SysTick (MPS2 AN385).
 *
 * The tick is kept as whole milliseconds (ms_ticks) plus the clocks already
 * elapsed in the current millisecond (ms_frac).  Each time the core wakes,
 * main() reads how far SysTick has counted since the last look and folds
 * that into ms_ticks/ms_frac; the SysTick exception folds in the rest of a
 * completed period.  A new period is armed only when the previous one has
 * run out, so an early wake-up never disturbs the counter.
 */
#include <stdint.h>
#include "board.h"

typedef struct {
    volatile uint32_t CSR;   /* 0xE000E010 */
    volatile uint32_t RVR;   /* 0xE000E014 */
    volatile uint32_t CVR;   /* 0xE000E018 */
} systick_t;

#define SYSTICK ((systick_t *)0xE000E010u)
#define ICSR    (*(volatile uint32_t *)0xE000ED04u)

static volatile uint32_t ms_ticks;  /* whole milliseconds since start     */
static volatile uint32_t ms_frac;   /* clocks into the current ms, < 25000 */
static volatile uint32_t armed;     /* clocks per SysTick period (RVR + 1) */
static volatile uint32_t counted;   /* clocks of this period already added */
static volatile uint32_t expired;   /* the armed period has run out        */

static void add_clocks(uint32_t clocks)
{
    uint32_t total = ms_frac + clocks;  /* < 2^24 + 25000: no overflow */
    ms_ticks += total / 25000u;
    ms_frac = total % 25000u;
}

void SysTick_Handler(void)
{
    /* The period has run out: add what was not yet counted of it.  The
     * counter has reloaded and goes on with the next period. */
    add_clocks(armed - counted);
    counted = 0u;
    expired = 1u;
}

/* With PRIMASK set: bring ms_ticks/ms_frac up to date from the position of
 * the SysTick counter.  Returns the tick count. */
static uint32_t resync(void)
{
    uint32_t pending = ICSR & (1u << 26);      /* PENDSTSET */
    uint32_t cvr = SYSTICK->CVR;
    if (pending == 0u && (ICSR & (1u << 26)) != 0u) {
        pending = 1u;                           /* wrapped between the reads */
        cvr = SYSTICK->CVR;
    }
    if (pending != 0u) {
        /* Do the handler's work here and drop the pending exception. */
        ICSR = 1u << 25;                        /* PENDSTCLR */
        add_clocks(armed - counted);
        counted = 0u;
        expired = 1u;
    }
    /* Clocks gone in the current period: the count runs RVR..1 then 0. */
    uint32_t pos = (cvr != 0u) ? armed - cvr : 0u;
    add_clocks(pos - counted);
    counted = pos;
    return ms_ticks;
}

/* With PRIMASK set: start a new period ending when tick `due` begins, or
 * after the longest period the 24-bit reload allows. */
static void arm_for(uint32_t due)
{
    uint32_t gap_ms = due - ms_ticks;
    uint32_t gap;
    if (gap_ms > 671u) {
        gap = 0x1000000u;   /* RVR 0xFFFFFF: 2^24 clocks = 671.09 ms */
    } else {
        gap = gap_ms * 25000u - ms_frac;    /* <= 16 775 000 clocks */
    }
    SYSTICK->RVR = gap - 1u;
    SYSTICK->CVR = 0u;      /* restart: reload on the next clock */
    armed = gap;
    counted = 0u;
    expired = 0u;
}

static uint32_t wait_for_tick(uint32_t due)
{
    for (;;) {
        __asm volatile ("cpsid i" ::: "memory");
        uint32_t now = resync();
        if (now >= due) {
            __asm volatile ("cpsie i" ::: "memory");
            return now;
        }
        if (expired != 0u) {
            arm_for(due);   /* otherwise the running period is still aimed
                               at `due` (or at its clamp) */
        }
        /* Sleep with interrupts masked; the pending one wakes the core and
         * is taken as soon as PRIMASK is cleared right after the WFI. */
        __asm volatile ("wfi\n\tcpsie i" ::: "memory");
    }
}

int main(void)
{
    static const uint8_t  ids[]  = { 1, 2, 3, 4, 5 };
    static const uint16_t due[]  = { 5, 250, 1000, 1003, 2600 };

    /* SysTick on the processor clock with its exception, started at once;
     * the first period runs up to the first event. */
    armed = 5u * 25000u;
    counted = 0u;
    expired = 0u;
    SYSTICK->CSR = 0u;
    SYSTICK->RVR = armed - 1u;
    SYSTICK->CVR = 0u;
    SYSTICK->CSR = (1u << 2) | (1u << 1) | (1u << 0); /* CLKSOURCE|TICKINT|ENABLE */

    uint32_t tick = 0u;
    for (unsigned i = 0; i < sizeof ids; i++) {
        tick = wait_for_tick(due[i]);
        board_event(ids[i], tick);
    }
    board_done(tick);
}
