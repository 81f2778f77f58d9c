/*
 * Start-up code and self-test for QEMU mps2-an385 (Cortex-M3).
 *
 * The reset path works on word indices: the linker script guarantees that
 * every section boundary is 4-byte aligned, so .data and .bss are whole
 * numbers of 32-bit words.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void initialise_monitor_handles(void);
void __libc_init_array(void);
int main(void);

#define SCRATCH_WORDS 96u

uint32_t seed_value = 0xCAFEF00Du;
char greeting[16] = "reset done";
uint32_t scratch[SCRATCH_WORDS];

static volatile uint32_t ctor_hits;

__attribute__((constructor)) static void note_constructor(void)
{
	ctor_hits++;
}

static void fill_from_flash(uint32_t *ram, const uint32_t *rom, const uint32_t *ram_end)
{
	size_t words = (size_t)(ram_end - ram);

	for (size_t i = 0; i != words; ++i) {
		ram[i] = rom[i];
	}
}

static void clear_region(uint32_t *p, const uint32_t *end)
{
	while (p != end) {
		*p++ = 0u;
	}
}

__attribute__((noreturn)) void Reset_Handler(void)
{
	extern uint32_t _sidata[], _sdata[], _edata[];
	extern uint32_t _sbss[], _ebss[];

	fill_from_flash(_sdata, _sidata, _edata);
	clear_region(_sbss, _ebss);

	/* Semihosting handles and constructors may use .data/.bss: only now. */
	initialise_monitor_handles();
	__libc_init_array();

	int status = main();
	exit(status);
}

static int report(const char *what, int good)
{
	printf("%s %s\n", what, good ? "ok" : "FAIL");
	return good;
}

static int scratch_is_zero(void)
{
	const uint32_t *w = scratch;

	do {
		if (*w != 0u) {
			return 0;
		}
	} while (++w < scratch + SCRATCH_WORDS);
	return 1;
}

int main(void)
{
	int failures = 0;

	if (!report("data", seed_value == 0xCAFEF00Du && strcmp(greeting, "reset done") == 0)) {
		failures++;
	}
	if (!report("bss", scratch_is_zero())) {
		failures++;
	}
	if (!report("ctor", ctor_hits == 1u)) {
		failures++;
	}
	return failures == 0 ? 0 : 1;
}
