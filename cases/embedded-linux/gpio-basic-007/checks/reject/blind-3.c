/* defect: gestures are printed as soon as they are decoded, so a bad line later in the log leaves partial output on stdout
 * breaks: "The whole input is checked before anything is printed."
 * must_fail: scenario_err_time_backwards_late
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

typedef unsigned long long u64;

enum gkind { G_SHORT, G_DOUBLE, G_LONG, G_UNFINISHED };

static void emit(enum gkind k, u64 t, u64 ms)
{
    switch (k) {
    case G_SHORT:
        printf("short %llu\n", t);
        break;
    case G_DOUBLE:
        printf("double %llu\n", t);
        break;
    case G_LONG:
        printf("long %llu %llu\n", t, ms);
        break;
    case G_UNFINISHED:
        printf("unfinished %llu\n", t);
        break;
    }
}

/* Gesture recogniser state */
enum gstate { IDLE, PRESSED, CLICK_WAIT, SECOND_PRESSED };
static enum gstate st = IDLE;
static u64 first_press, first_release, cur_press;

static void press(u64 t)
{
    switch (st) {
    case IDLE:
        cur_press = t;
        st = PRESSED;
        break;
    case CLICK_WAIT:
        cur_press = t;
        if (t - first_release <= 400000) {     /* second press in time */
            st = SECOND_PRESSED;
        } else {
            emit(G_SHORT, first_press, 0);
            st = PRESSED;
        }
        break;
    default:
        break;
    }
}

static void release(u64 t)
{
    u64 d = t - cur_press;
    switch (st) {
    case PRESSED:
        if (d >= 800000) {
            emit(G_LONG, cur_press, d / 1000);
            st = IDLE;
        } else {
            first_press = cur_press;
            first_release = t;
            st = CLICK_WAIT;
        }
        break;
    case SECOND_PRESSED:
        if (d >= 800000) {
            emit(G_SHORT, first_press, 0);
            emit(G_LONG, cur_press, d / 1000);
        } else {
            emit(G_DOUBLE, first_press, 0);
        }
        st = IDLE;
        break;
    default:
        break;
    }
}

static void finish(void)
{
    switch (st) {
    case CLICK_WAIT:
        emit(G_SHORT, first_press, 0);
        break;
    case PRESSED:
        emit(G_UNFINISHED, cur_press, 0);
        break;
    case SECOND_PRESSED:
        emit(G_SHORT, first_press, 0);
        emit(G_UNFINISHED, cur_press, 0);
        break;
    default:
        break;
    }
    st = IDLE;
}

/* Debouncer: a raw change is committed once the following raw change is
 * known to come 20 ms or more later (or never). */
static int raw_level = 0, deb_level = 0;
static int cand_valid = 0, cand_level;
static u64 cand_time;

static void commit(int lvl, u64 t)
{
    if (lvl == deb_level)
        return;
    deb_level = lvl;
    if (lvl)
        press(t);
    else
        release(t);
}

static void raw_edge(u64 t, int lvl)
{
    if (lvl == raw_level)
        return;                 /* repeat of the current level */
    raw_level = lvl;
    if (cand_valid && t >= cand_time + 20000)
        commit(cand_level, cand_time);
    cand_valid = 1;
    cand_level = lvl;
    cand_time = t;
}

static int bad(const char *what, unsigned long n)
{
    fprintf(stderr, "error: line %lu: %s\n", n, what);
    return 2;
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned long lineno = 0;
    int first = 1;
    u64 last = 0;

    while ((n = getline(&line, &cap, stdin)) != -1) {
        lineno++;
        if (n > 0 && line[n - 1] == '\n')
            line[--n] = '\0';
        if (n == 0)
            continue;
        if ((size_t)n != strlen(line))
            return bad("bad format", lineno);   /* embedded NUL */

        const char *sp = strchr(line, ' ');
        if (!sp)
            return bad("bad format", lineno);
        size_t ndig = (size_t)(sp - line);
        if (ndig < 1 || ndig > 15)
            return bad("bad format", lineno);
        u64 t = 0;
        for (size_t i = 0; i < ndig; i++) {
            if (!isdigit((unsigned char)line[i]))
                return bad("bad format", lineno);
            t = t * 10 + (u64)(line[i] - '0');
        }
        if (strcmp(sp + 1, "0") != 0 && strcmp(sp + 1, "1") != 0)
            return bad("bad format", lineno);
        if (!first && t <= last)
            return bad("time goes backwards", lineno);
        first = 0;
        last = t;
        raw_edge(t, sp[1] == '1');
    }
    free(line);

    if (cand_valid)
        commit(cand_level, cand_time);
    finish();

    return 0;
}
