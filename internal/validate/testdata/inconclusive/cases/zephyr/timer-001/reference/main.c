#include <zephyr/kernel.h>

#define BLINK_MS 500
#define IDLE_MS CONFIG_APP_IDLE_MS

int main(void)
{
	for (int i = 0; i < 10; i++) {
		k_msleep(BLINK_MS);
	}
	k_msleep(IDLE_MS);
	return 0;
}
