/*
 * app [TEMP_FILE]
 *
 * Prints "temperature: <deg> C" for a sysfs thermal-zone temp attribute
 * (millidegrees Celsius). Default file: thermal_zone0/temp (relative to the
 * current working directory). Exit status 0 on a valid reading, 1 otherwise.
 *
 * The first line is parsed strictly: an optional '-' sign, one or more
 * decimal digits, then either the end of file or a newline. Anything after
 * the newline is ignored. Leading blanks and '+' are rejected.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_TEMP_FILE "thermal_zone0/temp"
#define TEMP_MIN_MILLI    (-40000L)
#define TEMP_MAX_MILLI    125000L
/* Magnitudes above this are certainly out of range; stop growing there. */
#define MAG_SATURATE      10000000L

enum read_status {
	RS_OK = 0,
	RS_OPEN_ERR,
	RS_READ_ERR,
	RS_EMPTY,
	RS_NOT_NUMBER,
	RS_TRAILING,
	RS_RANGE,
};

enum parse_state {
	PS_START,     /* nothing seen yet */
	PS_SIGN,      /* '-' seen, digit required */
	PS_DIGITS,    /* at least one digit seen */
	PS_DONE,      /* newline after the number: stop */
};

static enum read_status read_temp(const char *path, long *milli, int *err)
{
	char buf[64];
	enum parse_state st = PS_START;
	enum read_status rs = RS_OK;
	bool negative = false;
	bool got_any = false;
	long mag = 0;
	int fd;

	*err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return RS_OPEN_ERR;
	}

	while (st != PS_DONE && rs == RS_OK) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			*err = errno;
			rs = RS_READ_ERR;
			break;
		}
		if (n == 0) {
			break; /* end of file */
		}
		got_any = true;

		for (ssize_t i = 0; i < n && st != PS_DONE; i++) {
			char c = buf[i];

			if (c >= '0' && c <= '9') {
				if (mag < MAG_SATURATE) {
					mag = mag * 10 + (c - '0');
				}
				st = PS_DIGITS;
			} else if (c == '-' && st == PS_START) {
				negative = true;
				st = PS_SIGN;
			} else if (c == '\n' && st == PS_DIGITS) {
				st = PS_DONE;
			} else if (st == PS_DIGITS) {
				rs = RS_TRAILING;
				break;
			} else {
				rs = RS_NOT_NUMBER;
				break;
			}
		}
	}

	if (close(fd) != 0 && rs == RS_OK) {
		*err = errno;
		rs = RS_READ_ERR;
	}

	if (rs != RS_OK) {
		return rs;
	}
	if (!got_any) {
		return RS_EMPTY;
	}
	if (st != PS_DIGITS && st != PS_DONE) {
		return RS_NOT_NUMBER; /* e.g. a lone "-" */
	}

	*milli = negative ? -mag : mag;
	if (*milli < TEMP_MIN_MILLI || *milli > TEMP_MAX_MILLI) {
		return RS_RANGE;
	}
	return RS_OK;
}

int main(int argc, char **argv)
{
	const char *path = DEFAULT_TEMP_FILE;
	long milli = 0;
	int err = 0;
	enum read_status rs;

	if (argc > 1) {
		path = argv[1];
	}

	rs = read_temp(path, &milli, &err);
	switch (rs) {
	case RS_OK: {
		long tenths = milli / 100; /* truncates toward zero */
		const char *sign = "";

		if (tenths < 0) {
			sign = "-";
			tenths = -tenths;
		}
		printf("temperature: %s%ld.%ld C\n", sign, tenths / 10,
		       tenths % 10);
		if (fflush(stdout) != 0) {
			return 1;
		}
		return 0;
	}
	case RS_OPEN_ERR:
		fprintf(stderr, "error: cannot open %s: %s\n", path,
			strerror(err));
		break;
	case RS_READ_ERR:
		fprintf(stderr, "error: cannot read %s: %s\n", path,
			strerror(err));
		break;
	case RS_EMPTY:
		fprintf(stderr, "error: %s is empty\n", path);
		break;
	case RS_NOT_NUMBER:
		fprintf(stderr, "error: %s does not hold a number\n", path);
		break;
	case RS_TRAILING:
		fprintf(stderr, "error: %s has extra characters after the number\n",
			path);
		break;
	case RS_RANGE:
		if (milli >= MAG_SATURATE || milli <= -MAG_SATURATE) {
			fprintf(stderr,
				"error: %s: reading out of range [%ld, %ld] millidegrees\n",
				path, TEMP_MIN_MILLI, TEMP_MAX_MILLI);
		} else {
			fprintf(stderr,
				"error: %s: reading %ld out of range [%ld, %ld] millidegrees\n",
				path, milli, TEMP_MIN_MILLI, TEMP_MAX_MILLI);
		}
		break;
	}
	return 1;
}
