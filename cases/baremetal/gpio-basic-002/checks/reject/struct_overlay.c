/* defect: led_*(n) masks n with n & 1u instead of ignoring n outside 0..1, so led_on(2) lights LED 0 (hand-written variant, moved from accept/ when the blind set showed the requirement unchecked)
 * breaks: "`void led_on(unsigned int n)`, `void led_off(unsigned int n)` and `void led_toggle(unsigned int n)` change LED `n` (0 or 1) only; any other `n` is ignored."
 * must_fail: led_other_n_ignored
 */
#include <stdint.h>
#include <stdio.h>

typedef struct {
	volatile uint32_t LED0;
	volatile uint32_t reserved;
	volatile const uint32_t BUTTON;
} fpgaio_t;

#define FPGAIO ((fpgaio_t *)0x40028000u)

void led_on(unsigned int n)
{
	FPGAIO->LED0 = FPGAIO->LED0 | (1u << (n & 1u));
}

void led_off(unsigned int n)
{
	FPGAIO->LED0 = FPGAIO->LED0 & ~(1u << (n & 1u));
}

void led_toggle(unsigned int n)
{
	FPGAIO->LED0 = FPGAIO->LED0 ^ (1u << (n & 1u));
}

int main(void)
{
	led_on(0u);
	printf("leds 0x%x\n", (unsigned)(FPGAIO->LED0 & 3u));
	led_on(1u);
	printf("leds 0x%x\n", (unsigned)(FPGAIO->LED0 & 3u));
	led_off(0u);
	printf("leds 0x%x\n", (unsigned)(FPGAIO->LED0 & 3u));
	led_toggle(1u);
	printf("leds 0x%x\n", (unsigned)(FPGAIO->LED0 & 3u));
	return 0;
}
