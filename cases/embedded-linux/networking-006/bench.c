/* Test bench (not part of the answer): listens on 127.0.0.1 (ephemeral
 * port), starts ../lined with the listening socket as fd 3, then plays
 * clients A..Z from the script on stdin and prints what they see.
 *
 *   connect X [small]   connect (small: 4 KiB receive buffer)
 *   send X TEXT         one write of TEXT (\n \r \\ \xHH escapes)
 *   slow X TEXT         TEXT one byte per write, 1 ms apart
 *   expect X            read one reply line
 *   eof X               expect the server to close X
 *   halfclose X | close X
 *   flood X N           queue N "GET big\n" without reading (sends what fits in 300 ms)
 *   drain X             send the rest of the flood, read its N replies
 *   drainall X          read replies until the server closes X
 *   wait                wait for the server to exit
 *   sleep MS
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TMO 1500

struct cl {
	int fd;
	char in[1 << 16];
	size_t in_len;
	int eof;
	char *flood;
	size_t flood_len, flood_sent;
	long flood_n;
};

static struct cl cls[26];
static struct sockaddr_in addr;
static pid_t server;
static int server_done;

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static size_t unescape(const char *s, char *out)
{
	size_t n = 0;

	while (*s) {
		if (*s == '\\' && s[1]) {
			s++;
			if (*s == 'n') out[n++] = '\n';
			else if (*s == 'r') out[n++] = '\r';
			else if (*s == 'x' && s[1] && s[2]) {
				char h[3] = { s[1], s[2], 0 };
				out[n++] = (char)strtol(h, NULL, 16);
				s += 2;
			} else out[n++] = *s;
			s++;
		} else {
			out[n++] = *s++;
		}
	}
	return n;
}

/* Reads what is available into c->in, waiting up to ms. 1 got data, 0 timeout, -1 eof/err. */
static int fill(struct cl *c, int ms)
{
	struct pollfd p = { c->fd, POLLIN, 0 };

	if (c->eof)
		return -1;
	if (poll(&p, 1, ms) <= 0)
		return 0;
	ssize_t n = recv(c->fd, c->in + c->in_len, sizeof(c->in) - c->in_len, 0);
	if (n <= 0) {
		c->eof = 1;
		return -1;
	}
	c->in_len += (size_t)n;
	return 1;
}

/* One line from c within the deadline: 1 line, 0 timeout, -1 eof. */
static int get_line(struct cl *c, char *line, size_t cap, long deadline)
{
	for (;;) {
		char *nl = memchr(c->in, '\n', c->in_len);

		if (nl) {
			size_t n = (size_t)(nl - c->in);
			if (n >= cap)
				n = cap - 1;
			memcpy(line, c->in, n);
			line[n] = '\0';
			size_t used = (size_t)(nl - c->in) + 1;
			memmove(c->in, c->in + used, c->in_len - used);
			c->in_len -= used;
			return 1;
		}
		long left = deadline - now_ms();
		if (left <= 0)
			return 0;
		if (fill(c, (int)left) < 0)
			return -1;
	}
}

static void pump_flood(struct cl *c)
{
	while (c->flood_sent < c->flood_len) {
		ssize_t n = send(c->fd, c->flood + c->flood_sent, c->flood_len - c->flood_sent, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n <= 0)
			return;
		c->flood_sent += (size_t)n;
	}
}

