/* defect: the record is accepted on its magic alone; the check word is never compared, so a record with a matching magic but a wrong check is reported valid.
 * breaks: "A record is valid when `magic` is `0x5EC0B007` and `check` equals `~(magic ^ boot_count)` (32-bit)."
 * must_fail: scenario_bad_check_reinitialised
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct boot_record {
	uint32_t magic;      /* 0x5EC0B007 */
	uint32_t boot_count;
	uint32_t check;      /* ~(magic ^ boot_count) */
};

/* Only object in .noinit: kept across system resets, not zeroed at start-up. */
struct boot_record g_boot_record __attribute__((section(".noinit")));

static inline void memory_barrier_dsb(void)
{
	__asm volatile("dsb 0xF" : : : "memory");
}

int main(void)
{
	struct boot_record *rec = &g_boot_record;
	volatile uint32_t *const aircr = (volatile uint32_t *)0xE000ED0C;

	/* 1. validate or (re)initialise */
	if (rec->magic == 0x5EC0B007u) {
		printf("record: valid, count %lu\n", (unsigned long)rec->boot_count);
	} else {
		rec->magic = 0x5EC0B007u;
		rec->boot_count = 0;
		rec->check = ~(rec->magic ^ rec->boot_count);
		printf("record: initialised\n");
	}

	/* 2. count this boot */
	rec->boot_count += 1;
	rec->check = ~(rec->magic ^ rec->boot_count);
	printf("boot %lu\n", (unsigned long)rec->boot_count);

	/* 4. enough boots: report and stop */
	if (rec->boot_count >= 3) {
		printf("done: %lu boots\n", (unsigned long)rec->boot_count);
		exit(0);
	}

	/* 3. reset the system */
	printf("requesting reset\n");
	fflush(stdout);

	memory_barrier_dsb();   /* record update visible before the reset */
	*aircr = (0x05FAul << 16)           /* VECTKEY */
	       | (*aircr & 0x00000700ul)    /* keep PRIGROUP */
	       | (1ul << 2);                /* SYSRESETREQ */
	memory_barrier_dsb();
	__asm volatile("" : : : "memory");
	while (1) {
		__asm volatile("nop");
	}
}
