/* imgcheck: firmware image header validator. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define FIXED_HDR 40u
#define BOARD_LEN 16u

static uint32_t crc32_update(uint32_t crc, const unsigned char *p, size_t n)
{
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
	}
	return crc;
}

static uint32_t rd16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32(const unsigned char *p) { return rd16(p) | rd16(p + 2) << 16; }

static int reject(const char *fmt, uint32_t v)
{
	fputs("imgcheck: ", stderr);
	fprintf(stderr, fmt, v);
	fputc('\n', stderr);
	return 1;
}

static int board_ok(const unsigned char *id)
{
	unsigned n = 0;

	while (n < BOARD_LEN && id[n] != 0) {
		if (id[n] < 0x21 || id[n] > 0x7E)
			return 0;
		n++;
	}
	if (n == 0 || n == BOARD_LEN)
		return 0;
	for (unsigned i = n; i < BOARD_LEN; i++)
		if (id[i] != 0)
			return 0;
	return 1;
}

static int check(FILE *f, const char *name)
{
	unsigned char h[FIXED_HDR], buf[8192];
	struct stat st;
	size_t got;

	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "imgcheck: cannot read %s\n", name);
		return 2;
	}
	uint64_t fsize = (uint64_t)st.st_size;
	got = fread(h, 1, sizeof(h), f);
	if (got < sizeof(h)) {
		if (ferror(f)) {
			fprintf(stderr, "imgcheck: cannot read %s\n", name);
			return 2;
		}
		return reject("truncated header", 0);
	}
	if (memcmp(h, "FIMG", 4) != 0)
		return reject("bad magic", 0);
	uint32_t ver = rd16(h + 4), hsize = rd16(h + 6), isize = rd32(h + 8);
	uint32_t load = rd32(h + 12), entry = rd32(h + 16), crc = rd32(h + 20);
	if (ver != 1)
		return reject("unsupported header version %" PRIu32, ver);
	if (hsize < FIXED_HDR || hsize % 4 != 0 || hsize > fsize)
		return reject("bad header size %" PRIu32, hsize);
	if (isize == 0 || (uint64_t)hsize + isize != fsize)
		return reject("bad image size %" PRIu32, isize);
	uint64_t end = (uint64_t)load + isize;
	if (load % 4 != 0 || end > (UINT64_C(1) << 32))
		return reject("bad load address 0x%08" PRIx32, load);
	if (entry < load || (uint64_t)entry >= end)
		return reject("bad entry point 0x%08" PRIx32, entry);
	if (!board_ok(h + 24))
		return reject("bad board id", 0);

	if (fseek(f, (long)hsize, SEEK_SET) != 0) {
		fprintf(stderr, "imgcheck: cannot read %s\n", name);
		return 2;
	}
	uint32_t c = 0xFFFFFFFFu;
	uint64_t left = isize;
	while (left > 0) {
		size_t want = left < sizeof(buf) ? (size_t)left : sizeof(buf);
		got = fread(buf, 1, want, f);
		if (got == 0) {
			fprintf(stderr, "imgcheck: cannot read %s\n", name);
			return 2;
		}
		c = crc32_update(c, buf, got);
		left -= got;
	}
	c ^= 0xFFFFFFFFu;
	if (c != crc)
		return reject("bad crc 0x%08" PRIx32, c);

	printf("board %s\n", (const char *)(h + 24));
	printf("load 0x%08" PRIx32 "\n", load);
	printf("entry 0x%08" PRIx32 "\n", entry);
	printf("size %" PRIu32 "\n", isize);
	printf("crc 0x%08" PRIx32 "\n", c);
	printf("OK\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: imgcheck FILE\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (f == NULL) {
		fprintf(stderr, "imgcheck: cannot read %s\n", argv[1]);
		return 2;
	}
	int rc = check(f, argv[1]);
	fclose(f);
	return rc;
}
