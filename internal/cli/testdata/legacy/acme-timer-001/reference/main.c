#include <zephyr/kernel.h>

static void on_expiry(struct k_timer *timer)
{
	ARG_UNUSED(timer);
	printk("tick\n");
}

K_TIMER_DEFINE(tick_timer, on_expiry, NULL);

int main(void)
{
	k_timer_start(&tick_timer, K_MSEC(500), K_MSEC(500));
	return 0;
}
