/* defect: each wake-up adds only the whole milliseconds SysTick has counted
 * and restarts it, so the partial millisecond is thrown away every time.
 * breaks: "On every wake-up, bring the tick count up to date from how far SysTick has counted: no millisecond may be lost or counted twice, and the fraction of a millisecond already elapsed must be kept, however often the core is woken."
 * must_fail: scenario_real_time_wakeups_every_3300us, scenario_real_time_wakeups_every_9700us
 */
#include <stdint.h>
#include "board.h"

#define SYST_CSR  (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR  (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR  (*(volatile uint32_t *)0xE000E018u)
#define ICSR      (*(volatile uint32_t *)0xE000ED04u)

#define PENDSTSET       (1u << 26)
#define PENDSTCLR       (1u << 25)
#define CLK_PER_MS      25000u
#define MAX_PERIOD      0x1000000u   /* 24-bit reload 0xFFFFFF + 1 */

static volatile uint32_t g_tick;       /* milliseconds since start */
static volatile uint32_t g_period;     /* clocks of the armed period */
static volatile uint32_t g_wrapped;    /* the armed period ran out */

void SysTick_Handler(void)
{
    g_wrapped = 1u;
}

/* Called with interrupts masked: account for the time SysTick has counted
 * since it was armed, then arm it for the gap to `due`. */
static void catch_up_and_arm(uint32_t due)
{
    uint32_t pend = ICSR & PENDSTSET;
    uint32_t cvr = SYST_CVR;
    if (!pend && (ICSR & PENDSTSET)) {
        pend = 1u;
        cvr = SYST_CVR;
    }

    uint32_t clocks = (cvr != 0u) ? g_period - cvr : 0u;
    if (pend || g_wrapped) {
        clocks += g_period;   /* counter has reloaded: one whole period */
    }
    g_wrapped = 0u;
    g_tick += clocks / CLK_PER_MS;

    uint32_t gap = MAX_PERIOD;
    if (g_tick < due && (due - g_tick) < MAX_PERIOD / CLK_PER_MS) {
        gap = (due - g_tick) * CLK_PER_MS;
    }
    g_period = gap;
    SYST_RVR = gap - 1u;
    SYST_CVR = 0u;
    ICSR = PENDSTCLR;
}

int main(void)
{
    static const struct { uint8_t id; uint16_t due; } plan[] = {
        { 1, 5 }, { 2, 250 }, { 3, 1000 }, { 4, 1003 }, { 5, 2600 },
    };

    g_period = plan[0].due * CLK_PER_MS;
    SYST_CSR = 0u;
    SYST_RVR = g_period - 1u;
    SYST_CVR = 0u;
    SYST_CSR = 0x7u;                     /* CLKSOURCE | TICKINT | ENABLE */

    for (unsigned i = 0; i < sizeof plan / sizeof plan[0]; i++) {
        for (;;) {
            __asm volatile ("cpsid i" ::: "memory");
            catch_up_and_arm(plan[i].due);
            if (g_tick >= plan[i].due) {
                __asm volatile ("cpsie i" ::: "memory");
                break;
            }
            __asm volatile ("wfi\n\tcpsie i" ::: "memory");
        }
        board_event(plan[i].id, g_tick);
    }
    board_done(g_tick);
}
