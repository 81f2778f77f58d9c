// Forks a child that appends a byte to alive.log (in the working directory)
// every 20 ms, forever, and then waits forever itself: the run timeout must
// stop both (the test sees alive.log stop growing). The pid a jailed program
// sees is its PID namespace's, not the host's, so the file is the evidence.
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	pid_t child = fork();

	if (child == 0) {
		for (;;) {
			int fd = open("alive.log", O_WRONLY | O_CREAT | O_APPEND, 0644);

			if (fd >= 0) {
				(void)write(fd, "x", 1);
				close(fd);
			}
			usleep(20000);
		}
	}
	for (;;)
		pause();
}
