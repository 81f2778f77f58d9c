/* Firmware that writes to an unmapped address on mps2-an385. The bus error
 * escalates to HardFault, whose handler reports it over semihosting
 * (SYS_WRITE0, no newlib from a fault context) and stops. */
#include <stdint.h>
#include <stdio.h>

static void semihost_write0(const char *s)
{
	register uint32_t op __asm__("r0") = 0x04;
	register const char *arg __asm__("r1") = s;

	__asm__ volatile("bkpt 0xab" : "+r"(op) : "r"(arg) : "memory");
}

void HardFault_Handler(void)
{
	semihost_write0("HardFault: bus error\n");
	for (;;) {
	}
}

int main(void)
{
	printf("tick ok\n");
	*(volatile uint32_t *)0x70000000UL = 0xdeadbeefU;
	printf("elapsed 100 ms\n");
	return 0;
}
