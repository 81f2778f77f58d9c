#include <zephyr/kernel.h>
#include <zephyr/drivers/dma.h>
#include <string.h>

#define WORDS 256
#define DMA_NODE DT_NODELABEL(dma2)

static const struct device *const dma_dev = DEVICE_DT_GET(DMA_NODE);
static uint8_t src[WORDS * 4] __aligned(32);
static uint8_t dst[WORDS * 4] __aligned(32);
static struct k_sem done;
static atomic_t result;

static void on_dma(const struct device *dev, void *arg, uint32_t ch, int status)
{
	atomic_set(&result, status);
	k_sem_give(&done);
}

int main(void)
{
	struct dma_block_config blk;
	struct dma_config cfg;
	int ch;
	int ret;

	k_sem_init(&done, 0, 1);
	if (!device_is_ready(dma_dev)) {
		return -ENODEV;
	}
	for (int i = 0; i < (int)sizeof(src); i++) {
		src[i] = (uint8_t)i;
	}

	ch = dma_request_channel(dma_dev, NULL);
	if (ch < 0) {
		/* STM32 DMA v1 has no channel allocator: the request always fails. */
		if (!IS_ENABLED(CONFIG_DMA_STM32_V1)) {
			printk("no channel %d\n", ch);
			return ch;
		}
		ch = 0;
	}

	memset(&blk, 0, sizeof(blk));
	blk.source_address = (uintptr_t)src;
	blk.dest_address = (uintptr_t)dst;
	blk.block_size = sizeof(src);

	memset(&cfg, 0, sizeof(cfg));
	cfg.channel_direction = MEMORY_TO_MEMORY;
	cfg.source_data_size = 4;
	cfg.dest_data_size = 4;
	cfg.source_burst_length = 1;
	cfg.dest_burst_length = 1;
	cfg.block_count = 1;
	cfg.head_block = &blk;
	cfg.dma_callback = on_dma;

	ret = dma_config(dma_dev, ch, &cfg);
	if (ret != 0) {
		printk("config error %d\n", ret);
		goto out;
	}
	ret = dma_start(dma_dev, ch);
	if (ret != 0) {
		printk("start error %d\n", ret);
		goto out;
	}
	ret = k_sem_take(&done, K_MSEC(100));
	if (ret != 0) {
		dma_stop(dma_dev, ch);
		printk("timeout %d\n", ret);
		goto out;
	}
	ret = (int)atomic_get(&result);
	if (ret != 0) {
		printk("transfer error %d\n", ret);
		goto out;
	}
	if (memcmp(src, dst, sizeof(src)) != 0) {
		ret = -EIO;
		printk("mismatch %d\n", ret);
		goto out;
	}
	printk("dma copy ok\n");
out:
	dma_release_channel(dma_dev, ch);
	return ret;
}
