/*
 * Boot counter kept in no-init RAM across AIRCR system resets (mps2-an385).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BOOT_MAGIC          0x5EC0B007u
#define BOOTS_WANTED        3u

#define AIRCR               (*(volatile uint32_t *)0xE000ED0Cu)
#define AIRCR_VECTKEY       (0x05FAu << 16)
#define AIRCR_PRIGROUP_MASK (0x7u << 8)
#define AIRCR_SYSRESETREQ   (1u << 2)

struct boot_record {
	uint32_t magic;      /* 0x5EC0B007 */
	uint32_t boot_count;
	uint32_t check;      /* ~(magic ^ boot_count) */
};

/* Survives system resets; never loaded or cleared by the start-up code. */
__attribute__((section(".noinit")))
static volatile struct boot_record boot_rec;

static uint32_t record_check(uint32_t magic, uint32_t count)
{
	return ~(magic ^ count);
}

static int record_valid(void)
{
	uint32_t magic = boot_rec.magic;
	uint32_t count = boot_rec.boot_count;
	uint32_t check = boot_rec.check;

	return magic == BOOT_MAGIC && check == record_check(magic, count);
}

static void record_store(uint32_t count)
{
	boot_rec.magic = BOOT_MAGIC;
	boot_rec.boot_count = count;
	boot_rec.check = record_check(BOOT_MAGIC, count);
}

static void __attribute__((noreturn)) system_reset(void)
{
	uint32_t prigroup = AIRCR & AIRCR_PRIGROUP_MASK;

	/* All record writes complete before the reset request. */
	__asm volatile("dsb" ::: "memory");
	AIRCR = AIRCR_VECTKEY | prigroup | AIRCR_SYSRESETREQ;
	__asm volatile("dsb" ::: "memory");
	for (;;) {
		/* wait for the reset to take effect */
	}
}

int main(void)
{
	uint32_t count;

	if (record_valid()) {
		printf("record: valid, count %" PRIu32 "\n", boot_rec.boot_count);
	} else {
		record_store(0u);
		printf("record: initialised\n");
	}

	count = boot_rec.boot_count + 1u;
	record_store(count);
	printf("boot %" PRIu32 "\n", count);

	if (count < BOOTS_WANTED) {
		printf("requesting reset\n");
		fflush(stdout);
		system_reset();
	}

	printf("done: %" PRIu32 " boots\n", count);
	fflush(stdout);
	exit(0);
}
