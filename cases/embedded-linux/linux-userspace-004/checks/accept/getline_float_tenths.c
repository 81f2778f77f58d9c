#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char default_path[] = "thermal_zone0/temp";

int main(int argc, char *argv[])
{
	const char *src = argc > 1 ? argv[1] : default_path;
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	char *tail;
	long reading;
	int status = EXIT_FAILURE;

	if ((fp = fopen(src, "re")) == NULL) {
		perror(src);
		return EXIT_FAILURE;
	}

	errno = 0;
	len = getline(&line, &cap, fp);
	if (len < 0) {
		if (errno != 0)
			fprintf(stderr, "%s: read error: %s\n", src, strerror(errno));
		else
			fprintf(stderr, "%s: file is empty\n", src);
		goto done;
	}
	if (len > 0 && line[len - 1] == '\n')
		line[len - 1] = '\0';

	errno = 0;
	reading = strtol(line, &tail, 10);
	if (tail == line || *tail != '\0') {
		fprintf(stderr, "%s: invalid content \"%s\"\n", src, line);
		goto done;
	}
	if (errno == ERANGE || reading > 125000 || reading < -40000) {
		fprintf(stderr, "%s: %s millidegrees out of range\n", src, line);
		goto done;
	}

	printf("temperature: %.1f C\n", (double)(reading / 100) / 10.0);
	status = EXIT_SUCCESS;
done:
	free(line);
	fclose(fp);
	return status;
}
