/* Test bench (not part of the answer). Creates the FIFO `watchdog` in the
 * working directory (unless BENCH_NO_DEVICE is set), runs ../wdogd with the
 * scenario's arguments, reads every byte it writes to the FIFO, optionally
 * rewrites reading files at given times (BENCH_CHANGE="ms:file:content",
 * several changes separated by ';', applied in order), sends SIGTERM at
 * BENCH_TERM_MS, and reports after the daemon has ended. Exits with the
 * daemon's status (128 + signal when it was killed).
 *
 * Built to give the same verdicts on a loaded machine:
 * - Times are counted from the moment the daemon is seen holding the device
 *   open (its start), not from the fork, so a slow exec does not eat into
 *   the schedule (a SIGTERM before the daemon has even started).
 * - A byte is dated by the last moment the FIFO was seen empty before it was
 *   read (a lower bound of when it was written), so a bench that was not
 *   scheduled for a while never dates an early pet as a late one.
 * - "pets after the reading changed" counts pets dated later than one
 *   interval + 40 ms after the first change was written; "pets after
 *   SIGTERM" those dated 60 ms or more after the signal was sent; the exit
 *   delay is measured up to the last moment the daemon was seen running. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CHANGES 8

struct change {
	long long ms;
	char file[256];
	char text[256];
	int done;
};

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Parses "ms:file:text[;ms:file:text...]"; returns the number of changes. */
static int parse_changes(const char *e, struct change *ch)
{
	int n = 0;
	while (e && *e && n < MAX_CHANGES) {
		const char *end = strchr(e, ';');
		size_t len = end ? (size_t)(end - e) : strlen(e);
		char item[600];
		if (len >= sizeof(item))
			len = sizeof(item) - 1;
		memcpy(item, e, len);
		item[len] = '\0';
		char *c1 = strchr(item, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (c1 && c2 && c2 - c1 - 1 < 256 && strlen(c2 + 1) < 256) {
			*c1 = '\0';
			*c2 = '\0';
			ch[n].ms = atoll(item);
			snprintf(ch[n].file, sizeof(ch[n].file), "%s", c1 + 1);
			snprintf(ch[n].text, sizeof(ch[n].text), "%s", c2 + 1);
			ch[n].done = 0;
			n++;
		}
		e = end ? end + 1 : NULL;
	}
	return n;
}

/* Rewrites a reading file in place (the daemon re-reads it every round). */
static void apply_change(const struct change *c)
{
	int fd = open(c->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		size_t len = strlen(c->text), off = 0;
		while (off < len) {
			ssize_t k = write(fd, c->text + off, len - off);
			if (k <= 0)
				break;
			off += (size_t)k;
		}
		close(fd);
	}
}

/* Whether process pid holds an open descriptor on the file (dev, ino). */
static int holds_open(pid_t pid, dev_t dev, ino_t ino)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	DIR *d = opendir(dir);
	if (d == NULL)
		return 0;
	int found = 0;
	struct dirent *de;
	while (!found && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		char p[384];
		struct stat st;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (stat(p, &st) == 0 && st.st_dev == dev && st.st_ino == ino)
			found = 1;
	}
	closedir(d);
	return found;
}

