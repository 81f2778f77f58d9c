/* defect: the value is parsed with sscanf("%ld"), which stops at the first non-digit and never checks what follows, so "48250abc" or "48250 x" is accepted as a valid reading.
 * breaks: "It must hold a decimal integer, and nothing may follow the number except the line's newline (which may be missing)."
 * must_fail: scenario_trailing_garbage_fails, end_pointer_validated
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_TEMP_FILE "thermal_zone0/temp"
#define TEMP_MIN_MILLI    (-40000L)
#define TEMP_MAX_MILLI    125000L

int main(int argc, char *argv[])
{
	const char *path = DEFAULT_TEMP_FILE;
	char line[64];
	long milli;
	long tenths;
	FILE *fp;
	int rc = 1;

	if (argc > 1) {
		path = argv[1];
	}

	fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}

	if (!fgets(line, sizeof(line), fp)) {
		if (ferror(fp)) {
			fprintf(stderr, "cannot read %s: %s\n", path, strerror(errno));
		} else {
			fprintf(stderr, "%s is empty\n", path);
		}
		goto out;
	}

	if (sscanf(line, "%ld", &milli) != 1) {
		fprintf(stderr, "%s does not contain a number\n", path);
		goto out;
	}

	if (milli < TEMP_MIN_MILLI || milli > TEMP_MAX_MILLI) {
		fprintf(stderr, "%s: %ld millidegrees is out of range\n", path,
			milli);
		goto out;
	}

	tenths = milli / 100;
	if (tenths < 0) {
		printf("temperature: -%ld.%ld C\n", -tenths / 10, -tenths % 10);
	} else {
		printf("temperature: %ld.%ld C\n", tenths / 10, tenths % 10);
	}
	rc = 0;

out:
	fclose(fp);
	return rc;
}
