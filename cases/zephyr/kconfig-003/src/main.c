#include <zephyr/kernel.h>
#include <zephyr/bluetooth/bluetooth.h>
#include <zephyr/settings/settings.h>
#include <zephyr/sys/printk.h>

int main(void)
{
	int err = bt_enable(NULL);

	if (err) {
		printk("bt_enable failed (%d)\n", err);
		return 0;
	}
	settings_load();
	printk("peripheral ready\n");
	return 0;
}
