#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern uint32_t _sidata[];
extern uint32_t _sdata[];
extern uint32_t _edata[];
extern uint32_t _sbss[];
extern uint32_t _ebss[];

extern void initialise_monitor_handles(void);
extern void __libc_init_array(void);

int main(void);

void Reset_Handler(void)
{
	const uint32_t *src = _sidata;
	uint32_t *dst = _sdata;

	while (dst < _edata) {
		*dst++ = *src++;
	}

	for (dst = _sbss; dst < _ebss; dst++) {
		*dst = 0U;
	}

	initialise_monitor_handles();
	__libc_init_array();

	exit(main());
}

static uint32_t boot_magic = 0xB007C0DEU;
static char boot_name[] = "mps2-an385";
static uint32_t zero_words[64];
static int zero_flag;
static volatile int ctor_ran;

__attribute__((constructor)) static void mark_constructed(void)
{
	ctor_ran = 1;
}

int main(void)
{
	int data_ok = boot_magic == 0xB007C0DEU && boot_name[0] == 'm';
	int bss_ok = zero_flag == 0;

	for (unsigned i = 0; i < sizeof(zero_words) / sizeof(zero_words[0]); i++) {
		if (zero_words[i] != 0U) {
			bss_ok = 0;
		}
	}

	printf("data %s\n", data_ok ? "ok" : "FAIL");
	printf("bss %s\n", bss_ok ? "ok" : "FAIL");
	printf("ctor %s\n", ctor_ran ? "ok" : "FAIL");
	return (data_ok && bss_ok && ctor_ran) ? 0 : 1;
}
