/* defect: CCR is computed with truncating integer division (no +500), so fractional results are rounded down instead of to nearest / half up.
 * breaks: "`CCR` is DUTY × (ARR + 1) / 100 rounded to the nearest integer, an exact half rounded up."
 * must_fail: scenario_ccr_half_up_small_period, scenario_ccr_rounding_wide_period
 */
#include <stdio.h>
#include <string.h>
#include <ctype.h>

/*
 * pwmcalc: PWM settings for a 16-bit timer running from a 48 MHz clock.
 *   PWM frequency = 48 MHz / ((PSC + 1) * (ARR + 1))
 */

static const unsigned long long F_CLK = 48000000ULL;

typedef struct {
    unsigned psc;
    unsigned arr;
    unsigned long long n;     /* (psc + 1) * (arr + 1) */
    unsigned long long dist;  /* |F_CLK - freq * n| */
} timer_cfg;

/* Reads a run of decimal digits starting at *pp. Returns the number of
 * digits consumed; *out receives the value, or limit + 1 if the value
 * exceeds limit (so long digit strings never overflow). */
static size_t read_number(const char **pp, unsigned long long limit,
                          unsigned long long *out)
{
    const char *p = *pp;
    unsigned long long v = 0;
    int big = 0;

    while (isdigit((unsigned char)*p)) {
        if (!big) {
            v = v * 10 + (unsigned long long)(*p - '0');
            if (v > limit)
                big = 1;
        }
        p++;
    }
    *out = big ? limit + 1 : v;
    size_t n = (size_t)(p - *pp);
    *pp = p;
    return n;
}

/* Scans all ARR values from the largest down; for each the best PSC is
 * one of the two neighbours of the ideal quotient. Only a strictly
 * smaller distance replaces the current choice, so on equal distance the
 * larger ARR (found first) and then the smaller PSC win. */
static timer_cfg search(unsigned long long freq)
{
    timer_cfg best = { 0, 0, 0, ~0ULL };

    for (long arr = 65535; arr >= 99; arr--) {
        unsigned long long period = (unsigned long long)arr + 1;
        unsigned long long lo = F_CLK / (freq * period); /* PSC + 1 */
        unsigned long long tries[2] = { lo, lo + 1 };

        for (int i = 0; i < 2; i++) {
            unsigned long long div = tries[i];
            if (div < 1)
                div = 1;
            else if (div > 65536)
                div = 65536;

            unsigned long long n = div * period;
            unsigned long long prod = freq * n;
            unsigned long long d = prod > F_CLK ? prod - F_CLK : F_CLK - prod;

            if (d < best.dist) {
                best.psc = (unsigned)(div - 1);
                best.arr = (unsigned)arr;
                best.n = n;
                best.dist = d;
            }
        }
    }
    return best;
}

/* Returns 0 when the line produced settings, 1 when it produced an error. */
static int process(const char *line)
{
    const char *p = line;
    unsigned long long freq, whole, frac = 0;

    /* rule 1: FREQ ' ' DIGITS [ '.' DIGIT ] */
    if (read_number(&p, 480000ULL, &freq) == 0 || *p != ' ') {
        puts("error: bad request");
        return 1;
    }
    p++;
    if (read_number(&p, 100ULL, &whole) == 0) {
        puts("error: bad request");
        return 1;
    }
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)p[0]) || p[1] != '\0') {
            puts("error: bad request");
            return 1;
        }
        frac = (unsigned long long)(p[0] - '0');
        p++;
    }
    if (*p != '\0') {
        puts("error: bad request");
        return 1;
    }

    /* rule 2 */
    if (freq == 0 || freq > 480000ULL) {
        puts("error: frequency out of range");
        return 1;
    }

    /* rule 3: duty in tenths of a percent */
    unsigned long long tenths = whole * 10 + frac;
    if (whole > 100 || tenths > 1000) {
        puts("error: duty out of range");
        return 1;
    }

    /* rule 4 + 5 */
    timer_cfg c = search(freq);
    if (c.dist * 500 > freq * c.n) {
        puts("error: frequency not reachable");
        return 1;
    }

    /* rule 6 */
    unsigned long long ccr = tenths * (c.arr + 1ULL) / 1000;

    /* rule 7: 48e6 / N in millihertz, half up */
    unsigned long long num = F_CLK * 1000ULL;
    unsigned long long q = num / c.n;
    unsigned long long r = num % c.n;
    if (2 * r >= c.n)
        q++;

    printf("psc=%u arr=%u ccr=%llu freq=%llu.%03llu Hz\n",
           c.psc, c.arr, ccr, q / 1000, q % 1000);
    return 0;
}

int main(void)
{
    char buf[4096];
    int failed = 0;

    while (fgets(buf, sizeof buf, stdin) != NULL) {
        size_t len = strlen(buf);
        int complete = len > 0 && buf[len - 1] == '\n';

        if (complete) {
            buf[len - 1] = '\0';
        } else if (!feof(stdin)) {
            /* longer than the buffer: swallow the rest, it is malformed */
            int ch;
            while ((ch = getchar()) != EOF && ch != '\n')
                ;
            puts("error: bad request");
            failed = 1;
            continue;
        }
        /* a NUL byte inside the line would hide characters: reject it */
        if (strlen(buf) != len - (complete ? 1 : 0)) {
            puts("error: bad request");
            failed = 1;
            continue;
        }
        failed |= process(buf);
    }

    return failed ? 1 : 0;
}
