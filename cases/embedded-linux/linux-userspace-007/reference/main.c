/* superv: restarts one service with exponential backoff, stops it on SIGTERM. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HEALTHY_MS 300
#define GIVE_UP 6
#define BASE_MS 20
#define CAP_MS 160
#define GRACE_MS 200

static sigset_t orig_mask;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void logf_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#include <stdarg.h>
static void logf_line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static pid_t start_run(char **argv, int n)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("superv: fork");
		return -1;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &orig_mask, NULL);
		execvp(argv[0], argv);
		_exit(127);
	}
	logf_line("start %d", n);
	return pid;
}

static void report_end(int n, int status)
{
	if (WIFEXITED(status))
		logf_line("exit %d status %d", n, WEXITSTATUS(status));
	else
		logf_line("exit %d signal %d", n, WTERMSIG(status));
}

int main(int argc, char **argv)
{
	sigset_t set;
	pid_t child = -1;
	long long started = 0, restart_at = 0, kill_at = 0;
	int run = 0, rapid = 0, stopping = 0, killed = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: superv COMMAND [ARG...]\n");
		return 2;
	}

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, &orig_mask);

	child = start_run(argv + 1, ++run);
	started = now_ms();
	if (child < 0)
		return 1;

	for (;;) {
		struct timespec ts, *tsp = NULL;
		long long deadline = -1;
		int sig, status;

		if (child > 0 && stopping && !killed)
			deadline = kill_at;
		else if (child < 0 && !stopping)
			deadline = restart_at;
		if (deadline >= 0) {
			long long left = deadline - now_ms();

			if (left < 0)
				left = 0;
			ts.tv_sec = left / 1000;
			ts.tv_nsec = (left % 1000) * 1000000;
			tsp = &ts;
		}

		sig = sigtimedwait(&set, NULL, tsp);
		if (sig < 0 && errno != EAGAIN && errno != EINTR) {
			perror("superv: sigtimedwait");
			return 1;
		}

		if (sig == SIGTERM && !stopping) {
			stopping = 1;
			logf_line("stopping");
			if (child > 0) {
				kill(child, SIGTERM);
				kill_at = now_ms() + GRACE_MS;
			}
		}

		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			long long lasted = now_ms() - started;

			child = -1;
			report_end(run, status);
			if (!stopping) {
				if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
					logf_line("done");
					return 0;
				}
				rapid = lasted >= HEALTHY_MS ? 0 : rapid + 1;
				if (rapid >= GIVE_UP) {
					logf_line("giving up");
					return 1;
				}
				long long d = BASE_MS;
				if (rapid >= 2) {
					d = (long long)BASE_MS << (rapid - 1);
					if (d > CAP_MS)
						d = CAP_MS;
				}
				logf_line("restart in %lld ms", d);
				restart_at = now_ms() + d;
			}
		}

		if (stopping && child < 0) {
			logf_line("stopped");
			return 0;
		}

		if (child > 0 && stopping && !killed && now_ms() >= kill_at) {
			killed = 1;
			logf_line("killing %d", run);
			kill(child, SIGKILL);
		}

		if (child < 0 && !stopping && now_ms() >= restart_at) {
			child = start_run(argv + 1, ++run);
			started = now_ms();
			if (child < 0)
				return 1;
		}
	}
}