int main(int argc, char **argv)
{
	char tool[4096];
	const char *slash = strrchr(argv[0], '/');
	int len = slash ? (int)(slash - argv[0]) + 1 : 0;
	snprintf(tool, sizeof(tool), "%.*swdogd", len, argv[0]);

	const char *e = getenv("BENCH_TERM_MS");
	long long term_ms = e ? atoll(e) : -1;
	struct change changes[MAX_CHANGES];
	int nchanges = parse_changes(getenv("BENCH_CHANGE"), changes);
	long long interval = argc > 2 ? atoll(argv[2]) : 0;

	int rfd = -1, wfd = -1;
	struct stat fifo_st;
	if (getenv("BENCH_NO_DEVICE") == NULL) {
		if (mkfifo("watchdog", 0600) < 0) {
			perror("bench: mkfifo");
			return 125;
		}
		rfd = open("watchdog", O_RDONLY | O_NONBLOCK);
		wfd = open("watchdog", O_WRONLY | O_NONBLOCK); /* keeps EOF away */
		if (rfd < 0 || wfd < 0 || fstat(rfd, &fifo_st) < 0) {
			perror("bench: fifo");
			return 125;
		}
	}

	/* closed by the exec: the bench waits for it before looking for the
	 * daemon's descriptors (the forked child holds the FIFO until then) */
	int ep[2];
	if (pipe(ep) < 0 || fcntl(ep[1], F_SETFD, FD_CLOEXEC) < 0) {
		perror("bench: pipe");
		return 125;
	}
	fflush(NULL);
	long long fork_at = now_ms();
	pid_t pid = fork();
	if (pid < 0) {
		perror("bench: fork");
		return 125;
	}
	if (pid == 0) {
		close(ep[0]);
		if (rfd >= 0) {
			close(rfd);
			close(wfd);
		}
		argv[0] = "wdogd";
		execv(tool, argv);
		perror("bench: exec");
		_exit(126);
	}
	close(ep[1]);
	char eb;
	while (read(ep[0], &eb, 1) < 0 && errno == EINTR)
		;
	close(ep[0]);

	/* Without a device there is nothing to wait for: the start is the fork. */
	long long t0 = rfd >= 0 ? -1 : fork_at;
	static char bytes[100000];
	static long long at[100000];
	int nb = 0, st = 0, done = 0, termed = 0, killed = 0;
	long long term_at = -1, first_change_at = -1, seen_running = -1;
	long long empty_at = 0; /* the FIFO was last seen empty then (relative to fork) */
	while (!done) {
		long long now = now_ms();
		if (t0 < 0 && holds_open(pid, fifo_st.st_dev, fifo_st.st_ino))
			t0 = now;
		long long t = t0 >= 0 ? now - t0 : -1;
		if (t >= 0) {
			for (int i = 0; i < nchanges; i++) {
				if (changes[i].done || t < changes[i].ms)
					continue;
				if (i > 0 && !changes[i - 1].done)
					break;
				apply_change(&changes[i]);
				changes[i].done = 1;
				if (first_change_at < 0)
					first_change_at = now_ms() - t0;
			}
			if (term_ms >= 0 && !termed && t >= term_ms) {
				kill(pid, SIGTERM);
				termed = 1;
				term_at = now_ms() - t0;
			}
		}
		if (now - fork_at > 4000 && !killed) {
			kill(pid, SIGKILL);
			killed = 1;
		}
		if (rfd >= 0) {
			struct pollfd p = { .fd = rfd, .events = POLLIN };
			poll(&p, 1, 2);
			char b[256];
			ssize_t k;
			long long lower = empty_at;
			while ((k = read(rfd, b, sizeof(b))) > 0)
				for (ssize_t i = 0; i < k && nb < 100000; i++) {
					bytes[nb] = b[i];
					at[nb++] = lower;
				}
			empty_at = now_ms() - fork_at;
		} else {
			usleep(2000);
		}
		long long before_wait = now_ms();
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			done = 1;
		else if (t0 >= 0)
			seen_running = before_wait - t0;
	}
	if (rfd >= 0) {
		char b[256];
		ssize_t k;
		while ((k = read(rfd, b, sizeof(b))) > 0)
			for (ssize_t i = 0; i < k && nb < 100000; i++) {
				bytes[nb] = b[i];
				at[nb++] = empty_at;
			}
	}
	fflush(NULL);
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

	/* byte dates relative to the start */
	long long shift = t0 >= 0 ? t0 - fork_at : 0;
	int pets = 0, other = 0, late = 0, after_term = 0;
	for (int i = 0; i < nb; i++) {
		long long a = at[i] - shift;
		if (bytes[i] == '.') {
			pets++;
			if (first_change_at >= 0 && a > first_change_at + interval + 40)
				late++;
			if (termed && a >= term_at + 60)
				after_term++;
		} else if (!(bytes[i] == 'V' && i == nb - 1)) {
			other++;
		}
	}
	if (rfd >= 0) {
		printf("# pets: %d\n", pets);
		printf("# pets after the reading changed: %d\n", late);
		printf("# pets after SIGTERM: %d\n", after_term);
		printf("# last byte: %s\n", nb == 0 ? "none" : bytes[nb - 1] == 'V' ? "V" : bytes[nb - 1] == '.' ? "pet" : "other");
		printf("# other bytes: %d\n", other);
	}
	if (killed)
		printf("# still running 4 s after the start: killed\n");
	if (termed) {
		long long d = seen_running - term_at;
		printf("# exit after SIGTERM: %lld ms\n", d > 0 ? d : 0);
	}
	return rc;
}
