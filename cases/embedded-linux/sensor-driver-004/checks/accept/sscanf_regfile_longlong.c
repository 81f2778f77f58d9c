/* Field-dump checker for the BPS-20: register file filled with sscanf,
 * compensation in long long following the datasheet listing. */
#include <stdio.h>
#include <string.h>

static int reg[256];   /* -1: not in the dump */

static int get_u16(int lo) { return reg[lo] | reg[lo + 1] << 8; }
static int get_s16(int lo) { int v = get_u16(lo); return v >= 0x8000 ? v - 0x10000 : v; }
static int get_s8(int a) { return reg[a] >= 0x80 ? reg[a] - 0x100 : reg[a]; }
static long long get_raw20(int a) { return ((long long)reg[a] << 12) + (reg[a + 1] << 4) + (reg[a + 2] >> 4); }

static int parse(FILE *fp)
{
	char buf[512];

	while (fgets(buf, sizeof buf, fp)) {
		char *p = buf;
		unsigned addr, v;
		int used, count = 0;

		buf[strcspn(buf, "\n")] = 0;
		if (buf[0] == 0 || buf[0] == '#')
			continue;
		if (strlen(buf) < 3 || buf[2] != ':' || sscanf(buf, "%2x%n", &addr, &used) != 1 || used != 2)
			return -1;
		p = buf + 3;
		while (*p) {
			char hex[3];
			if (p[0] != ' ' || !p[1] || !p[2] || count == 16)
				return -1;
			hex[0] = p[1]; hex[1] = p[2]; hex[2] = 0;
			if (strspn(hex, "0123456789abcdefABCDEF") != 2 || sscanf(hex, "%x", &v) != 1 || addr + count > 255)
				return -1;
			reg[addr + count++] = (int)v;
			p += 3;
		}
		if (count == 0)
			return -1;
	}
	return 0;
}

static void show(const char *what, long long v, const char *unit)
{
	long long a = v < 0 ? -v : v;
	printf("%s: %s%lld.%02lld %s\n", what, v < 0 ? "-" : "", a / 100, a % 100, unit);
}

int main(int argc, char *argv[])
{
	static const int needed[] = { 0x40, 0x41, 0x42, 0x43, 0x44, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x4B, 0x4C, 0x4D, 0x4E,
				      0x50, 0x51, 0x52, 0x53, 0x54, 0x55 };
	FILE *fp;

	if (argc != 2) {
		fputs("usage: app <dumpfile>\n", stderr);
		return 1;
	}
	memset(reg, 0xFF, sizeof reg);
	fp = fopen(argv[1], "r");
	if (!fp) {
		perror(argv[1]);
		return 1;
	}
	if (parse(fp) != 0) {
		fputs("error: dump line not in the expected format\n", stderr);
		fclose(fp);
		return 1;
	}
	fclose(fp);
	if (reg[0x3F] != 0x6B) {
		fputs("error: bad chip id\n", stderr);
		return 1;
	}
	for (unsigned i = 0; i < sizeof needed / sizeof needed[0]; i++) {
		if (reg[needed[i]] < 0) {
			fprintf(stderr, "error: missing register 0x%02X\n", needed[i]);
			return 1;
		}
	}

	long long C0 = get_u16(0x40), C1 = get_s16(0x42), C2 = get_s8(0x44), C3 = get_u16(0x46);
	long long C4 = get_s16(0x48), C5 = get_s16(0x4A), C6 = get_s16(0x4C), C7 = get_s8(0x4E);
	long long UP = get_raw20(0x50), UT = get_raw20(0x53);

	long long d = UT - C0 * 16;
	long long t_lin = (d * C1) >> 14;
	long long t_q = ((d >> 5) * (d >> 5)) >> 12;
	long long t_fine = t_lin + ((t_q * C2) >> 6);
	long long T = (t_fine * 25) / 1024;
	long long dt = t_fine - 102400;
	long long sens = C3 * 32 + ((C5 * dt) >> 10);
	long long off = C4 * 64 + ((C6 * dt) >> 8);
	long long x = UP - 524288;
	long long p_lin = ((x * sens) >> 20) + off;
	long long p_nl = (((x >> 4) * (x >> 4)) >> 16) * C7;
	long long P = (p_lin + p_nl + 8) >> 4;

	show("temperature", T, "C");
	show("pressure", P, "hPa");
	return 0;
}
