/* Accepted variant: poll(), inline clean-up before every return, a
 * read_u64() helper, lseek() + read() on the kept-open attribute and a
 * stop flag instead of break. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

enum { SIG_SLOT, TMR_SLOT, NSLOTS };

static int read_u64(int fd, uint64_t *out)
{
	ssize_t r = read(fd, out, sizeof *out);

	if (r != (ssize_t)sizeof *out)
		return -1;
	return 0;
}

static int adc_read(int fd, unsigned long *val)
{
	char txt[16];
	char *stop;
	ssize_t r;

	if (lseek(fd, 0, SEEK_SET) == (off_t)-1)
		return -1;
	r = read(fd, txt, sizeof(txt) - 1);
	if (r <= 0)
		return -1;
	txt[r] = '\0';
	*val = strtoul(txt, &stop, 10);
	if (stop == txt || (*stop != '\0' && *stop != '\n'))
		return -1;
	return 0;
}

int main(void)
{
	struct itimerspec ts = { { 0, 20 * 1000 * 1000 }, { 0, 20 * 1000 * 1000 } };
	struct pollfd fds[NSLOTS];
	sigset_t set;
	uint64_t total = 0, missed = 0;
	unsigned int taken = 0;
	bool stop = false;
	int adc, sig, tmr;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (pthread_sigmask(SIG_SETMASK, &set, NULL) != 0) {
		fputs("sampler: cannot block signals\n", stderr);
		return 1;
	}

	if ((sig = signalfd(-1, &set, SFD_CLOEXEC)) == -1) {
		perror("sampler: signalfd");
		return 1;
	}
	tmr = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (tmr == -1) {
		perror("sampler: timerfd_create");
		close(sig);
		return 1;
	}
	adc = open("adc0/in_voltage0_raw", O_RDONLY | O_CLOEXEC);
	if (adc == -1) {
		perror("sampler: adc0/in_voltage0_raw");
		close(tmr);
		close(sig);
		return 1;
	}
	if (timerfd_settime(tmr, 0, &ts, NULL) == -1) {
		perror("sampler: timerfd_settime");
		close(adc);
		close(tmr);
		close(sig);
		return 1;
	}

	fds[SIG_SLOT] = (struct pollfd){ .fd = sig, .events = POLLIN };
	fds[TMR_SLOT] = (struct pollfd){ .fd = tmr, .events = POLLIN };

	while (!stop) {
		int ready = poll(fds, NSLOTS, -1);

		if (ready == -1) {
			if (errno != EINTR) {
				perror("sampler: poll");
				close(adc);
				close(tmr);
				close(sig);
				return 1;
			}
			continue;
		}
		if (fds[SIG_SLOT].revents & POLLIN) {
			struct signalfd_siginfo fdsi;
			ssize_t r = read(sig, &fdsi, sizeof fdsi);

			if (r != sizeof fdsi) {
				fputs("sampler: signalfd read failed\n", stderr);
				close(adc);
				close(tmr);
				close(sig);
				return 1;
			}
			printf("sampler: caught %s\n", fdsi.ssi_signo == SIGINT ? "SIGINT" : "SIGTERM");
			stop = true;
		} else if (fds[TMR_SLOT].revents & POLLIN) {
			uint64_t n;
			unsigned long raw;

			if (read_u64(tmr, &n) != 0 || adc_read(adc, &raw) != 0) {
				fputs("sampler: sampling failed\n", stderr);
				close(adc);
				close(tmr);
				close(sig);
				return 1;
			}
			total += n;
			if (n > 1)
				missed += n - 1;
			printf("sample %u: %lu\n", ++taken, raw);
			if (taken == 10)
				raise(SIGTERM);
		}
	}

	printf("sampler: %u samples in %llu periods, %llu missed\n",
	       taken, (unsigned long long)total, (unsigned long long)missed);
	close(adc);
	close(tmr);
	close(sig);
	return 0;
}
