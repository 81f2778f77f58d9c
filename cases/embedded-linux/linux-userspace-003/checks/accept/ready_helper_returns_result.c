#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-id128.h>

/* Sends READY=1 with the status text; returns sd_notify()'s result. */
static int tell_manager_ready(void)
{
	return sd_notify(0, "READY=1\nSTATUS=configd: configured");
}

int main(void)
{
	sd_id128_t current;
	int outcome;

	if (sd_id128_get_boot(&current) < 0) {
		fputs("configd: boot ID cannot be obtained\n", stderr);
		exit(EXIT_FAILURE);
	}
	printf("configd: boot %s\n", SD_ID128_TO_STRING(current));

	outcome = tell_manager_ready();
	switch (outcome > 0 ? 1 : outcome == 0 ? 0 : -1) {
	case 1:
		printf("configd: readiness reported\n");
		break;
	case 0:
		printf("configd: no service manager, running standalone\n");
		break;
	default:
		fprintf(stderr, "configd: could not report readiness: %s\n", strerror(-outcome));
		break;
	}
	fflush(stdout);

	if (sd_notify(0, "STOPPING=1") < 0)
		fputs("configd: could not report shutdown\n", stderr);
	exit(EXIT_SUCCESS);
}
