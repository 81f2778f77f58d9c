#include <stdbool.h>
#include <zephyr/kernel.h>
#include <zephyr/spinlock.h>
#include <zephyr/sys/printk.h>

#define FIFO_CAPACITY 16U

struct sample_fifo {
	uint32_t slots[FIFO_CAPACITY];
	uint32_t head;
	uint32_t tail;
	uint32_t used;
	uint32_t dropped;
};

static struct sample_fifo fifo;
static struct k_spinlock fifo_lock;
static struct k_timer sample_timer;
static uint32_t next_seq;

static void sample_expiry(struct k_timer *timer)
{
	ARG_UNUSED(timer);

	k_spinlock_key_t key = k_spin_lock(&fifo_lock);

	if (fifo.used == FIFO_CAPACITY) {
		fifo.dropped++;
	} else {
		fifo.slots[fifo.head] = next_seq;
		fifo.head = (fifo.head + 1U) % FIFO_CAPACITY;
		fifo.used++;
	}
	next_seq++;

	k_spin_unlock(&fifo_lock, key);
}

static bool fifo_pop(uint32_t *seq, uint32_t *dropped)
{
	bool got = false;
	k_spinlock_key_t key = k_spin_lock(&fifo_lock);

	if (fifo.used > 0U) {
		*seq = fifo.slots[fifo.tail];
		fifo.tail = (fifo.tail + 1U) % FIFO_CAPACITY;
		fifo.used--;
		got = true;
	}
	*dropped = fifo.dropped;

	k_spin_unlock(&fifo_lock, key);
	return got;
}

int main(void)
{
	uint32_t last = 0U;

	k_timer_init(&sample_timer, sample_expiry, NULL);
	k_timer_start(&sample_timer, K_MSEC(10), K_MSEC(10));

	printk("ring consumer running\n");

	while (true) {
		uint32_t seq;
		uint32_t dropped = 0U;
		uint32_t drained = 0U;

		while (fifo_pop(&seq, &dropped)) {
			last = seq;
			drained++;
		}
		printk("drained %u samples, last %u, dropped %u\n", drained, last, dropped);
		k_msleep(100);
	}
	return 0;
}
