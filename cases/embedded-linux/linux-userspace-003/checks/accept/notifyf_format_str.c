#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-id128.h>

int main(void)
{
	sd_id128_t boot_id;
	int ret = sd_id128_get_boot(&boot_id);

	if (ret < 0) {
		fprintf(stderr, "configd: no boot id (%s)\n", strerror(-ret));
		return 1;
	}
	printf("configd: boot " SD_ID128_FORMAT_STR "\n", SD_ID128_FORMAT_VAL(boot_id));

	int sent = sd_notifyf(0, "READY=1\nSTATUS=%s", "configd: configured");
	if (sent > 0) {
		puts("configd: readiness reported");
	} else if (sent == 0) {
		puts("configd: no service manager, running standalone");
	} else {
		fprintf(stderr, "configd: sd_notify: %s\n", strerror(-sent));
	}

	(void)sd_notify(0, "STOPPING=1");
	return 0;
}
