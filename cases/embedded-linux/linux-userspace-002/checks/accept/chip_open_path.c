#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const chip_path = "/dev/gpiochip0";
static const unsigned int led = 17;

static int blink(struct gpiod_line *l)
{
	for (int n = 0; n < 3; n++) {
		if (gpiod_line_set_value(l, 1) != 0) {
			return -1;
		}
		usleep(200000);
		if (gpiod_line_set_value(l, 0) != 0) {
			return -1;
		}
		usleep(200000);
	}
	return 0;
}

int main(void)
{
	struct gpiod_chip *chip = gpiod_chip_open(chip_path);
	if (!chip) {
		switch (errno) {
		case ENOENT:
			puts("status-led: gpiochip0 not present, skipping");
			return EXIT_SUCCESS;
		default:
			perror("status-led: gpiod_chip_open");
			return EXIT_FAILURE;
		}
	}

	struct gpiod_line *l = gpiod_chip_get_line(chip, led);
	if (!l) {
		perror("status-led: gpiod_chip_get_line");
		gpiod_chip_close(chip);
		return EXIT_FAILURE;
	}
	if (gpiod_line_request_output(l, "status-led", 0) != 0) {
		perror("status-led: gpiod_line_request_output");
		gpiod_chip_close(chip);
		return EXIT_FAILURE;
	}

	int rc = blink(l);
	if (rc == 0) {
		puts("status-led: blinked 3 times");
	} else {
		perror("status-led: gpiod_line_set_value");
	}
	gpiod_line_release(l);
	gpiod_chip_close(chip);
	return rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
