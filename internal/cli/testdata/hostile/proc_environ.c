/* Hostile answer: prints every environment it can read through /proc
 * (its parent's, the evaluator's, pid 1's, every process's). */
#include <dirent.h>
#include <stdio.h>
#include <unistd.h>

static void dump(const char *path)
{
	char buf[8192];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	for (size_t i = 0; i < n; i++)
		if (buf[i] == 0)
			buf[i] = ' ';
	buf[n] = 0;
	printf("%s: %s\n", path, buf);
}

int main(void)
{
	char path[64];
	DIR *d = opendir("/proc");
	struct dirent *e;

	snprintf(path, sizeof path, "/proc/%d/environ", (int)getppid());
	dump(path);
	while (d && (e = readdir(d)) != NULL) {
		snprintf(path, sizeof path, "/proc/%.20s/environ", e->d_name);
		dump(path);
	}
	return 0;
}
