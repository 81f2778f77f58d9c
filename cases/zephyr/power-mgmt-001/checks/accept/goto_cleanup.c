#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/pm/device.h>
#include <zephyr/pm/device_runtime.h>

struct afe_data {
	bool powered;
	uint32_t reads;
};

static int afe_action(const struct device *dev, enum pm_device_action action)
{
	struct afe_data *d = dev->data;

	if (action == PM_DEVICE_ACTION_RESUME) {
		d->powered = true;
		printk("afe powered up\n");
	} else if (action == PM_DEVICE_ACTION_SUSPEND) {
		d->powered = false;
		printk("afe powered down\n");
	} else {
		return -ENOTSUP;
	}
	return 0;
}

static int afe_init(const struct device *dev)
{
	struct afe_data *d = dev->data;

	d->powered = true;
	return 0;
}

static struct afe_data afe_data_0;

PM_DEVICE_DEFINE(afe_dev, afe_action);
DEVICE_DEFINE(afe_dev, "afe", afe_init, PM_DEVICE_GET(afe_dev), &afe_data_0, NULL,
	      POST_KERNEL, CONFIG_KERNEL_INIT_PRIORITY_DEVICE, NULL);

static int afe_read_raw(const struct device *dev, int32_t *out)
{
	struct afe_data *d = dev->data;

	if (!d->powered) {
		return -EIO;
	}
	d->reads++;
	if (d->reads % 4 == 0) {
		return -EIO;
	}
	*out = 1000 + (int32_t)d->reads;
	return 0;
}

int afe_sample(const struct device *dev, int32_t *out)
{
	int err;

	if (pm_device_runtime_get(dev) != 0) {
		return -EIO;
	}

	err = afe_read_raw(dev, out);
	if (err) {
		goto release;
	}
	printk("raw ok\n");

release:
	(void)pm_device_runtime_put(dev);
	return err;
}

int main(void)
{
	const struct device *dev = DEVICE_GET(afe_dev);
	int err = pm_device_runtime_enable(dev);

	if (err) {
		return err;
	}
	for (int i = 1; i <= 10; i++) {
		int32_t v = 0;

		err = afe_sample(dev, &v);
		if (err) {
			printk("sample %d failed: %d\n", i, err);
		} else {
			printk("sample %d: %d\n", i, v);
		}
		k_msleep(200);
	}
	return 0;
}
