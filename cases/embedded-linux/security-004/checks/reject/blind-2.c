/* defect: input is read with fgets() into a 64-byte buffer, so a line longer than
 * 63 characters is processed as several lines and gets several verdicts.
 * breaks: "Lines of any length may arrive; a line gets a single verdict however long it is."
 * must_fail: scenario_very_long_line
 */
/*
 * replayguard - anti-replay stage of the telemetry link.
 *
 * 64-packet sliding window over 48-bit sequence numbers (IPsec ESP / DTLS
 * style), persisted in replay.state across restarts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define STATE_FILE   "replay.state"
#define STATE_TMP    "replay.state.tmp"
#define SEQ_MAX      ((UINT64_C(1) << 48) - 1)
#define SEQ_DIGITS   15
#define WINDOW       64

static int      have_state;
static uint64_t top;
static uint64_t bitmap;

/* ---------------------------------------------------------------- state */

static int parse_state(const char *s, size_t n)
{
    size_t i = 0;
    uint64_t t = 0, b = 0;

    if (n < 4 || memcmp(s, "RG1 ", 4) != 0)
        return -1;
    i = 4;

    size_t d0 = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        if (i - d0 >= SEQ_DIGITS)
            return -1;
        t = t * 10 + (uint64_t)(s[i] - '0');
        i++;
    }
    size_t ndig = i - d0;
    if (ndig == 0 || (ndig > 1 && s[d0] == '0') || t > SEQ_MAX)
        return -1;

    if (i >= n || s[i] != ' ')
        return -1;
    i++;

    for (int k = 0; k < 16; k++, i++) {
        if (i >= n)
            return -1;
        char c = s[i];
        int v;
        if (c >= '0' && c <= '9')
            v = c - '0';
        else if (c >= 'a' && c <= 'f')
            v = c - 'a' + 10;
        else
            return -1;
        b = (b << 4) | (uint64_t)v;
    }

    if (i + 1 != n || s[i] != '\n')
        return -1;

    top = t;
    bitmap = b;
    have_state = 1;
    return 0;
}

/* 0: loaded or absent, -1: present but unusable */
static int load_state(void)
{
    int fd = open(STATE_FILE, O_RDONLY);
    if (fd < 0)
        return errno == ENOENT ? 0 : -1;

    char buf[64];
    size_t len = 0;
    for (;;) {
        ssize_t r = read(fd, buf + len, sizeof buf - len);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            return -1;
        }
        if (r == 0)
            break;
        len += (size_t)r;
        if (len == sizeof buf)   /* far longer than any valid state */
            break;
    }
    close(fd);
    return parse_state(buf, len);
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int save_state(void)
{
    char text[64];
    int len = snprintf(text, sizeof text, "RG1 %" PRIu64 " %016" PRIx64 "\n",
                       top, bitmap);

    int fd = open(STATE_TMP, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    if (write_all(fd, text, (size_t)len) != 0 || fsync(fd) != 0) {
        close(fd);
        unlink(STATE_TMP);
        return -1;
    }
    if (close(fd) != 0) {
        unlink(STATE_TMP);
        return -1;
    }
    if (rename(STATE_TMP, STATE_FILE) != 0) {
        unlink(STATE_TMP);
        return -1;
    }
    int dfd = open(".", O_RDONLY | O_DIRECTORY);
    if (dfd < 0)
        return -1;
    int rc = fsync(dfd);
    close(dfd);
    return rc == 0 ? 0 : -1;
}

/* --------------------------------------------------------------- window */

enum verdict { V_ACCEPT, V_REPLAY, V_STALE };

static enum verdict check_and_update(uint64_t s)
{
    if (!have_state) {
        have_state = 1;
        top = s;
        bitmap = 1;
        return V_ACCEPT;
    }
    if (s > top) {
        uint64_t d = s - top;
        bitmap = (d >= WINDOW) ? 0 : (bitmap << d);
        bitmap |= 1;
        top = s;
        return V_ACCEPT;
    }
    uint64_t off = top - s;
    if (off >= WINDOW)
        return V_STALE;
    uint64_t mask = UINT64_C(1) << off;
    if (bitmap & mask)
        return V_REPLAY;
    bitmap |= mask;
    return V_ACCEPT;
}

/* ----------------------------------------------------------------- main */

int main(void)
{
    if (load_state() != 0) {
        fputs("replayguard: bad state file\n", stderr);
        return 2;
    }

    int accepted = 0;
    char line[64];

    while (fgets(line, sizeof line, stdin)) {
        size_t len = strcspn(line, "\n");
        line[len] = '\0';

        uint64_t value = 0;
        int valid = len >= 1 && len <= SEQ_DIGITS;
        for (size_t i = 0; valid && i < len; i++) {
            if (line[i] < '0' || line[i] > '9')
                valid = 0;
            else
                value = value * 10 + (uint64_t)(line[i] - '0');
        }

        if (!valid || value > SEQ_MAX) {
            puts("invalid");
            continue;
        }
        switch (check_and_update(value)) {
        case V_ACCEPT:
            accepted = 1;
            printf("accept %" PRIu64 "\n", value);
            break;
        case V_REPLAY:
            printf("replay %" PRIu64 "\n", value);
            break;
        case V_STALE:
            printf("stale %" PRIu64 "\n", value);
            break;
        }
    }

    fflush(stdout);

    if (accepted && save_state() != 0) {
        fputs("replayguard: cannot save state\n", stderr);
        return 3;
    }
    return 0;
}
