#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PCLK_HZ       25000000U
#define TICKS_PER_US  (PCLK_HZ / 1000000U)
#define PERIOD_US     100U
#define PERIOD_TICKS  (PERIOD_US * TICKS_PER_US)

#define SAMPLE_UNTIL_US  30000U
#define MAX_STEP_US      50U
#define MASKED_ROUNDS    200U
#define MASKED_SPAN_US   40U
#define MASKED_MAX_CALLS 10000U

typedef struct {
	volatile uint32_t CTRL;
	volatile uint32_t VALUE;
	volatile uint32_t RELOAD;
	volatile uint32_t INTSTATUS; /* INTCLEAR when written */
} cmsdk_timer_t;

#define TIMER0 ((cmsdk_timer_t *)0x40000000UL)

#define TIMER_CTRL_EN    (1U << 0)
#define TIMER_CTRL_IRQEN (1U << 3)
#define TIMER_INT        (1U << 0)

#define NVIC_ISER0  (*(volatile uint32_t *)0xE000E100UL)
#define TIMER0_IRQn 8U

/* Completed timer0 periods, counted by TIMER0_Handler. */
static volatile uint64_t g_periods;

void TIMER0_Handler(void)
{
	TIMER0->INTSTATUS = TIMER_INT;
	g_periods++;
}

static inline uint32_t irq_save(void)
{
	uint32_t primask;

	__asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
	return primask;
}

static inline void irq_restore(uint32_t primask)
{
	__asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
}

void uptime_init(void)
{
	TIMER0->CTRL = 0U;
	TIMER0->INTSTATUS = TIMER_INT;
	g_periods = 0U;
	TIMER0->RELOAD = PERIOD_TICKS - 1U;
	TIMER0->VALUE = PERIOD_TICKS - 1U;
	NVIC_ISER0 = 1U << TIMER0_IRQn;
	TIMER0->CTRL = TIMER_CTRL_EN | TIMER_CTRL_IRQEN;
}

uint64_t uptime_us(void)
{
	uint32_t key = irq_save();
	uint64_t periods = g_periods;
	uint32_t count = TIMER0->VALUE;

	if ((TIMER0->INTSTATUS & TIMER_INT) != 0U) {
		/* The period ended but the handler has not run yet: count it here
		 * and take a count that belongs to the new period. */
		periods++;
		count = TIMER0->VALUE;
	}
	irq_restore(key);

	/* VALUE reads 0 on the cycle the flag rises and RELOAD on the next one,
	 * so 0 is the first cycle of a period and RELOAD the second. */
	uint32_t elapsed = (count == 0U) ? 0U : PERIOD_TICKS - count;

	return periods * PERIOD_US + elapsed / TICKS_PER_US;
}

static int step_ok(uint64_t prev, uint64_t now)
{
	return now >= prev && now - prev < MAX_STEP_US;
}

static int sample_enabled(void)
{
	uint64_t prev = uptime_us();

	while (prev < SAMPLE_UNTIL_US) {
		uint64_t now = uptime_us();

		if (!step_ok(prev, now)) {
			printf("step %lu -> %lu us\n", (unsigned long)prev, (unsigned long)now);
			return 0;
		}
		prev = now;
	}
	return 1;
}

static int sample_masked(void)
{
	for (uint32_t round = 0; round < MASKED_ROUNDS; round++) {
		__asm__ volatile("cpsid i" : : : "memory");
		uint64_t first = uptime_us();
		uint64_t prev = first;
		int ok = 1;

		for (uint32_t n = 0; n < MASKED_MAX_CALLS && prev - first < MASKED_SPAN_US; n++) {
			uint64_t now = uptime_us();

			if (!step_ok(prev, now)) {
				ok = 0;
				break;
			}
			prev = now;
		}
		__asm__ volatile("cpsie i" : : : "memory");
		if (!ok) {
			printf("round %lu: step below %lu us\n", (unsigned long)round, (unsigned long)prev);
			return 0;
		}
	}
	return 1;
}

int main(void)
{
	uptime_init();
	printf("uptime clock started\n");

	if (!sample_enabled()) {
		printf("monotonic FAIL\n");
		exit(1);
	}
	printf("monotonic ok\n");

	if (!sample_masked()) {
		printf("masked FAIL\n");
		exit(1);
	}
	printf("masked ok\n");

	printf("done\n");
	exit(0);
}
