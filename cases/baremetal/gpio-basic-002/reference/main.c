#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FPGAIO_LED0 (*(volatile uint32_t *)0x40028000UL)
#define LED_COUNT   2U

void led_on(unsigned int n)
{
	if (n < LED_COUNT) {
		FPGAIO_LED0 |= 1U << n;
	}
}

void led_off(unsigned int n)
{
	if (n < LED_COUNT) {
		FPGAIO_LED0 &= ~(1U << n);
	}
}

void led_toggle(unsigned int n)
{
	if (n < LED_COUNT) {
		FPGAIO_LED0 ^= 1U << n;
	}
}

static void report(void)
{
	printf("leds 0x%lx\n", (unsigned long)(FPGAIO_LED0 & 0x3U));
}

int main(void)
{
	led_on(0);
	report();
	led_on(1);
	report();
	led_off(0);
	report();
	led_toggle(1);
	report();
	exit(0);
}
