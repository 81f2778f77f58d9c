// Prints the expected lines, then dereferences a null pointer.
#include <stdio.h>

int main(void)
{
	volatile int *p = NULL;

	printf("libgpiod x\ntimer fired\nevent loop done\n");
	fflush(stdout);
	return *p;
}
