#include <zephyr/kernel.h>
#include <zephyr/logging/log.h>

LOG_MODULE_REGISTER(bringup, LOG_LEVEL_INF);

int main(void)
{
	LOG_INF("sensor bring-up shell ready");
	return 0;
}
