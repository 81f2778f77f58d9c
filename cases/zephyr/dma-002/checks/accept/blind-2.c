/*
 * DMA memory-to-memory copy on dma2 (nucleo_f429zi), Zephyr generic DMA API.
 * Transfer context is passed to the callback through user_data.
 */
#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/dma.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#define NUM_WORDS       256U
#define DONE_TIMEOUT_MS 100

struct copy_ctx {
	struct k_sem done;
	int status;
};

static const struct device *const dma = DEVICE_DT_GET(DT_NODELABEL(dma2));

static uint32_t __aligned(sizeof(uint32_t)) source[NUM_WORDS];
static uint32_t __aligned(sizeof(uint32_t)) dest[NUM_WORDS];

static struct copy_ctx ctx;

static void on_dma_event(const struct device *dev, void *user_data,
			 uint32_t channel, int status)
{
	struct copy_ctx *c = user_data;

	ARG_UNUSED(dev);
	ARG_UNUSED(channel);

	if (status == DMA_STATUS_BLOCK) {
		return;
	}

	c->status = status;
	k_sem_give(&c->done);
}

static void fill_buffers(void)
{
	for (uint32_t i = 0; i < NUM_WORDS; i++) {
		source[i] = 0xC0DE0000u | (i * 7u + 3u);
		dest[i] = 0xFFFFFFFFu;
	}
}

static int verify_copy(void)
{
	for (uint32_t i = 0; i < NUM_WORDS; i++) {
		if (dest[i] != source[i]) {
			printk("mismatch at word %u: %d\n", (unsigned int)i, -EIO);
			return -EIO;
		}
	}
	return 0;
}

/* Configure, start and wait for one transfer on an already owned channel. */
static int run_copy(uint32_t channel)
{
	struct dma_block_config blk = {
		.source_address = (uintptr_t)source,
		.dest_address = (uintptr_t)dest,
		.block_size = NUM_WORDS * sizeof(uint32_t),
		.source_addr_adj = DMA_ADDR_ADJ_INCREMENT,
		.dest_addr_adj = DMA_ADDR_ADJ_INCREMENT,
	};
	struct dma_config cfg = {
		.channel_direction = MEMORY_TO_MEMORY,
		.source_data_size = 4,
		.dest_data_size = 4,
		.source_burst_length = 1,
		.dest_burst_length = 1,
		.block_count = 1,
		.head_block = &blk,
		.user_data = &ctx,
		.dma_callback = on_dma_event,
	};
	int err;

	err = dma_config(dma, channel, &cfg);
	if (err != 0) {
		printk("dma_config error %d\n", err);
		return err;
	}

	err = dma_start(dma, channel);
	if (err != 0) {
		printk("dma_start error %d\n", err);
		return err;
	}

	if (k_sem_take(&ctx.done, K_MSEC(DONE_TIMEOUT_MS)) != 0) {
		(void)dma_stop(dma, channel);
		printk("dma transfer timed out, error %d\n", -ETIMEDOUT);
		return -ETIMEDOUT;
	}

	if (ctx.status < 0) {
		printk("dma transfer reported error %d\n", ctx.status);
		return ctx.status;
	}

	return 0;
}

int main(void)
{
	int channel;
	int err;

	if (!device_is_ready(dma)) {
		printk("dma2 not ready, error %d\n", -ENODEV);
		return -ENODEV;
	}

	k_sem_init(&ctx.done, 0, 1);
	ctx.status = 0;
	fill_buffers();

	channel = dma_request_channel(dma, NULL);
	if (channel < 0) {
		printk("dma_request_channel error %d\n", channel);
		return channel;
	}

	err = run_copy((uint32_t)channel);
	dma_release_channel(dma, (uint32_t)channel);
	if (err != 0) {
		return err;
	}

	err = verify_copy();
	if (err != 0) {
		return err;
	}

	printk("dma copy ok\n");
	return 0;
}
