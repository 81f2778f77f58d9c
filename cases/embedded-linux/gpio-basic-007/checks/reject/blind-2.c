/* defect: a raw level that stays stable for exactly 20000 us is treated as a bounce and ignored
 * breaks: "(the next raw change comes at `t + 20000` or later, or never)"
 * must_fail: scenario_debounce_exactly_20ms
 */
/* btnlog - decode button gestures from a raw GPIO edge log */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#define DEBOUNCE_US   20000ULL
#define LONG_US       800000ULL
#define DOUBLE_GAP_US 400000ULL

struct event {
    uint64_t t;
    int level;
};

static struct event *events;
static size_t nevents, capevents;

static void push_event(uint64_t t, int level)
{
    if (nevents == capevents) {
        size_t nc = capevents ? capevents * 2 : 1024;
        struct event *ne = realloc(events, nc * sizeof *ne);
        if (!ne) {
            fprintf(stderr, "error: out of memory\n");
            exit(2);
        }
        events = ne;
        capevents = nc;
    }
    events[nevents].t = t;
    events[nevents].level = level;
    nevents++;
}

/* Parses one line (without its '\n'); returns 0 if empty, 1 if event, -1 if bad */
static int parse_line(const char *s, size_t len, uint64_t *t, int *level)
{
    size_t i = 0;
    uint64_t v = 0;

    if (len == 0)
        return 0;
    while (i < len && s[i] >= '0' && s[i] <= '9') {
        v = v * 10 + (uint64_t)(s[i] - '0');
        i++;
    }
    if (i < 1 || i > 15)
        return -1;
    if (len != i + 2 || s[i] != ' ')
        return -1;
    if (s[i + 1] != '0' && s[i + 1] != '1')
        return -1;
    *t = v;
    *level = s[i + 1] - '0';
    return 1;
}

/* ---- gesture decoding ---- */

struct out {
    char *buf;
    size_t len, cap;
};

static void out_add(struct out *o, const char *fmt, unsigned long long a,
                    unsigned long long b, int two)
{
    char tmp[96];
    int n = two ? snprintf(tmp, sizeof tmp, fmt, a, b)
                : snprintf(tmp, sizeof tmp, fmt, a);
    if (o->len + (size_t)n + 1 > o->cap) {
        size_t nc = o->cap ? o->cap * 2 : 4096;
        while (nc < o->len + (size_t)n + 1)
            nc *= 2;
        char *nb = realloc(o->buf, nc);
        if (!nb) {
            fprintf(stderr, "error: out of memory\n");
            exit(2);
        }
        o->buf = nb;
        o->cap = nc;
    }
    memcpy(o->buf + o->len, tmp, (size_t)n);
    o->len += (size_t)n;
}

struct decoder {
    int level;          /* debounced level */
    uint64_t press_t;   /* time of current press */
    int have_click;     /* a click waiting for a second press */
    uint64_t click_press, click_release;
    struct out out;
};

static void on_press(struct decoder *d, uint64_t t)
{
    d->press_t = t;
    if (d->have_click && t - d->click_release > DOUBLE_GAP_US) {
        out_add(&d->out, "short %llu\n", d->click_press, 0, 0);
        d->have_click = 0;
    }
}

static void on_release(struct decoder *d, uint64_t t)
{
    uint64_t dur = t - d->press_t;

    if (dur >= LONG_US) {
        if (d->have_click) {
            out_add(&d->out, "short %llu\n", d->click_press, 0, 0);
            d->have_click = 0;
        }
        out_add(&d->out, "long %llu %llu\n", d->press_t, dur / 1000, 1);
    } else if (d->have_click) {
        out_add(&d->out, "double %llu\n", d->click_press, 0, 0);
        d->have_click = 0;
    } else {
        d->have_click = 1;
        d->click_press = d->press_t;
        d->click_release = t;
    }
}

static void debounced_change(struct decoder *d, uint64_t t, int v)
{
    if (d->level == v)
        return;
    d->level = v;
    if (v)
        on_press(d, t);
    else
        on_release(d, t);
}

int main(void)
{
    char line[128];
    size_t lineno = 0;
    uint64_t prev_t = 0;
    int have_prev = 0;

    for (;;) {
        size_t len = 0;
        int c, overlong = 0, got_any = 0;

        while ((c = getchar()) != EOF) {
            got_any = 1;
            if (c == '\n')
                break;
            if (len < sizeof line - 1)
                line[len++] = (char)c;
            else
                overlong = 1;
        }
        if (!got_any)
            break;
        lineno++;

        uint64_t t;
        int level;
        int r = overlong ? -1 : parse_line(line, len, &t, &level);
        if (r < 0) {
            fprintf(stderr, "error: line %zu: bad format\n", lineno);
            return 2;
        }
        if (r == 0)
            continue;
        if (have_prev && t <= prev_t) {
            fprintf(stderr, "error: line %zu: time goes backwards\n", lineno);
            return 2;
        }
        prev_t = t;
        have_prev = 1;
        push_event(t, level);
        if (c == EOF)
            break;
    }

    struct decoder d;
    memset(&d, 0, sizeof d);

    /* raw level changes: a change is kept by the debouncer if the next
     * raw change is at least DEBOUNCE_US later (or never comes) */
    int raw = 0;
    int pend = 0;            /* a raw change awaiting its stability verdict */
    uint64_t pend_t = 0;
    int pend_v = 0;

    for (size_t i = 0; i < nevents; i++) {
        if (events[i].level == raw)
            continue;
        raw = events[i].level;
        if (pend && events[i].t - pend_t > DEBOUNCE_US)
            debounced_change(&d, pend_t, pend_v);
        pend = 1;
        pend_t = events[i].t;
        pend_v = raw;
    }
    if (pend)
        debounced_change(&d, pend_t, pend_v);

    if (d.level == 1) {
        if (d.have_click) {
            out_add(&d.out, "short %llu\n", d.click_press, 0, 0);
            d.have_click = 0;
        }
        out_add(&d.out, "unfinished %llu\n", d.press_t, 0, 0);
    } else if (d.have_click) {
        out_add(&d.out, "short %llu\n", d.click_press, 0, 0);
    }

    if (d.out.len)
        fwrite(d.out.buf, 1, d.out.len, stdout);
    free(d.out.buf);
    free(events);
    return 0;
}
