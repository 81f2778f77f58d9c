/* Hostile answer: reads host files (the evaluator's home, the repository)
 * and writes outside its workspace. @SECRET_FILE@, @REPO_FILE@ and
 * @DROP_DIR@ are filled in by the test. */
#include <stdio.h>

static void dump(const char *path)
{
	char buf[4096];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		printf("denied %s\n", path);
		return;
	}
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	printf("read %s: %s\n", path, buf);
}

int main(void)
{
	FILE *f;

	dump("@SECRET_FILE@");
	dump("@REPO_FILE@");
	f = fopen("@DROP_DIR@/dropped.txt", "w");
	if (f) {
		fputs("pwned\n", f);
		fclose(f);
	}
	return 0;
}
