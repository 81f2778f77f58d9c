/* wdogd: health-checked watchdog feeder with magic close. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

struct hcheck {
	char *file;
	long long max;
};

static int parse_ll(const char *s, size_t n, long long *out)
{
	size_t i = 0;
	int neg = 0;
	if (i < n && s[i] == '-') {
		neg = 1;
		i++;
	}
	size_t digits = n - i;
	if (digits < 1 || digits > 18)
		return -1;
	long long v = 0;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = neg ? -v : v;
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: wdogd DEVICE INTERVAL_MS [FILE:MAX]...\n");
	exit(1);
}

static int check_passes(const struct hcheck *c)
{
	char buf[64];
	int fd = open(c->file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	size_t n = 0;
	for (;;) {
		ssize_t k = read(fd, buf + n, sizeof(buf) - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			close(fd);
			return 0;
		}
		if (k == 0)
			break;
		n += (size_t)k;
		if (n == sizeof(buf)) {
			close(fd);
			return 0; /* far too long to be a reading */
		}
	}
	close(fd);
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	long long v;
	if (parse_ll(buf, n, &v) < 0)
		return 0;
	return v <= c->max;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		usage();
	long long interval;
	const char *iv = argv[2];
	if (iv[0] == '-' || parse_ll(iv, strlen(iv), &interval) < 0 || interval < 10 || interval > 1000)
		usage();
	int nchecks = argc - 3;
	struct hcheck *checks = calloc((size_t)(nchecks > 0 ? nchecks : 1), sizeof(*checks));
	if (checks == NULL)
		return 1;
	for (int i = 0; i < nchecks; i++) {
		char *arg = argv[3 + i];
		char *colon = strrchr(arg, ':');
		if (colon == NULL || colon == arg || memchr(arg, ':', (size_t)(colon - arg)) != NULL)
			usage();
		if (parse_ll(colon + 1, strlen(colon + 1), &checks[i].max) < 0)
			usage();
		*colon = '\0';
		checks[i].file = arg;
	}

	/* SIGTERM is taken through a signalfd so that no wait can miss it. */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	int sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (sfd < 0)
		return 1;

	int dev = open(argv[1], O_WRONLY | O_CLOEXEC);
	if (dev < 0) {
		fprintf(stderr, "wdogd: cannot open %s\n", argv[1]);
		return 2;
	}
	printf("wdogd: started, interval %lld ms, %d checks\n", interval, nchecks);
	fflush(stdout);

	int failed = 0;
	long long next = now_ms();
	for (;;) {
		long long t = now_ms();
		if (!failed && t >= next) {
			for (int i = 0; i < nchecks; i++) {
				if (!check_passes(&checks[i])) {
					printf("wdogd: check failed: %s\n", checks[i].file);
					fflush(stdout);
					failed = 1;
					break;
				}
			}
			if (!failed) {
				ssize_t w;
				do
					w = write(dev, ".", 1);
				while (w < 0 && errno == EINTR);
			}
			next += interval;
			if (next <= t)
				next = t + interval;
			continue;
		}
		struct pollfd pfd = { .fd = sfd, .events = POLLIN };
		int timeout = failed ? -1 : (int)(next - t);
		int r = poll(&pfd, 1, timeout);
		if (r > 0 && (pfd.revents & POLLIN)) {
			struct signalfd_siginfo si;
			if (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si) && si.ssi_signo == SIGTERM)
				break;
		}
	}
	if (!failed) {
		ssize_t w;
		do
			w = write(dev, "V", 1);
		while (w < 0 && errno == EINTR);
		close(dev);
		printf("wdogd: magic close\n");
		return 0;
	}
	close(dev);
	printf("wdogd: exiting armed\n");
	return 3;
}
