/*
 * Table-driven C run-time start for QEMU mps2-an385 (Cortex-M3), in the
 * style of the CMSIS copy/zero tables: the regions to initialise are
 * described in constant tables (placed in flash, so they are readable before
 * .data exists) and Reset_Handler walks them before starting the run-time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

extern const uint32_t _sidata[];
extern uint32_t _sdata[], _edata[], _sbss[], _ebss[];

void __libc_init_array(void);
void initialise_monitor_handles(void);
int main(void);

struct copy_entry {
	const uint32_t *load;
	uint32_t *start;
	uint32_t *end;
};

struct zero_entry {
	uint32_t *start;
	uint32_t *end;
};

static const struct copy_entry copy_table[] = {
	{ _sidata, _sdata, _edata },
};

static const struct zero_entry zero_table[] = {
	{ _sbss, _ebss },
};

void Reset_Handler(void)
{
	for (const struct copy_entry *e = copy_table; e < copy_table + COUNT_OF(copy_table); e++) {
		const uint32_t *from = e->load;

		for (uint32_t *to = e->start; to < e->end;) {
			*to++ = *from++;
		}
	}

	for (const struct zero_entry *z = zero_table; z < zero_table + COUNT_OF(zero_table); z++) {
		for (uint32_t *to = z->start; to < z->end; to++) {
			*to = 0u;
		}
	}

	initialise_monitor_handles();
	__libc_init_array();
	exit(main());
}

/* ---- application ---- */

static uint32_t run_id = 0x5EEDu;
static char banner[] = "an385 boot";
static uint32_t pool[80];
static int constructed_early;

static void __attribute__((constructor)) early_init(void)
{
	constructed_early = 1;
}

struct verdict {
	const char *label;
	int passed;
};

int main(void)
{
	uint32_t any = 0u;

	for (size_t i = 0; i < COUNT_OF(pool); i++) {
		any |= pool[i];
	}

	const struct verdict results[] = {
		{ "data", run_id == 0x5EEDu && memcmp(banner, "an385 boot", sizeof(banner)) == 0 },
		{ "bss", any == 0u },
		{ "ctor", constructed_early != 0 },
	};
	int all_passed = 1;

	for (size_t i = 0; i < COUNT_OF(results); i++) {
		printf("%s %s\n", results[i].label, results[i].passed ? "ok" : "FAIL");
		all_passed = all_passed && results[i].passed;
	}
	return all_passed ? 0 : 1;
}
