#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#define SENSOR_PATH     "adc0/in_voltage0_raw"
#define PERIOD_NS       20000000L /* 20 ms */
#define SELF_STOP_AFTER 10

/* Re-read the sysfs attribute from offset 0: the descriptor stays open. */
static int read_sensor(int fd, long *raw)
{
	char buf[32];
	char *end;
	ssize_t n;

	do {
		n = pread(fd, buf, sizeof(buf) - 1, 0);
	} while (n < 0 && errno == EINTR);
	if (n <= 0)
		return -1;
	buf[n] = '\0';

	errno = 0;
	*raw = strtol(buf, &end, 10);
	if (end == buf || (*end != '\n' && *end != '\0') || errno == ERANGE)
		return -1;
	return 0;
}

int main(void)
{
	const struct itimerspec period = {
		.it_interval = { .tv_sec = 0, .tv_nsec = PERIOD_NS },
		.it_value    = { .tv_sec = 0, .tv_nsec = PERIOD_NS },
	};
	struct pollfd pfd[2];
	sigset_t mask;
	uint64_t periods = 0, samples = 0, missed = 0;
	int sfd = -1, tfd = -1, adc = -1;
	int ret = EXIT_FAILURE;

	/* Block first: threads inherit the mask, and an unblocked SIGTERM
	 * would still kill the process instead of reaching the signalfd. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0) {
		perror("sampler: sigprocmask");
		return EXIT_FAILURE;
	}

	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0) {
		perror("sampler: signalfd");
		goto out;
	}

	adc = open(SENSOR_PATH, O_RDONLY | O_CLOEXEC);
	if (adc < 0) {
		fprintf(stderr, "sampler: cannot open %s: %s\n", SENSOR_PATH, strerror(errno));
		goto out;
	}

	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (tfd < 0) {
		perror("sampler: timerfd_create");
		goto out;
	}
	if (timerfd_settime(tfd, 0, &period, NULL) < 0) {
		perror("sampler: timerfd_settime");
		goto out;
	}

	pfd[0].fd = sfd;
	pfd[0].events = POLLIN;
	pfd[1].fd = tfd;
	pfd[1].events = POLLIN;

	for (;;) {
		int n = poll(pfd, 2, -1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("sampler: poll");
			goto out;
		}

		/* Shutdown first: no sample is taken once a stop is pending. */
		if (pfd[0].revents & POLLIN) {
			struct signalfd_siginfo si;
			ssize_t len = read(sfd, &si, sizeof(si));

			if (len != sizeof(si)) {
				fprintf(stderr, "sampler: short read on signalfd\n");
				goto out;
			}
			printf("sampler: caught %s\n", si.ssi_signo == SIGINT ? "SIGINT" : "SIGTERM");
			break;
		}

		if (pfd[1].revents & POLLIN) {
			uint64_t expirations;
			long raw;
			ssize_t len = read(tfd, &expirations, sizeof(expirations));

			if (len != sizeof(expirations)) {
				if (len < 0 && (errno == EINTR || errno == EAGAIN))
					continue;
				fprintf(stderr, "sampler: bad read on timerfd\n");
				goto out;
			}
			/* One sample per wake-up; the periods slept through are missed. */
			periods += expirations;
			missed += expirations - 1;

			if (read_sensor(adc, &raw) < 0) {
				fprintf(stderr, "sampler: cannot read %s\n", SENSOR_PATH);
				goto out;
			}
			samples++;
			printf("sample %" PRIu64 ": %ld\n", samples, raw);

			if (samples == SELF_STOP_AFTER && raise(SIGTERM) != 0) {
				fprintf(stderr, "sampler: cannot signal itself\n");
				goto out;
			}
		}
	}

	printf("sampler: %" PRIu64 " samples in %" PRIu64 " periods, %" PRIu64 " missed\n",
	       samples, periods, missed);
	ret = EXIT_SUCCESS;

out:
	if (tfd >= 0)
		close(tfd);
	if (adc >= 0)
		close(adc);
	if (sfd >= 0)
		close(sfd);
	return ret;
}
