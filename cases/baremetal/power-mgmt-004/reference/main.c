/* power-mgmt-004 reference: tickless 1 ms tick on SysTick for mps2-an385. */
#include <stdint.h>
#include "board.h"

#define SYST_CSR   (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR   (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR   (*(volatile uint32_t *)0xE000E018u)
#define SCB_ICSR   (*(volatile uint32_t *)0xE000ED04u)

#define CSR_ENABLE    (1u << 0)
#define CSR_TICKINT   (1u << 1)
#define CSR_CLKSOURCE (1u << 2)
#define ICSR_PENDSTSET (1u << 26)

#define CYCLES_PER_MS 25000u
#define MAX_GAP_MS    671u      /* 671 * 25000 <= 2^24 */

/* The time base: at the anchor SysTick was restarted with VAL = 0 and a
 * period of `period` cycles; `anchor_ms` / `anchor_rem` is the time (whole
 * ms, cycles into the next ms) at that moment; `wraps` counts periods. */
static uint32_t anchor_ms;
static uint32_t anchor_rem;
static uint32_t period;
static volatile uint32_t wraps;
static uint32_t armed_due = 0xFFFFFFFFu;

void SysTick_Handler(void)
{
	wraps++;
}

/* Cycles since the anchor; call with interrupts masked. */
static uint64_t cycles_since_anchor(void)
{
	for (;;) {
		uint32_t val = SYST_CVR;
		if ((SCB_ICSR & ICSR_PENDSTSET) == 0u) {
			return (uint64_t)wraps * period + (period - 1u - val);
		}
		/* wrapped under us: let the handler count it */
		__asm__ volatile("cpsie i\n isb\n cpsid i" ::: "memory");
	}
}

static void now_locked(uint32_t *ms, uint32_t *rem)
{
	uint64_t c = (uint64_t)anchor_rem + cycles_since_anchor();
	*ms = anchor_ms + (uint32_t)(c / CYCLES_PER_MS);
	*rem = (uint32_t)(c % CYCLES_PER_MS);
}

static uint32_t tick_now(void)
{
	uint32_t ms, rem;
	__asm__ volatile("cpsid i" ::: "memory");
	now_locked(&ms, &rem);
	__asm__ volatile("cpsie i" ::: "memory");
	return ms;
}

/* Program SysTick to interrupt at `due` ms (or as far as it can reach). */
static void arm_for(uint32_t due)
{
	uint32_t ms, rem;
	now_locked(&ms, &rem);
	uint32_t gap = due - ms;
	if (gap > MAX_GAP_MS) {
		gap = MAX_GAP_MS;
	}
	SYST_CSR = 0u;
	anchor_ms = ms;
	anchor_rem = rem;
	period = gap * CYCLES_PER_MS - rem;
	wraps = 0u;
	SYST_RVR = period - 1u;
	SYST_CVR = 0u;
	SCB_ICSR = 1u << 25;     /* PENDSTCLR */
	SYST_CSR = CSR_ENABLE | CSR_TICKINT | CSR_CLKSOURCE;
}

static void sleep_until(uint32_t due)
{
	for (;;) {
		__asm__ volatile("cpsid i" ::: "memory");
		uint32_t ms, rem;
		now_locked(&ms, &rem);
		if ((int32_t)(due - ms) <= 0) {
			__asm__ volatile("cpsie i" ::: "memory");
			return;
		}
		/* re-arm after a period ended or for a new due time; a wake-up
		 * by another interrupt leaves SysTick running as programmed */
		if (wraps != 0u || armed_due != due) {
			arm_for(due);
			armed_due = due;
		}
		__asm__ volatile("dsb\n wfi\n cpsie i\n isb" ::: "memory");
	}
}

static const struct {
	unsigned id;
	uint32_t at_ms;
} events[] = {
	{1u, 5u}, {2u, 250u}, {3u, 1000u}, {4u, 1003u}, {5u, 2600u},
};

int main(void)
{
	anchor_ms = 0u;
	anchor_rem = 0u;
	period = CYCLES_PER_MS;
	wraps = 0u;
	SYST_RVR = period - 1u;
	SYST_CVR = 0u;
	SYST_CSR = CSR_ENABLE | CSR_TICKINT | CSR_CLKSOURCE;

	for (unsigned i = 0; i < sizeof events / sizeof events[0]; i++) {
		sleep_until(events[i].at_ms);
		board_event(events[i].id, tick_now());
	}
	board_done(tick_now());
}
