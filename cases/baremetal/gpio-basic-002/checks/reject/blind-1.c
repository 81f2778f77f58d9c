/* defect: led_on() writes the single bit straight into LED0 instead of read-modify-write, so lighting one LED clears the other.
 * breaks: "`void led_on(unsigned int n)`, `void led_off(unsigned int n)` and `void led_toggle(unsigned int n)` change LED `n` (0 or 1) only; any other `n` is ignored."
 * must_fail: L2, led_on_preserves_other_led
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FPGAIO_BASE     0x40028000u
#define FPGAIO_LED0     (*(volatile uint32_t *)(FPGAIO_BASE + 0x00u))
#define LED_COUNT       2u
#define LED_MASK        0x3u

static inline uint32_t irq_save(void)
{
    uint32_t primask;
    __asm volatile ("mrs %0, primask\n\tcpsid i" : "=r" (primask) : : "memory");
    return primask;
}

static inline void irq_restore(uint32_t primask)
{
    __asm volatile ("msr primask, %0" : : "r" (primask) : "memory");
}

void led_on(unsigned int n)
{
    if (n >= LED_COUNT) {
        return;
    }
    uint32_t key = irq_save();
    FPGAIO_LED0 = (1u << n);
    irq_restore(key);
}

void led_off(unsigned int n)
{
    if (n >= LED_COUNT) {
        return;
    }
    uint32_t key = irq_save();
    FPGAIO_LED0 &= ~(1u << n);
    irq_restore(key);
}

void led_toggle(unsigned int n)
{
    if (n >= LED_COUNT) {
        return;
    }
    uint32_t key = irq_save();
    FPGAIO_LED0 ^= (1u << n);
    irq_restore(key);
}

static void report(void)
{
    uint32_t value = FPGAIO_LED0 & LED_MASK;
    printf("leds 0x%lx\n", (unsigned long)value);
}

int main(void)
{
    led_off(0);
    led_off(1);

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
