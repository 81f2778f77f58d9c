/*
 * Two-slot bootloader for QEMU mps2-an385: validates slot A and slot B,
 * reports each, starts the newest valid image.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

#define SYST_CSR 0xE000E010u
#define NVIC_ICER0 0xE000E180u
#define NVIC_ICPR0 0xE000E280u
#define SCB_ICSR 0xE000ED04u
#define SCB_VTOR 0xE000ED08u
#define ICSR_PENDSTCLR (1u << 25)

#define IMAGE_MAGIC 0xB007AB1Eu
#define HEADER_SIZE 0x100u
#define SLOT_SIZE 0x40000u
#define BODY_MAX (SLOT_SIZE - HEADER_SIZE)
#define BODY_MIN 8u
#define RAM_LOW 0x20000000u
#define RAM_TOP 0x20400000u

struct image_header {
	uint32_t magic;
	uint32_t version;
	uint32_t length;
	uint32_t crc;
};

struct slot {
	char name;
	uintptr_t base;
	const char *reason;
	uint32_t version;
};

static uint32_t crc32_calc(const uint8_t *data, uint32_t len)
{
	uint32_t crc = 0xFFFFFFFFu;

	for (uint32_t i = 0; i < len; i++) {
		crc ^= data[i];
		for (int bit = 0; bit < 8; bit++) {
			if (crc & 1u) {
				crc = (crc >> 1) ^ 0xEDB88320u;
			} else {
				crc >>= 1;
			}
		}
	}
	return crc ^ 0xFFFFFFFFu;
}

/* NULL when the image is valid, else the reason. */
static const char *check_slot(uintptr_t base, uint32_t *version)
{
	const struct image_header *h = (const struct image_header *)base;
	uintptr_t body = base + HEADER_SIZE;

	if (h->magic != IMAGE_MAGIC) {
		return "bad magic";
	}
	/* Compare the untrusted length with the room left, never body + length. */
	if (h->length < BODY_MIN || h->length > BODY_MAX) {
		return "bad length";
	}
	if (crc32_calc((const uint8_t *)body, h->length) != h->crc) {
		return "bad crc";
	}
	const uint32_t *vt = (const uint32_t *)body;
	uint32_t sp = vt[0];
	uint32_t pc = vt[1];
	if ((sp & 3u) != 0u || sp <= RAM_LOW || sp > RAM_TOP) {
		return "bad vectors";
	}
	uint32_t entry = pc & ~1u;
	if ((pc & 1u) == 0u || entry < body || entry - body >= h->length) {
		return "bad vectors";
	}
	*version = h->version;
	return NULL;
}

static void __attribute__((noreturn)) start_image(uintptr_t vectors)
{
	uint32_t sp = ((const uint32_t *)vectors)[0];
	uint32_t pc = ((const uint32_t *)vectors)[1];

	__asm__ volatile("cpsid i" ::: "memory");
	REG32(SYST_CSR) = 0u;
	REG32(SCB_ICSR) = ICSR_PENDSTCLR;
	REG32(NVIC_ICER0) = 0xFFFFFFFFu;
	REG32(NVIC_ICPR0) = 0xFFFFFFFFu;
	REG32(SCB_VTOR) = (uint32_t)vectors;
	__asm__ volatile("dsb\n\tisb" ::: "memory");
	__asm__ volatile(
		"msr msp, %0\n\t"
		"cpsie i\n\t"
		"bx %1\n\t"
		:
		: "r"(sp), "r"(pc)
		: "memory");
	__builtin_unreachable();
}

int main(void)
{
	struct slot slots[2] = {
		{ 'A', 0x00100000u, NULL, 0u },
		{ 'B', 0x00140000u, NULL, 0u },
	};
	struct slot *best = NULL;

	for (int i = 0; i < 2; i++) {
		struct slot *s = &slots[i];
		s->reason = check_slot(s->base, &s->version);
		if (s->reason != NULL) {
			printf("slot %c: %s\n", s->name, s->reason);
			continue;
		}
		printf("slot %c: valid, version %lu\n", s->name, (unsigned long)s->version);
		if (best == NULL || s->version > best->version) {
			best = s;
		}
	}

	if (best == NULL) {
		printf("boot: no valid image\n");
		exit(1);
	}
	printf("boot: slot %c, version %lu\n", best->name, (unsigned long)best->version);
	fflush(stdout);
	start_image(best->base + HEADER_SIZE);
}
