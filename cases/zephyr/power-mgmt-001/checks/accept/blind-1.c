/*
 * Simulated analog front end (AFE) kept powered only while it is sampled,
 * using Zephyr device runtime power management.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/init.h>
#include <zephyr/sys/printk.h>
#include <zephyr/pm/device.h>
#include <zephyr/pm/device_runtime.h>

#define NUM_SAMPLES       10
#define SAMPLE_PERIOD_MS  200

struct afe_data {
	bool powered;
	uint32_t reads;
};

static struct afe_data afe_data_0;

static int afe_pm_action(const struct device *dev, enum pm_device_action action)
{
	struct afe_data *data = dev->data;

	switch (action) {
	case PM_DEVICE_ACTION_RESUME:
		data->powered = true;
		printk("afe powered up\n");
		return 0;
	case PM_DEVICE_ACTION_SUSPEND:
		data->powered = false;
		printk("afe powered down\n");
		return 0;
	default:
		return -ENOTSUP;
	}
}

static int afe_init(const struct device *dev)
{
	struct afe_data *data = dev->data;

	data->powered = false;
	data->reads = 0U;

	/* The hardware comes up unpowered: tell PM so, then hand it over to
	 * runtime PM so it stays suspended until somebody needs it.
	 */
	pm_device_init_suspended(dev);

	return pm_device_runtime_enable(dev);
}

PM_DEVICE_DEFINE(afe, afe_pm_action);

DEVICE_DEFINE(afe, "afe", afe_init, PM_DEVICE_GET(afe),
	      &afe_data_0, NULL, POST_KERNEL,
	      CONFIG_KERNEL_INIT_PRIORITY_DEVICE, NULL);

static int afe_read_raw(const struct device *dev, int32_t *out)
{
	struct afe_data *data = dev->data;

	if (!data->powered) {
		return -EIO;
	}

	data->reads++;

	if ((data->reads % 4U) == 0U) {
		return -EIO;
	}

	*out = 1000 + (int32_t)data->reads;

	return 0;
}

int afe_sample(const struct device *dev, int32_t *out)
{
	int ret;
	int put_ret;

	ret = pm_device_runtime_get(dev);
	if (ret < 0) {
		/* get() already undid its own usage count: nothing to release */
		return ret;
	}

	ret = afe_read_raw(dev, out);

	/* Always release, also when the read failed */
	put_ret = pm_device_runtime_put(dev);

	if (ret < 0) {
		return ret;
	}

	return put_ret;
}

int main(void)
{
	const struct device *afe = DEVICE_GET(afe);

	if (!device_is_ready(afe)) {
		printk("afe not ready\n");
		return -ENODEV;
	}

	for (int i = 1; i <= NUM_SAMPLES; i++) {
		int32_t value;
		int err = afe_sample(afe, &value);

		if (err == 0) {
			printk("sample %d: %d\n", i, (int)value);
		} else {
			printk("sample %d failed: %d\n", i, err);
		}

		k_msleep(SAMPLE_PERIOD_MS);
	}

	return 0;
}
