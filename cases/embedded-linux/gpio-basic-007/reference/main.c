/* btnlog: debounce a raw button edge log and decode gestures. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEBOUNCE_US 20000ull
#define LONG_US 800000ull
#define DOUBLE_GAP_US 400000ull

struct edge {
	unsigned long long t;
	int level;
};

static struct edge *raw;
static size_t nraw, capraw;

static int push_raw(unsigned long long t, int level)
{
	if (nraw == capraw) {
		size_t nc = capraw ? capraw * 2 : 256;
		struct edge *p = realloc(raw, nc * sizeof(*p));
		if (p == NULL)
			return -1;
		raw = p;
		capraw = nc;
	}
	raw[nraw].t = t;
	raw[nraw].level = level;
	nraw++;
	return 0;
}

/* Parses "<digits> <0|1>" exactly; returns 0 on success. */
static int parse_line(const char *s, size_t n, unsigned long long *t, int *level)
{
	size_t i = 0;
	unsigned long long v = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9') {
		v = v * 10 + (unsigned long long)(s[i] - '0');
		i++;
	}
	if (i == 0 || i > 15)
		return -1;
	if (n != i + 2 || s[i] != ' ' || (s[i + 1] != '0' && s[i + 1] != '1'))
		return -1;
	*t = v;
	*level = s[i + 1] - '0';
	return 0;
}

static void emit_click_pending(int *pending, unsigned long long t)
{
	if (*pending) {
		printf("short %llu\n", t);
		*pending = 0;
	}
}

int main(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long n = 0;
	int have_prev = 0, cur = 0;
	unsigned long long prev = 0;

	while ((len = getline(&line, &cap, stdin)) != -1) {
		n++;
		size_t l = (size_t)len;
		if (l > 0 && line[l - 1] == '\n')
			l--;
		if (l == 0)
			continue;
		unsigned long long t;
		int level;
		if (memchr(line, '\0', l) != NULL || parse_line(line, l, &t, &level) < 0) {
			fprintf(stderr, "error: line %lu: bad format\n", n);
			return 2;
		}
		if (have_prev && t <= prev) {
			fprintf(stderr, "error: line %lu: time goes backwards\n", n);
			return 2;
		}
		have_prev = 1;
		prev = t;
		if (level != cur) {
			cur = level;
			if (push_raw(t, level) < 0) {
				fprintf(stderr, "error: out of memory\n");
				return 2;
			}
		}
	}
	free(line);

	/* Debounce: a raw change counts when the next change is >= 20 ms later. */
	int deb = 0;
	int pressed = 0;            /* debounced level is 1 */
	unsigned long long press_t = 0;
	int pending = 0;            /* a click waiting for a second press */
	unsigned long long click_t = 0, click_rel = 0;
	int second = 0;             /* the current press may complete a double */

	for (size_t i = 0; i < nraw; i++) {
		int stable = (i + 1 == nraw) || (raw[i + 1].t - raw[i].t >= DEBOUNCE_US);
		if (!stable || raw[i].level == deb)
			continue;
		deb = raw[i].level;
		unsigned long long t = raw[i].t;
		if (deb) {
			pressed = 1;
			press_t = t;
			second = pending && (t - click_rel <= DOUBLE_GAP_US);
			if (pending && !second)
				emit_click_pending(&pending, click_t);
		} else {
			unsigned long long d = t - press_t;
			pressed = 0;
			if (d >= LONG_US) {
				emit_click_pending(&pending, click_t);
				printf("long %llu %llu\n", press_t, d / 1000);
			} else if (second) {
				printf("double %llu\n", click_t);
				pending = 0;
			} else {
				pending = 1;
				click_t = press_t;
				click_rel = t;
			}
			second = 0;
		}
	}
	emit_click_pending(&pending, click_t);
	if (pressed)
		printf("unfinished %llu\n", press_t);
	free(raw);
	return 0;
}
