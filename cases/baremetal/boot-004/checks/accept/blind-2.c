#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* System control space registers (architectural addresses). */
static volatile uint32_t *const syst_csr = (volatile uint32_t *)0xE000E010;
static volatile uint32_t *const nvic_icer0 = (volatile uint32_t *)0xE000E180;
static volatile uint32_t *const nvic_icpr0 = (volatile uint32_t *)0xE000E280;
static volatile uint32_t *const scb_icsr = (volatile uint32_t *)0xE000ED04;
static volatile uint32_t *const scb_vtor = (volatile uint32_t *)0xE000ED08;

enum {
	HDR_MAGIC = 0,      /* word indices in the header */
	HDR_VERSION = 1,
	HDR_LENGTH = 2,
	HDR_CRC = 3,
};

enum verdict {
	IMAGE_OK = 0,
	IMAGE_BAD_MAGIC,
	IMAGE_BAD_LENGTH,
	IMAGE_BAD_CRC,
	IMAGE_BAD_VECTORS,
};

static const char *const verdict_text[] = {
	[IMAGE_OK] = "valid",
	[IMAGE_BAD_MAGIC] = "bad magic",
	[IMAGE_BAD_LENGTH] = "bad length",
	[IMAGE_BAD_CRC] = "bad crc",
	[IMAGE_BAD_VECTORS] = "bad vectors",
};

static uint32_t crc_table[256];

static void crc_table_init(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		crc_table[n] = c;
	}
}

/* CRC-32/ISO-HDLC */
static uint32_t crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;

	for (size_t i = 0; i < n; i++)
		c = crc_table[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
	return ~c;
}

static bool stack_pointer_ok(uint32_t sp)
{
	return (sp % 4 == 0) && sp > 0x20000000u && sp <= 0x20400000u;
}

static bool reset_vector_ok(uint32_t rv, uintptr_t body, uint32_t len)
{
	uintptr_t target = rv & ~(uint32_t)1;

	if (!(rv & 1))
		return false;                   /* not Thumb */
	return target >= body && target - body < len;
}

static enum verdict inspect(uintptr_t slot, uint32_t *version_out)
{
	const volatile uint32_t *hdr = (const volatile uint32_t *)slot;
	uintptr_t body = slot + 0x100;
	const volatile uint32_t *vt = (const volatile uint32_t *)body;
	uint32_t len;

	if (hdr[HDR_MAGIC] != 0xB007AB1Eu)
		return IMAGE_BAD_MAGIC;
	len = hdr[HDR_LENGTH];
	if (len < 8 || len > 0x3FF00)
		return IMAGE_BAD_LENGTH;
	if (crc32((const uint8_t *)body, len) != hdr[HDR_CRC])
		return IMAGE_BAD_CRC;
	if (!stack_pointer_ok(vt[0]) || !reset_vector_ok(vt[1], body, len))
		return IMAGE_BAD_VECTORS;
	*version_out = hdr[HDR_VERSION];
	return IMAGE_OK;
}

/*
 * r0 = initial MSP, r1 = reset handler. Switches to MSP-based privileged
 * thread mode, loads MSP, unmasks interrupts and branches to the image.
 */
__attribute__((naked, noreturn, noinline)) static void jump_to_image(uint32_t msp, uint32_t entry)
{
	__asm volatile(
		"movs r2, #0        \n"
		"msr  control, r2   \n"
		"isb                \n"
		"msr  msp, r0       \n"
		"isb                \n"
		"cpsie i            \n"
		"bx   r1            \n");
}

static void __attribute__((noreturn)) boot_image(uintptr_t slot)
{
	uintptr_t vtab = slot + 0x100;
	uint32_t msp = ((const volatile uint32_t *)vtab)[0];
	uint32_t entry = ((const volatile uint32_t *)vtab)[1];

	__asm volatile("cpsid i" : : : "memory");

	*syst_csr = 0;                  /* stop SysTick, no more ticks */
	*scb_icsr = 1u << 25;           /* PENDSTCLR */

	*nvic_icer0 = ~0u;              /* disable all lines 0..31 */
	__asm volatile("dsb" : : : "memory");
	__asm volatile("isb" : : : "memory");
	*nvic_icpr0 = ~0u;              /* then drop anything pending */

	*scb_vtor = (uint32_t)vtab;
	__asm volatile("dsb" : : : "memory");
	__asm volatile("isb" : : : "memory");

	jump_to_image(msp, entry);
}

int main(void)
{
	static const uintptr_t slot_addr[2] = { 0x00100000u, 0x00140000u };
	static const char slot_name[2] = { 'A', 'B' };
	enum verdict v[2];
	uint32_t ver[2] = { 0, 0 };
	int best = -1;

	crc_table_init();

	for (int i = 0; i < 2; i++) {
		v[i] = inspect(slot_addr[i], &ver[i]);
		if (v[i] == IMAGE_OK)
			printf("slot %c: valid, version %lu\n", slot_name[i], (unsigned long)ver[i]);
		else
			printf("slot %c: %s\n", slot_name[i], verdict_text[v[i]]);
	}

	if (v[0] == IMAGE_OK && v[1] == IMAGE_OK)
		best = (ver[1] > ver[0]) ? 1 : 0;
	else if (v[0] == IMAGE_OK)
		best = 0;
	else if (v[1] == IMAGE_OK)
		best = 1;

	if (best < 0) {
		puts("boot: no valid image");
		fflush(stdout);
		exit(1);
	}

	printf("boot: slot %c, version %lu\n", slot_name[best], (unsigned long)ver[best]);
	fflush(stdout);

	boot_image(slot_addr[best]);
}
