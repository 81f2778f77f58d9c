/* defect: sleep_ms() converts milliseconds to nanoseconds with a factor of 1000 instead of 1000000, so each phase lasts 200 us, not 200 ms.
 * breaks: "Blink the LED 3 times (200 ms on, 200 ms off), leave it off, print `status-led: blinked 3 times` and exit with status 0."
 * must_fail: blink_half_periods_200ms
 */
#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHIP_NAME    "gpiochip0"
#define LED_OFFSET   17u
#define CONSUMER     "status-led"
#define BLINK_COUNT  3
#define HALF_PERIOD_MS 200L

static void sleep_ms(long ms)
{
    struct timespec req = { .tv_sec = ms / 1000L, .tv_nsec = (ms % 1000L) * 1000L };
    struct timespec rem;

    while (nanosleep(&req, &rem) != 0 && errno == EINTR)
        req = rem;
}

int main(void)
{
    struct gpiod_chip *chip;
    struct gpiod_line *line;
    int i;

    chip = gpiod_chip_open_by_name(CHIP_NAME);
    if (!chip) {
        if (errno == ENOENT) {
            printf("status-led: " CHIP_NAME " not present, skipping\n");
            return EXIT_SUCCESS;
        }
        fprintf(stderr, "status-led: failed to open %s: %s\n",
                CHIP_NAME, strerror(errno));
        return EXIT_FAILURE;
    }

    line = gpiod_chip_get_line(chip, LED_OFFSET);
    if (!line) {
        fprintf(stderr, "status-led: failed to get line %u of %s: %s\n",
                LED_OFFSET, CHIP_NAME, strerror(errno));
        gpiod_chip_close(chip);
        return EXIT_FAILURE;
    }

    if (gpiod_line_request_output(line, CONSUMER, 0) < 0) {
        fprintf(stderr, "status-led: failed to request line %u as output: %s\n",
                LED_OFFSET, strerror(errno));
        gpiod_chip_close(chip);
        return EXIT_FAILURE;
    }

    for (i = 0; i < BLINK_COUNT; i++) {
        if (gpiod_line_set_value(line, 1) < 0) {
            fprintf(stderr, "status-led: failed to turn LED on: %s\n",
                    strerror(errno));
            goto fail;
        }
        sleep_ms(HALF_PERIOD_MS);

        if (gpiod_line_set_value(line, 0) < 0) {
            fprintf(stderr, "status-led: failed to turn LED off: %s\n",
                    strerror(errno));
            goto fail;
        }
        sleep_ms(HALF_PERIOD_MS);
    }

    gpiod_line_release(line);
    gpiod_chip_close(chip);

    printf("status-led: blinked %d times\n", BLINK_COUNT);
    return EXIT_SUCCESS;

fail:
    gpiod_line_set_value(line, 0);
    gpiod_line_release(line);
    gpiod_chip_close(chip);
    return EXIT_FAILURE;
}
