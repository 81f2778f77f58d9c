// Prints the expected lines and exits with status 2.
#include <stdio.h>

int main(void)
{
	printf("libgpiod x\ntimer fired\nevent loop done\n");
	return 2;
}
