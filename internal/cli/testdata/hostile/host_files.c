/* Hostile answer: reads host files (the evaluator's home, the repository)
 * and writes outside its workspace. @SECRET_FILE@, @HOME_FILE@ (a
 * credential file in the evaluator's $HOME), @REPO_FILE@ and @DROP_DIR@ are
 * filled in by the test. It exits with status 42 when it read or wrote
 * anything, 7 when every attempt was refused. */
#include <stdio.h>

static int reached;

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
	reached = 1;
	printf("read %s: %s\n", path, buf);
}

int main(void)
{
	FILE *f;

	dump("@SECRET_FILE@");
	dump("@HOME_FILE@");
	dump("@REPO_FILE@");
	f = fopen("@DROP_DIR@/dropped.txt", "w");
	if (f) {
		fputs("pwned\n", f);
		fclose(f);
		reached = 1;
	}
	return reached ? 42 : 7;
}
