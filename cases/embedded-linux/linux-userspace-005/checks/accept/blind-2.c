/*
 * sampler: periodic IIO ADC sampler driven by file descriptors only.
 *
 *   timerfd (CLOCK_MONOTONIC, 20 ms)  -> sampling period, immune to wall-clock steps
 *   signalfd (SIGINT, SIGTERM)        -> shutdown requests, no signal handlers
 *   epoll                             -> single blocking wait on both
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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

static const char attr_path[] = "adc0/in_voltage0_raw";

enum { SAMPLE_PERIOD_MS = 20, TEST_STOP_AFTER = 10 };

struct sampler {
    int epfd;
    int tfd;
    int sfd;
    int attrfd;
    uint64_t samples;
    uint64_t periods;
    uint64_t missed;
};

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

static void sampler_release(struct sampler *s)
{
    close_fd(&s->epfd);
    close_fd(&s->tfd);
    close_fd(&s->sfd);
    close_fd(&s->attrfd);
}

static int fail(const char *what)
{
    fprintf(stderr, "sampler: %s: %s\n", what, strerror(errno));
    return -1;
}

static int sampler_setup(struct sampler *s)
{
    sigset_t sigs;

    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    /* Blocked before the signalfd exists and before any worker thread is
     * started: threads created later inherit this mask, so the signals can
     * only ever be consumed through the signalfd. */
    int rc = pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    if (rc != 0) {
        errno = rc;
        return fail("blocking SIGINT/SIGTERM");
    }

    s->sfd = signalfd(-1, &sigs, SFD_CLOEXEC);
    if (s->sfd < 0)
        return fail("signalfd");

    s->attrfd = open(attr_path, O_RDONLY | O_CLOEXEC);
    if (s->attrfd < 0)
        return fail("opening adc0/in_voltage0_raw");

    s->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    if (s->tfd < 0)
        return fail("timerfd_create");

    s->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (s->epfd < 0)
        return fail("epoll_create1");

    struct epoll_event ev = { .events = EPOLLIN };
    ev.data.fd = s->sfd;
    if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->sfd, &ev) < 0)
        return fail("epoll_ctl(signalfd)");
    ev.data.fd = s->tfd;
    if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->tfd, &ev) < 0)
        return fail("epoll_ctl(timerfd)");

    const struct timespec period = {
        .tv_sec = SAMPLE_PERIOD_MS / 1000,
        .tv_nsec = (long)(SAMPLE_PERIOD_MS % 1000) * 1000000L,
    };
    const struct itimerspec its = { .it_interval = period, .it_value = period };
    if (timerfd_settime(s->tfd, 0, &its, NULL) < 0)
        return fail("timerfd_settime");

    return 0;
}

/* sysfs regenerates the attribute on every read from offset 0. */
static int read_raw(struct sampler *s, unsigned long *value)
{
    char buf[32];
    ssize_t n;

    do {
        n = pread(s->attrfd, buf, sizeof buf - 1, 0);
    } while (n < 0 && errno == EINTR);
    if (n < 0)
        return fail("reading adc0/in_voltage0_raw");
    buf[n] = '\0';

    char *end;
    errno = 0;
    unsigned long v = strtoul(buf, &end, 10);
    if (n == 0 || buf[0] < '0' || buf[0] > '9' || errno == ERANGE ||
        (*end != '\0' && strcmp(end, "\n") != 0)) {
        fprintf(stderr, "sampler: adc0/in_voltage0_raw does not hold a number\n");
        return -1;
    }
    *value = v;
    return 0;
}

/* Returns 1 if a sample was taken, 0 if nothing to do, -1 on error. */
static int on_timer(struct sampler *s)
{
    uint64_t expired;
    ssize_t n = read(s->tfd, &expired, sizeof expired);

    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    if (n != (ssize_t)sizeof expired) {
        if (n >= 0)
            errno = EIO;
        return fail("reading timerfd");
    }
    if (expired == 0)
        return 0;

    s->periods += expired;
    s->missed += expired - 1;   /* late wake-up: one sample for all of them */

    unsigned long raw;
    if (read_raw(s, &raw) < 0)
        return -1;

    s->samples++;
    printf("sample %" PRIu64 ": %lu\n", s->samples, raw);

    if (s->samples == TEST_STOP_AFTER && kill(getpid(), SIGTERM) < 0)
        return fail("sending SIGTERM to self");
    return 1;
}

/* Returns the signal number that arrived, 0 if none, -1 on error. */
static int on_signal(struct sampler *s)
{
    struct signalfd_siginfo info;
    ssize_t n = read(s->sfd, &info, sizeof info);

    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    if (n != (ssize_t)sizeof info) {
        if (n >= 0)
            errno = EIO;
        return fail("reading signalfd");
    }
    return (int)info.ssi_signo;
}

static int run(struct sampler *s)
{
    for (;;) {
        struct epoll_event evs[2];
        int n = epoll_wait(s->epfd, evs, 2, -1);

        if (n < 0) {
            if (errno == EINTR)
                continue;
            return fail("epoll_wait");
        }

        int signal_ready = 0, timer_ready = 0;
        for (int i = 0; i < n; i++) {
            if (evs[i].data.fd == s->sfd)
                signal_ready = 1;
            else if (evs[i].data.fd == s->tfd)
                timer_ready = 1;
        }

        if (signal_ready) {
            int sig = on_signal(s);
            if (sig < 0)
                return -1;
            if (sig == SIGINT || sig == SIGTERM) {
                printf("sampler: caught %s\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
                printf("sampler: %" PRIu64 " samples in %" PRIu64 " periods, %" PRIu64 " missed\n",
                       s->samples, s->periods, s->missed);
                return 0;
            }
            continue;   /* no further sample once a stop may be pending */
        }

        if (timer_ready && on_timer(s) < 0)
            return -1;
    }
}

int main(void)
{
    struct sampler s = { .epfd = -1, .tfd = -1, .sfd = -1, .attrfd = -1 };
    int rc;

    setvbuf(stdout, NULL, _IOLBF, 0);

    rc = sampler_setup(&s);
    if (rc == 0)
        rc = run(&s);

    sampler_release(&s);
    return rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
