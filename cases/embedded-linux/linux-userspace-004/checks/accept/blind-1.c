/*
 * Report the temperature of a thermal zone from its sysfs "temp" attribute.
 *
 * Usage: app [TEMP_FILE]   (default: thermal_zone0/temp, relative to cwd)
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define DEFAULT_TEMP_FILE "thermal_zone0/temp"
#define TEMP_MIN_MILLI    (-40000L)
#define TEMP_MAX_MILLI    125000L

/*
 * Read and validate the first line of 'path'.
 * Returns 0 and stores the reading in *out on success, -1 on any error
 * (a message has then been printed to stderr). Releases every resource it
 * acquires on every path.
 */
static int read_temp_milli(const char *path, long *out)
{
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	char *end;
	long value;
	int ret = -1;

	fp = fopen(path, "r");
	if (fp == NULL) {
		fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
		return -1;
	}

	errno = 0;
	len = getline(&line, &cap, fp);
	if (len < 0) {
		if (ferror(fp)) {
			fprintf(stderr, "%s: read error: %s\n", path,
				strerror(errno ? errno : EIO));
		} else {
			fprintf(stderr, "%s: file is empty\n", path);
		}
		goto out;
	}

	/* Drop the line's newline, if present. */
	if (len > 0 && line[len - 1] == '\n') {
		line[--len] = '\0';
	}

	if (len == 0) {
		fprintf(stderr, "%s: first line is empty, no number\n", path);
		goto out;
	}

	errno = 0;
	value = strtol(line, &end, 10);
	if (end == line) {
		fprintf(stderr, "%s: not a number: '%s'\n", path, line);
		goto out;
	}
	/* Compare against len, not strlen, so an embedded NUL is caught too. */
	if (end != line + len) {
		fprintf(stderr, "%s: unexpected characters after the number\n",
			path);
		goto out;
	}
	if (errno == ERANGE || value < TEMP_MIN_MILLI || value > TEMP_MAX_MILLI) {
		fprintf(stderr, "%s: reading %s out of range [%ld, %ld]\n",
			path, line, TEMP_MIN_MILLI, TEMP_MAX_MILLI);
		goto out;
	}

	*out = value;
	ret = 0;

out:
	free(line);
	if (fclose(fp) != 0 && ret == 0) {
		fprintf(stderr, "%s: close failed: %s\n", path, strerror(errno));
		ret = -1;
	}
	return ret;
}

int main(int argc, char *argv[])
{
	const char *path = (argc > 1) ? argv[1] : DEFAULT_TEMP_FILE;
	long milli;
	long tenths;
	long mag;

	if (read_temp_milli(path, &milli) != 0) {
		return 1;
	}

	/* C integer division truncates toward zero. */
	tenths = milli / 100;
	mag = (tenths < 0) ? -tenths : tenths;

	if (printf("temperature: %s%ld.%ld C\n", (tenths < 0) ? "-" : "",
		   mag / 10, mag % 10) < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "cannot write to standard output\n");
		return 1;
	}

	return 0;
}
