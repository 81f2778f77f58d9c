/* defect: the pet-interval sleep restarts clock_nanosleep() on EINTR, so a SIGTERM arriving mid-wait is only
 *         acted on at the end of the interval (up to 1000 ms later)
 * breaks: "6. On SIGTERM (at any moment, also in the middle of a wait; act on it within 100 ms and pet no more after it):"
 * must_fail: scenario_sigterm_during_long_wait
 */
/* wdogd - watchdog daemon: pets while healthy, latches failures,
 * magic close on SIGTERM only when healthy */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define USAGE "usage: wdogd DEVICE INTERVAL_MS [FILE:MAX]...\n"

struct check {
    char *file;
    long long max;
};

static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
    (void)sig;
    got_term = 1;
}

/* "-?[0-9]{1,18}" exactly, over s[0..len) */
static int parse_int(const char *s, size_t len, long long *out)
{
    size_t i = 0;
    int neg = 0;
    long long v = 0;

    if (len > 0 && s[0] == '-') {
        neg = 1;
        i = 1;
    }
    size_t ndig = len - i;
    if (ndig < 1 || ndig > 18)
        return -1;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = neg ? -v : v;
    return 0;
}

static int parse_interval(const char *s, long *out)
{
    long v = 0;
    if (*s == '\0')
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
        if (v > 1000)
            return -1;
    }
    if (v < 10)
        return -1;
    *out = v;
    return 0;
}

static int check_passes(const struct check *c)
{
    char buf[32];
    size_t n = 0;
    int fd = open(c->file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    for (;;) {
        ssize_t k = read(fd, buf + n, sizeof buf - n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            return 0;
        }
        if (k == 0)
            break;
        n += (size_t)k;
        if (n == sizeof buf)
            break;  /* far too long for a valid reading */
    }
    close(fd);

    if (n == sizeof buf)
        return 0;
    if (n > 0 && buf[n - 1] == '\n')
        n--;
    long long v;
    if (parse_int(buf, n, &v) != 0)
        return 0;
    return v <= c->max;
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}

static int term_pending(void)
{
    sigset_t pend;
    sigpending(&pend);
    return got_term || sigismember(&pend, SIGTERM);
}

int main(int argc, char **argv)
{
    long interval;
    int nchecks = argc - 3;
    struct check *checks;

    if (argc < 3 || parse_interval(argv[2], &interval) != 0) {
        fputs(USAGE, stderr);
        return 1;
    }
    if (nchecks < 0)
        nchecks = 0;
    checks = calloc((size_t)nchecks + 1, sizeof *checks);
    if (!checks)
        return 1;
    for (int i = 0; i < nchecks; i++) {
        char *arg = argv[3 + i];
        char *colon = strchr(arg, ':');
        if (!colon || colon == arg ||
            parse_int(colon + 1, strlen(colon + 1), &checks[i].max) != 0) {
            fputs(USAGE, stderr);
            return 1;
        }
        *colon = '\0';
        checks[i].file = arg;
    }

    /* SIGTERM stays blocked except while waiting, so it can't be lost
     * between checking the flag and going to sleep. */
    sigset_t block, waitmask;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigprocmask(SIG_BLOCK, &block, &waitmask);
    sigdelset(&waitmask, SIGTERM);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    int fd = open(argv[1], O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "wdogd: cannot open %s\n", argv[1]);
        return 2;
    }
    say("wdogd: started, interval %ld ms, %d checks\n", interval, nchecks);

    int failed = 0;
    long long next = now_ns();

    while (!got_term) {
        if (!failed) {
            const char *bad = NULL;
            for (int i = 0; i < nchecks; i++) {
                if (!check_passes(&checks[i])) {
                    bad = checks[i].file;
                    break;
                }
            }
            if (bad) {
                failed = 1;
                say("wdogd: check failed: %s\n", bad);
            } else if (!term_pending()) {
                ssize_t w;
                do
                    w = write(fd, ".", 1);
                while (w < 0 && errno == EINTR);
            }
            next += interval * 1000000LL;
        }

        if (failed) {
            /* no more rounds: just wait for SIGTERM */
            sigsuspend(&waitmask);
            continue;
        }

        struct timespec ts = { next / 1000000000LL, next % 1000000000LL };
        sigprocmask(SIG_SETMASK, &waitmask, NULL);
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
            ;   /* sleep the full period even if a signal interrupts it */
        sigprocmask(SIG_BLOCK, &block, NULL);
    }

    if (!failed) {
        ssize_t w;
        do
            w = write(fd, "V", 1);
        while (w < 0 && errno == EINTR);
        close(fd);
        say("wdogd: magic close\n");
        return 0;
    }
    close(fd);
    say("wdogd: exiting armed\n");
    return 3;
}
