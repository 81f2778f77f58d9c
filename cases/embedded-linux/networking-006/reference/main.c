/* lined: single-threaded line-protocol configuration server on the
 * socket-activated listening socket (fd 3), non-blocking with poll(). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define LISTEN_FD   3
#define MAX_CONN    8
#define MAX_LINE    64
#define MAX_KEYS    32
#define KEY_MAX     16
#define VAL_MAX     32

struct conn {
	int fd;
	char line[MAX_LINE + 1];
	size_t line_len;
	char *out;          /* pending reply bytes */
	size_t out_len, out_cap;
	int closing;        /* no more reading; close once out is sent */
};

static struct conn conns[MAX_CONN];
static char keys[MAX_KEYS][KEY_MAX + 1];
static char vals[MAX_KEYS][VAL_MAX + 1];
static int nkeys;
static int shutting_down;

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void drop(struct conn *c)
{
	close(c->fd);
	free(c->out);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

static int queue(struct conn *c, const char *s)
{
	size_t n = strlen(s);

	if (c->out_len + n + 1 > c->out_cap) {
		size_t cap = c->out_cap ? c->out_cap : 256;
		char *p;

		while (cap < c->out_len + n + 1)
			cap *= 2;
		p = realloc(c->out, cap);
		if (p == NULL)
			return -1;
		c->out = p;
		c->out_cap = cap;
	}
	memcpy(c->out + c->out_len, s, n);
	c->out[c->out_len + n] = '\n';
	c->out_len += n + 1;
	return 0;
}

static int valid(const char *s, size_t n, size_t max, int is_key)
{
	if (n < 1 || n > max)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (is_key ? !((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_')
			   : (ch < 0x21 || ch > 0x7E))
			return 0;
	}
	return 1;
}

static int find_key(const char *k)
{
	for (int i = 0; i < nkeys; i++)
		if (!strcmp(keys[i], k))
			return i;
	return -1;
}

/* Handles one complete command; returns -1 on allocation failure. */
static int command(struct conn *c, char *line)
{
	char buf[VAL_MAX + 8];

	if (!strcmp(line, "PING"))
		return queue(c, "PONG");
	if (!strcmp(line, "QUIT")) {
		c->closing = 1;
		return queue(c, "BYE");
	}
	if (!strcmp(line, "SHUTDOWN")) {
		shutting_down = 1;
		c->closing = 1;
		return queue(c, "BYE");
	}
	if (!strncmp(line, "GET ", 4)) {
		char *k = line + 4;

		if (!valid(k, strlen(k), KEY_MAX, 1))
			return queue(c, "ERR syntax");
		int i = find_key(k);

		if (i < 0)
			return queue(c, "ERR nokey");
		strcpy(buf, "VAL ");
		strcat(buf, vals[i]);
		return queue(c, buf);
	}
	if (!strncmp(line, "SET ", 4)) {
		char *k = line + 4, *sp = strchr(k, ' ');

		if (sp == NULL)
			return queue(c, "ERR syntax");
		*sp = '\0';
		char *v = sp + 1;

		if (!valid(k, strlen(k), KEY_MAX, 1) || !valid(v, strlen(v), VAL_MAX, 0))
			return queue(c, "ERR syntax");
		int i = find_key(k);

		if (i < 0) {
			if (nkeys == MAX_KEYS)
				return queue(c, "ERR full");
			i = nkeys++;
			strcpy(keys[i], k);
		}
		strcpy(vals[i], v);
		return queue(c, "OK");
	}
	return queue(c, "ERR syntax");
}

/* Reads what is available; processes complete lines. */
static void on_readable(struct conn *c)
{
	char buf[4096];

	while (!c->closing && !shutting_down) {
		ssize_t n = read(c->fd, buf, sizeof(buf));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				c->closing = 2;        /* error: drop */
			return;
		}
		if (n == 0) {
			c->closing = 1;            /* EOF: flush, then close */
			return;
		}
		for (ssize_t i = 0; i < n && !c->closing && !shutting_down; i++) {
			if (buf[i] == '\n') {
				c->line[c->line_len] = '\0';
				c->line_len = 0;
				if (command(c, c->line) < 0)
					c->closing = 2;
			} else if (c->line_len == MAX_LINE) {
				c->closing = 1;
				if (queue(c, "ERR too long") < 0)
					c->closing = 2;
			} else {
				c->line[c->line_len++] = buf[i];
			}
		}
	}
}

/* Sends what the socket takes; -1 on a fatal error. */
static int on_writable(struct conn *c)
{
	while (c->out_len > 0) {
		ssize_t n = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -1;
		}
		memmove(c->out, c->out + n, c->out_len - (size_t)n);
		c->out_len -= (size_t)n;
	}
	return 0;
}

static void accept_all(int lfd)
{
	for (;;) {
		int fd = accept(lfd, NULL, NULL);

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return;
		}
		if (set_nonblock(fd) < 0) {
			close(fd);
			continue;
		}
		struct conn *slot = NULL;

		for (int i = 0; i < MAX_CONN; i++)
			if (conns[i].fd < 0) {
				slot = &conns[i];
				break;
			}
		if (slot == NULL) {
			(void)send(fd, "ERR busy\n", 9, MSG_NOSIGNAL);
			close(fd);
			continue;
		}
		slot->fd = fd;
	}
}

int main(void)
{
	int lfd = LISTEN_FD;
	struct pollfd pfd[MAX_CONN + 1];
	int idx[MAX_CONN + 1];

	signal(SIGPIPE, SIG_IGN);
	for (int i = 0; i < MAX_CONN; i++)
		conns[i].fd = -1;
	if (set_nonblock(lfd) < 0)
		return 1;
	for (;;) {
		int n = 0, open_conns = 0;

		if (shutting_down && lfd >= 0) {
			close(lfd);
			lfd = -1;
		}
		if (lfd >= 0) {
			pfd[n].fd = lfd;
			pfd[n].events = POLLIN;
			idx[n++] = -1;
		}
		for (int i = 0; i < MAX_CONN; i++) {
			struct conn *c = &conns[i];

			if (c->fd < 0)
				continue;
			if (c->closing == 2 || ((c->closing || shutting_down) && c->out_len == 0)) {
				drop(c);
				continue;
			}
			open_conns++;
			pfd[n].fd = c->fd;
			pfd[n].events = (c->closing || shutting_down ? 0 : POLLIN) | (c->out_len ? POLLOUT : 0);
			idx[n++] = i;
		}
		if (shutting_down && open_conns == 0)
			break;
		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		for (int k = 0; k < n; k++) {
			if (pfd[k].revents == 0)
				continue;
			if (idx[k] < 0) {
				accept_all(lfd);
				continue;
			}
			struct conn *c = &conns[idx[k]];

			if (pfd[k].revents & (POLLIN | POLLHUP | POLLERR))
				on_readable(c);
			if (c->closing != 2 && c->out_len > 0 && on_writable(c) < 0)
				c->closing = 2;
			if ((pfd[k].revents & (POLLERR | POLLNVAL)) && c->out_len > 0)
				c->closing = 2;
		}
	}
	return 0;
}
