/* configd: reports readiness to systemd, and also runs without it. */
#include <errno.h>
#include <stdio.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-id128.h>

static void log_errno(const char *what, int negative_errno)
{
	errno = -negative_errno;
	fprintf(stderr, "configd: %s: %m\n", what);
}

static int show_boot_id(void)
{
	sd_id128_t machine_boot;
	char hex[SD_ID128_STRING_MAX];
	int rc = sd_id128_get_boot(&machine_boot);

	if (rc < 0) {
		log_errno("boot ID unavailable", rc);
		return -1;
	}
	sd_id128_to_string(machine_boot, hex);
	fputs("configd: boot ", stdout);
	puts(hex);
	return 0;
}

static void announce_ready(void)
{
	int delivered = sd_pid_notify(0, 0, "READY=1\n"
					    "STATUS=configd: configured");

	if (delivered == 0) {
		puts("configd: no service manager, running standalone");
		return;
	}
	if (delivered > 0) {
		puts("configd: readiness reported");
		return;
	}
	log_errno("READY notification failed", delivered);
}

static void announce_stopping(void)
{
	int rc = sd_pid_notify(0, 0, "STOPPING=1");

	if (rc < 0)
		log_errno("STOPPING notification failed", rc);
}

int main(void)
{
	if (show_boot_id() != 0)
		return 1;

	announce_ready();
	fflush(stdout);
	announce_stopping();
	return 0;
}
