/* defect: after a failed check the rounds keep running and the watchdog is petted again as soon as the reading
 *         is back within its limit, instead of the failure being latched
 * breaks: "once a check has failed the daemon stops petting for good (no further rounds are needed) and waits for SIGTERM, so that the watchdog resets the board."
 * must_fail: scenario_reading_recovers_stays_failed, scenario_reading_rises_mid_run
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

static void usage(void)
{
    fprintf(stderr, "usage: wdogd DEVICE INTERVAL_MS [FILE:MAX]...\n");
    exit(1);
}

/* Accepts exactly: optional '-', then 1..18 decimal digits, then end. */
static int is_int18(const char *s, const char *end)
{
    if (s < end && *s == '-')
        s++;
    if (end - s < 1 || end - s > 18)
        return 0;
    for (; s < end; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

typedef struct {
    const char *path;
    long long limit;
} health_check;

/* Reads the file and compares its reading against the limit. */
static int healthy(const health_check *hc)
{
    FILE *f = fopen(hc->path, "r");
    if (f == NULL)
        return 0;
    char text[64];
    size_t got = fread(text, 1, sizeof text - 1, f);
    int err = ferror(f);
    fclose(f);
    if (err || got == sizeof text - 1)
        return 0;
    text[got] = '\0';

    const char *end = text + got;
    if (got > 0 && end[-1] == '\n')
        end--;
    if (memchr(text, '\0', (size_t)(end - text)) != NULL)
        return 0;
    if (!is_int18(text, end))
        return 0;
    return strtoll(text, NULL, 10) <= hc->limit;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        usage();

    const char *iv = argv[2];
    while (iv[0] == '0' && iv[1] != '\0')
        iv++;                                   /* leading zeros */
    size_t ivlen = strlen(iv);
    if (ivlen == 0 || ivlen > 4 || strspn(iv, "0123456789") != ivlen)
        usage();
    int interval_ms = atoi(iv);
    if (interval_ms < 10 || interval_ms > 1000)
        usage();

    int n = argc - 3;
    health_check *hc = malloc(sizeof *hc * (size_t)(n > 0 ? n : 1));
    if (hc == NULL)
        return 1;
    for (int i = 0; i < n; i++) {
        char *a = argv[i + 3];
        char *sep = strchr(a, ':');
        if (sep == NULL || sep == a || !is_int18(sep + 1, sep + strlen(sep)))
            usage();
        *sep = '\0';
        hc[i].path = a;
        hc[i].limit = strtoll(sep + 1, NULL, 10);
    }

    /* SIGTERM is taken synchronously through a signalfd */
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    if (sigprocmask(SIG_BLOCK, &mask, NULL) != 0)
        return 1;
    signal(SIGPIPE, SIG_IGN);

    int wd = open(argv[1], O_WRONLY);
    if (wd == -1) {
        fprintf(stderr, "wdogd: cannot open %s\n", argv[1]);
        return 2;
    }

    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("wdogd: started, interval %d ms, %d checks\n", interval_ms, n);

    int sfd = signalfd(-1, &mask, SFD_CLOEXEC);
    int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    if (sfd == -1 || tfd == -1)
        return 1;
    /* first expiry almost immediately, then every interval */
    struct itimerspec its = {
        .it_value = { 0, 1 },
        .it_interval = { interval_ms / 1000, (long)(interval_ms % 1000) * 1000000L },
    };
    if (timerfd_settime(tfd, 0, &its, NULL) != 0)
        return 1;

    int tripped = 0;
    struct pollfd pfd[2] = {
        { .fd = sfd, .events = POLLIN },
        { .fd = tfd, .events = POLLIN },
    };

    for (;;) {
        int r = poll(pfd, 2, -1);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return 1;
        }
        if (pfd[0].revents & POLLIN)
            break;                              /* SIGTERM */
        if (!(pfd[1].revents & POLLIN))
            continue;

        uint64_t expirations;
        if (read(tfd, &expirations, sizeof expirations) < 0)
            continue;

        int bad = -1;
        for (int i = 0; i < n && bad < 0; i++)
            if (!healthy(&hc[i]))
                bad = i;
        if (bad >= 0) {
            if (!tripped)
                printf("wdogd: check failed: %s\n", hc[bad].path);
            tripped = 1;
            continue;
        }

        /* do not pet if SIGTERM arrived while the checks ran */
        struct pollfd sp = { .fd = sfd, .events = POLLIN };
        if (poll(&sp, 1, 0) > 0)
            break;
        while (write(wd, ".", 1) < 0 && errno == EINTR)
            ;
    }

    if (tripped) {
        close(wd);
        printf("wdogd: exiting armed\n");
        return 3;
    }
    while (write(wd, "V", 1) < 0 && errno == EINTR)
        ;
    close(wd);
    printf("wdogd: magic close\n");
    return 0;
}
