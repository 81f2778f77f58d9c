/* bpsdump: compensated readings of a Vireo BPS-20 from a register dump. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REG_CHIP_ID   0x3F
#define CHIP_ID       0x6B
#define REG_CALIB     0x40
#define REG_PRESS     0x50
#define REG_TEMP      0x53

struct dump {
	uint8_t val[256];
	bool known[256];
};

struct calib {
	uint16_t c0, c3;
	int16_t c1, c4, c5, c6;
	int8_t c2, c7;
};

static int hexdigit(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = tolower(ch);
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

static int hexbyte(const char *s)
{
	int hi = hexdigit((unsigned char)s[0]), lo;

	if (hi < 0 || (lo = hexdigit((unsigned char)s[1])) < 0)
		return -1;
	return hi << 4 | lo;
}

/* One line "AA: VV VV ...". Returns false when it is not in the format. */
static bool parse_line(struct dump *d, const char *s)
{
	int addr = hexbyte(s), n = 0;

	if (addr < 0 || s[2] != ':')
		return false;
	s += 3;
	while (*s == ' ') {
		int v = hexbyte(s + 1);

		if (v < 0 || n == 16 || addr + n > 0xFF)
			return false;
		d->val[addr + n] = (uint8_t)v;
		d->known[addr + n] = true;
		n++;
		s += 3;
	}
	return *s == '\0' && n > 0;
}

static int load(struct dump *d, const char *path)
{
	char line[256];
	FILE *f = fopen(path, "r");
	int lineno = 0;

	if (f == NULL) {
		fprintf(stderr, "error: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '\0' || line[0] == '#')
			continue;
		if (!parse_line(d, line)) {
			fprintf(stderr, "error: %s:%d: not a register line\n", path, lineno);
			fclose(f);
			return -1;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "error: cannot read %s\n", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static uint16_t le16(const struct dump *d, int reg)
{
	return (uint16_t)(d->val[reg] | d->val[reg + 1] << 8);
}

static int32_t raw20(const struct dump *d, int reg)
{
	return (int32_t)d->val[reg] << 12 | (int32_t)d->val[reg + 1] << 4 | d->val[reg + 2] >> 4;
}

static void print_fixed2(const char *label, int64_t v, const char *unit)
{
	uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	printf("%s: %s%" PRIu64 ".%02" PRIu64 " %s\n", label, v < 0 ? "-" : "", mag / 100, mag % 100, unit);
}

int main(int argc, char **argv)
{
	static struct dump d;
	struct calib k;
	int64_t ut, up, dv, t_lin, t_q, t_fine, t, dt, sens, off, x, p_lin, p_nl, p;

	if (argc != 2) {
		fprintf(stderr, "usage: %s <dumpfile>\n", argv[0]);
		return 1;
	}
	if (load(&d, argv[1]) != 0)
		return 1;
	if (!d.known[REG_CHIP_ID] || d.val[REG_CHIP_ID] != CHIP_ID) {
		fprintf(stderr, "error: bad chip id\n");
		return 1;
	}
	for (int r = REG_CALIB; r <= REG_TEMP + 2; r++) {
		if (r == 0x45 || r == 0x4F)
			continue;
		if (!d.known[r]) {
			fprintf(stderr, "error: missing register 0x%02X\n", r);
			return 1;
		}
	}

	k.c0 = le16(&d, 0x40);
	k.c1 = (int16_t)le16(&d, 0x42);
	k.c2 = (int8_t)d.val[0x44];
	k.c3 = le16(&d, 0x46);
	k.c4 = (int16_t)le16(&d, 0x48);
	k.c5 = (int16_t)le16(&d, 0x4A);
	k.c6 = (int16_t)le16(&d, 0x4C);
	k.c7 = (int8_t)d.val[0x4E];
	up = raw20(&d, REG_PRESS);
	ut = raw20(&d, REG_TEMP);

	dv = ut - (int64_t)k.c0 * 16;
	t_lin = (dv * k.c1) >> 14;
	t_q = ((dv >> 5) * (dv >> 5)) >> 12;
	t_fine = t_lin + ((t_q * k.c2) >> 6);
	t = (t_fine * 25) / 1024;

	dt = t_fine - 102400;
	sens = (int64_t)k.c3 * 32 + (((int64_t)k.c5 * dt) >> 10);
	off = (int64_t)k.c4 * 64 + (((int64_t)k.c6 * dt) >> 8);
	x = up - 524288;
	p_lin = ((x * sens) >> 20) + off;
	p_nl = (((x >> 4) * (x >> 4)) >> 16) * k.c7;
	p = (p_lin + p_nl + 8) >> 4;

	print_fixed2("temperature", t, "C");
	print_fixed2("pressure", p, "hPa");
	return 0;
}
