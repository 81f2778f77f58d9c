/* defect: the sd_notify result is misread as negative meaning "no service manager", so standalone runs (return 0) print "readiness reported" and real errors are never sent to stderr.
 * breaks: "When no service manager is listening, print exactly `configd: no service manager, running standalone` to standard output and carry on; when the notification was delivered, print `configd: readiness reported`."
 * must_fail: L2, notify_result_distinguishes_standalone, scenario_standalone_without_manager
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
        fprintf(stderr, "configd: failed to get boot ID: %s\n", strerror(-r));
        return 1;
    }
    sd_id128_to_string(boot_id, boot_str);
    printf("configd: boot %s\n", boot_str);
    fflush(stdout);

    r = sd_notify(0, "READY=1\nSTATUS=configd: configured");
    if (r < 0)
        printf("configd: no service manager, running standalone\n");
    else
        printf("configd: readiness reported\n");
    fflush(stdout);

    r = sd_notify(0, "STOPPING=1");
    if (r < 0) {
        fprintf(stderr, "configd: failed to report shutdown: %s\n",
                strerror(-r));
    }

    return 0;
}
