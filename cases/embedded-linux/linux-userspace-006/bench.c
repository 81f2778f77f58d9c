/* Test bench (not part of the answer): runs ../gpiocfg with the scenario's
 * arguments and standard input, with at most 8 open file descriptors, then
 * reports every file under gpio/ (contents with \n shown as "\n") and the
 * list of files. Exits with gpiocfg's status (128 + signal if killed). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *paths[512];
static int npaths;

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL && npaths < 500) {
		char p[1024];
		struct stat sb;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (lstat(p, &sb) < 0)
			continue;
		if (S_ISDIR(sb.st_mode))
			walk(p);
		else
			paths[npaths++] = strdup(p);
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	char prog[4096];
	const char *slash = strrchr(argv[0], '/');
	int len = slash ? (int)(slash - argv[0]) + 1 : 0;

	snprintf(prog, sizeof(prog), "%.*sgpiocfg", len, argv[0]);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("bench: fork");
		return 125;
	}
	if (pid == 0) {
		struct rlimit rl = { 8, 8 };

		setrlimit(RLIMIT_NOFILE, &rl);
		argv[0] = "gpiocfg";
		execv(prog, argv);
		perror("bench: exec");
		_exit(126);
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0)
		;
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

	walk("gpio");
	qsort(paths, (size_t)npaths, sizeof(paths[0]), cmp);
	for (int i = 0; i < npaths; i++) {
		FILE *f = fopen(paths[i], "rb");
		int ch, n = 0;

		printf("# %s:", paths[i]);
		if (f == NULL) {
			printf(" <unreadable>\n");
			continue;
		}
		putchar(' ');
		while ((ch = getc(f)) != EOF && n++ < 400) {
			if (ch == '\n')
				fputs("\\n", stdout);
			else if (ch < 32 || ch > 126)
				printf("\\x%02x", ch);
			else
				putchar(ch);
		}
		putchar('\n');
		fclose(f);
	}
	printf("# files:");
	for (int i = 0; i < npaths; i++)
		printf(" %s", paths[i]);
	printf("\n");
	return rc;
}
