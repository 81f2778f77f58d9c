/* Hostile answer: writes a 1 GiB file into its working directory. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	static char buf[1 << 20];
	FILE *f = fopen("big.bin", "w");

	signal(SIGXFSZ, SIG_IGN);
	memset(buf, 'a', sizeof buf);
	for (int i = 0; f && i < 1024; i++) {
		if (fwrite(buf, 1, sizeof buf, f) != sizeof buf || fflush(f) != 0) {
			printf("write refused at %d MiB\n", i);
			break;
		}
	}
	return 0;
}
