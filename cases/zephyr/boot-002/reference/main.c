#include <errno.h>
#include <zephyr/kernel.h>
#include <zephyr/init.h>
#include <zephyr/sys/printk.h>

#define EVENT_LOG_CAPACITY 32
#define EVENT_LOG_INIT_PRIORITY 95

struct event {
	uint32_t code;
	uint32_t timestamp;
};

static struct event *events;
static size_t head;
static size_t count;
static K_MUTEX_DEFINE(event_lock);

static int event_log_init(void)
{
	events = k_calloc(EVENT_LOG_CAPACITY, sizeof(*events));
	if (events == NULL) {
		return -ENOMEM;
	}

	head = 0;
	count = 0;
	return 0;
}

SYS_INIT(event_log_init, APPLICATION, EVENT_LOG_INIT_PRIORITY);

int event_log_record(uint32_t code)
{
	if (events == NULL) {
		return -ENODEV;
	}

	k_mutex_lock(&event_lock, K_FOREVER);
	events[head].code = code;
	events[head].timestamp = k_uptime_get_32();
	head = (head + 1) % EVENT_LOG_CAPACITY;
	if (count < EVENT_LOG_CAPACITY) {
		count++;
	}
	k_mutex_unlock(&event_lock);
	return 0;
}

size_t event_log_count(void)
{
	size_t n;

	k_mutex_lock(&event_lock, K_FOREVER);
	n = count;
	k_mutex_unlock(&event_lock);
	return n;
}

int main(void)
{
	int ret;

	printk("event log ready\n");

	for (uint32_t code = 1; code <= 3; code++) {
		ret = event_log_record(code);
		if (ret < 0) {
			printk("record failed: %d\n", ret);
			return ret;
		}
	}

	printk("events: %u\n", (unsigned int)event_log_count());
	return 0;
}
