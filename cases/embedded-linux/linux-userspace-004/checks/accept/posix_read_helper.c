#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#define ZONE_TEMP "thermal_zone0/temp"

enum { LIMIT_LOW = -40000, LIMIT_HIGH = 125000 };

/* Reads the first line of a sysfs temp attribute into *out (millidegrees). */
static int read_millideg(const char *file, long long *out)
{
	char text[24];
	char *stop;
	ssize_t got;
	long long value;
	int rc = -1;
	int fd;

	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: open failed: %s\n", file, strerror(errno));
		return -1;
	}

	do {
		got = read(fd, text, sizeof(text) - 1);
	} while (got < 0 && errno == EINTR);
	if (got < 0) {
		fprintf(stderr, "%s: read failed: %s\n", file, strerror(errno));
		goto out;
	}
	if (got == 0) {
		fprintf(stderr, "%s: no data\n", file);
		goto out;
	}
	text[got] = '\0';
	text[strcspn(text, "\n")] = '\0';

	value = strtoll(text, &stop, 10);
	if (stop == text || *stop != '\0') {
		fprintf(stderr, "%s: '%s' is not an integer\n", file, text);
		goto out;
	}
	if (!(value >= LIMIT_LOW && value <= LIMIT_HIGH)) {
		fprintf(stderr, "%s: %s is outside %d..%d\n", file, text, LIMIT_LOW, LIMIT_HIGH);
		goto out;
	}
	*out = value;
	rc = 0;
out:
	close(fd);
	return rc;
}

int main(int argc, char **argv)
{
	const char *file = ZONE_TEMP;
	long long mdeg, deci;
	const char *sign = "";

	if (argc >= 2)
		file = argv[1];

	if (read_millideg(file, &mdeg) != 0)
		return EXIT_FAILURE;

	deci = mdeg / 100;
	if (deci < 0) {
		sign = "-";
		deci = -deci;
	}
	printf("temperature: %s%lld.%lld C\n", sign, deci / 10, deci % 10);
	return EXIT_SUCCESS;
}
