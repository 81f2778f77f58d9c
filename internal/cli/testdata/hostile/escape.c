/* Hostile answer: leaves its process group and session (setsid) through a
 * double fork, names itself @NAME@ and lives on, trying to outlast the run. */
#include <sys/prctl.h>
#include <unistd.h>

int main(void)
{
	if (fork() == 0) {
		setsid();
		if (fork() == 0) {
			prctl(PR_SET_NAME, "@NAME@", 0, 0, 0);
			for (;;)
				sleep(1);
		}
		_exit(0);
	}
	usleep(100000);
	return 0;
}
