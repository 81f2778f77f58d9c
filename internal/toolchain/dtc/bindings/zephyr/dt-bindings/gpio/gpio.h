/* GPIO specifier flags for devicetree sources: the commonly used subset of
 * Zephyr's <zephyr/dt-bindings/gpio/gpio.h>, written for EmbedEval's
 * devicetree overlay compile check. Values follow the Zephyr ABI. */
#ifndef EMBEDEVAL_DT_BINDINGS_GPIO_GPIO_H
#define EMBEDEVAL_DT_BINDINGS_GPIO_GPIO_H

#define GPIO_DT_FLAGS_MASK 0x3F

/* Active level. */
#define GPIO_ACTIVE_HIGH (0 << 0)
#define GPIO_ACTIVE_LOW (1 << 0)

/* Output drive. */
#define GPIO_PUSH_PULL (0 << 1)
#define GPIO_SINGLE_ENDED (1 << 1)
#define GPIO_LINE_OPEN_SOURCE (0 << 2)
#define GPIO_LINE_OPEN_DRAIN (1 << 2)
#define GPIO_OPEN_DRAIN (GPIO_SINGLE_ENDED | GPIO_LINE_OPEN_DRAIN)
#define GPIO_OPEN_SOURCE (GPIO_SINGLE_ENDED | GPIO_LINE_OPEN_SOURCE)

/* Bias. */
#define GPIO_PULL_UP (1 << 4)
#define GPIO_PULL_DOWN (1 << 5)

/* Wake the system from low-power states on an interrupt of this pin. */
#define GPIO_INT_WAKEUP (1 << 28)

#endif
