/* abupd: A/B update agent (install, boot decision, confirmation). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CTL_PATH      "bootctl"
#define CTL_TMP       "bootctl.tmp"
#define HDR_SIZE      16u
#define MAX_PAYLOAD   16777216u
#define TRIAL_BOOTS   3u
#define CHUNK         4096u

enum state { ST_GOOD, ST_TRIAL, ST_BAD };

struct slot {
	enum state state;
	unsigned attempts;
	uint32_t version;
};

struct bootctl {
	int active;               /* 0 = A, 1 = B */
	struct slot slot[2];
};

static const char *const state_name[] = { "good", "trial", "bad" };
static const char *const slot_file[] = { "slot_a.img", "slot_b.img" };

static uint32_t crc32_update(uint32_t crc, const unsigned char *p, size_t n)
{
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
	}
	return crc;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int parse_u32(const char *s, uint32_t *out)
{
	uint64_t v = 0;

	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > 0xFFFFFFFFu)
			return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static int parse_slot_line(char *line, char name, struct slot *s)
{
	char *f[4];
	int n = 0;
	uint32_t att;

	if (line[0] != name || line[1] != ' ')
		return -1;
	line += 2;
	f[n++] = line;
	for (char *p = line; *p; p++) {
		if (*p == ' ') {
			if (n == 4)
				return -1;
			*p = '\0';
			f[n++] = p + 1;
		}
	}
	if (n != 3)
		return -1;
	if (strcmp(f[0], "good") == 0)
		s->state = ST_GOOD;
	else if (strcmp(f[0], "trial") == 0)
		s->state = ST_TRIAL;
	else if (strcmp(f[0], "bad") == 0)
		s->state = ST_BAD;
	else
		return -1;
	if (parse_u32(f[1], &att) < 0 || att > TRIAL_BOOTS)
		return -1;
	if (s->state != ST_TRIAL && att != 0)
		return -1;
	s->attempts = att;
	return parse_u32(f[2], &s->version);
}

