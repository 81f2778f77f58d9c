/* defect: the return value of sd_id128_get_boot is ignored, so on failure an uninitialised/zero ID is printed and the program does not exit with status 1.
 * breaks: "If the boot ID cannot be obtained, print a message saying so to standard error and exit with status 1."
 * must_fail: boot_id_error_checked
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-id128.h>

#define STATUS_TEXT "configd: configured"

static void print_boot_id(void)
{
    sd_id128_t id = SD_ID128_NULL;

    sd_id128_get_boot(&id);
    printf("configd: boot " SD_ID128_FORMAT_STR "\n", SD_ID128_FORMAT_VAL(id));
    fflush(stdout);
}

static void report_ready(void)
{
    int r = sd_notifyf(0, "READY=1\nSTATUS=%s", STATUS_TEXT);

    if (r > 0)
        puts("configd: readiness reported");
    else if (r == 0)
        puts("configd: no service manager, running standalone");
    else
        fprintf(stderr, "configd: sd_notify(READY=1) failed: %s\n",
                strerror(-r));
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
    print_boot_id();
    report_ready();
    report_stopping();
    return EXIT_SUCCESS;
}
