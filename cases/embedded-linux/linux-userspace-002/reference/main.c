#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define LED_CHIP   "gpiochip0"
#define LED_OFFSET 17
#define CONSUMER   "status-led"
#define BLINKS     3

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
	}
}

int main(void)
{
	struct gpiod_chip *chip;
	struct gpiod_line *line;
	int ret = 1;

	chip = gpiod_chip_open_by_name(LED_CHIP);
	if (chip == NULL) {
		if (errno == ENOENT) {
			printf("status-led: %s not present, skipping\n", LED_CHIP);
			return 0;
		}
		fprintf(stderr, "status-led: cannot open %s: %s\n", LED_CHIP, strerror(errno));
		return 1;
	}

	line = gpiod_chip_get_line(chip, LED_OFFSET);
	if (line == NULL) {
		fprintf(stderr, "status-led: no line %d on %s: %s\n", LED_OFFSET, LED_CHIP, strerror(errno));
		goto close_chip;
	}

	if (gpiod_line_request_output(line, CONSUMER, 0) < 0) {
		fprintf(stderr, "status-led: cannot request line %d: %s\n", LED_OFFSET, strerror(errno));
		goto close_chip;
	}

	for (int i = 0; i < BLINKS; i++) {
		if (gpiod_line_set_value(line, 1) < 0 || (sleep_ms(200), gpiod_line_set_value(line, 0)) < 0) {
			fprintf(stderr, "status-led: cannot drive line %d: %s\n", LED_OFFSET, strerror(errno));
			goto release_line;
		}
		sleep_ms(200);
	}
	printf("status-led: blinked %d times\n", BLINKS);
	ret = 0;

release_line:
	gpiod_line_release(line);
close_chip:
	gpiod_chip_close(chip);
	return ret;
}
