/* pwmcalc: PSC/ARR/CCR for a 16-bit timer clocked at 48 MHz. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TIMER_CLK   48000000ull
#define PSC_MAX     65535ull
#define ARR_MIN     99ull
#define ARR_MAX     65535ull
#define FREQ_MAX    480000ull

/* Parses one or more digits, saturating above `cap`. Returns chars used. */
static size_t parse_digits(const char *s, uint64_t cap, uint64_t *out)
{
	size_t i = 0;
	uint64_t v = 0;

	while (s[i] >= '0' && s[i] <= '9') {
		if (v <= cap)
			v = v * 10 + (uint64_t)(s[i] - '0');
		i++;
	}
	*out = v > cap ? cap + 1 : v;
	return i;
}

/* 0 ok, -1 malformed. freq saturates at FREQ_MAX + 1, tenths at 1001. */
static int parse_line(const char *line, uint64_t *freq, uint64_t *tenths)
{
	const char *p = line;
	uint64_t whole, frac = 0;
	size_t n;

	n = parse_digits(p, FREQ_MAX, freq);
	if (n == 0 || p[n] != ' ')
		return -1;
	p += n + 1;
	n = parse_digits(p, 100, &whole);
	if (n == 0)
		return -1;
	p += n;
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return -1;
		frac = (uint64_t)(p[1] - '0');
		p += 2;
	}
	if (*p != '\0')
		return -1;
	*tenths = whole > 100 ? 1001 : whole * 10 + frac;
	return 0;
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static int process(const char *line)
{
	uint64_t freq, tenths;
	uint64_t best_err = UINT64_MAX, best_psc = 0, best_arr = 0;

	if (parse_line(line, &freq, &tenths) < 0) {
		puts("error: bad request");
		return -1;
	}
	if (freq == 0 || freq > FREQ_MAX) {
		puts("error: frequency out of range");
		return -1;
	}
	if (tenths > 1000) {
		puts("error: duty out of range");
		return -1;
	}
	for (uint64_t div = 1; div <= PSC_MAX + 1; div++) {
		uint64_t lo = TIMER_CLK / (freq * div);
		uint64_t cand[2] = { lo, lo + 1 };

		for (int k = 1; k >= 0; k--) {
			uint64_t per = cand[k];

			if (per < ARR_MIN + 1)
				per = ARR_MIN + 1;
			if (per > ARR_MAX + 1)
				per = ARR_MAX + 1;
			uint64_t err = absdiff(TIMER_CLK, freq * div * per);
			uint64_t arr = per - 1, psc = div - 1;

			if (err < best_err || (err == best_err && (arr > best_arr || (arr == best_arr && psc < best_psc)))) {
				best_err = err;
				best_arr = arr;
				best_psc = psc;
			}
		}
	}
	uint64_t n = (best_psc + 1) * (best_arr + 1);

	if (best_err * 500 > freq * n) {
		puts("error: frequency not reachable");
		return -1;
	}
	uint64_t ccr = (tenths * (best_arr + 1) + 500) / 1000;
	uint64_t mhz = (TIMER_CLK * 1000 + n / 2) / n;

	printf("psc=%llu arr=%llu ccr=%llu freq=%llu.%03llu Hz\n",
	       (unsigned long long)best_psc, (unsigned long long)best_arr,
	       (unsigned long long)ccr, (unsigned long long)(mhz / 1000),
	       (unsigned long long)(mhz % 1000));
	return 0;
}

int main(void)
{
	char line[256];
	int status = 0;

	while (fgets(line, sizeof(line), stdin) != NULL) {
		size_t len = strlen(line);

		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (process(line) < 0)
			status = 1;
	}
	return status;
}
