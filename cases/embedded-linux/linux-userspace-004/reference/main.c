#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_TEMP_PATH "thermal_zone0/temp"
#define TEMP_MIN_MC       (-40000L)
#define TEMP_MAX_MC       125000L

int main(int argc, char *argv[])
{
	const char *path = (argc > 1) ? argv[1] : DEFAULT_TEMP_PATH;
	char buf[32];
	char *end;
	long mc, tenths;
	FILE *f;

	f = fopen(path, "r");
	if (f == NULL) {
		fprintf(stderr, "thermal: cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}

	if (fgets(buf, sizeof(buf), f) == NULL) {
		if (ferror(f))
			fprintf(stderr, "thermal: cannot read %s: %s\n", path, strerror(errno));
		else
			fprintf(stderr, "thermal: %s is empty\n", path);
		fclose(f);
		return 1;
	}
	fclose(f);

	errno = 0;
	mc = strtol(buf, &end, 10);
	if (end == buf || (*end != '\0' && strcmp(end, "\n") != 0)) {
		fprintf(stderr, "thermal: %s: malformed reading\n", path);
		return 1;
	}
	if (errno == ERANGE || mc < TEMP_MIN_MC || mc > TEMP_MAX_MC) {
		fprintf(stderr, "thermal: %s: reading out of range\n", path);
		return 1;
	}

	tenths = mc / 100;
	printf("temperature: %s%ld.%ld C\n", tenths < 0 ? "-" : "", labs(tenths) / 10, labs(tenths) % 10);
	return 0;
}
