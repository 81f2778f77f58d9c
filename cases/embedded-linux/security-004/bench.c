/* Test bench (not part of the answer): runs ../replayguard on the
 * scenario's standard input, then reports what it left in the directory
 * (the state file's lines and the file names) so that a scenario can judge
 * the saved state. Exits with the program's status (128 + signal when it
 * was killed). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	char prog[4096];
	const char *slash = strrchr(argv[0], '/');
	int len = slash ? (int)(slash - argv[0]) + 1 : 0;
	snprintf(prog, sizeof(prog), "%.*sreplayguard", len, argv[0]);
	(void)argc;

	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("bench: fork");
		return 125;
	}
	if (pid == 0) {
		argv[0] = "replayguard";
		execv(prog, argv);
		perror("bench: exec");
		_exit(126);
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0)
		;
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

	FILE *f = fopen("replay.state", "rb");
	if (f == NULL) {
		printf("# state: missing\n");
	} else {
		char line[256];
		int lines = 0;
		while (fgets(line, sizeof(line), f)) {
			lines++;
			size_t n = strlen(line);
			int nl = n > 0 && line[n - 1] == '\n';
			if (nl)
				line[--n] = '\0';
			printf("# state: %s%s\n", line, nl ? "" : " <no newline>");
		}
		if (lines == 0)
			printf("# state: (empty)\n");
		fclose(f);
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
