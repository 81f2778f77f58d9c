#include <stdio.h>
#include <sys/sysinfo.h>

int main(void)
{
	struct sysinfo si;

	if (sysinfo(&si) != 0) {
		perror("sysinfo");
		return 1;
	}
	printf("uptime %ld s, load %.2f %.2f %.2f\n", si.uptime,
	       si.loads[0] / 65536.0, si.loads[1] / 65536.0, si.loads[2] / 65536.0);
	return 0;
}
