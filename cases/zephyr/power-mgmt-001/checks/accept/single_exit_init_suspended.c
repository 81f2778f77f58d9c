/*
 * Simulated analog front end kept under device runtime power management:
 * it is resumed for one raw read at a time and suspended again right after.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/sys/printk.h>
#include <zephyr/pm/device.h>
#include <zephyr/pm/device_runtime.h>

#define SAMPLE_COUNT     10
#define SAMPLE_PERIOD_MS 200

struct afe_ctx {
	bool powered;
	unsigned int read_count;
};

static struct afe_ctx afe_ctx_0;

static int afe_read_raw(const struct device *dev, int32_t *out)
{
	struct afe_ctx *ctx = dev->data;

	if (ctx->powered) {
		ctx->read_count++;
		/* the hardware drops every fourth conversion */
		if ((ctx->read_count & 0x3U) != 0U) {
			*out = 1000 + (int32_t)ctx->read_count;
			return 0;
		}
	}
	return -EIO;
}

int afe_sample(const struct device *dev, int32_t *out)
{
	int rc = pm_device_runtime_get(dev);

	if (rc == 0) {
		int released;

		rc = afe_read_raw(dev, out);
		released = pm_device_runtime_put(dev);
		if (rc == 0) {
			rc = released;
		}
	}
	return rc;
}

static int afe_pm_control(const struct device *dev, enum pm_device_action action)
{
	struct afe_ctx *ctx = dev->data;
	int rc = 0;

	switch (action) {
	case PM_DEVICE_ACTION_SUSPEND:
		ctx->powered = false;
		printk("afe powered down\n");
		break;
	case PM_DEVICE_ACTION_RESUME:
		ctx->powered = true;
		printk("afe powered up\n");
		break;
	default:
		rc = -ENOTSUP;
		break;
	}
	return rc;
}

static int afe_setup(const struct device *dev)
{
	struct afe_ctx *ctx = dev->data;

	ctx->powered = false;
	ctx->read_count = 0U;

	/* The AFE starts unpowered: tell PM so, then hand it to runtime PM. */
	pm_device_init_suspended(dev);
	return pm_device_runtime_enable(dev);
}

PM_DEVICE_DEFINE(afe_node, afe_pm_control);

DEVICE_DEFINE(afe_node, "afe", afe_setup, PM_DEVICE_GET(afe_node), &afe_ctx_0,
	      NULL, POST_KERNEL, CONFIG_KERNEL_INIT_PRIORITY_DEVICE, NULL);

int main(void)
{
	const struct device *const afe = DEVICE_GET(afe_node);
	int n = 0;

	if (!device_is_ready(afe)) {
		printk("afe init failed\n");
		return 0;
	}

	while (n < SAMPLE_COUNT) {
		int32_t reading = 0;
		int rc;

		n++;
		rc = afe_sample(afe, &reading);
		if (rc == 0) {
			printk("sample %d: %d\n", n, (int)reading);
		} else {
			printk("sample %d failed: %d\n", n, rc);
		}
		k_sleep(K_MSEC(SAMPLE_PERIOD_MS));
	}
	return 0;
}
