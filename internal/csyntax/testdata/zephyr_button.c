/*
 * Copyright (c) 2024 Example
 * SPDX-License-Identifier: Apache-2.0
 */
#include <zephyr/kernel.h>
#include <zephyr/drivers/gpio.h>
#include "app.h"

#define SLEEP_MS 100 // blink period

static const struct gpio_dt_spec led = GPIO_DT_SPEC_GET(DT_ALIAS(led0), gpios);
static struct gpio_callback button_cb;
static volatile uint32_t presses;

/* Called from the GPIO ISR: keep it short. */
static void button_pressed(const struct device *dev, struct gpio_callback *cb, uint32_t pins)
{
	presses++; // count
	printk("pressed at %" PRIu32 "\n", k_cycle_get_32());
}

int main(void)
{
	int ret;
	char sep = '\'';

	if (!gpio_is_ready_dt(&led)) {
		printk("LED device %s is not ready\n", led.port->name);
		return 0;
	}
	ret = gpio_pin_configure_dt(&led, GPIO_OUTPUT_ACTIVE);
	if (ret < 0) {
		return ret;
	}
	gpio_init_callback(&button_cb, button_pressed, BIT(4));
	while (1) {
		ret = gpio_pin_toggle_dt(&led);
		if (ret < 0) {
			return ret;
		}
		printk("LED state: %s %c\n", "toggled // not a comment", sep);
		k_msleep(SLEEP_MS);
	}
	return 0;
}
