/* Hostile answer: touches memory until something stops it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	size_t total = 0;

	for (;;) {
		char *p = malloc(64u << 20);

		if (!p) {
			printf("malloc failed after %zu MiB\n", total >> 20);
			return 1;
		}
		memset(p, 1, 64u << 20);
		total += 64u << 20;
	}
}
