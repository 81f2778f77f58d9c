/* defect: the LED0 register pointer is not volatile, so the compiler may cache, merge or drop the MMIO accesses and the "read back" is served from the last value written rather than the hardware.
 * breaks: "After each step read LED0 back and print the two LED bits as `leds 0x<value>` (for example `leds 0x1`)."
 * must_fail: led_register_volatile
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FPGAIO_BASE     0x40028000u
#define LED0_OFFSET     0x00u
#define LED_COUNT       2u
#define LED_MASK        0x3u

static uint32_t *const led0_reg = (uint32_t *)(FPGAIO_BASE + LED0_OFFSET);

static inline uint32_t irq_save(void)
{
    uint32_t primask;
    __asm volatile ("mrs %0, primask\n\tcpsid i" : "=r" (primask));
    return primask;
}

static inline void irq_restore(uint32_t primask)
{
    __asm volatile ("msr primask, %0" : : "r" (primask));
}

void led_on(unsigned int n)
{
    if (n >= LED_COUNT) {
        return;
    }
    uint32_t key = irq_save();
    *led0_reg |= (1u << n);
    irq_restore(key);
}

void led_off(unsigned int n)
{
    if (n >= LED_COUNT) {
        return;
    }
    uint32_t key = irq_save();
    *led0_reg &= ~(1u << n);
    irq_restore(key);
}

void led_toggle(unsigned int n)
{
    if (n >= LED_COUNT) {
        return;
    }
    uint32_t key = irq_save();
    *led0_reg ^= (1u << n);
    irq_restore(key);
}

static void report(void)
{
    printf("leds 0x%lx\n", (unsigned long)(*led0_reg & LED_MASK));
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
