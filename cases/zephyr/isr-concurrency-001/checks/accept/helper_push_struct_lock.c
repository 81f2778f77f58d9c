/*
 * The expiry function only produces the sequence number; a helper, ring_push(),
 * takes the spinlock embedded in the FIFO object around the FIFO update. main
 * drains the whole FIFO under the same lock and prints after releasing it.
 */
#include <zephyr/kernel.h>
#include <zephyr/spinlock.h>
#include <zephyr/sys/printk.h>

#define RING_LEN 16U

static struct {
	struct k_spinlock guard;
	uint32_t data[RING_LEN];
	uint32_t start;
	uint32_t count;
	uint32_t overflows;
} ring;

static void ring_push(uint32_t value)
{
	k_spinlock_key_t k = k_spin_lock(&ring.guard);

	if (ring.count < RING_LEN) {
		ring.data[(ring.start + ring.count) % RING_LEN] = value;
		ring.count++;
	} else {
		ring.overflows++;
	}
	k_spin_unlock(&ring.guard, k);
}

static void on_tick(struct k_timer *tmr)
{
	static uint32_t counter;

	ARG_UNUSED(tmr);
	ring_push(counter++);
}

K_TIMER_DEFINE(tick_timer, on_tick, NULL);

int main(void)
{
	uint32_t newest = 0U;

	k_timer_start(&tick_timer, K_MSEC(10), K_MSEC(10));
	printk("ring consumer running\n");
	for (;;) {
		uint32_t taken = 0U;
		uint32_t lost;
		k_spinlock_key_t k = k_spin_lock(&ring.guard);

		while (ring.count > 0U) {
			newest = ring.data[ring.start];
			ring.start = (ring.start + 1U) % RING_LEN;
			ring.count--;
			taken++;
		}
		lost = ring.overflows;
		k_spin_unlock(&ring.guard, k);
		printk("drained %u samples, last %u, dropped %u\n", taken, newest, lost);
		k_msleep(100);
	}
	return 0;
}
