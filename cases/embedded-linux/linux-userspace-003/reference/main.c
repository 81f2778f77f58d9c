#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-id128.h>

int main(void)
{
	char boot[SD_ID128_STRING_MAX];
	sd_id128_t id;
	int r;

	r = sd_id128_get_boot(&id);
	if (r < 0) {
		fprintf(stderr, "configd: cannot read boot ID: %s\n", strerror(-r));
		return EXIT_FAILURE;
	}
	printf("configd: boot %s\n", sd_id128_to_string(id, boot));

	r = sd_notify(0, "READY=1\nSTATUS=configd: configured");
	if (r < 0)
		fprintf(stderr, "configd: readiness notification failed: %s\n", strerror(-r));
	else if (r == 0)
		printf("configd: no service manager, running standalone\n");
	else
		printf("configd: readiness reported\n");
	fflush(stdout);

	r = sd_notify(0, "STOPPING=1");
	if (r < 0)
		fprintf(stderr, "configd: stopping notification failed: %s\n", strerror(-r));
	return EXIT_SUCCESS;
}
