/* Firmware that prints the expected lines but exits with status 3. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	printf("tick ok\nelapsed 100 ms\n");
	exit(3);
}
