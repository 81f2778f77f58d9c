// Linux userspace fixture: reports the libgpiod version and runs an sd-event
// loop whose one-shot monotonic timer ends the loop after 20 ms. Needs no
// GPIO chip and no running systemd.
#include <gpiod.h>
#include <stdint.h>
#include <stdio.h>
#include <systemd/sd-event.h>

static int on_timer(sd_event_source *source, uint64_t usec, void *userdata)
{
	(void)usec;
	(void)userdata;
	printf("timer fired\n");
	return sd_event_exit(sd_event_source_get_event(source), 0);
}

int main(void)
{
	sd_event *event = NULL;
	uint64_t now;
	int ret;

	printf("libgpiod %s\n", gpiod_version_string());

	ret = sd_event_default(&event);
	if (ret < 0) {
		fprintf(stderr, "sd_event_default: %d\n", ret);
		return 1;
	}
	ret = sd_event_now(event, CLOCK_MONOTONIC, &now);
	if (ret >= 0)
		ret = sd_event_add_time(event, NULL, CLOCK_MONOTONIC, now + 20000, 1, on_timer, NULL);
	if (ret >= 0)
		ret = sd_event_loop(event);
	sd_event_unref(event);
	if (ret < 0) {
		fprintf(stderr, "event loop: %d\n", ret);
		return 1;
	}
	printf("event loop done\n");
	return 0;
}
