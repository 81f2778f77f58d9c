/*
 * Analog front end (AFE) simulation under Zephyr device runtime PM:
 * the AFE is resumed for exactly one raw read per sample.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/sys/printk.h>
#include <zephyr/pm/device.h>
#include <zephyr/pm/device_runtime.h>

struct afe_data {
	bool powered;
	uint32_t read_count;
};

static struct afe_data afe_state = {
	/* PM core considers a freshly initialised device active */
	.powered = true,
	.read_count = 0,
};

static int afe_pm_action(const struct device *dev, enum pm_device_action action)
{
	struct afe_data *data = dev->data;
	int ret = 0;

	switch (action) {
	case PM_DEVICE_ACTION_SUSPEND:
		data->powered = false;
		printk("afe powered down\n");
		break;
	case PM_DEVICE_ACTION_RESUME:
		data->powered = true;
		printk("afe powered up\n");
		break;
	case PM_DEVICE_ACTION_TURN_ON:
	case PM_DEVICE_ACTION_TURN_OFF:
	default:
		ret = -ENOTSUP;
		break;
	}

	return ret;
}

static int afe_init(const struct device *dev)
{
	ARG_UNUSED(dev);
	return 0;
}

PM_DEVICE_DEFINE(afe_dev, afe_pm_action);

DEVICE_DEFINE(afe_dev, "afe", afe_init, PM_DEVICE_GET(afe_dev),
	      &afe_state, NULL, POST_KERNEL,
	      CONFIG_APPLICATION_INIT_PRIORITY, NULL);

static int afe_read_raw(const struct device *dev, int32_t *out)
{
	struct afe_data *data = dev->data;
	uint32_t n;

	if (!data->powered) {
		return -EIO;
	}

	n = ++data->read_count;
	if (n % 4U == 0U) {
		return -EIO;
	}

	*out = (int32_t)(1000U + n);
	return 0;
}

int afe_sample(const struct device *dev, int32_t *out)
{
	int err;
	int rc;

	err = pm_device_runtime_get(dev);
	if (err != 0) {
		/* Device was not resumed and its usage count is unchanged */
		goto out;
	}

	err = afe_read_raw(dev, out);

	rc = pm_device_runtime_put(dev);
	if (err == 0) {
		err = rc;
	}

out:
	return err;
}

int main(void)
{
	const struct device *afe = device_get_binding("afe");
	int err;

	if (afe == NULL) {
		printk("afe not found\n");
		return -ENODEV;
	}

	/* Put the AFE under runtime PM: it is suspended right away and is
	 * only resumed while a sample holds a reference to it.
	 */
	err = pm_device_runtime_enable(afe);
	if (err != 0) {
		printk("runtime pm enable failed: %d\n", err);
		return err;
	}

	for (int i = 1; i <= 10; i++) {
		int32_t value = 0;

		if (i > 1) {
			k_msleep(200);
		}

		err = afe_sample(afe, &value);
		if (err != 0) {
			printk("sample %d failed: %d\n", i, err);
		} else {
			printk("sample %d: %d\n", i, (int)value);
		}
	}

	return 0;
}
