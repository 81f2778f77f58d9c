/* defect: the timerfd is created on CLOCK_REALTIME, so RTC/NTP steps of the wall clock shift or burst the 20 ms sampling period.
 * breaks: "The sampling rate must not be disturbed when the wall clock is stepped."
 * must_fail: monotonic_timer_clock
 */
/*
 * sampler - sample an IIO ADC channel every 20 ms.
 *
 * Event loop: a timerfd with a relative 20 ms period paces sampling, SIGINT/SIGTERM are
 * received through a signalfd, and one poll() waits on both. No signal
 * handlers are installed and nothing sleeps to pace the loop.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define ATTR_PATH        "adc0/in_voltage0_raw"
#define PERIOD_NS        (20L * 1000L * 1000L)   /* 20 ms */
#define SELFTEST_SAMPLES 10u

/* Read the attribute once (fresh conversion) and parse it.
 * Returns 0 on success, -1 after printing a diagnostic. */
static int read_adc(unsigned long long *out)
{
    char buf[64];
    int fd = open(ATTR_PATH, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "sampler: cannot open %s: %s\n", ATTR_PATH, strerror(errno));
        return -1;
    }

    ssize_t n;
    do {
        n = read(fd, buf, sizeof buf - 1);
    } while (n < 0 && errno == EINTR);
    int saved = errno;
    close(fd);

    if (n < 0) {
        fprintf(stderr, "sampler: cannot read %s: %s\n", ATTR_PATH, strerror(saved));
        return -1;
    }
    buf[n] = '\0';

    /* Expect: one or more decimal digits, optionally followed by a newline. */
    size_t i = 0;
    unsigned long long v = 0;
    if (buf[0] < '0' || buf[0] > '9') {
        fprintf(stderr, "sampler: %s does not hold a number\n", ATTR_PATH);
        return -1;
    }
    while (buf[i] >= '0' && buf[i] <= '9') {
        unsigned d = (unsigned)(buf[i] - '0');
        if (v > (~0ULL - d) / 10u) {
            fprintf(stderr, "sampler: value in %s is out of range\n", ATTR_PATH);
            return -1;
        }
        v = v * 10u + d;
        i++;
    }
    if (buf[i] == '\n') {
        i++;
    }
    if (buf[i] != '\0') {
        fprintf(stderr, "sampler: %s does not hold a number\n", ATTR_PATH);
        return -1;
    }

    *out = v;
    return 0;
}

int main(void)
{
    int status = 1;
    int sfd = -1;
    int tfd = -1;
    uint64_t samples = 0, periods = 0, missed = 0;
    sigset_t mask;

    /* Block the signals before the signalfd exists (and before any thread is
     * created, so every later thread inherits the blocked mask). */
    sigemptyset(&mask);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGTERM);
    int err = pthread_sigmask(SIG_BLOCK, &mask, NULL);
    if (err != 0) {
        fprintf(stderr, "sampler: pthread_sigmask: %s\n", strerror(err));
        return 1;
    }

    sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sfd < 0) {
        fprintf(stderr, "sampler: signalfd: %s\n", strerror(errno));
        goto out;
    }

    tfd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
    if (tfd < 0) {
        fprintf(stderr, "sampler: timerfd_create: %s\n", strerror(errno));
        goto out;
    }

    struct itimerspec its = {
        .it_interval = { .tv_sec = 0, .tv_nsec = PERIOD_NS },
        .it_value    = { .tv_sec = 0, .tv_nsec = PERIOD_NS },
    };
    if (timerfd_settime(tfd, 0, &its, NULL) < 0) {
        fprintf(stderr, "sampler: timerfd_settime: %s\n", strerror(errno));
        goto out;
    }

    for (;;) {
        struct pollfd pfd[2] = {
            { .fd = sfd, .events = POLLIN },
            { .fd = tfd, .events = POLLIN },
        };

        int n = poll(pfd, 2, -1);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            fprintf(stderr, "sampler: poll: %s\n", strerror(errno));
            goto out;
        }

        /* Signals first: once a stop is requested, no further sample. */
        if (pfd[0].revents & POLLIN) {
            struct signalfd_siginfo si;
            ssize_t r = read(sfd, &si, sizeof si);
            if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
                continue;
            }
            if (r != (ssize_t)sizeof si) {
                fprintf(stderr, "sampler: read signalfd: %s\n",
                        r < 0 ? strerror(errno) : "short read");
                goto out;
            }
            printf("sampler: caught %s\n", si.ssi_signo == SIGINT ? "SIGINT" : "SIGTERM");
            printf("sampler: %" PRIu64 " samples in %" PRIu64 " periods, %" PRIu64 " missed\n",
                   samples, periods, missed);
            status = 0;
            goto out;
        }
        if (pfd[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
            fprintf(stderr, "sampler: signalfd error\n");
            goto out;
        }

        if (pfd[1].revents & POLLIN) {
            uint64_t expirations;
            ssize_t r = read(tfd, &expirations, sizeof expirations);
            if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
                continue;
            }
            if (r != (ssize_t)sizeof expirations) {
                fprintf(stderr, "sampler: read timerfd: %s\n",
                        r < 0 ? strerror(errno) : "short read");
                goto out;
            }
            if (expirations == 0) {
                continue;
            }

            /* One sample per wake-up; every other elapsed period is missed. */
            periods += expirations;
            missed += expirations - 1;

            unsigned long long raw;
            if (read_adc(&raw) < 0) {
                goto out;
            }
            samples++;
            printf("sample %" PRIu64 ": %llu\n", samples, raw);
            fflush(stdout);

            if (samples == SELFTEST_SAMPLES) {
                /* Acceptance-test mode: stop through the normal SIGTERM path. */
                if (kill(getpid(), SIGTERM) < 0) {
                    fprintf(stderr, "sampler: kill(SIGTERM): %s\n", strerror(errno));
                    goto out;
                }
            }
        } else if (pfd[1].revents & (POLLERR | POLLHUP | POLLNVAL)) {
            fprintf(stderr, "sampler: timerfd error\n");
            goto out;
        }
    }

out:
    if (tfd >= 0) {
        close(tfd);
    }
    if (sfd >= 0) {
        close(sfd);
    }
    fflush(stdout);
    return status;
}
