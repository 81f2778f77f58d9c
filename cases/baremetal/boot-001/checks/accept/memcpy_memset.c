#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss;

void initialise_monitor_handles(void);
void __libc_init_array(void);
int main(void);

static void init_memory(void)
{
	memcpy(&_sdata, &_sidata, (size_t)((uintptr_t)&_edata - (uintptr_t)&_sdata));
	memset(&_sbss, 0, (size_t)((uintptr_t)&_ebss - (uintptr_t)&_sbss));
}

void Reset_Handler(void)
{
	init_memory();
	initialise_monitor_handles();
	__libc_init_array();
	int rc = main();
	exit(rc);
}

uint32_t init_word = 0x12345678u;
char init_text[] = "hello";
uint32_t zeroes[128];
static int constructed;

__attribute__((constructor)) void set_constructed(void)
{
	constructed = 1;
}

int main(void)
{
	int data = init_word == 0x12345678u && strcmp(init_text, "hello") == 0;
	int bss = 1;

	for (size_t i = 0; i < 128; i++) {
		bss &= zeroes[i] == 0u;
	}
	puts(data ? "data ok" : "data FAIL");
	puts(bss ? "bss ok" : "bss FAIL");
	puts(constructed ? "ctor ok" : "ctor FAIL");
	return data && bss && constructed ? 0 : 1;
}
