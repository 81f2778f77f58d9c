/* iioscan: decode an IIO buffer capture using the device's scan_elements. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CHANNELS 64
#define NAME_LEN 128

struct channel {
	char name[NAME_LEN];
	unsigned long index;
	bool big_endian, is_signed, is_timestamp;
	unsigned bits, storage, shift;  /* storage in bytes */
	size_t offset;                  /* within the scan */
	double scale, value_offset;
};

static const char *devdir;

/* Reads the one-line file path into buf without its newline. Returns 0, -1
 * when the file does not exist (errno ENOENT) or cannot be read, -2 when it
 * is not one line. */
static int read_line_file(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return -1;
	if (fgets(buf, (int)cap, f) == NULL) {
		fclose(f);
		return -2;
	}
	fclose(f);
	n = strlen(buf);
	if (n == 0 || buf[n - 1] != '\n')
		return -2;
	buf[n - 1] = '\0';
	return 0;
}

static int read_attr(const char *fmt, const char *name, char *buf, size_t cap, bool optional)
{
	char path[4096];
	int r;

	snprintf(path, sizeof(path), fmt, devdir, name);
	r = read_line_file(path, buf, cap);
	if (r == -1 && optional && errno == ENOENT)
		return 1;
	if (r == -1)
		fprintf(stderr, "iioscan: cannot read %s: %s\n", path, strerror(errno));
	else if (r == -2)
		fprintf(stderr, "iioscan: %s: not a single line\n", path);
	return r;
}

static bool parse_ulong(const char *s, unsigned long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno == 0 && *end == '\0';
}

static bool parse_type(const char *s, struct channel *ch)
{
	unsigned bits, storage, shift;
	char endian[3], sign;
	int used = 0;

	if (sscanf(s, "%2[a-z]:%c%u/%u>>%u%n", endian, &sign, &bits, &storage, &shift, &used) != 5 ||
	    s[used] != '\0')
		return false;
	if (strcmp(endian, "le") != 0 && strcmp(endian, "be") != 0)
		return false;
	if ((sign != 's' && sign != 'u') || (storage != 8 && storage != 16 && storage != 32 && storage != 64))
		return false;
	if (bits < 1 || bits + shift > storage)
		return false;
	ch->big_endian = endian[0] == 'b';
	ch->is_signed = sign == 's';
	ch->bits = bits;
	ch->storage = storage / 8;
	ch->shift = shift;
	return true;
}

/* scale or offset: per-channel file, else shared by prefix, else dflt */
static int channel_number(const struct channel *ch, const char *suffix, double dflt, double *out)
{
	char fmt[64], prefix[NAME_LEN], buf[256], *end;
	size_t plen = strcspn(ch->name, "_0123456789");
	int r;

	snprintf(fmt, sizeof(fmt), "%%s/in_%%s_%s", suffix);
	r = read_attr(fmt, ch->name, buf, sizeof(buf), true);
	if (r == 1) {
		memcpy(prefix, ch->name, plen);
		prefix[plen] = '\0';
		r = read_attr(fmt, prefix, buf, sizeof(buf), true);
	}
	if (r == 1) {
		*out = dflt;
		return 0;
	}
	if (r < 0)
		return -1;
	errno = 0;
	*out = strtod(buf, &end);
	if (end == buf || *end != '\0' || errno != 0) {
		fprintf(stderr, "iioscan: %s of %s is not a number: %s\n", suffix, ch->name, buf);
		return -1;
	}
	return 0;
}

static int by_index(const void *a, const void *b)
{
	const struct channel *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static uint64_t load_bytes(const uint8_t *p, unsigned n, bool big_endian)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[big_endian ? n - 1 - i : i] << (8 * i);
	return v;
}

static int64_t decode(const struct channel *ch, const uint8_t *scan)
{
	uint64_t v = load_bytes(scan + ch->offset, ch->storage, ch->big_endian) >> ch->shift;
	uint64_t mask = ch->bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << ch->bits) - 1;

	v &= mask;
	if (ch->is_signed && ch->bits < 64 && (v >> (ch->bits - 1)) & 1)
		v |= ~mask;
	return (int64_t)v;
}

