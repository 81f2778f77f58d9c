/*
 * Producer: periodic k_timer expiry function (interrupt context).
 * Consumer: main thread, paced by a second k_timer.
 * Shared FIFO: 16 slots, free-running indices, protected by a k_spinlock
 * (correct on SMP; no blocking call is ever made by the expiry function).
 */
#include <stdbool.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/spinlock.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#define FIFO_SLOTS 16U
BUILD_ASSERT((FIFO_SLOTS & (FIFO_SLOTS - 1U)) == 0U, "FIFO_SLOTS must be a power of two");

static struct {
	struct k_spinlock lock;
	uint32_t slot[FIFO_SLOTS];
	uint32_t wr;            /* free running write index */
	uint32_t rd;            /* free running read index */
	uint32_t drops;
} fifo;

static atomic_t seq_counter = ATOMIC_INIT(0);

static bool fifo_put(uint32_t value)
{
	bool stored = false;
	k_spinlock_key_t key = k_spin_lock(&fifo.lock);

	if ((fifo.wr - fifo.rd) < FIFO_SLOTS) {
		fifo.slot[fifo.wr & (FIFO_SLOTS - 1U)] = value;
		fifo.wr++;
		stored = true;
	} else {
		fifo.drops++;
	}

	k_spin_unlock(&fifo.lock, key);
	return stored;
}

static bool fifo_get(uint32_t *value, uint32_t *drops)
{
	bool got = false;
	k_spinlock_key_t key = k_spin_lock(&fifo.lock);

	if (fifo.rd != fifo.wr) {
		*value = fifo.slot[fifo.rd & (FIFO_SLOTS - 1U)];
		fifo.rd++;
		got = true;
	}
	*drops = fifo.drops;

	k_spin_unlock(&fifo.lock, key);
	return got;
}

static void sample_tick(struct k_timer *t)
{
	ARG_UNUSED(t);

	/* atomic_inc() returns the previous value: 0, 1, 2, ... */
	(void)fifo_put((uint32_t)atomic_inc(&seq_counter));
}

static struct k_timer producer_timer;
static struct k_timer drain_timer;

int main(void)
{
	uint32_t last_seq = 0U;

	k_timer_init(&producer_timer, sample_tick, NULL);
	k_timer_init(&drain_timer, NULL, NULL);

	k_timer_start(&producer_timer, K_MSEC(10), K_MSEC(10));
	k_timer_start(&drain_timer, K_MSEC(100), K_MSEC(100));

	printk("ring consumer running\n");

	for (;;) {
		uint32_t drained = 0U;
		uint32_t drops = 0U;
		uint32_t v;

		/* Blocks until the next 100 ms period; drift free. */
		(void)k_timer_status_sync(&drain_timer);

		/* Take what is there now (at most one full FIFO); a failed
		 * fifo_get() still reports the current drop count.
		 */
		while (drained < FIFO_SLOTS && fifo_get(&v, &drops)) {
			last_seq = v;
			drained++;
		}

		printk("drained %u samples, last %u, dropped %u\n",
		       (unsigned int)drained, (unsigned int)last_seq,
		       (unsigned int)drops);
	}

	return 0;
}
