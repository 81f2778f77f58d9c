/* defect: block_size is set to the number of words (256) instead of the number of bytes (1024), so only a quarter of the buffer is transferred and verification always fails.
 * breaks: "Copy 256 32-bit words (1 KiB), filled with a known pattern before the transfer, into a second buffer of the same size, in one transfer of 32-bit beats."
 * must_fail: dma_block_size_1kib
 */
/*
 * Memory-to-memory copy of 1 KiB with the dma2 controller using the
 * generic Zephyr DMA API. The completion callback only records the
 * status and gives a semaphore; main sleeps on it with a 100 ms bound.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/dma.h>
#include <zephyr/sys/printk.h>

#define COPY_WORDS      256
#define COPY_TIMEOUT    K_MSEC(100)

static const struct device *const dma_dev = DEVICE_DT_GET(DT_NODELABEL(dma2));

static uint32_t src_buf[COPY_WORDS] __aligned(4);
static uint32_t dst_buf[COPY_WORDS] __aligned(4);

static K_SEM_DEFINE(xfer_done, 0, 1);
static volatile int xfer_status;

static void dma_done_cb(const struct device *dev, void *user_data,
			uint32_t channel, int status)
{
	ARG_UNUSED(dev);
	ARG_UNUSED(user_data);
	ARG_UNUSED(channel);

	if (status > 0) {
		/* intermediate (block / half) notification, not the end */
		return;
	}

	xfer_status = status;
	k_sem_give(&xfer_done);
}

int main(void)
{
	struct dma_block_config block = {0};
	struct dma_config cfg = {0};
	int chan;
	int ret;

	if (!device_is_ready(dma_dev)) {
		printk("dma device not ready: %d\n", -ENODEV);
		return -ENODEV;
	}

	for (int i = 0; i < COPY_WORDS; i++) {
		src_buf[i] = 0xA5A50000u ^ ((uint32_t)i * 0x01010101u);
		dst_buf[i] = 0u;
	}

	chan = dma_request_channel(dma_dev, NULL);
	if (chan < 0) {
		printk("no free dma channel: %d\n", chan);
		return chan;
	}

	block.source_address = (uintptr_t)src_buf;
	block.dest_address = (uintptr_t)dst_buf;
	block.block_size = COPY_WORDS;
	block.source_addr_adj = DMA_ADDR_ADJ_INCREMENT;
	block.dest_addr_adj = DMA_ADDR_ADJ_INCREMENT;

	cfg.channel_direction = MEMORY_TO_MEMORY;
	cfg.source_data_size = sizeof(uint32_t);
	cfg.dest_data_size = sizeof(uint32_t);
	cfg.source_burst_length = 1;
	cfg.dest_burst_length = 1;
	cfg.block_count = 1;
	cfg.head_block = &block;
	cfg.dma_callback = dma_done_cb;
	cfg.user_data = NULL;

	ret = dma_config(dma_dev, chan, &cfg);
	if (ret < 0) {
		printk("dma config failed: %d\n", ret);
		dma_release_channel(dma_dev, chan);
		return ret;
	}

	ret = dma_start(dma_dev, chan);
	if (ret < 0) {
		printk("dma start failed: %d\n", ret);
		dma_release_channel(dma_dev, chan);
		return ret;
	}

	ret = k_sem_take(&xfer_done, COPY_TIMEOUT);
	if (ret < 0) {
		(void)dma_stop(dma_dev, chan);
		dma_release_channel(dma_dev, chan);
		printk("dma timeout: %d\n", -ETIMEDOUT);
		return -ETIMEDOUT;
	}

	dma_release_channel(dma_dev, chan);

	if (xfer_status < 0) {
		printk("dma transfer error: %d\n", xfer_status);
		return xfer_status;
	}

	if (memcmp(src_buf, dst_buf, sizeof(src_buf)) != 0) {
		printk("dma copy mismatch: %d\n", -EIO);
		return -EIO;
	}

	printk("dma copy ok\n");
	return 0;
}
