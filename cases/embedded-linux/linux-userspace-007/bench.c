/* Test bench (not part of the answer).
 *
 * Bench mode (./app, script on stdin):
 *   run BEHAVIOUR      the behaviour of the next run of the service
 *   cmd PATH           run ../superv PATH instead of ../superv ../app child
 *   noargs             run ../superv without arguments
 *   term start N MS    SIGTERM to the supervisor MS ms after run N started
 *   term end N MS      SIGTERM to the supervisor MS ms after run N ended
 * It echoes the supervisor's standard output, then reports its exit, the
 * runs seen, whether each restart waited the logged delay, which runs got
 * SIGTERM, how long stopping took and whether any child was left behind.
 *
 * Service mode (../app child): the supervised service. Its behaviour for
 * run N is line N of ./plan:
 *   exit C | sleep MS exit C | signal G | term-exit MS | term-ignore
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void event(const char *what, int n)
{
	char buf[128];
	int fd = open("events", O_WRONLY | O_APPEND | O_CREAT, 0644);
	int len = snprintf(buf, sizeof buf, "%s %d %d %lld\n", what, n, (int)getpid(), now_ms());

	if (fd >= 0) {
		if (write(fd, buf, (size_t)len) < 0) {
		}
		close(fd);
	}
}

/* ---------------------------------------------------------------- service */

static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
	(void)sig;
	got_term = 1;
}

static int service(void)
{
	char line[128];
	int n = 0, i;
	FILE *f = fopen("count", "r");

	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = 0;
		fclose(f);
	}
	n++;
	f = fopen("count", "w");
	if (f) {
		fprintf(f, "%d\n", n);
		fclose(f);
	}
	event("start", n);

	strcpy(line, "exit 0");
	f = fopen("plan", "r");
	if (f) {
		char buf[128];

		for (i = 1; fgets(buf, sizeof buf, f); i++)
			if (i == n) {
				buf[strcspn(buf, "\n")] = 0;
				strcpy(line, buf);
				break;
			}
		fclose(f);
	}

	int a = 0, b = 0;
	if (sscanf(line, "exit %d", &a) == 1) {
		event("end", n);
		return a;
	}
	if (sscanf(line, "sleep %d exit %d", &a, &b) == 2) {
		sleep_ms(a);
		event("end", n);
		return b;
	}
	if (sscanf(line, "signal %d", &a) == 1) {
		event("end", n);
		raise(a);
		return 99;
	}
	if (sscanf(line, "term-exit %d", &a) == 1 || strcmp(line, "term-ignore") == 0) {
		struct sigaction sa;
		long long until = now_ms() + 3000;
		int ignore = strcmp(line, "term-ignore") == 0;

		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_term;
		sigaction(SIGTERM, &sa, NULL);
		while (now_ms() < until) {
			if (got_term) {
				got_term = 0;
				event("term", n);
				if (!ignore) {
					sleep_ms(a);
					event("end", n);
					return 0;
				}
			}
			sleep_ms(1);
		}
		event("end", n);
		return 0;
	}
	return 98;
}

/* ------------------------------------------------------------------ bench */

#define MAXR 64
static long long t_start[MAXR], t_end[MAXR];
static int pid_of[MAXR], termd[MAXR], nruns;

