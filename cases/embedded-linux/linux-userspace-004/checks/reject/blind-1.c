/* defect: the degrees are printed as milli/1000 and |milli%1000|/100, so readings between -999 and -100 lose their minus sign (-250 prints "0.2" instead of "-0.2").
 * breaks: "`<degrees>` is the reading in degrees Celsius with exactly one decimal, truncated toward zero (not rounded), with a leading `-` when that value is below zero"
 * must_fail: L2, negative_sign_preserved
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_TEMP_FILE "thermal_zone0/temp"
#define TEMP_MIN_MILLI    (-40000L)
#define TEMP_MAX_MILLI    125000L

int main(int argc, char *argv[])
{
	const char *path = (argc > 1) ? argv[1] : DEFAULT_TEMP_FILE;
	char line[128];
	char *end;
	size_t len;
	long milli;
	FILE *fp;

	fp = fopen(path, "r");
	if (fp == NULL) {
		fprintf(stderr, "error: cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}

	if (fgets(line, sizeof(line), fp) == NULL) {
		if (ferror(fp)) {
			fprintf(stderr, "error: cannot read %s: %s\n", path,
				strerror(errno));
		} else {
			fprintf(stderr, "error: %s is empty\n", path);
		}
		fclose(fp);
		return 1;
	}

	len = strlen(line);
	if (len > 0 && line[len - 1] == '\n') {
		line[--len] = '\0';
	} else if (!feof(fp) && fgetc(fp) != EOF) {
		fprintf(stderr, "error: first line of %s is too long\n", path);
		fclose(fp);
		return 1;
	}
	fclose(fp);

	errno = 0;
	milli = strtol(line, &end, 10);
	if (end == line) {
		fprintf(stderr, "error: %s does not hold a number\n", path);
		return 1;
	}
	if (*end != '\0') {
		fprintf(stderr, "error: %s has trailing characters after the number\n",
			path);
		return 1;
	}
	if (errno == ERANGE || milli < TEMP_MIN_MILLI || milli > TEMP_MAX_MILLI) {
		fprintf(stderr, "error: %s: reading out of range (%ld..%ld)\n",
			path, TEMP_MIN_MILLI, TEMP_MAX_MILLI);
		return 1;
	}

	printf("temperature: %ld.%ld C\n", milli / 1000, labs(milli % 1000) / 100);
	return 0;
}
