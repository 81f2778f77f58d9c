/* defect: the range check uses n > 2 instead of n >= 2, so led_*(2) is not ignored and modifies bit 2 of LED0.
 * breaks: "`void led_on(unsigned int n)`, `void led_off(unsigned int n)` and `void led_toggle(unsigned int n)` change LED `n` (0 or 1) only; any other `n` is ignored."
 * must_fail: led_other_n_ignored
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FPGAIO_BASE_ADDR   0x40028000u
#define FPGAIO_LED0_OFFSET 0x00u
#define NUM_USER_LEDS      2u

typedef enum {
    LED_OP_SET,
    LED_OP_CLEAR,
    LED_OP_TOGGLE
} led_op_t;

static volatile uint32_t *const fpgaio_led0 =
    (volatile uint32_t *)(FPGAIO_BASE_ADDR + FPGAIO_LED0_OFFSET);

static void led_modify(unsigned int n, led_op_t op)
{
    uint32_t primask;
    uint32_t bit;
    uint32_t reg;

    if (n > NUM_USER_LEDS) {
        return;
    }
    bit = (uint32_t)1u << n;

    __asm volatile ("mrs %0, primask" : "=r" (primask));
    __asm volatile ("cpsid i" : : : "memory");

    reg = *fpgaio_led0;
    switch (op) {
    case LED_OP_SET:
        reg |= bit;
        break;
    case LED_OP_CLEAR:
        reg &= ~bit;
        break;
    case LED_OP_TOGGLE:
    default:
        reg ^= bit;
        break;
    }
    *fpgaio_led0 = reg;

    __asm volatile ("msr primask, %0" : : "r" (primask) : "memory");
}

void led_on(unsigned int n)
{
    led_modify(n, LED_OP_SET);
}

void led_off(unsigned int n)
{
    led_modify(n, LED_OP_CLEAR);
}

void led_toggle(unsigned int n)
{
    led_modify(n, LED_OP_TOGGLE);
}

struct step {
    void (*fn)(unsigned int n);
    unsigned int led;
};

int main(void)
{
    static const struct step steps[] = {
        { led_on,     0u },
        { led_on,     1u },
        { led_off,    0u },
        { led_toggle, 1u },
    };
    size_t i;

    for (i = 0; i < NUM_USER_LEDS; i++) {
        led_off((unsigned int)i);
    }

    for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
        steps[i].fn(steps[i].led);
        unsigned int leds = (unsigned int)(*fpgaio_led0 & 0x3u);
        printf("leds 0x%x\n", leds);
    }

    exit(EXIT_SUCCESS);
}
