/* Accepted variant: a connect()ed UDP socket (the kernel drops datagrams
 * from any other address or port), recv() with an absolute deadline per
 * transmission, and a hand-written tokenizer for the responses. */
#include <arpa/inet.h>
#include <ctype.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const int waits_ms[4] = { 40, 80, 160, 320 };

static long long ms_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

static int name_ok(const char *s)
{
	int n = 0;

	for (; *s; s++, n++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_'))
			return 0;
	return n >= 1 && n <= 16;
}

/* 1 RSP, 2 ERR, 0 not a response to `want` */
static int parse(char *d, int len, unsigned long want, char **tok)
{
	int kind, i = 4, j;
	unsigned long id = 0;

	if (len < 4)
		return 0;
	if (!strncmp(d, "RSP ", 4))
		kind = 1;
	else if (!strncmp(d, "ERR ", 4))
		kind = 2;
	else
		return 0;
	if (i >= len || !isdigit((unsigned char)d[i]) || (d[i] == '0'))
		return 0;
	for (j = i; j < len && isdigit((unsigned char)d[j]); j++) {
		if (j - i > 9)
			return 0;
		id = id * 10 + (unsigned long)(d[j] - '0');
	}
	if (id != want || j >= len || d[j] != ' ')
		return 0;
	j++;
	if (len - j < 1 || len - j > 32)
		return 0;
	for (i = j; i < len; i++)
		if (d[i] <= ' ' || d[i] > '~')
			return 0;
	d[len] = '\0';
	*tok = d + j;
	return kind;
}

int main(int argc, char **argv)
{
	struct sockaddr_in peer = { 0 };
	char line[128], dgram[600], out[64];
	unsigned long next_id = 1, n = 0;
	int fd, failed = 0, i;
	size_t k;

	if (argc != 2 || strlen(argv[1]) == 0 || strlen(argv[1]) > 5)
		goto usage;
	for (k = 0; argv[1][k]; k++)
		if (!isdigit((unsigned char)argv[1][k]))
			goto usage;
	if (atol(argv[1]) < 1 || atol(argv[1]) > 65535)
		goto usage;

	peer.sin_family = AF_INET;
	peer.sin_port = htons((unsigned short)atol(argv[1]));
	inet_pton(AF_INET, "127.0.0.1", &peer.sin_addr);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&peer, sizeof peer) < 0) {
		perror("udpq");
		return 1;
	}

	while (fgets(line, sizeof line, stdin) != NULL) {
		int result = 0, len;
		char *tok = NULL;

		n++;
		line[strcspn(line, "\n")] = '\0';
		if (!name_ok(line)) {
			printf("line %lu: invalid\n", n);
			failed = 1;
			continue;
		}
		len = snprintf(out, sizeof out, "REQ %lu %s", next_id, line);
		for (i = 0; i < 4 && !result; i++) {
			long long until;

			send(fd, out, (size_t)len, 0);
			until = ms_now() + waits_ms[i];
			while (!result) {
				long long rest = until - ms_now();
				struct pollfd pf = { .fd = fd, .events = POLLIN };
				ssize_t got;

				if (rest <= 0 || poll(&pf, 1, (int)rest) <= 0)
					break;
				got = recv(fd, dgram, sizeof dgram - 1, 0);
				if (got > 0)
					result = parse(dgram, (int)got, next_id, &tok);
			}
		}
		next_id++;
		if (result == 1)
			printf("%s = %s\n", line, tok);
		else if (result == 2)
			printf("%s: error %s\n", line, tok), failed = 1;
		else
			printf("%s: timeout\n", line), failed = 1;
	}
	return failed;

usage:
	fputs("usage: udpq PORT\n", stderr);
	return 2;
}
