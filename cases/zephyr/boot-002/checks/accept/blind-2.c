#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/init.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#define EVLOG_DEPTH 32

struct evlog_event {
	uint32_t code;
	uint32_t uptime_ms;
};

static struct {
	struct k_mutex lock;
	struct evlog_event *ring; /* EVLOG_DEPTH entries from the kernel heap */
	uint32_t written;         /* events recorded, folded into [0, 2*DEPTH) */
	bool ready;
} evlog;

int event_log_record(uint32_t code);
size_t event_log_count(void);

int event_log_record(uint32_t code)
{
	struct evlog_event *slot;

	if (!evlog.ready) {
		return -EAGAIN;
	}

	(void)k_mutex_lock(&evlog.lock, K_FOREVER);

	slot = &evlog.ring[evlog.written % EVLOG_DEPTH];
	slot->code = code;
	slot->uptime_ms = k_uptime_get_32();
	evlog.written++;
	if (evlog.written >= 2U * EVLOG_DEPTH) {
		/* Keep the slot index unchanged while never overflowing. */
		evlog.written -= EVLOG_DEPTH;
	}

	k_mutex_unlock(&evlog.lock);

	return 0;
}

size_t event_log_count(void)
{
	uint32_t written;

	if (!evlog.ready) {
		return 0;
	}

	(void)k_mutex_lock(&evlog.lock, K_FOREVER);
	written = evlog.written;
	k_mutex_unlock(&evlog.lock);

	return MIN(written, (uint32_t)EVLOG_DEPTH);
}

/*
 * APPLICATION level: the kernel (heap, mutexes) is fully up. Priority 99
 * is the last slot of the level, so this runs after every hook that
 * uses CONFIG_APPLICATION_INIT_PRIORITY (90 by default).
 */
static int evlog_sys_init(void)
{
	evlog.ring = k_calloc(EVLOG_DEPTH, sizeof(struct evlog_event));
	if (evlog.ring == NULL) {
		return -ENOMEM;
	}

	k_mutex_init(&evlog.lock);
	evlog.written = 0;
	evlog.ready = true;

	return 0;
}

SYS_INIT(evlog_sys_init, APPLICATION, 99);

int main(void)
{
	static const uint32_t codes[] = { 1, 2, 3 };

	printk("event log ready\n");

	ARRAY_FOR_EACH(codes, i) {
		int rc = event_log_record(codes[i]);

		if (rc < 0) {
			printk("event %u not recorded: %d\n", codes[i], rc);
		}
	}

	printk("events: %zu\n", event_log_count());

	return 0;
}
