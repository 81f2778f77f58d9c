/* defect: when the number is followed by other characters the function returns without closing the FILE, leaking a stream and its descriptor on that error path.
 * breaks: "The reading code will later move into a long-running monitoring daemon that polls the sensor every second, so it must not leak anything, on any path."
 * must_fail: file_closed_on_every_path
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_TEMP_FILE "thermal_zone0/temp"
#define TEMP_MIN_MILLI    (-40000L)
#define TEMP_MAX_MILLI    125000L

static int read_temp_milli(const char *path, long *out)
{
	char buf[64];
	char *end;
	size_t len;
	long value;
	FILE *fp;

	fp = fopen(path, "r");
	if (fp == NULL) {
		fprintf(stderr, "%s: open failed: %s\n", path, strerror(errno));
		return -1;
	}

	if (fgets(buf, sizeof(buf), fp) == NULL) {
		int read_err = ferror(fp);

		fclose(fp);
		if (read_err) {
			fprintf(stderr, "%s: read failed: %s\n", path,
				strerror(errno ? errno : EIO));
		} else {
			fprintf(stderr, "%s: empty file\n", path);
		}
		return -1;
	}

	len = strlen(buf);
	if (len > 0 && buf[len - 1] == '\n') {
		buf[--len] = '\0';
	} else if (fgetc(fp) != EOF) {
		fprintf(stderr, "%s: first line too long\n", path);
		fclose(fp);
		return -1;
	}

	errno = 0;
	value = strtol(buf, &end, 10);
	if (end == buf) {
		fprintf(stderr, "%s: no number found\n", path);
		fclose(fp);
		return -1;
	}
	if (*end != '\0') {
		fprintf(stderr, "%s: garbage after number: \"%s\"\n", path, end);
		return -1;
	}
	fclose(fp);

	if (errno == ERANGE || value < TEMP_MIN_MILLI || value > TEMP_MAX_MILLI) {
		fprintf(stderr, "%s: reading %s outside %ld..%ld\n", path, buf,
			TEMP_MIN_MILLI, TEMP_MAX_MILLI);
		return -1;
	}

	*out = value;
	return 0;
}

int main(int argc, char *argv[])
{
	const char *path = argc > 1 ? argv[1] : DEFAULT_TEMP_FILE;
	long milli;
	long tenths;

	if (read_temp_milli(path, &milli) != 0) {
		return 1;
	}

	tenths = milli / 100;
	printf("temperature: %s%ld.%ld C\n", tenths < 0 ? "-" : "",
	       labs(tenths) / 10, labs(tenths) % 10);
	return 0;
}
