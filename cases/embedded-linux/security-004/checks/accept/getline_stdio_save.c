/*
 * Accepted variant: getline() input (any line length), the window kept as
 * "seen" flags in a 64-entry ring indexed by sequence number modulo 64, and
 * converted to the file's top-relative bitmap only when loading and saving;
 * the state is written with stdio and flushed with fflush + fsync.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const unsigned long long kMax = 281474976710655ULL;

static bool have;
static unsigned long long hi;
static bool ring[64];            /* ring[s % 64]: s seen, for hi-63 <= s <= hi */

static bool seq_of(const char *p, size_t n, unsigned long long *v)
{
	unsigned long long x = 0;
	if (n < 1 || n > 15)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		x = x * 10 + (unsigned)(p[i] - '0');
	}
	*v = x;
	return x <= kMax;
}

static const char *judge(unsigned long long s)
{
	if (!have) {
		have = true;
		memset(ring, 0, sizeof ring);
		hi = s;
		ring[s % 64] = true;
		return "accept";
	}
	if (s > hi) {
		if (s - hi >= 64) {
			memset(ring, 0, sizeof ring);
		} else {
			for (unsigned long long k = hi + 1; k < s; k++)
				ring[k % 64] = false;
		}
		ring[s % 64] = true;
		hi = s;
		return "accept";
	}
	if (hi - s >= 64)
		return "stale";
	if (ring[s % 64])
		return "replay";
	ring[s % 64] = true;
	return "accept";
}

static int load(void)
{
	FILE *f = fopen("replay.state", "r");
	char text[80];
	size_t n;

	if (!f)
		return errno == ENOENT ? 0 : -1;
	n = fread(text, 1, sizeof text - 1, f);
	bool err = ferror(f) || !feof(f) && fgetc(f) != EOF;
	fclose(f);
	if (err)
		return -1;
	text[n] = '\0';
	if (n < 4 || strncmp(text, "RG1 ", 4) != 0 || strlen(text) != n)
		return -1;
	char *sp = strchr(text + 4, ' ');
	if (!sp)
		return -1;
	size_t dl = (size_t)(sp - (text + 4));
	unsigned long long top, bm = 0;
	if (!seq_of(text + 4, dl, &top) || (dl > 1 && text[4] == '0'))
		return -1;
	const char *hx = sp + 1;
	if (strlen(hx) != 17 || hx[16] != '\n')
		return -1;
	for (int i = 0; i < 16; i++) {
		const char *d = strchr("0123456789abcdef", hx[i]);
		if (!d || !hx[i])
			return -1;
		bm = (bm << 4) | (unsigned long long)(d - "0123456789abcdef");
	}
	have = true;
	hi = top;
	for (int i = 0; i < 64; i++)
		ring[(top - (unsigned long long)i) % 64] = (bm >> i) & 1 && (unsigned long long)i <= top;
	return 0;
}

static bool store(void)
{
	unsigned long long bm = 0;
	for (int i = 0; i < 64 && (unsigned long long)i <= hi; i++)
		if (ring[(hi - (unsigned long long)i) % 64])
			bm |= 1ULL << i;

	FILE *f = fopen("replay.state.new", "w");
	if (!f)
		return false;
	bool ok = fprintf(f, "RG1 %llu %016llx\n", hi, bm) > 0 && fflush(f) == 0 && fdatasync(fileno(f)) == 0;
	if (fclose(f) != 0)
		ok = false;
	if (!ok || rename("replay.state.new", "replay.state") != 0) {
		remove("replay.state.new");
		return false;
	}
	int d = open(".", O_RDONLY | O_DIRECTORY);
	if (d < 0)
		return false;
	ok = fsync(d) == 0;
	close(d);
	return ok;
}

int main(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	bool changed = false;

	if (load() != 0) {
		fputs("replayguard: bad state file\n", stderr);
		return 2;
	}
	while ((len = getline(&line, &cap, stdin)) != -1) {
		unsigned long long s;
		if (len > 0 && line[len - 1] == '\n')
			len--;
		if (!seq_of(line, (size_t)len, &s)) {
			puts("invalid");
			continue;
		}
		const char *v = judge(s);
		if (strcmp(v, "accept") == 0)
			changed = true;
		printf("%s %llu\n", v, s);
	}
	free(line);
	if (changed && !store()) {
		fputs("replayguard: cannot save state\n", stderr);
		return 3;
	}
	return 0;
}
