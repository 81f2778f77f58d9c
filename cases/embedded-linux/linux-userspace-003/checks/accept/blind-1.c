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
    if (r > 0) {
        printf("configd: readiness reported\n");
    } else if (r == 0) {
        printf("configd: no service manager, running standalone\n");
    } else {
        fprintf(stderr, "configd: failed to notify service manager: %s\n",
                strerror(-r));
    }
    fflush(stdout);

    r = sd_notify(0, "STOPPING=1");
    if (r < 0) {
        fprintf(stderr, "configd: failed to report shutdown: %s\n",
                strerror(-r));
    }

    return 0;
}
