/* defect: the ring keeps one slot empty to tell full from empty (full when head+1 == tail) in a 16-slot array, so it only ever holds 15 samples and the 16th is dropped.
 * breaks: "Samples go into a fixed-capacity FIFO of 16 entries that the expiry function and the main thread share."
 * must_fail: fifo_holds_16_samples
 */
/*
 * k_timer expiry function (ISR context) produces sequence numbers into a
 * hand-written 16-entry FIFO; the main thread drains it every 100 ms.
 * All shared state is guarded by a spinlock, which is SMP-safe and never
 * blocks, so it may be taken from the expiry function.
 */
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/spinlock.h>
#include <zephyr/sys/printk.h>

#define RING_CAPACITY   16U
#define PRODUCE_PERIOD  K_MSEC(10)
#define DRAIN_PERIOD_MS 100

struct sample_ring {
	uint32_t buf[RING_CAPACITY];
	uint32_t head;          /* next slot to write */
	uint32_t tail;          /* next slot to read */
	uint32_t dropped;       /* samples discarded because the ring was full */
	uint32_t next_seq;      /* sequence number of the next produced sample */
};

static struct sample_ring ring;
static struct k_spinlock ring_lock;

static void produce_sample(struct k_timer *timer)
{
	ARG_UNUSED(timer);

	k_spinlock_key_t key = k_spin_lock(&ring_lock);
	uint32_t seq = ring.next_seq++;

	uint32_t next_head = (ring.head + 1U) % RING_CAPACITY;

	if (next_head != ring.tail) {
		ring.buf[ring.head] = seq;
		ring.head = next_head;
	} else {
		ring.dropped++;
	}

	k_spin_unlock(&ring_lock, key);
}

static K_TIMER_DEFINE(sample_timer, produce_sample, NULL);

int main(void)
{
	uint32_t local[RING_CAPACITY];
	uint32_t last = 0;
	int64_t next_wake;

	k_timer_start(&sample_timer, PRODUCE_PERIOD, PRODUCE_PERIOD);
	printk("ring consumer running\n");

	next_wake = k_uptime_get();

	while (1) {
		uint32_t n = 0;
		uint32_t dropped;

		next_wake += DRAIN_PERIOD_MS;
		k_sleep(K_TIMEOUT_ABS_MS(next_wake));

		/* Copy out under the lock, print after releasing it. */
		k_spinlock_key_t key = k_spin_lock(&ring_lock);

		while (ring.tail != ring.head) {
			local[n++] = ring.buf[ring.tail];
			ring.tail = (ring.tail + 1U) % RING_CAPACITY;
		}
		dropped = ring.dropped;

		k_spin_unlock(&ring_lock, key);

		if (n > 0U) {
			last = local[n - 1U];
		}

		printk("drained %u samples, last %u, dropped %u\n",
		       (unsigned int)n, (unsigned int)last, (unsigned int)dropped);
	}

	return 0;
}
