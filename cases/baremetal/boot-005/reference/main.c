/*
 * Boot counter kept in no-init RAM across system resets (QEMU mps2-an385).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define AIRCR (*(volatile uint32_t *)0xE000ED0Cu)
#define AIRCR_VECTKEY (0x05FAu << 16)
#define AIRCR_PRIGROUP_MASK (7u << 8)
#define AIRCR_SYSRESETREQ (1u << 2)

#define RECORD_MAGIC 0x5EC0B007u
#define BOOTS_WANTED 3u

struct boot_record {
	uint32_t magic;
	uint32_t boot_count;
	uint32_t check;
};

__attribute__((section(".noinit"))) static volatile struct boot_record record;

static uint32_t record_check(uint32_t magic, uint32_t count)
{
	return ~(magic ^ count);
}

static void __attribute__((noreturn)) system_reset(void)
{
	__asm__ volatile("dsb" ::: "memory");
	AIRCR = AIRCR_VECTKEY | (AIRCR & AIRCR_PRIGROUP_MASK) | AIRCR_SYSRESETREQ;
	__asm__ volatile("dsb" ::: "memory");
	for (;;) {
	}
}

int main(void)
{
	if (record.magic == RECORD_MAGIC && record.check == record_check(record.magic, record.boot_count)) {
		printf("record: valid, count %lu\n", (unsigned long)record.boot_count);
	} else {
		record.magic = RECORD_MAGIC;
		record.boot_count = 0u;
		record.check = record_check(RECORD_MAGIC, 0u);
		printf("record: initialised\n");
	}

	uint32_t count = record.boot_count + 1u;
	record.boot_count = count;
	record.check = record_check(RECORD_MAGIC, count);
	printf("boot %lu\n", (unsigned long)count);

	if (count < BOOTS_WANTED) {
		printf("requesting reset\n");
		system_reset();
	}
	printf("done: %lu boots\n", (unsigned long)count);
	return 0;
}
