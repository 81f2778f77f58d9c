/* Accepted variant: async signal handlers write to a self-pipe, the main
 * loop waits in poll() with a timeout, and the child restores the default
 * SIGTERM/SIGCHLD handlers before exec. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum state { RUNNING, WAITING, STOPPING };

static int wake[2];
static volatile sig_atomic_t term_flag;

static void on_signal(int sig)
{
	int saved = errno;
	char c = (char)sig;

	if (sig == SIGTERM)
		term_flag = 1;
	if (write(wake[1], &c, 1) < 0) {
	}
	errno = saved;
}

static double mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void say(const char *s)
{
	fputs(s, stdout);
	fputc('\n', stdout);
	fflush(stdout);
}

static int backoff_for(int f)
{
	int d = 20;

	for (int i = 1; i < f && d < 160; i++)
		d *= 2;
	return d > 160 ? 160 : d;
}

int main(int argc, char *argv[])
{
	struct sigaction sa;
	enum state st = RUNNING;
	pid_t pid = 0;
	int runno = 0, fails = 0, sent_kill = 0;
	double t_start = 0, t_due = 0;
	char msg[64];

	if (argc == 1) {
		fputs("usage: superv COMMAND [ARG...]\n", stderr);
		exit(2);
	}
	if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0)
		return 1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	for (;;) {
		if (st == RUNNING && pid <= 0) {
			runno++;
			pid = fork();
			if (pid == 0) {
				signal(SIGTERM, SIG_DFL);
				signal(SIGCHLD, SIG_DFL);
				execvp(argv[1], &argv[1]);
				_exit(127);
			}
			t_start = mono();
			snprintf(msg, sizeof msg, "start %d", runno);
			say(msg);
		}

		int timeout = -1;
		if (st == WAITING) {
			timeout = (int)(t_due - mono() + 0.999);
			if (timeout < 0)
				timeout = 0;
		} else if (st == STOPPING && pid > 0 && !sent_kill) {
			timeout = (int)(t_due - mono() + 0.999);
			if (timeout < 0)
				timeout = 0;
		}
		if (!term_flag || st == STOPPING) {
			struct pollfd p = { wake[0], POLLIN, 0 };

			if (poll(&p, 1, timeout) > 0) {
				char junk[32];

				while (read(wake[0], junk, sizeof junk) > 0)
					;
			}
		}

		if (term_flag && st != STOPPING) {
			say("stopping");
			if (pid > 0) {
				kill(pid, SIGTERM);
				t_due = mono() + 200;
			}
			st = STOPPING;
		}

		int ws;
		if (pid > 0 && waitpid(pid, &ws, WNOHANG) == pid) {
			double lasted = mono() - t_start;

			pid = 0;
			if (WIFSIGNALED(ws))
				snprintf(msg, sizeof msg, "exit %d signal %d", runno, WTERMSIG(ws));
			else
				snprintf(msg, sizeof msg, "exit %d status %d", runno, WEXITSTATUS(ws));
			say(msg);
			if (st == RUNNING) {
				if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0) {
					say("done");
					return 0;
				}
				if (lasted < 300)
					fails++;
				else
					fails = 0;
				if (fails == 6) {
					say("giving up");
					return 1;
				}
				snprintf(msg, sizeof msg, "restart in %d ms", backoff_for(fails));
				say(msg);
				t_due = mono() + backoff_for(fails);
				st = WAITING;
			}
		}

		if (st == STOPPING) {
			if (pid <= 0) {
				say("stopped");
				return 0;
			}
			if (!sent_kill && mono() >= t_due) {
				snprintf(msg, sizeof msg, "killing %d", runno);
				say(msg);
				kill(pid, SIGKILL);
				sent_kill = 1;
			}
		} else if (st == WAITING && mono() >= t_due) {
			st = RUNNING;
		}
	}
}
