#include <zephyr/kernel.h>

static void tick(struct k_timer *t)
{
	ARG_UNUSED(t);
}

K_TIMER_DEFINE(tick_timer, tick, NULL);

int main(void)
{
	k_timer_start(&tick_timer, K_MSEC(100), K_MSEC(100));
	return 0;
}
