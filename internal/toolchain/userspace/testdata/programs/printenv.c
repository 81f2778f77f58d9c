// Prints its whole environment, one variable per line, and writes the same
// to env.txt in its working directory for the test to read.
#include <stdio.h>

extern char **environ;

int main(void)
{
	FILE *f = fopen("env.txt", "w");

	if (f == NULL)
		return 1;
	for (char **e = environ; *e != NULL; e++) {
		printf("%s\n", *e);
		fprintf(f, "%s\n", *e);
	}
	return fclose(f) == 0 ? 0 : 1;
}
