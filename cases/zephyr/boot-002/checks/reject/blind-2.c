/* defect: The ring index wraps only after exceeding the capacity, so the 33rd event is written to event_buf[32], one past the end of the 32-entry heap block.
 * breaks: "The event log keeps the last 32 events; an event is a `uint32_t` code plus the `k_uptime_get_32()` timestamp at which it was recorded."
 * must_fail: ring_keeps_last_32
 */
/*
 * Event-log subsystem brought up by SYS_INIT before main().
 *
 * The log is a ring of the last EVENT_LOG_CAPACITY events whose storage
 * comes from the kernel heap (k_malloc). It is initialised at the
 * APPLICATION level with a priority numerically greater than
 * CONFIG_APPLICATION_INIT_PRIORITY (90 by default), i.e. after the
 * default-priority application hooks.
 */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/init.h>
#include <zephyr/sys/printk.h>

#define EVENT_LOG_CAPACITY 32U

/* SYS_INIT needs a plain integer literal (0..99) as priority. */
#define EVENT_LOG_INIT_PRIO 95

struct event_log_entry {
	uint32_t code;
	uint32_t timestamp_ms;
};

static struct event_log_entry *event_buf;
static size_t event_head;  /* next slot to write */
static size_t event_count; /* number of valid entries */
static struct k_mutex event_lock;

int event_log_record(uint32_t code)
{
	int err;

	if (event_buf == NULL) {
		return -ENODEV;
	}

	err = k_mutex_lock(&event_lock, K_FOREVER);
	if (err != 0) {
		return err;
	}

	event_buf[event_head].code = code;
	event_buf[event_head].timestamp_ms = k_uptime_get_32();

	event_head++;
	if (event_head > EVENT_LOG_CAPACITY) {
		event_head = 0U;
	}
	if (event_count < EVENT_LOG_CAPACITY) {
		event_count++;
	}

	k_mutex_unlock(&event_lock);
	return 0;
}

size_t event_log_count(void)
{
	size_t n;

	if (event_buf == NULL) {
		return 0;
	}

	k_mutex_lock(&event_lock, K_FOREVER);
	n = event_count;
	k_mutex_unlock(&event_lock);

	return n;
}

static int event_log_init(void)
{
	int err;

	err = k_mutex_init(&event_lock);
	if (err != 0) {
		return err;
	}

	event_buf = k_malloc(EVENT_LOG_CAPACITY * sizeof(*event_buf));
	if (event_buf == NULL) {
		return -ENOMEM;
	}

	event_head = 0U;
	event_count = 0U;

	return 0;
}

SYS_INIT(event_log_init, APPLICATION, EVENT_LOG_INIT_PRIO);

int main(void)
{
	int err;

	printk("event log ready\n");

	for (uint32_t code = 1U; code <= 3U; code++) {
		err = event_log_record(code);
		if (err != 0) {
			printk("recording event %u failed (%d)\n", code, err);
		}
	}

	printk("events: %u\n", (unsigned int)event_log_count());

	return 0;
}
