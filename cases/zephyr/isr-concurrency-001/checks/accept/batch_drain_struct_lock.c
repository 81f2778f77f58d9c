/*
 * Producer/consumer over a hand-written FIFO. The lock lives inside the FIFO
 * object; the consumer empties the whole FIFO in one critical section into a
 * local batch and does all printing after the lock has been dropped.
 */
#include <zephyr/kernel.h>
#include <zephyr/spinlock.h>
#include <zephyr/sys/printk.h>

#define RING_LEN        16U
#define TICK_PERIOD     K_MSEC(10)
#define DRAIN_INTERVAL  K_MSEC(100)

BUILD_ASSERT((RING_LEN & (RING_LEN - 1U)) == 0U, "RING_LEN must be a power of two");

struct seq_ring {
	struct k_spinlock guard;
	uint32_t data[RING_LEN];
	uint32_t start;     /* index of the oldest unread entry */
	uint32_t count;     /* entries currently stored */
	uint32_t overflows; /* samples thrown away because the ring was full */
	uint32_t next;      /* sequence number of the next tick */
};

static struct seq_ring ring;
static struct k_timer tick_timer;

/* Copies every stored sample into out[] and reports the overflow total. */
static uint32_t ring_take_all(uint32_t out[RING_LEN], uint32_t *overflows)
{
	uint32_t n;
	k_spinlock_key_t k = k_spin_lock(&ring.guard);

	for (n = 0U; ring.count > 0U; n++) {
		out[n] = ring.data[ring.start];
		ring.start = (ring.start + 1U) & (RING_LEN - 1U);
		ring.count--;
	}
	*overflows = ring.overflows;

	k_spin_unlock(&ring.guard, k);
	return n;
}

/* Runs in the system clock interrupt: no blocking calls allowed here. */
static void on_tick(struct k_timer *tmr)
{
	ARG_UNUSED(tmr);

	k_spinlock_key_t k = k_spin_lock(&ring.guard);
	uint32_t value = ring.next++;

	if (ring.count >= RING_LEN) {
		ring.overflows++;
	} else {
		ring.data[(ring.start + ring.count) & (RING_LEN - 1U)] = value;
		ring.count++;
	}

	k_spin_unlock(&ring.guard, k);
}

int main(void)
{
	uint32_t batch[RING_LEN];
	uint32_t newest = 0U;

	k_timer_init(&tick_timer, on_tick, NULL);
	k_timer_start(&tick_timer, TICK_PERIOD, TICK_PERIOD);
	printk("ring consumer running\n");

	for (;;) {
		uint32_t overflows;
		uint32_t taken = ring_take_all(batch, &overflows);

		if (taken != 0U) {
			newest = batch[taken - 1U];
		}
		printk("drained %u samples, last %u, dropped %u\n",
		       taken, newest, overflows);
		k_sleep(DRAIN_INTERVAL);
	}

	return 0;
}
