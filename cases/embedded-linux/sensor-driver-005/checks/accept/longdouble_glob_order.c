/* iioscan variant: channel discovery by scanning directory entries for
 * index files, insertion sort by index, values in long double. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	char name[96];
	long idx;
	int be, sgn, bits, bytes, shift, ts, off;
	long double scale, offset;
} chan_t;

static chan_t tab[32];
static int ntab;
static char dev[1024];

static int slurp(const char *sub, const char *name, const char *suffix, char *out, int must)
{
	char p[1400];
	FILE *f;
	int len;

	snprintf(p, sizeof p, "%s/%sin_%s_%s", dev, sub, name, suffix);
	f = fopen(p, "r");
	if (!f) {
		if (must)
			fprintf(stderr, "iioscan: missing %s\n", p);
		return -1;
	}
	if (!fgets(out, 200, f)) {
		fclose(f);
		fprintf(stderr, "iioscan: empty %s\n", p);
		return -2;
	}
	fclose(f);
	len = (int)strlen(out);
	if (len == 0 || out[len - 1] != '\n') {
		fprintf(stderr, "iioscan: bad %s\n", p);
		return -2;
	}
	out[len - 1] = 0;
	return 0;
}

static int number(const chan_t *c, const char *suffix, long double dflt, long double *v)
{
	char txt[256], pre[96], *end;
	int r = slurp("", c->name, suffix, txt, 0);

	if (r == -1) {
		size_t n = strcspn(c->name, "_0123456789");
		memcpy(pre, c->name, n);
		pre[n] = 0;
		r = slurp("", pre, suffix, txt, 0);
	}
	if (r == -1) {
		*v = dflt;
		return 0;
	}
	if (r < 0)
		return -1;
	*v = strtold(txt, &end);
	if (end == txt || *end) {
		fprintf(stderr, "iioscan: %s %s: not a number\n", c->name, suffix);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char txt[256], sub[1100];
	DIR *d;
	struct dirent *e;
	int pos = 0, maxb = 1, size;
	unsigned char rec[512];
	FILE *f;
	size_t got;
	long scan_no = 0;

	if (argc != 3) {
		fprintf(stderr, "iioscan: need <devdir> <capture>\n");
		return 1;
	}
	snprintf(dev, sizeof dev, "%s", argv[1]);
	snprintf(sub, sizeof sub, "%s/scan_elements", dev);
	if (!(d = opendir(sub))) {
		fprintf(stderr, "iioscan: no %s\n", sub);
		return 1;
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		chan_t c;
		char sg, en[3];
		int used = -1;

		if (n <= 6 || memcmp(e->d_name, "in_", 3) || strcmp(e->d_name + n - 3, "_en") || n - 6 >= sizeof c.name)
			continue;
		memset(&c, 0, sizeof c);
		memcpy(c.name, e->d_name + 3, n - 6);
		if (slurp("scan_elements/", c.name, "en", txt, 1))
			goto fail;
		if (strcmp(txt, "0") == 0)
			continue;
		if (strcmp(txt, "1") != 0)
			goto bad;
		if (slurp("scan_elements/", c.name, "index", txt, 1))
			goto fail;
		if (txt[0] < '0' || txt[0] > '9' || sscanf(txt, "%ld%n", &c.idx, &used) != 1 || txt[used])
			goto bad;
		if (slurp("scan_elements/", c.name, "type", txt, 1))
			goto fail;
		used = -1;
		if (sscanf(txt, "%2c:%c%d/%d>>%d%n", en, &sg, &c.bits, &c.bytes, &c.shift, &used) != 5 || used < 0 || txt[used])
			goto bad;
		if ((memcmp(en, "le", 2) && memcmp(en, "be", 2)) || (sg != 's' && sg != 'u') ||
		    (c.bytes != 8 && c.bytes != 16 && c.bytes != 32 && c.bytes != 64) ||
		    c.bits < 1 || c.shift < 0 || c.bits + c.shift > c.bytes)
			goto bad;
		c.be = en[0] == 'b';
		c.sgn = sg == 's';
		c.bytes /= 8;
		c.ts = !strcmp(c.name, "timestamp");
		if (!c.ts && (number(&c, "scale", 1.0L, &c.scale) || number(&c, "offset", 0.0L, &c.offset)))
			goto fail;
		if (ntab == 32)
			goto bad;
		/* insertion sort by scan index */
		int k = ntab++;
		while (k > 0 && tab[k - 1].idx > c.idx) {
			tab[k] = tab[k - 1];
			k--;
		}
		tab[k] = c;
		continue;
bad:
		fprintf(stderr, "iioscan: channel %s: malformed attribute\n", c.name);
fail:
		closedir(d);
		return 1;
	}
	closedir(d);
	if (ntab == 0) {
		fprintf(stderr, "iioscan: nothing enabled\n");
		return 1;
	}
	for (int i = 0; i < ntab; i++) {
		int b = tab[i].bytes;
		if (pos % b)
			pos += b - pos % b;
		tab[i].off = pos;
		pos += b;
		if (b > maxb)
			maxb = b;
	}
	size = pos % maxb ? pos + maxb - pos % maxb : pos;

	if (!(f = fopen(argv[2], "rb"))) {
		fprintf(stderr, "iioscan: cannot open capture %s\n", argv[2]);
		return 1;
	}
	while ((got = fread(rec, 1, (size_t)size, f)) == (size_t)size) {
		printf("%ld:", scan_no++);
		for (int i = 0; i < ntab; i++) {
			const chan_t *c = &tab[i];
			uint64_t w = 0;
			int64_t v;

			for (int b = 0; b < c->bytes; b++)
				w = (w << 8) | rec[c->off + (c->be ? b : c->bytes - 1 - b)];
			w >>= c->shift;
			if (c->bits < 64) {
				w &= (UINT64_C(1) << c->bits) - 1;
				if (c->sgn && (w & (UINT64_C(1) << (c->bits - 1))))
					w -= UINT64_C(1) << c->bits;
			}
			v = (int64_t)w;
			if (c->ts)
				printf(" %s=%lld", c->name, (long long)v);
			else
				printf(" %s=%.3Lf", c->name, (long double)v * c->scale + c->offset * c->scale);
		}
		printf("\n");
	}
	fclose(f);
	if (got)
		fprintf(stderr, "warning: %zu trailing bytes ignored\n", got);
	return 0;
}
