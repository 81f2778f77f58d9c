/* AFE released in the success branch of an if/else around pm_device_runtime_get(). */
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/pm/device_runtime.h>
#include <zephyr/pm/device.h>
#include <zephyr/sys/printk.h>
#include <stdint.h>
#include <stdbool.h>
#include <errno.h>

struct afe_state {
	uint32_t nreads;
	bool powered;
};

static int afe_on_pm(const struct device *dev, enum pm_device_action action)
{
	struct afe_state *st = dev->data;

	if (action == PM_DEVICE_ACTION_RESUME) {
		st->powered = true;
		printk("afe powered up\n");
		return 0;
	}
	if (action == PM_DEVICE_ACTION_SUSPEND) {
		st->powered = false;
		printk("afe powered down\n");
		return 0;
	}
	return -ENOTSUP;
}

static int afe_bringup(const struct device *dev)
{
	struct afe_state *st = dev->data;

	st->nreads = 0;
	st->powered = true;
	/* runtime PM suspends the active device right away */
	return pm_device_runtime_enable(dev);
}

static struct afe_state afe_rt;

PM_DEVICE_DEFINE(analog_fe, afe_on_pm);
DEVICE_DEFINE(analog_fe, "afe", afe_bringup, PM_DEVICE_GET(analog_fe), &afe_rt, NULL,
	      POST_KERNEL, CONFIG_KERNEL_INIT_PRIORITY_DEVICE, NULL);

static int afe_read_raw(const struct device *dev, int32_t *out)
{
	struct afe_state *st = dev->data;

	if (!st->powered) {
		return -EIO;
	}
	st->nreads += 1U;
	if (st->nreads % 4U == 0U) {
		return -EIO;
	}
	*out = (int32_t)(1000U + st->nreads);
	return 0;
}

int afe_sample(const struct device *dev, int32_t *out)
{
	int status = pm_device_runtime_get(dev);

	if (status < 0) {
		return status;
	} else {
		int put_status;

		status = afe_read_raw(dev, out);
		put_status = pm_device_runtime_put(dev);
		if (status == 0) {
			status = put_status;
		}
	}
	return status;
}

int main(void)
{
	const struct device *fe = DEVICE_GET(analog_fe);

	for (int k = 0; k < 10; ++k) {
		int32_t mv;
		int status = afe_sample(fe, &mv);

		if (status != 0) {
			printk("sample %d failed: %d\n", k + 1, status);
		} else {
			printk("sample %d: %d\n", k + 1, (int)mv);
		}
		k_msleep(200);
	}
	return 0;
}