static void read_events(void)
{
	char what[16];
	int n, pid;
	long long t;
	FILE *f = fopen("events", "r");

	memset(t_start, 0, sizeof t_start);
	memset(t_end, 0, sizeof t_end);
	memset(termd, 0, sizeof termd);
	nruns = 0;
	if (!f)
		return;
	while (fscanf(f, "%15s %d %d %lld", what, &n, &pid, &t) == 4) {
		if (n < 1 || n >= MAXR)
			continue;
		if (strcmp(what, "start") == 0) {
			t_start[n] = t;
			pid_of[n] = pid;
			if (n > nruns)
				nruns = n;
		} else if (strcmp(what, "end") == 0) {
			t_end[n] = t;
		} else if (strcmp(what, "term") == 0) {
			termd[n] = 1;
		}
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	char line[256], cmd[200] = "../app";
	int noargs = 0, term_n = 0, term_ms = 0, term_on_end = 0;
	FILE *plan;
	int pfd[2], status;
	pid_t sv;
	long long t0, term_sent = 0, t_exit = 0;
	int exited = 0;

	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return service();

	plan = fopen("plan", "w");
	while (fgets(line, sizeof line, stdin)) {
		char w[16];

		line[strcspn(line, "\n")] = 0;
		if (strncmp(line, "run ", 4) == 0)
			fprintf(plan, "%s\n", line + 4);
		else if (sscanf(line, "cmd %199s", cmd) == 1)
			;
		else if (strcmp(line, "noargs") == 0)
			noargs = 1;
		else if (sscanf(line, "term %15s %d %d", w, &term_n, &term_ms) == 3)
			term_on_end = strcmp(w, "end") == 0;
	}
	fclose(plan);
	unlink("events");
	unlink("count");

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pipe(pfd) < 0)
		return 1;
	fflush(stdout);
	t0 = now_ms();
	sv = fork();
	if (sv == 0) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		if (noargs)
			execl("../superv", "superv", (char *)NULL);
		else if (strcmp(cmd, "../app") == 0)
			execl("../superv", "superv", "../app", "child", (char *)NULL);
		else
			execl("../superv", "superv", cmd, (char *)NULL);
		_exit(126);
	}
	close(pfd[1]);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);

	while (now_ms() - t0 < 4000) {
		if (waitpid(sv, &status, WNOHANG) == sv) {
			exited = 1;
			t_exit = now_ms();
			break;
		}
		if (term_n && !term_sent) {
			long long t;

			read_events();
			t = term_on_end ? t_end[term_n] : t_start[term_n];
			if (t && now_ms() >= t + term_ms) {
				kill(sv, SIGTERM);
				term_sent = now_ms();
			}
		}
		sleep_ms(1);
	}
	if (!exited) {
		kill(sv, SIGKILL);
		waitpid(sv, &status, 0);
	}

	/* the supervisor's log */
	static char out[1 << 16];
	long delay[MAXR];
	int ndelay = 0;
	{
		size_t len = 0;
		ssize_t r;
		int nl = 0;
		char *p, *e;

		while (len < sizeof out - 1 && (r = read(pfd[0], out + len, sizeof out - 1 - len)) > 0)
			len += (size_t)r;
		out[len] = 0;
		for (p = out; *p; p = e) {
			long d;

			e = strchr(p, '\n');
			if (!e)
				e = p + strlen(p);
			printf("%.*s\n", (int)(e - p), p);
			if (sscanf(p, "restart in %ld ms", &d) == 1 && ndelay < MAXR)
				delay[ndelay++] = d;
			nl++;
			if (*e)
				e++;
		}
		printf("log lines %d\n", nl);
	}

	if (!exited)
		printf("supervisor still running after 4 s\n");
	else if (WIFEXITED(status))
		printf("supervisor exit %d\n", WEXITSTATUS(status));
	else
		printf("supervisor signal %d\n", WTERMSIG(status));

	/* children left behind are reparented to the bench (subreaper) */
	sleep_ms(30);
	read_events();
	{
		int left = 0, i;

		for (i = 1; i <= nruns; i++)
			if (pid_of[i] > 0 && kill(pid_of[i], 0) == 0) {
				left++;
				kill(pid_of[i], SIGKILL);
			}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		printf("runs %d\n", nruns);
		printf("leftover children %d\n", left);
	}

	/* restart k (logged after run k ended) must wait before run k+1 starts */
	{
		int bad = 0, k;

		for (k = 1; k <= ndelay && k < nruns; k++) {
			long long gap;

			if (!t_end[k] || !t_start[k + 1])
				continue;
			gap = t_start[k + 1] - t_end[k];
			if (gap < delay[k - 1] - 2) {
				printf("run %d started %lld ms after run %d ended, logged %ld ms\n", k + 1, gap, k, delay[k - 1]);
				bad = 1;
			}
		}
		if (!bad)
			printf("delays ok\n");
	}

	for (int i = 1; i <= nruns; i++)
		if (termd[i])
			printf("run %d got SIGTERM\n", i);
	if (term_sent && exited)
		printf("stop took %s 190 ms\n", t_exit - term_sent >= 190 ? "at least" : "less than");
	return 0;
}
