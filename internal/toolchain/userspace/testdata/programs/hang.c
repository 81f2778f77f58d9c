// Forks a child that sleeps forever, records the child's pid in child.pid
// (in the working directory) and then waits forever itself: the run timeout
// must stop both.
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	pid_t child = fork();
	FILE *f;

	if (child == 0) {
		for (;;)
			pause();
	}
	f = fopen("child.pid", "w");
	if (f == NULL)
		return 1;
	fprintf(f, "%d\n", (int)child);
	fclose(f);
	for (;;)
		pause();
}
