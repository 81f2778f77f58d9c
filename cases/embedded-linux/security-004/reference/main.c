/* replayguard: 64-packet anti-replay window over 48-bit sequence numbers. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define STATE_PATH  "replay.state"
#define STATE_TMP   "replay.state.tmp"
#define SEQ_MAX     UINT64_C(281474976710655)   /* 2^48 - 1 */
#define MAX_DIGITS  15
#define WINDOW      64

struct window {
	int valid;          /* a packet has been accepted */
	uint64_t top;
	uint64_t bitmap;    /* bit i: top - i seen */
};

enum verdict { V_ACCEPT, V_REPLAY, V_STALE };

static enum verdict check_and_update(struct window *w, uint64_t s)
{
	if (!w->valid) {
		w->valid = 1;
		w->top = s;
		w->bitmap = 1;
		return V_ACCEPT;
	}
	if (s > w->top) {
		uint64_t d = s - w->top;
		w->bitmap = d >= WINDOW ? 1 : (w->bitmap << d) | 1;
		w->top = s;
		return V_ACCEPT;
	}
	uint64_t diff = w->top - s;
	if (diff >= WINDOW)
		return V_STALE;
	uint64_t bit = UINT64_C(1) << diff;
	if (w->bitmap & bit)
		return V_REPLAY;
	w->bitmap |= bit;
	return V_ACCEPT;
}

/* Parses 1..15 digits into a value <= SEQ_MAX; -1 if the text is not one. */
static int parse_seq(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (len == 0 || len > MAX_DIGITS)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > SEQ_MAX)
		return -1;
	*out = v;
	return 0;
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* 0: loaded or absent; -1: present but unusable. */
static int load_state(struct window *w)
{
	char buf[64];
	size_t len = 0;
	ssize_t r;
	int fd = open(STATE_PATH, O_RDONLY | O_CLOEXEC);

	w->valid = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	while (len < sizeof(buf) && (r = read(fd, buf + len, sizeof(buf) - len)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		len += (size_t)r;
	}
	close(fd);
	/* "RG1 " top " " 16 hex "\n" */
	if (len < 4 + 1 + 1 + 16 + 1 || len >= sizeof(buf) || memcmp(buf, "RG1 ", 4) != 0 || buf[len - 1] != '\n')
		return -1;
	size_t digits = len - 4 - 1 - 16 - 1;
	const char *top = buf + 4;
	if (top[digits] != ' ' || (digits > 1 && top[0] == '0'))
		return -1;
	if (parse_seq(top, digits, &w->top) < 0)
		return -1;
	w->bitmap = 0;
	for (int i = 0; i < 16; i++) {
		int h = hexval(top[digits + 1 + i]);
		if (h < 0)
			return -1;
		w->bitmap = w->bitmap << 4 | (uint64_t)h;
	}
	w->valid = 1;
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int save_state(const struct window *w)
{
	char text[64];
	int n = snprintf(text, sizeof(text), "RG1 %" PRIu64 " %016" PRIx64 "\n", w->top, w->bitmap);
	int fd = open(STATE_TMP, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		return -1;
	if (write_all(fd, text, (size_t)n) < 0) {
		close(fd);
		unlink(STATE_TMP);
		return -1;
	}
	if (fsync(fd) < 0) {
		close(fd);
		unlink(STATE_TMP);
		return -1;
	}
	if (close(fd) < 0 || rename(STATE_TMP, STATE_PATH) < 0) {
		unlink(STATE_TMP);
		return -1;
	}
	int dfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	int rc = fsync(dfd);
	close(dfd);
	return rc;
}

int main(void)
{
	static const char *const name[] = { "accept", "replay", "stale" };
	struct window w;
	char line[MAX_DIGITS + 1];
	size_t len = 0;
	int too_long = 0, accepted = 0, ch;

	if (load_state(&w) < 0) {
		fprintf(stderr, "replayguard: bad state file\n");
		return 2;
	}
	do {
		ch = getchar();
		if (ch != '\n' && ch != EOF) {
			if (len < sizeof(line))
				line[len++] = (char)ch;
			else
				too_long = 1;
			continue;
		}
		if (ch == EOF && len == 0 && !too_long)
			break;
		uint64_t s;
		if (too_long || parse_seq(line, len, &s) < 0) {
			puts("invalid");
		} else {
			enum verdict v = check_and_update(&w, s);
			accepted |= v == V_ACCEPT;
			printf("%s %" PRIu64 "\n", name[v], s);
		}
		len = 0;
		too_long = 0;
	} while (ch != EOF);

	if (accepted && save_state(&w) < 0) {
		fprintf(stderr, "replayguard: cannot save state\n");
		return 3;
	}
	return 0;
}
