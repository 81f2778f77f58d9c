#include <zephyr/kernel.h>

static struct k_timer period;

static void on_expiry(struct k_timer *timer)
{
	(void)timer;
}

void tick(void)
{
}

int main(void)
{
	k_timer_init(&period, on_expiry, NULL);
	k_timer_start(&period, K_MSEC(100), K_MSEC(100));
	for (;;) {
		k_sleep(K_FOREVER);
	}
}
