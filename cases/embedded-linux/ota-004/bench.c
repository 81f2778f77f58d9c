/* Test bench (not part of the answer): runs ../abupd with the scenario's
 * arguments, then reports the state of the stand-in flash files so that a
 * scenario can judge what the command left behind. Exits with the agent's
 * status (128 + signal when it was killed). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static uint32_t crc32(FILE *f, long *size)
{
	uint32_t c = 0xFFFFFFFFu;
	int ch;
	*size = 0;
	while ((ch = getc(f)) != EOF) {
		c ^= (uint32_t)ch;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
		(*size)++;
	}
	return c ^ 0xFFFFFFFFu;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	char agent[4096];
	const char *slash = strrchr(argv[0], '/');
	int len = slash ? (int)(slash - argv[0]) + 1 : 0;
	snprintf(agent, sizeof(agent), "%.*sabupd", len, argv[0]);

	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("bench: fork");
		return 125;
	}
	if (pid == 0) {
		argv[0] = "abupd";
		execv(agent, argv);
		perror("bench: exec");
		_exit(126);
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0)
		;
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

	FILE *f = fopen("bootctl", "rb");
	if (f == NULL) {
		printf("# bootctl: missing\n");
	} else {
		char line[512];
		while (fgets(line, sizeof(line), f)) {
			size_t n = strlen(line);
			int nl = n > 0 && line[n - 1] == '\n';
			if (nl)
				line[--n] = '\0';
			printf("# bootctl: %s%s\n", line, nl ? "" : " <no newline>");
		}
		fclose(f);
	}
	const char *slots[] = { "slot_a.img", "slot_b.img" };
	for (int i = 0; i < 2; i++) {
		struct stat sb;
		if (stat(slots[i], &sb) < 0) {
			printf("# %s: missing\n", slots[i]);
		} else if (!S_ISREG(sb.st_mode)) {
			printf("# %s: not a file\n", slots[i]);
		} else if ((f = fopen(slots[i], "rb")) != NULL) {
			long size;
			uint32_t c = crc32(f, &size);
			fclose(f);
			printf("# %s: %ld bytes crc32 %08x\n", slots[i], size, (unsigned)c);
		}
	}
	DIR *d = opendir(".");
	char *names[256];
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL && n < 256)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			names[n++] = strdup(e->d_name);
	if (d)
		closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), cmp);
	printf("# files:");
	for (int i = 0; i < n; i++)
		printf(" %s", names[i]);
	printf("\n");
	return rc;
}
