/* udpq: one UDP request at a time, retransmitted with backoff, responses matched by id. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_SENDS 4
#define FIRST_WAIT_MS 40

enum outcome { GOT_RSP, GOT_ERR, TIMED_OUT };

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int valid_name(const char *s)
{
	size_t n = strlen(s), i;

	if (n < 1 || n > 16)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

static int valid_token(const char *s, size_t n)
{
	size_t i;

	if (n < 1 || n > 32)
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return 0;
	return 1;
}

/* Parses "RSP <id> <tok>" / "ERR <id> <tok>" for the given id. */
static int match(const char *d, size_t n, unsigned long id, enum outcome *kind, char *tok)
{
	char want[32];
	int wl;

	if (n >= 4 && memcmp(d, "RSP ", 4) == 0)
		*kind = GOT_RSP;
	else if (n >= 4 && memcmp(d, "ERR ", 4) == 0)
		*kind = GOT_ERR;
	else
		return 0;
	wl = snprintf(want, sizeof want, "%lu ", id);
	if (n < 4 + (size_t)wl || memcmp(d + 4, want, (size_t)wl) != 0)
		return 0;
	d += 4 + wl;
	n -= 4 + (size_t)wl;
	if (!valid_token(d, n))
		return 0;
	memcpy(tok, d, n);
	tok[n] = 0;
	return 1;
}

static enum outcome ask(int s, const struct sockaddr_in *srv, unsigned long id,
			const char *name, char *tok)
{
	char req[64], buf[512];
	int len = snprintf(req, sizeof req, "REQ %lu %s", id, name);
	int wait = FIRST_WAIT_MS, tx;

	for (tx = 0; tx < MAX_SENDS; tx++, wait *= 2) {
		long long deadline;

		if (sendto(s, req, (size_t)len, 0, (const struct sockaddr *)srv, sizeof *srv) < 0)
			perror("udpq: sendto");
		deadline = now_ms() + wait;
		for (;;) {
			struct pollfd p = { s, POLLIN, 0 };
			struct sockaddr_in from;
			socklen_t fl = sizeof from;
			long long left = deadline - now_ms();
			enum outcome kind;
			ssize_t r;

			if (left <= 0)
				break;
			if (poll(&p, 1, (int)left) <= 0)
				continue;
			r = recvfrom(s, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
			if (r < 0)
				continue;
			if (fl != sizeof from || from.sin_family != AF_INET ||
			    from.sin_addr.s_addr != srv->sin_addr.s_addr || from.sin_port != srv->sin_port)
				continue;
			if (match(buf, (size_t)r, id, &kind, tok))
				return kind;
		}
	}
	return TIMED_OUT;
}

int main(int argc, char **argv)
{
	struct sockaddr_in srv;
	char line[256], tok[40];
	unsigned long id = 0, lineno = 0;
	char *end;
	long port;
	int s, all_ok = 1;

	if (argc != 2 || argv[1][0] < '0' || argv[1][0] > '9' ||
	    (port = strtol(argv[1], &end, 10), *end != 0) || port < 1 || port > 65535) {
		fprintf(stderr, "usage: udpq PORT\n");
		return 2;
	}
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0) {
		perror("udpq: socket");
		return 1;
	}
	memset(&srv, 0, sizeof srv);
	srv.sin_family = AF_INET;
	srv.sin_port = htons((unsigned short)port);
	srv.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

	while (fgets(line, sizeof line, stdin)) {
		enum outcome o;

		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (!valid_name(line)) {
			printf("line %lu: invalid\n", lineno);
			all_ok = 0;
			continue;
		}
		o = ask(s, &srv, ++id, line, tok);
		if (o == GOT_RSP) {
			printf("%s = %s\n", line, tok);
		} else if (o == GOT_ERR) {
			printf("%s: error %s\n", line, tok);
			all_ok = 0;
		} else {
			printf("%s: timeout\n", line);
			all_ok = 0;
		}
		fflush(stdout);
	}
	close(s);
	return all_ok ? 0 : 1;
}
