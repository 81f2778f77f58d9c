/* pwmcalc - PWM timer configuration calculator.
 *
 * Reads "FREQ DUTY" requests from stdin, one per line, and prints the
 * PSC/ARR/CCR settings of a 16-bit timer clocked at 48 MHz.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>

#define TIMER_CLK      48000000ULL
#define PSC_MAX        65535u
#define ARR_MIN        99u
#define ARR_MAX        65535u
#define FREQ_MAX       480000ULL
#define DUTY_MAX_TENTH 1000ULL
#define LINE_CAP       1024

enum result {
    RES_OK = 0,
    RES_BAD_REQUEST,
    RES_FREQ_RANGE,
    RES_DUTY_RANGE,
    RES_UNREACHABLE
};

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Accumulates a decimal digit string, saturating at 'cap + 1' so that
 * arbitrarily long strings can never wrap around. */
static uint64_t accumulate(uint64_t v, char c, uint64_t cap)
{
    if (v > cap)
        return v;
    v = v * 10u + (uint64_t)(c - '0');
    if (v > cap)
        v = cap + 1u;
    return v;
}

/* Parses "FREQ DUTY". On success stores the frequency (saturated) and the
 * duty in tenths of a percent (saturated) and returns true. */
static bool parse_request(const char *s, size_t n, uint64_t *freq, uint64_t *tenths)
{
    size_t i = 0;
    uint64_t f = 0, d = 0;

    if (i >= n || !is_digit(s[i]))
        return false;
    while (i < n && is_digit(s[i]))
        f = accumulate(f, s[i++], FREQ_MAX);

    if (i >= n || s[i] != ' ')
        return false;
    i++;

    if (i >= n || !is_digit(s[i]))
        return false;
    while (i < n && is_digit(s[i]))
        d = accumulate(d, s[i++], DUTY_MAX_TENTH);
    d = accumulate(d, '0', DUTY_MAX_TENTH); /* whole percent -> tenths */

    if (i < n && s[i] == '.') {
        i++;
        if (i >= n || !is_digit(s[i]))
            return false;
        if (d <= DUTY_MAX_TENTH) {
            d += (uint64_t)(s[i] - '0');
            if (d > DUTY_MAX_TENTH)
                d = DUTY_MAX_TENTH + 1u;
        }
        i++;
    }

    if (i != n)
        return false;

    *freq = f;
    *tenths = d;
    return true;
}

static uint64_t abs_diff(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

/* Chooses PSC and ARR for the given frequency following the rules:
 * minimal |clk - f*N|, then largest ARR, then smallest PSC. */
static void choose_divider(uint64_t f, uint32_t *psc_out, uint32_t *arr_out,
                           uint64_t *err_out)
{
    bool have = false;
    uint64_t best_err = 0;
    uint32_t best_psc = 0, best_arr = 0;

    for (uint32_t psc = 0; psc <= PSC_MAX; psc++) {
        uint64_t div = (uint64_t)psc + 1u;
        uint64_t m0 = TIMER_CLK / (f * div); /* ideal ARR+1, rounded down */
        uint64_t cand[2] = { m0, m0 + 1u };

        for (int k = 0; k < 2; k++) {
            uint64_t m = cand[k];
            if (m < ARR_MIN + 1u)
                m = ARR_MIN + 1u;
            if (m > ARR_MAX + 1u)
                m = ARR_MAX + 1u;

            uint32_t arr = (uint32_t)(m - 1u);
            uint64_t err = abs_diff(TIMER_CLK, f * div * m);

            if (!have || err < best_err ||
                (err == best_err && arr > best_arr)) {
                have = true;
                best_err = err;
                best_psc = psc;
                best_arr = arr;
            }
        }
    }

    *psc_out = best_psc;
    *arr_out = best_arr;
    *err_out = best_err;
}

static enum result handle_line(const char *s, size_t n)
{
    uint64_t freq, tenths;

    if (!parse_request(s, n, &freq, &tenths)) {
        puts("error: bad request");
        return RES_BAD_REQUEST;
    }
    if (freq == 0 || freq > FREQ_MAX) {
        puts("error: frequency out of range");
        return RES_FREQ_RANGE;
    }
    if (tenths > DUTY_MAX_TENTH) {
        puts("error: duty out of range");
        return RES_DUTY_RANGE;
    }

    uint32_t psc, arr;
    uint64_t err;
    choose_divider(freq, &psc, &arr, &err);

    uint64_t n_div = ((uint64_t)psc + 1u) * ((uint64_t)arr + 1u);
    if (err * 500u > freq * n_div) {
        puts("error: frequency not reachable");
        return RES_UNREACHABLE;
    }

    uint64_t ccr = (tenths * ((uint64_t)arr + 1u) + 500u) / 1000u;
    /* actual frequency in mHz, rounded half up */
    uint64_t mhz = (2u * TIMER_CLK * 1000u + n_div) / (2u * n_div);

    printf("psc=%u arr=%u ccr=%llu freq=%llu.%03llu Hz\n",
           psc, arr, (unsigned long long)ccr,
           (unsigned long long)(mhz / 1000u),
           (unsigned long long)(mhz % 1000u));
    return RES_OK;
}

int main(void)
{
    static char line[LINE_CAP];
    size_t len = 0;
    bool overflow = false;
    bool any_error = false;
    bool pending = false;
    int c;

    for (;;) {
        c = getchar();
        if (c == EOF || c == '\n') {
            if (c == EOF && !pending)
                break;
            enum result r = overflow ? (puts("error: bad request"), RES_BAD_REQUEST)
                                     : handle_line(line, len);
            if (r != RES_OK)
                any_error = true;
            len = 0;
            overflow = false;
            pending = false;
            if (c == EOF)
                break;
            continue;
        }
        pending = true;
        if (len < LINE_CAP)
            line[len++] = (char)c;
        else
            overflow = true;
    }

    fflush(stdout);
    return any_error ? 1 : 0;
}
