#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-id128.h>

#define STATUS_TEXT "configd: configured"

static int print_boot_id(void)
{
    sd_id128_t id;
    int r = sd_id128_get_boot(&id);

    if (r < 0) {
        errno = -r;
        perror("configd: cannot obtain boot ID");
        return r;
    }
    printf("configd: boot " SD_ID128_FORMAT_STR "\n", SD_ID128_FORMAT_VAL(id));
    return 0;
}

static void report_ready(void)
{
    int r = sd_notifyf(0, "READY=1\nSTATUS=%s", STATUS_TEXT);

    switch (r) {
    case 0:
        puts("configd: no service manager, running standalone");
        break;
    default:
        if (r > 0) {
            puts("configd: readiness reported");
        } else {
            fprintf(stderr, "configd: sd_notify(READY=1) failed: %s\n",
                    strerror(-r));
        }
        break;
    }
    fflush(stdout);
}

static void report_stopping(void)
{
    int r = sd_notify(0, "STOPPING=1");

    if (r < 0)
        fprintf(stderr, "configd: sd_notify(STOPPING=1) failed: %s\n",
                strerror(-r));
}

int main(void)
{
    if (print_boot_id() < 0)
        exit(EXIT_FAILURE);
    fflush(stdout);

    report_ready();

    report_stopping();
    exit(EXIT_SUCCESS);
}
