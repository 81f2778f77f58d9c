/* Accepted variant: epoll, a context struct, set-up/tear-down helpers,
 * pthread_sigmask, kill(getpid()), and the attribute re-opened per sample. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define ADC_ATTR      "adc0/in_voltage0_raw"
#define PERIOD_MS     20
#define TEST_SAMPLES  10

struct sampler {
	int epfd;
	int sigfd;
	int timerfd;
	unsigned long long wakeups;
	unsigned long long elapsed;
};

static int watch(int epfd, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

static void sampler_close(struct sampler *s)
{
	if (s->timerfd != -1)
		close(s->timerfd);
	if (s->sigfd != -1)
		close(s->sigfd);
	if (s->epfd != -1)
		close(s->epfd);
}

static int sampler_open(struct sampler *s, const sigset_t *stop)
{
	struct itimerspec spec;

	s->epfd = s->sigfd = s->timerfd = -1;
	s->wakeups = s->elapsed = 0;

	s->sigfd = signalfd(-1, stop, SFD_NONBLOCK | SFD_CLOEXEC);
	if (s->sigfd == -1) {
		perror("sampler: signalfd");
		return -1;
	}
	s->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (s->timerfd == -1) {
		perror("sampler: timerfd_create");
		sampler_close(s);
		return -1;
	}
	memset(&spec, 0, sizeof(spec));
	spec.it_interval.tv_nsec = PERIOD_MS * 1000000L;
	spec.it_value = spec.it_interval;
	if (timerfd_settime(s->timerfd, 0, &spec, NULL) == -1) {
		perror("sampler: timerfd_settime");
		sampler_close(s);
		return -1;
	}
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd == -1) {
		perror("sampler: epoll_create1");
		sampler_close(s);
		return -1;
	}
	if (watch(s->epfd, s->sigfd) == -1 || watch(s->epfd, s->timerfd) == -1) {
		perror("sampler: epoll_ctl");
		sampler_close(s);
		return -1;
	}
	return 0;
}

/* One value per sample: the attribute is opened, read from its start and closed. */
static int take_sample(long *value)
{
	char line[24];
	char *end;
	FILE *fp = fopen(ADC_ATTR, "re");

	if (!fp) {
		fprintf(stderr, "sampler: %s: %s\n", ADC_ATTR, strerror(errno));
		return -1;
	}
	if (!fgets(line, sizeof(line), fp)) {
		fprintf(stderr, "sampler: %s: read failed\n", ADC_ATTR);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	errno = 0;
	*value = strtol(line, &end, 10);
	if (end == line || errno != 0 || (*end != '\n' && *end != '\0')) {
		fprintf(stderr, "sampler: %s: not a number\n", ADC_ATTR);
		return -1;
	}
	return 0;
}

/* 1: keep going, 0: stop requested, -1: error. */
static int on_signal(struct sampler *s)
{
	struct signalfd_siginfo info;
	ssize_t got = read(s->sigfd, &info, sizeof(struct signalfd_siginfo));

	if (got == -1 && errno == EAGAIN)
		return 1;
	if (got != sizeof(struct signalfd_siginfo)) {
		fprintf(stderr, "sampler: signalfd read failed\n");
		return -1;
	}
	printf("sampler: caught %s\n", info.ssi_signo == SIGTERM ? "SIGTERM" : "SIGINT");
	return 0;
}

static int on_tick(struct sampler *s)
{
	uint64_t ticks;
	ssize_t got = read(s->timerfd, &ticks, sizeof ticks);
	long value;

	if (got == -1 && errno == EAGAIN)
		return 1;
	if (got != sizeof ticks) {
		fprintf(stderr, "sampler: timerfd read failed\n");
		return -1;
	}
	s->elapsed += ticks;
	if (take_sample(&value) == -1)
		return -1;
	s->wakeups++;
	printf("sample %llu: %ld\n", s->wakeups, value);
	if (s->wakeups == TEST_SAMPLES && kill(getpid(), SIGTERM) == -1) {
		perror("sampler: kill");
		return -1;
	}
	return 1;
}

int main(void)
{
	struct sampler s;
	sigset_t stop;
	int status = EXIT_FAILURE;
	int err, running = 1;

	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	err = pthread_sigmask(SIG_BLOCK, &stop, NULL);
	if (err != 0) {
		fprintf(stderr, "sampler: pthread_sigmask: %s\n", strerror(err));
		return EXIT_FAILURE;
	}
	if (sampler_open(&s, &stop) == -1)
		return EXIT_FAILURE;

	while (running) {
		struct epoll_event events[2];
		int got_signal = 0, n;

		n = epoll_wait(s.epfd, events, 2, -1);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			perror("sampler: epoll_wait");
			goto done;
		}
		for (int i = 0; i < n; i++)
			if (events[i].data.fd == s.sigfd)
				got_signal = 1;
		if (got_signal) {
			int r = on_signal(&s);

			if (r < 0)
				goto done;
			if (r == 0) {
				running = 0;
				continue;
			}
		}
		for (int i = 0; i < n; i++) {
			if (events[i].data.fd == s.timerfd && on_tick(&s) < 0)
				goto done;
		}
	}
	printf("sampler: %llu samples in %llu periods, %llu missed\n",
	       s.wakeups, s.elapsed, s.elapsed - s.wakeups);
	status = EXIT_SUCCESS;
done:
	sampler_close(&s);
	return status;
}
