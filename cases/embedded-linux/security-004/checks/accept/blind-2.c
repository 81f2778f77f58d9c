/* replayguard: 64-entry anti-replay window for 48-bit telemetry sequence
 * numbers, with crash-safe persistence in ./replay.state */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char state_name[] = "replay.state";

struct window {
    bool     valid;       /* at least one packet accepted (now or before) */
    uint64_t top;         /* highest accepted sequence number */
    uint64_t seen;        /* bit i <=> top - i seen */
};

static const uint64_t max_seq = 281474976710655ULL;   /* 2^48 - 1 */

/* --- persistence ------------------------------------------------------- */

static bool all_in(const char *s, size_t n, const char *set)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == '\0' || !strchr(set, s[i]))
            return false;
    return true;
}

/* returns 1 = state loaded, 0 = no file, -1 = unusable file */
static int state_load(struct window *w)
{
    FILE *f = fopen(state_name, "r");
    if (f == NULL)
        return errno == ENOENT ? 0 : -1;

    char text[48];
    size_t n = fread(text, 1, sizeof text, f);
    bool err = ferror(f) != 0;
    fclose(f);
    if (err || n == sizeof text)
        return -1;

    /* "RG1 " digits " " 16*hex "\n" */
    if (n < 4 + 1 + 1 + 16 + 1 || memcmp(text, "RG1 ", 4) != 0)
        return -1;
    if (text[n - 1] != '\n' || text[n - 18] != ' ')
        return -1;
    const char *num = text + 4;
    size_t numlen = n - 18 - 4;
    const char *hex = text + n - 17;

    if (numlen < 1 || numlen > 15 || !all_in(num, numlen, "0123456789"))
        return -1;
    if (numlen > 1 && num[0] == '0')
        return -1;
    if (!all_in(hex, 16, "0123456789abcdef"))
        return -1;

    char tmp[17];
    memcpy(tmp, num, numlen);
    tmp[numlen] = '\0';
    uint64_t top = strtoull(tmp, NULL, 10);
    if (top > max_seq)
        return -1;
    memcpy(tmp, hex, 16);
    tmp[16] = '\0';

    w->top = top;
    w->seen = strtoull(tmp, NULL, 16);
    w->valid = true;
    return 1;
}

static bool state_save(const struct window *w)
{
    char tmpl[] = "replay.state.XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0)
        return false;

    FILE *f = fdopen(fd, "w");
    if (f == NULL) {
        close(fd);
        unlink(tmpl);
        return false;
    }
    fchmod(fd, 0644);

    bool ok = fprintf(f, "RG1 %llu %016llx\n", (unsigned long long)w->top,
                      (unsigned long long)w->seen) > 0;
    ok = ok && fflush(f) == 0;
    ok = ok && fsync(fd) == 0;
    if (fclose(f) != 0)
        ok = false;
    ok = ok && rename(tmpl, state_name) == 0;
    if (!ok) {
        unlink(tmpl);
        return false;
    }

    int dir = open(".", O_RDONLY | O_DIRECTORY);
    if (dir < 0)
        return false;
    ok = fsync(dir) == 0;
    close(dir);
    return ok;
}

/* --- window ------------------------------------------------------------ */

static const char *window_check(struct window *w, uint64_t s)
{
    if (!w->valid) {
        w->valid = true;
        w->top = s;
        w->seen = 1;
        return "accept";
    }
    if (s > w->top) {
        uint64_t shift = s - w->top;
        w->seen = shift < 64 ? (w->seen << shift) | 1 : 1;
        w->top = s;
        return "accept";
    }
    if (w->top - s > 63)
        return "stale";
    uint64_t bit = 1ULL << (w->top - s);
    if (w->seen & bit)
        return "replay";
    w->seen |= bit;
    return "accept";
}

/* --- line assembly ------------------------------------------------------- */

struct line {
    size_t   chars;
    bool     bad;
    uint64_t value;
};

static void line_add(struct line *l, unsigned char c)
{
    l->chars++;
    if (l->bad)
        return;
    if (!isdigit(c) || l->chars > 15) {  /* isdigit: C locale, '0'..'9' */
        l->bad = true;
        return;
    }
    l->value = l->value * 10 + (c - '0');
}

static bool line_end(struct line *l, struct window *w)
{
    bool accepted = false;

    if (l->bad || l->chars == 0 || l->value > max_seq) {
        printf("invalid\n");
    } else {
        const char *v = window_check(w, l->value);
        accepted = v[0] == 'a';
        printf("%s %llu\n", v, (unsigned long long)l->value);
    }
    memset(l, 0, sizeof *l);
    return accepted;
}

int main(void)
{
    struct window w = { 0 };

    if (state_load(&w) < 0) {
        fprintf(stderr, "replayguard: bad state file\n");
        return 2;
    }

    bool dirty = false;
    struct line cur = { 0 };
    bool pending = false;       /* characters seen since the last newline */
    unsigned char buf[4096];

    for (;;) {
        ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] == '\n') {
                if (line_end(&cur, &w))
                    dirty = true;
                pending = false;
            } else {
                line_add(&cur, buf[i]);
                pending = true;
            }
        }
    }
    if (pending && line_end(&cur, &w))
        dirty = true;

    if (fflush(stdout) != 0) {
        /* verdicts could not be delivered; still keep the window */
    }

    if (dirty && !state_save(&w)) {
        fprintf(stderr, "replayguard: cannot save state\n");
        return 3;
    }
    return 0;
}