static void reap(int ms)
{
	long deadline = now_ms() + ms;
	int st;

	while (!server_done) {
		pid_t r = waitpid(server, &st, WNOHANG);
		if (r == server) {
			server_done = 1;
			printf("server exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
			return;
		}
		if (now_ms() >= deadline) {
			printf("server still running\n");
			return;
		}
		usleep(2000);
	}
}

int main(int argc, char **argv)
{
	char prog[4096];
	static char line[200000];
	const char *slash = strrchr(argv[0], '/');
	int len = slash ? (int)(slash - argv[0]) + 1 : 0;
	int lfd = socket(AF_INET, SOCK_STREAM, 0);
	socklen_t al = sizeof(addr);

	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(prog, sizeof(prog), "%.*slined", len, argv[0]);
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* Small buffers, inherited by the accepted sockets: replies that a
	 * client does not read fill the server's send buffer quickly. */
	int sz = 8192;
	setsockopt(lfd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	setsockopt(lfd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(lfd, 16) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&addr, &al) < 0) {
		perror("bench: listen");
		return 125;
	}
	server = fork();
	if (server == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		signal(SIGPIPE, SIG_DFL);   /* the answer must ignore it itself */
		dup2(devnull, 0);
		if (lfd != 3) {
			dup2(lfd, 3);
			close(lfd);
		}
		for (int fd = 4; fd < 64; fd++)
			close(fd);
		char *args[] = { "lined", NULL };
		execv(prog, args);
		perror("bench: exec");
		_exit(126);
	}
	close(lfd);
	for (int i = 0; i < 26; i++)
		cls[i].fd = -1;

	while (fgets(line, sizeof(line), stdin)) {
		char cmd[32], who[8] = "";
		static char rest[200000];

		rest[0] = '\0';
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '\0' || line[0] == '#')
			continue;
		int nf = sscanf(line, "%31s %7s", cmd, who);
		if (nf >= 2) {
			const char *p = strstr(line, who) + strlen(who);
			if (*p == ' ')
				p++;
			snprintf(rest, sizeof(rest), "%s", p);
		}
		struct cl *c = (nf >= 2 && who[0] >= 'A' && who[0] <= 'Z') ? &cls[who[0] - 'A'] : NULL;

		if (!strcmp(cmd, "wait")) {
			reap(2000);
		} else if (!strcmp(cmd, "sleep")) {
			usleep((useconds_t)atoi(who) * 1000);
		} else if (c == NULL) {
			printf("bench: bad line\n");
		} else if (!strcmp(cmd, "connect")) {
			c->fd = socket(AF_INET, SOCK_STREAM, 0);
			c->in_len = 0;
			c->eof = 0;
			if (!strcmp(rest, "small")) {
				int sz = 4096;
				setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
			}
			if (connect(c->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
				printf("%s: %s\n", who, errno == ECONNREFUSED ? "refused" : "connect error");
				close(c->fd);
				c->fd = -1;
			}
		} else if (c->fd < 0) {
			printf("%s: not connected\n", who);
		} else if (!strcmp(cmd, "send") || !strcmp(cmd, "slow")) {
			static char buf[200000];
			size_t n = unescape(rest, buf);
			if (cmd[0] == 's' && cmd[1] == 'e') {
				if (send(c->fd, buf, n, MSG_NOSIGNAL) != (ssize_t)n)
					printf("%s: send failed\n", who);
			} else {
				for (size_t i = 0; i < n; i++) {
					if (send(c->fd, buf + i, 1, MSG_NOSIGNAL) != 1) {
						printf("%s: send failed\n", who);
						break;
					}
					usleep(1000);
				}
			}
		} else if (!strcmp(cmd, "expect")) {
			char l[70000];
			int r = get_line(c, l, sizeof(l), now_ms() + TMO);
			if (r > 0)
				printf("%s: %s\n", who, l);
			else
				printf("%s: %s\n", who, r == 0 ? "<timeout>" : "<closed>");
		} else if (!strcmp(cmd, "eof")) {
			char l[70000];
			int r = get_line(c, l, sizeof(l), now_ms() + TMO);
			if (r > 0)
				printf("%s: unexpected %s\n", who, l);
			else if (r == 0)
				printf("%s: still open\n", who);
			else
				printf("%s: closed%s\n", who, c->in_len ? " (partial line)" : "");
		} else if (!strcmp(cmd, "halfclose")) {
			shutdown(c->fd, SHUT_WR);
		} else if (!strcmp(cmd, "close")) {
			close(c->fd);
			c->fd = -1;
		} else if (!strcmp(cmd, "flood")) {
			long n = atol(rest);
			c->flood = malloc((size_t)n * 8);
			for (long i = 0; i < n; i++)
				memcpy(c->flood + i * 8, "GET big\n", 8);
			c->flood_len = (size_t)n * 8;
			c->flood_sent = 0;
			c->flood_n = n;
			long deadline = now_ms() + 300;
			while (c->flood_sent < c->flood_len && now_ms() < deadline) {
				pump_flood(c);
				usleep(1000);
			}
		} else if (!strcmp(cmd, "drain") || !strcmp(cmd, "drainall")) {
			int all = cmd[5] != '\0';
			long got = 0, deadline = now_ms() + 4000;
			char first[128] = "", l[70000];
			int same = 1, r;
			for (;;) {
				if (!all && got == c->flood_n)
					break;
				if (c->flood_sent < c->flood_len)
					pump_flood(c);
				r = get_line(c, l, sizeof(l), now_ms() + 5);
				if (r > 0) {
					if (got++ == 0)
						snprintf(first, sizeof(first), "%.100s", l);
					else if (strcmp(first, l))
						same = 0;
				} else if (r < 0 || now_ms() > deadline) {
					break;
				}
			}
			if (!all)
				printf("%s: %ld of %ld replies%s%s\n", who, got, c->flood_n, same ? ", all " : ", mixed", same ? first : "");
			else
				printf("%s: %ld replies%s%s, then %s\n", who, got,
				       same ? ", all " : ", mixed", same ? first : "", r < 0 ? "closed" : "still open");
		} else {
			printf("bench: bad line\n");
		}
	}
	if (!server_done) {
		kill(server, SIGKILL);
		waitpid(server, NULL, 0);
	}
	return 0;
}
