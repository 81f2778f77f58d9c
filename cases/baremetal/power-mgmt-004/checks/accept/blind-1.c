/* Tickless 1 ms time base on SysTick for the MPS2 AN385 data logger.
 *
 * Time is kept as a 64-bit count of processor clocks since SysTick was
 * first enabled.  SysTick is armed for one "window" at a time: the gap to the
 * next event, clamped to the 24-bit reload.  Early wake-ups by other
 * interrupts only read how far SysTick has counted inside the window; the
 * window itself is left running untouched, so nothing is lost on them.  The
 * window is re-armed only once it has expired.
 */
#include <stdint.h>
#include <stdbool.h>
#include "board.h"

#define SYST_CSR   (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR   (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR   (*(volatile uint32_t *)0xE000E018u)
#define SCB_ICSR   (*(volatile uint32_t *)0xE000ED04u)

#define CSR_ENABLE     (1u << 0)
#define CSR_TICKINT    (1u << 1)
#define CSR_CLKSOURCE  (1u << 2)
#define ICSR_PENDSTSET (1u << 26)
#define ICSR_PENDSTCLR (1u << 25)

#define CLOCKS_PER_MS  25000u
#define MAX_WINDOW     0x1000000u /* SYST_RVR = 0xFFFFFF -> 2^24 clocks */

struct event {
    unsigned id;
    uint32_t due;
};

static const struct event schedule[] = {
    { 1u,    5u },
    { 2u,  250u },
    { 3u, 1000u },
    { 4u, 1003u },
    { 5u, 2600u },
};

/* Clock count at the moment the current window was armed. */
static uint64_t window_start;
/* Length of the current window in clocks (SYST_RVR + 1). */
static uint32_t window_len;
/* SysTick exceptions taken since the current window was armed. */
static volatile uint32_t window_expiries;

void SysTick_Handler(void)
{
    window_expiries++;
}

/* Clocks elapsed since SysTick was enabled.  Call with PRIMASK set. */
static uint64_t clocks_now(bool *expired)
{
    uint32_t wraps = window_expiries;
    bool pending = (SCB_ICSR & ICSR_PENDSTSET) != 0u;
    uint32_t cvr = SYST_CVR;

    if (!pending && (SCB_ICSR & ICSR_PENDSTSET) != 0u) {
        /* The count reached zero between the two reads: take the value
         * again so that it belongs to the new period. */
        pending = true;
        cvr = SYST_CVR;
    }
    if (pending) {
        wraps++;
    }

    /* After arming (CVR written to 0) the counter loads RVR on the next
     * clock and reaches 0 again RVR clocks later: a value c in 1..RVR means
     * window_len - c clocks of the period are gone.  A value of 0 is either
     * "just armed" (nothing elapsed) or "period complete" (the wrap is then
     * already counted through the pending bit). */
    uint32_t in_period = (cvr == 0u) ? 0u : (window_len - cvr);

    *expired = (wraps != 0u);
    return window_start + (uint64_t)wraps * window_len + in_period;
}

/* Arm SysTick so that its exception comes `len` clocks from now. */
static void arm_window(uint64_t now, uint32_t len)
{
    if (len < 2u) {
        len = 2u; /* RVR must not be 0 */
    }
    SYST_RVR = len - 1u;
    SYST_CVR = 0u;             /* restart the count (clears COUNTFLAG) */
    SCB_ICSR = ICSR_PENDSTCLR; /* drop a wrap of the old window */
    window_start = now;
    window_len = len;
    window_expiries = 0u;
}

static uint32_t window_to(uint64_t now, uint32_t due_tick)
{
    uint64_t target = (uint64_t)due_tick * CLOCKS_PER_MS;
    uint64_t gap = target - now;
    return (gap > MAX_WINDOW) ? MAX_WINDOW : (uint32_t)gap;
}

/* Sleep until the tick count reaches due_tick; returns the tick count. */
static uint32_t sleep_until(uint32_t due_tick)
{
    for (;;) {
        bool expired;

        __asm volatile ("cpsid i" ::: "memory");
        uint64_t now = clocks_now(&expired);
        uint32_t tick = (uint32_t)(now / CLOCKS_PER_MS);

        if (tick >= due_tick) {
            /* An expired window simply reloads and keeps counting; the
             * caller aims the next one. */
            __asm volatile ("cpsie i" ::: "memory");
            return tick;
        }
        if (expired) {
            /* Window over (it was clamped): arm the next part of the gap. */
            now = clocks_now(&expired);
            arm_window(now, window_to(now, due_tick));
        }
        /* Interrupts stay masked until the WFI so that a wake-up cannot
         * slip in unseen; they are re-enabled right after it. */
        __asm volatile ("wfi\n\tcpsie i" ::: "memory");
    }
}

int main(void)
{
    /* Start the time base at once: first window runs to event 1. */
    __asm volatile ("cpsid i" ::: "memory");
    window_start = 0u;
    window_len = schedule[0].due * CLOCKS_PER_MS;
    window_expiries = 0u;
    SYST_CSR = 0u;
    SYST_RVR = window_len - 1u;
    SYST_CVR = 0u;
    SYST_CSR = CSR_CLKSOURCE | CSR_TICKINT | CSR_ENABLE;
    __asm volatile ("cpsie i" ::: "memory");

    uint32_t tick = 0u;
    for (unsigned i = 0u; i < sizeof schedule / sizeof schedule[0]; i++) {
        tick = sleep_until(schedule[i].due);
        board_event(schedule[i].id, tick);

        if (i + 1u < sizeof schedule / sizeof schedule[0]) {
            /* Aim the running window at the next event. */
            bool expired;
            __asm volatile ("cpsid i" ::: "memory");
            uint64_t now = clocks_now(&expired);
            arm_window(now, window_to(now, schedule[i + 1u].due));
            __asm volatile ("cpsie i" ::: "memory");
        }
    }
    board_done(tick);
}
