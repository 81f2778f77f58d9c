#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char chip_name[] = "gpiochip0";
static const unsigned int led_offset = 17;

/* Advance an absolute CLOCK_MONOTONIC deadline by ms and sleep until it. */
static void sleep_until_next(struct timespec *deadline, long ms)
{
    deadline->tv_nsec += ms * 1000000L;
    while (deadline->tv_nsec >= 1000000000L) {
        deadline->tv_nsec -= 1000000000L;
        deadline->tv_sec++;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, deadline, NULL) == EINTR)
        ;
}

static int blink(struct gpiod_line *line, int times, long half_ms)
{
    struct timespec t;
    int n;

    clock_gettime(CLOCK_MONOTONIC, &t);
    for (n = 0; n < times; n++) {
        if (gpiod_line_set_value(line, 1) < 0)
            return -1;
        sleep_until_next(&t, half_ms);
        if (gpiod_line_set_value(line, 0) < 0)
            return -1;
        sleep_until_next(&t, half_ms);
    }
    return 0;
}

int main(void)
{
    struct gpiod_line_request_config cfg = {
        .consumer = "status-led",
        .request_type = GPIOD_LINE_REQUEST_DIRECTION_OUTPUT,
        .flags = 0,
    };
    struct gpiod_chip *chip = NULL;
    struct gpiod_line *line = NULL;
    int requested = 0;
    int status = 1;

    chip = gpiod_chip_open_by_name(chip_name);
    if (chip == NULL) {
        int err = errno;

        if (err == ENOENT) {
            puts("status-led: gpiochip0 not present, skipping");
            return 0;
        }
        fprintf(stderr, "status-led: cannot open %s: %s\n", chip_name, strerror(err));
        return 1;
    }

    line = gpiod_chip_get_line(chip, led_offset);
    if (line == NULL) {
        fprintf(stderr, "status-led: cannot get line %u on %s: %s\n",
                led_offset, chip_name, strerror(errno));
        goto out;
    }

    /* default value 0: the LED is off the moment the line becomes an output */
    if (gpiod_line_request(line, &cfg, 0) != 0) {
        fprintf(stderr, "status-led: cannot request line %u on %s as output: %s\n",
                led_offset, chip_name, strerror(errno));
        goto out;
    }
    requested = 1;

    if (blink(line, 3, 200) != 0) {
        fprintf(stderr, "status-led: cannot set line %u value: %s\n",
                led_offset, strerror(errno));
        gpiod_line_set_value(line, 0);
        goto out;
    }

    status = 0;

out:
    if (requested)
        gpiod_line_release(line);
    gpiod_chip_close(chip);

    if (status == 0)
        puts("status-led: blinked 3 times");
    return status;
}
