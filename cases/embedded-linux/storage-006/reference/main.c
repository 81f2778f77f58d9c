/* jrnl: recovery and compaction of the settings journal. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PAYLOAD 1024u
#define MAX_JOURNAL (16u * 1024u * 1024u)

enum scan_end { SCAN_COMPLETE, SCAN_TORN, SCAN_CORRUPT };

struct scan {
	enum scan_end end;
	size_t stop;      /* offset where the scan stopped */
	unsigned records; /* valid records before it */
};

struct setting {
	int live;
	size_t off; /* offset of the value bytes in the journal */
	size_t len; /* value length */
};

static uint32_t crc32_buf(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;
	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
	}
	return c ^ 0xFFFFFFFFu;
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static struct scan scan_journal(const uint8_t *buf, size_t size, struct setting keys[256])
{
	struct scan s = { SCAN_COMPLETE, 0, 0 };
	size_t p = 0;
	for (;;) {
		size_t r = size - p;
		if (r == 0) {
			s.end = SCAN_COMPLETE;
			break;
		}
		if (r < 3) {
			s.end = SCAN_TORN;
			break;
		}
		size_t len = (size_t)buf[p] | (size_t)buf[p + 1] << 8;
		uint8_t type = buf[p + 2];
		if (len == 0 || len > MAX_PAYLOAD) {
			s.end = SCAN_CORRUPT;
			break;
		}
		if (r < 7 + len) {
			s.end = SCAN_TORN;
			break;
		}
		if (crc32_buf(buf + p, 3 + len) != rd32(buf + p + 3 + len)) {
			s.end = (r == 7 + len) ? SCAN_TORN : SCAN_CORRUPT;
			break;
		}
		if ((type != 1 && type != 2) || (type == 2 && len != 1)) {
			s.end = SCAN_CORRUPT;
			break;
		}
		uint8_t key = buf[p + 3];
		if (keys != NULL) {
			keys[key].live = (type == 1);
			keys[key].off = p + 4;
			keys[key].len = len - 1;
		}
		s.records++;
		p += 7 + len;
	}
	s.stop = p;
	return s;
}

static int read_file(const char *path, uint8_t **out, size_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)MAX_JOURNAL + 1) {
		close(fd);
		return -1;
	}
	size_t cap = (size_t)st.st_size + 1, n = 0;
	uint8_t *buf = malloc(cap);
	if (buf == NULL) {
		close(fd);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap * 2);
			if (nb == NULL)
				goto fail;
			buf = nb;
			cap *= 2;
		}
		ssize_t k = read(fd, buf + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			goto fail;
		if (k == 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	*out = buf;
	*size = n;
	return 0;
fail:
	free(buf);
	close(fd);
	return -1;
}

static int write_all(int fd, const void *data, size_t n)
{
	const uint8_t *p = data;
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int sync_dir(void)
{
	int dfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	int rc = fsync(dfd);
	close(dfd);
	return rc;
}

static int cmd_recover(const char *path, const uint8_t *buf, size_t size)
{
	struct scan s = scan_journal(buf, size, NULL);
	if (s.end == SCAN_CORRUPT) {
		fprintf(stderr, "error: corrupt record at offset %zu\n", s.stop);
		return 3;
	}
	if (s.end == SCAN_COMPLETE) {
		printf("clean: %u records, %zu bytes\n", s.records, size);
		return 0;
	}
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)s.stop) < 0 || fsync(fd) < 0) {
		if (fd >= 0)
			close(fd);
		fprintf(stderr, "error: cannot write %s\n", path);
		return 4;
	}
	close(fd);
	printf("torn tail at offset %zu: dropped %zu bytes\n", s.stop, size - s.stop);
	printf("recovered: %u records, %zu bytes\n", s.records, s.stop);
	return 0;
}

static int cmd_compact(const char *path, const uint8_t *buf, size_t size)
{
	struct setting keys[256];
	memset(keys, 0, sizeof(keys));
	struct scan s = scan_journal(buf, size, keys);
	if (s.end == SCAN_CORRUPT) {
		fprintf(stderr, "error: corrupt record at offset %zu\n", s.stop);
		return 3;
	}
	if (s.end == SCAN_TORN)
		printf("torn tail at offset %zu: dropped %zu bytes\n", s.stop, size - s.stop);

	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		goto fail;
	unsigned written = 0;
	size_t total = 0;
	for (unsigned k = 0; k < 256; k++) {
		if (!keys[k].live)
			continue;
		uint8_t rec[7 + MAX_PAYLOAD];
		size_t len = keys[k].len + 1;
		rec[0] = (uint8_t)len;
		rec[1] = (uint8_t)(len >> 8);
		rec[2] = 1;
		rec[3] = (uint8_t)k;
		memcpy(rec + 4, buf + keys[k].off, keys[k].len);
		uint32_t c = crc32_buf(rec, 3 + len);
		for (int i = 0; i < 4; i++)
			rec[3 + len + i] = (uint8_t)(c >> (8 * i));
		if (write_all(fd, rec, 7 + len) < 0)
			goto fail_close;
		written++;
		total += 7 + len;
	}
	if (fsync(fd) < 0)
		goto fail_close;
	if (close(fd) < 0) {
		fd = -1;
		goto fail_unlink;
	}
	if (rename(tmp, path) < 0)
		goto fail_unlink;
	if (sync_dir() < 0) {
		fprintf(stderr, "error: cannot write %s\n", path);
		return 4;
	}
	printf("compacted: %u records -> %u records, %zu bytes\n", s.records, written, total);
	return 0;

fail_close:
	close(fd);
fail_unlink:
	unlink(tmp);
fail:
	fprintf(stderr, "error: cannot write %s\n", path);
	return 4;
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "recover") != 0 && strcmp(argv[1], "compact") != 0)) {
		fprintf(stderr, "usage: jrnl recover FILE | jrnl compact FILE\n");
		return 1;
	}
	uint8_t *buf = NULL;
	size_t size = 0;
	if (read_file(argv[2], &buf, &size) < 0) {
		fprintf(stderr, "error: cannot read %s\n", argv[2]);
		return 2;
	}
	int rc = strcmp(argv[1], "recover") == 0 ? cmd_recover(argv[2], buf, size)
						 : cmd_compact(argv[2], buf, size);
	free(buf);
	return rc;
}
