/* defect: the slot version is kept in an int, so versions are compared as signed numbers: 0x80000000 and above lose against small versions.
 * breaks: "Choose the image to start: the valid one with the higher version (versions compared as unsigned 32-bit numbers); when both are valid with equal versions, slot A."
 * must_fail: scenario_versions_compared_unsigned
 */
/*
 * Two-slot bootloader for the MPS2 AN385 (Cortex-M3).
 *
 * Checks slot A and slot B, reports each, picks the valid image with the
 * highest version (slot A on a tie) and hands the CPU over to it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- core registers ---------------------------------------------------- */
#define REG32(addr)     (*(volatile uint32_t *)(addr))
#define SYST_CSR        REG32(0xE000E010u)
#define NVIC_ICER0      REG32(0xE000E180u)
#define NVIC_ICPR0      REG32(0xE000E280u)
#define SCB_ICSR        REG32(0xE000ED04u)
#define SCB_VTOR        REG32(0xE000ED08u)
#define ICSR_PENDSTCLR  (1u << 25)

/* ---- flash layout ------------------------------------------------------ */
#define SLOT_A_BASE     0x00100000u
#define SLOT_B_BASE     0x00140000u
#define SLOT_SIZE       0x00040000u
#define HEADER_SIZE     0x100u
#define IMAGE_MAGIC     0xB007AB1Eu
#define BODY_MIN_LEN    8u
#define BODY_MAX_LEN    (SLOT_SIZE - HEADER_SIZE)   /* 0x3FF00 */

#define SP_LOW_EXCL     0x20000000u   /* SP must be greater than this */
#define SP_HIGH_INCL    0x20400000u   /* ... and at most this */

struct image_header {
	uint32_t magic;
	uint32_t version;
	uint32_t length;
	uint32_t crc;
};

struct slot {
	char name;
	uint32_t base;
	const char *reason;   /* NULL when the slot holds a valid image */
	int version;
};

static uint32_t crc32_bitwise(const volatile uint8_t *data, uint32_t len)
{
	uint32_t crc = 0xFFFFFFFFu;

	while (len--) {
		crc ^= *data++;
		for (int bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
	}
	return crc ^ 0xFFFFFFFFu;
}

static uint32_t read_word(uint32_t addr)
{
	return *(const volatile uint32_t *)addr;
}

/* Returns NULL for a valid image, otherwise the reason it is invalid. */
static const char *check_slot(uint32_t base, int *version)
{
	struct image_header h;
	uint32_t body = base + HEADER_SIZE;
	uint32_t sp, reset, entry;

	h.magic = read_word(base + 0x0u);
	h.version = read_word(base + 0x4u);
	h.length = read_word(base + 0x8u);
	h.crc = read_word(base + 0xCu);

	if (h.magic != IMAGE_MAGIC)
		return "bad magic";
	if (h.length < BODY_MIN_LEN || h.length > BODY_MAX_LEN)
		return "bad length";
	if (crc32_bitwise((const volatile uint8_t *)body, h.length) != h.crc)
		return "bad crc";

	sp = read_word(body + 0u);
	reset = read_word(body + 4u);
	entry = reset & ~1u;
	if ((sp & 3u) != 0u || sp <= SP_LOW_EXCL || sp > SP_HIGH_INCL)
		return "bad vectors";
	if ((reset & 1u) == 0u || entry < body || entry >= body + h.length)
		return "bad vectors";

	*version = (int)h.version;
	return NULL;
}

static void __attribute__((noreturn)) start_image(uint32_t vector_table)
{
	uint32_t sp = read_word(vector_table + 0u);
	uint32_t reset = read_word(vector_table + 4u);

	__asm volatile("cpsid i" ::: "memory");

	/* SysTick off, and no SysTick exception left pending. */
	SYST_CSR = 0u;
	SCB_ICSR = ICSR_PENDSTCLR;

	/* Disable every NVIC line, then clear whatever is pending. */
	NVIC_ICER0 = 0xFFFFFFFFu;
	__asm volatile("dsb\n\tisb" ::: "memory");
	NVIC_ICPR0 = 0xFFFFFFFFu;

	SCB_VTOR = vector_table;
	__asm volatile("dsb\n\tisb" ::: "memory");

	/* Thread mode on MSP, new MSP, interrupts on, jump. No stack use after msr msp. */
	__asm volatile(
		"msr control, %2\n\t"
		"isb\n\t"
		"msr msp, %0\n\t"
		"isb\n\t"
		"cpsie i\n\t"
		"bx %1\n\t"
		:
		: "r"(sp), "r"(reset), "r"(0u)
		: "memory");
	__builtin_unreachable();
}

int main(void)
{
	struct slot slots[2] = {
		{ 'A', SLOT_A_BASE, NULL, 0 },
		{ 'B', SLOT_B_BASE, NULL, 0 },
	};
	struct slot *chosen = NULL;

	for (int i = 0; i < 2; i++) {
		struct slot *s = &slots[i];

		s->reason = check_slot(s->base, &s->version);
		if (s->reason == NULL)
			printf("slot %c: valid, version %lu\n", s->name, (unsigned long)s->version);
		else
			printf("slot %c: %s\n", s->name, s->reason);
	}

	for (int i = 0; i < 2; i++) {
		struct slot *s = &slots[i];

		if (s->reason != NULL)
			continue;
		/* strictly greater: slot A (checked first) wins a tie */
		if (chosen == NULL || s->version > chosen->version)
			chosen = s;
	}

	if (chosen == NULL) {
		printf("boot: no valid image\n");
		fflush(stdout);
		exit(1);
	}

	printf("boot: slot %c, version %lu\n", chosen->name, (unsigned long)chosen->version);
	fflush(stdout);

	start_image(chosen->base + HEADER_SIZE);
}