int main(int argc, char **argv)
{
	static struct channel chans[MAX_CHANNELS];
	static uint8_t scan[MAX_CHANNELS * 8];
	char path[4096], buf[256];
	size_t nch = 0, pos = 0, scan_size, largest = 1, got;
	unsigned long k = 0;
	struct dirent *de;
	DIR *dir;
	FILE *cap;

	if (argc != 3) {
		fprintf(stderr, "usage: %s <devdir> <capture>\n", argv[0]);
		return 1;
	}
	devdir = argv[1];
	snprintf(path, sizeof(path), "%s/scan_elements", devdir);
	dir = opendir(path);
	if (dir == NULL) {
		fprintf(stderr, "iioscan: cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}
	while ((de = readdir(dir)) != NULL) {
		size_t len = strlen(de->d_name);
		struct channel *ch;
		unsigned long en;

		if (len < 7 || strncmp(de->d_name, "in_", 3) != 0 || strcmp(de->d_name + len - 3, "_en") != 0)
			continue;
		if (len - 6 >= NAME_LEN || nch == MAX_CHANNELS) {
			fprintf(stderr, "iioscan: too many channels or name too long: %s\n", de->d_name);
			closedir(dir);
			return 1;
		}
		ch = &chans[nch];
		memcpy(ch->name, de->d_name + 3, len - 6);
		ch->name[len - 6] = '\0';
		if (read_attr("%s/scan_elements/in_%s_en", ch->name, buf, sizeof(buf), false) != 0) {
			closedir(dir);
			return 1;
		}
		if (!parse_ulong(buf, &en) || en > 1) {
			fprintf(stderr, "iioscan: in_%s_en is not 0 or 1: %s\n", ch->name, buf);
			closedir(dir);
			return 1;
		}
		if (en == 1)
			nch++;
	}
	closedir(dir);
	if (nch == 0) {
		fprintf(stderr, "iioscan: no channel is enabled\n");
		return 1;
	}

	for (size_t i = 0; i < nch; i++) {
		struct channel *ch = &chans[i];

		if (read_attr("%s/scan_elements/in_%s_index", ch->name, buf, sizeof(buf), false) != 0)
			return 1;
		if (!parse_ulong(buf, &ch->index)) {
			fprintf(stderr, "iioscan: in_%s_index is not an index: %s\n", ch->name, buf);
			return 1;
		}
		if (read_attr("%s/scan_elements/in_%s_type", ch->name, buf, sizeof(buf), false) != 0)
			return 1;
		if (!parse_type(buf, ch)) {
			fprintf(stderr, "iioscan: in_%s_type is not a type: %s\n", ch->name, buf);
			return 1;
		}
		ch->is_timestamp = strcmp(ch->name, "timestamp") == 0;
		if (!ch->is_timestamp &&
		    (channel_number(ch, "scale", 1.0, &ch->scale) != 0 ||
		     channel_number(ch, "offset", 0.0, &ch->value_offset) != 0))
			return 1;
	}

	qsort(chans, nch, sizeof(chans[0]), by_index);
	for (size_t i = 0; i < nch; i++) {
		size_t sz = chans[i].storage;

		pos = (pos + sz - 1) / sz * sz;
		chans[i].offset = pos;
		pos += sz;
		if (sz > largest)
			largest = sz;
	}
	scan_size = (pos + largest - 1) / largest * largest;

	cap = fopen(argv[2], "rb");
	if (cap == NULL) {
		fprintf(stderr, "iioscan: cannot open %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	while ((got = fread(scan, 1, scan_size, cap)) == scan_size) {
		printf("%lu:", k++);
		for (size_t i = 0; i < nch; i++) {
			int64_t raw = decode(&chans[i], scan);

			if (chans[i].is_timestamp)
				printf(" %s=%" PRId64, chans[i].name, raw);
			else
				printf(" %s=%.3f", chans[i].name, ((double)raw + chans[i].value_offset) * chans[i].scale);
		}
		putchar('\n');
	}
	if (ferror(cap)) {
		fprintf(stderr, "iioscan: cannot read %s\n", argv[2]);
		fclose(cap);
		return 1;
	}
	fclose(cap);
	if (got > 0)
		fprintf(stderr, "warning: %zu trailing bytes ignored\n", got);
	return 0;
}
