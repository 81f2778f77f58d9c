#include <zephyr/kernel.h>

#define DEPTH 16

static uint32_t items[DEPTH];
static size_t wr_idx;
static size_t rd_idx;
static size_t fill;
static uint32_t lost;
static uint32_t seq;
static struct k_spinlock lock;

static void tick(struct k_timer *t)
{
	K_SPINLOCK(&lock) {
		if (fill < DEPTH) {
			items[wr_idx] = seq;
			wr_idx = (wr_idx + 1) % DEPTH;
			fill++;
		} else {
			lost++;
		}
		seq++;
	}
}

K_TIMER_DEFINE(producer, tick, NULL);

int main(void)
{
	uint32_t last = 0;

	k_timer_start(&producer, K_MSEC(10), K_MSEC(10));
	printk("ring consumer running\n");

	for (;;) {
		uint32_t n = 0;
		uint32_t d = 0;
		bool more = true;

		while (more) {
			K_SPINLOCK(&lock) {
				more = fill > 0;
				if (more) {
					last = items[rd_idx];
					rd_idx = (rd_idx + 1) % DEPTH;
					fill--;
					n++;
				}
				d = lost;
			}
		}
		printk("drained %u samples, last %u, dropped %u\n", n, last, d);
		k_sleep(K_MSEC(100));
	}
}