static int load_ctl(struct bootctl *ctl)
{
	char buf[256];
	char *lines[3];
	size_t len = 0;
	ssize_t r;
	int fd = open(CTL_PATH, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((r = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)r;
	close(fd);
	if (r < 0 || len == sizeof(buf) - 1)
		return -1;
	buf[len] = '\0';
	if (strlen(buf) != len)
		return -1;

	char *p = buf;
	for (int i = 0; i < 3; i++) {
		char *nl = strchr(p, '\n');
		if (nl == NULL)
			return -1;
		*nl = '\0';
		lines[i] = p;
		p = nl + 1;
	}
	if (*p != '\0')
		return -1;
	if (strcmp(lines[0], "active A") == 0)
		ctl->active = 0;
	else if (strcmp(lines[0], "active B") == 0)
		ctl->active = 1;
	else
		return -1;
	if (parse_slot_line(lines[1], 'A', &ctl->slot[0]) < 0 ||
	    parse_slot_line(lines[2], 'B', &ctl->slot[1]) < 0)
		return -1;
	return 0;
}

static int write_all(int fd, const void *data, size_t n)
{
	const char *p = data;

	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Atomic replacement: temp file, fsync, rename, fsync of the directory. */
static int save_ctl(const struct bootctl *ctl)
{
	char text[160];
	int n = snprintf(text, sizeof(text), "active %c\nA %s %u %u\nB %s %u %u\n",
			 "AB"[ctl->active],
			 state_name[ctl->slot[0].state], ctl->slot[0].attempts, (unsigned)ctl->slot[0].version,
			 state_name[ctl->slot[1].state], ctl->slot[1].attempts, (unsigned)ctl->slot[1].version);
	int fd = open(CTL_TMP, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	if (write_all(fd, text, (size_t)n) < 0 || fsync(fd) < 0) {
		close(fd);
		unlink(CTL_TMP);
		return -1;
	}
	if (close(fd) < 0 || rename(CTL_TMP, CTL_PATH) < 0) {
		unlink(CTL_TMP);
		return -1;
	}
	int dfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	int rc = fsync(dfd);
	close(dfd);
	return rc;
}

static int fail(int status, const char *msg)
{
	fprintf(stderr, "%s\n", msg);
	return status;
}

/* Reads the whole update; returns 0 or the failing check's status. */
static int load_update(const char *path, uint32_t *version, unsigned char **payload, uint32_t *length)
{
	unsigned char hdr[HDR_SIZE];
	struct stat st;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return fail(2, "error: cannot read update");
	}
	while (got < HDR_SIZE) {
		ssize_t r = read(fd, hdr + got, HDR_SIZE - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			close(fd);
			return fail(2, "error: cannot read update");
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	if (got < HDR_SIZE || memcmp(hdr, "ABU1", 4) != 0) {
		close(fd);
		return fail(2, "error: bad header");
	}
	uint32_t len = le32(hdr + 8);
	if (len == 0 || len > MAX_PAYLOAD || (uint64_t)st.st_size != (uint64_t)HDR_SIZE + len) {
		close(fd);
		return fail(2, "error: bad length");
	}
	unsigned char *buf = malloc(len);
	if (buf == NULL) {
		close(fd);
		return fail(2, "error: cannot read update");
	}
	got = 0;
	while (got < len) {
		ssize_t r = read(fd, buf + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			free(buf);
			close(fd);
			return fail(2, "error: cannot read update");
		}
		got += (size_t)r;
	}
	close(fd);
	if ((crc32_update(0xFFFFFFFFu, buf, len) ^ 0xFFFFFFFFu) != le32(hdr + 12)) {
		free(buf);
		return fail(2, "error: bad crc");
	}
	*version = le32(hdr + 4);
	*payload = buf;
	*length = len;
	return 0;
}

/* Writes, flushes and reads back the slot; 0 when its CRC-32 matches. */
static int program_slot(const char *path, const unsigned char *data, uint32_t len, uint32_t crc)
{
	unsigned char chunk[CHUNK];
	uint32_t c = 0xFFFFFFFFu;
	size_t total = 0;
	ssize_t r;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0 || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	while ((r = read(fd, chunk, sizeof(chunk))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			close(fd);
			return -1;
		}
		c = crc32_update(c, chunk, (size_t)r);
		total += (size_t)r;
	}
	if (close(fd) < 0)
		return -1;
	return (total == len && (c ^ 0xFFFFFFFFu) == crc) ? 0 : -1;
}

static int cmd_install(struct bootctl *ctl, const char *path)
{
	unsigned char *payload = NULL;
	uint32_t version = 0, len = 0;
	int act = ctl->active, other = 1 - act;
	int rc = load_update(path, &version, &payload, &len);

	if (rc != 0)
		return rc;
	if (ctl->slot[act].state != ST_GOOD) {
		free(payload);
		fprintf(stderr, "error: slot %c not confirmed\n", "AB"[act]);
		return 4;
	}
	if (version <= ctl->slot[act].version) {
		free(payload);
		fprintf(stderr, "error: version %u is not newer than %u\n",
			(unsigned)version, (unsigned)ctl->slot[act].version);
		return 4;
	}
	uint32_t crc = crc32_update(0xFFFFFFFFu, payload, len) ^ 0xFFFFFFFFu;
	rc = program_slot(slot_file[other], payload, len, crc);
	free(payload);
	if (rc != 0) {
		fprintf(stderr, "error: cannot write slot %c\n", "AB"[other]);
		return 5;
	}
	ctl->slot[other].state = ST_TRIAL;
	ctl->slot[other].attempts = TRIAL_BOOTS;
	ctl->slot[other].version = version;
	ctl->active = other;
	if (save_ctl(ctl) < 0)
		return fail(5, "error: cannot save control file");
	printf("installed version %u into slot %c\n", (unsigned)version, "AB"[other]);
	return 0;
}

static int cmd_boot(struct bootctl *ctl)
{
	int s = ctl->active, o = 1 - s;
	struct slot *cur = &ctl->slot[s];

	if (cur->state == ST_GOOD) {
		printf("boot %c\n", "AB"[s]);
		return 0;
	}
	if (cur->state == ST_TRIAL && cur->attempts > 0) {
		cur->attempts--;
		if (save_ctl(ctl) < 0)
			return fail(5, "error: cannot save control file");
		printf("boot %c (trial, %u left)\n", "AB"[s], cur->attempts);
		return 0;
	}
	if (ctl->slot[o].state != ST_GOOD)
		return fail(6, "error: no bootable slot");
	cur->state = ST_BAD;
	cur->attempts = 0;
	ctl->active = o;
	if (save_ctl(ctl) < 0)
		return fail(5, "error: cannot save control file");
	printf("boot %c (fallback from %c)\n", "AB"[o], "AB"[s]);
	return 0;
}

static int cmd_mark_good(struct bootctl *ctl)
{
	int s = ctl->active;
	struct slot *cur = &ctl->slot[s];

	switch (cur->state) {
	case ST_GOOD:
		printf("slot %c already good\n", "AB"[s]);
		return 0;
	case ST_BAD:
		fprintf(stderr, "error: slot %c is bad\n", "AB"[s]);
		return 4;
	default:
		cur->state = ST_GOOD;
		cur->attempts = 0;
		if (save_ctl(ctl) < 0)
			return fail(5, "error: cannot save control file");
		printf("slot %c marked good\n", "AB"[s]);
		return 0;
	}
}

int main(int argc, char **argv)
{
	struct bootctl ctl;
	int install = argc == 3 && strcmp(argv[1], "install") == 0;

	if (!install && !(argc == 2 && (strcmp(argv[1], "boot") == 0 || strcmp(argv[1], "mark-good") == 0)))
		return fail(1, "usage: abupd install FILE | boot | mark-good");
	if (load_ctl(&ctl) < 0)
		return fail(3, "error: bad control file");
	if (install)
		return cmd_install(&ctl, argv[2]);
	if (strcmp(argv[1], "boot") == 0)
		return cmd_boot(&ctl);
	return cmd_mark_good(&ctl);
}
