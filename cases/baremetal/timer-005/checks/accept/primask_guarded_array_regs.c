/*
 * Masked variant: timer0 as a register array, the critical section
 * re-enables interrupts only when the caller had them enabled, and the
 * clock is kept in 25 MHz clocks before the final division.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define T0            ((volatile uint32_t *)0x40000000u)
#define T0_CTRL_IDX   0
#define T0_VALUE_IDX  1
#define T0_RELOAD_IDX 2
#define T0_INT_IDX    3

#define CLOCKS_PER_PERIOD 2500u /* 100 us at 25 MHz */

static volatile unsigned long long period_count;

static inline uint32_t irq_lock(void)
{
	uint32_t pm;

	__asm volatile("mrs %0, PRIMASK" : "=r"(pm));
	__asm volatile("cpsid i" ::: "memory");
	return pm;
}

static inline void irq_unlock(uint32_t pm)
{
	if ((pm & 1u) == 0u) {
		__asm volatile("cpsie i" ::: "memory");
	}
}

void TIMER0_Handler(void)
{
	T0[T0_INT_IDX] = 1u;
	period_count += 1u;
}

void uptime_init(void)
{
	T0[T0_CTRL_IDX] = 0u;
	T0[T0_RELOAD_IDX] = CLOCKS_PER_PERIOD - 1u;
	T0[T0_INT_IDX] = 1u;
	period_count = 0u;
	*(volatile uint32_t *)0xE000E100u = 1u << 8;
	T0[T0_CTRL_IDX] = 0x9u;
}

uint64_t uptime_us(void)
{
	uint32_t state = irq_lock();
	unsigned long long periods = period_count;
	uint32_t first = T0[T0_VALUE_IDX];
	uint32_t flag = T0[T0_INT_IDX] & 1u;
	uint32_t again = T0[T0_VALUE_IDX];
	irq_unlock(state);

	uint32_t left = first;
	if (flag != 0u) {
		periods += 1u;
		left = again;
	}
	uint32_t into = (CLOCKS_PER_PERIOD - left) % CLOCKS_PER_PERIOD;
	unsigned long long clocks = periods * CLOCKS_PER_PERIOD + into;

	return clocks / 25u;
}

int main(void)
{
	uptime_init();
	printf("uptime clock started\n");

	uint64_t prev = uptime_us();
	while (prev < 30000u) {
		uint64_t cur = uptime_us();
		if (cur < prev || cur - prev >= 50u) {
			printf("monotonic FAIL\n");
			exit(1);
		}
		prev = cur;
	}
	printf("monotonic ok\n");

	int bad = 0;
	for (unsigned r = 0; r < 200u && !bad; r++) {
		__asm volatile("cpsid i" ::: "memory");
		uint64_t base = uptime_us();
		uint64_t last = base;
		unsigned n = 0;
		while (n < 10000u && last - base < 40u) {
			uint64_t cur = uptime_us();
			if (cur < last || cur - last >= 50u) {
				bad = 1;
				break;
			}
			last = cur;
			n++;
		}
		__asm volatile("cpsie i" ::: "memory");
	}
	if (bad) {
		printf("masked FAIL\n");
		exit(1);
	}
	printf("masked ok\n");
	printf("done\n");
	exit(0);
}
