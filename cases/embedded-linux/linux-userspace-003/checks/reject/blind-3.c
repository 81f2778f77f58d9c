/* defect: the READY notification is sent with unset_environment=1, which removes NOTIFY_SOCKET so the later STOPPING=1 is silently never delivered.
 * breaks: "Before exiting, tell the service manager that the daemon is shutting down, then exit with status 0."
 * must_fail: stopping_reported_after_ready
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-id128.h>

int main(void)
{
    sd_id128_t boot_id;
    char boot_str[SD_ID128_STRING_MAX];
    int r;

    r = sd_id128_get_boot(&boot_id);
    if (r < 0) {
        fprintf(stderr, "configd: cannot read boot ID: %s\n", strerror(-r));
        return 1;
    }
    printf("configd: boot %s\n", sd_id128_to_string(boot_id, boot_str));
    fflush(stdout);

    r = sd_notify(1, "READY=1\nSTATUS=configd: configured");
    if (r > 0) {
        printf("configd: readiness reported\n");
    } else if (r == 0) {
        printf("configd: no service manager, running standalone\n");
    } else {
        fprintf(stderr, "configd: readiness notification failed: %s\n",
                strerror(-r));
    }
    fflush(stdout);

    r = sd_notify(0, "STOPPING=1");
    if (r < 0)
        fprintf(stderr, "configd: stopping notification failed: %s\n",
                strerror(-r));

    return 0;
}
