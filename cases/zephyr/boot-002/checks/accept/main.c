#include <errno.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/init.h>
#include <zephyr/sys/printk.h>

#define LOG_SLOTS 32

struct log_entry {
	uint32_t code;
	uint32_t ts;
};

struct event_log {
	struct k_mutex lock;
	struct log_entry *ring;
	size_t next;
	size_t used;
};

static struct event_log elog;

static int event_log_setup(void)
{
	int err = k_mutex_init(&elog.lock);

	if (err) {
		return err;
	}

	elog.ring = k_malloc(LOG_SLOTS * sizeof(struct log_entry));
	if (!elog.ring) {
		return -ENOMEM;
	}
	memset(elog.ring, 0, LOG_SLOTS * sizeof(struct log_entry));
	return 0;
}

int event_log_record(uint32_t code)
{
	if (!elog.ring) {
		return -EAGAIN;
	}
	k_mutex_lock(&elog.lock, K_FOREVER);
	elog.ring[elog.next] = (struct log_entry){ .code = code, .ts = k_uptime_get_32() };
	elog.next = (elog.next + 1) % LOG_SLOTS;
	elog.used = MIN(elog.used + 1, LOG_SLOTS);
	k_mutex_unlock(&elog.lock);
	return 0;
}

size_t event_log_count(void)
{
	k_mutex_lock(&elog.lock, K_FOREVER);
	size_t n = elog.used;
	k_mutex_unlock(&elog.lock);
	return n;
}

SYS_INIT(event_log_setup, APPLICATION, 99);

int main(void)
{
	printk("event log ready\n");
	for (uint32_t i = 1; i <= 3; i++) {
		int err = event_log_record(i);

		if (err) {
			return err;
		}
	}
	printk("events: %zu\n", event_log_count());
	return 0;
}
