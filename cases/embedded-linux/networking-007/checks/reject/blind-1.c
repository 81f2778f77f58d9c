/* defect: the poll() timeout restarts at the full wait after every received
 * datagram, so ignored (stale/malformed) datagrams keep postponing the retransmission.
 * breaks: "After each transmission the tool waits for the matching response for 40 ms after the 1st transmission, 80 ms after the 2nd, 160 ms after the 3rd and 320 ms after the 4th (each time measured from that transmission; ignored datagrams do not extend the wait)."
 * must_fail: scenario_noise_does_not_extend_wait
 */
/* udpq - UDP query tool with retransmission and id matching */
#define _GNU_SOURCE
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

#define MAX_SENDS     4
#define FIRST_WAIT_MS 40
#define NAME_MAX_LEN  16
#define FIELD_MAX_LEN 32

enum result { R_RSP, R_ERR, R_TIMEOUT };

static int usage(void)
{
    fputs("usage: udpq PORT\n", stderr);
    return 2;
}

static int parse_port(const char *s)
{
    long v = 0;
    if (*s == '\0')
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
        if (v > 65535)
            return -1;
    }
    return v >= 1 ? (int)v : -1;
}

static int valid_name(const char *s, size_t len)
{
    if (len < 1 || len > NAME_MAX_LEN)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return 0;
    }
    return 1;
}

/* Check "<id> <field>" exactly, where id must equal want.
 * On success copy field into out (NUL terminated) and return 1. */
static int parse_reply_tail(const char *p, size_t len, unsigned long want, char *out)
{
    size_t i = 0;
    unsigned long long id = 0;

    if (i >= len || p[i] < '0' || p[i] > '9')
        return 0;
    if (p[i] == '0' && i + 1 < len && p[i + 1] != ' ')
        return 0; /* leading zero */
    while (i < len && p[i] >= '0' && p[i] <= '9') {
        id = id * 10 + (unsigned)(p[i] - '0');
        if (id > 0xFFFFFFFFull)
            return 0;
        i++;
    }
    if (id != want)
        return 0;
    if (i >= len || p[i] != ' ')
        return 0;
    i++;
    size_t flen = len - i;
    if (flen < 1 || flen > FIELD_MAX_LEN)
        return 0;
    for (size_t k = 0; k < flen; k++) {
        unsigned char c = (unsigned char)p[i + k];
        if (c < 0x21 || c > 0x7E)
            return 0;
    }
    memcpy(out, p + i, flen);
    out[flen] = '\0';
    return 1;
}

/* Send one request, retransmitting as needed. */
static enum result transact(int fd, unsigned long id, const char *name, char *field)
{
    char req[64];
    int reqlen = snprintf(req, sizeof req, "REQ %lu %s", id, name);
    int wait_ms = FIRST_WAIT_MS;

    for (int tx = 0; tx < MAX_SENDS; tx++, wait_ms *= 2) {
        if (send(fd, req, (size_t)reqlen, 0) < 0 && errno != ECONNREFUSED)
            perror("udpq: send");

        for (;;) {
            struct pollfd pfd = { .fd = fd, .events = POLLIN };
            int n = poll(&pfd, 1, wait_ms);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                break;
            }
            if (n == 0)
                break;

            char buf[512];
            ssize_t got = recv(fd, buf, sizeof buf, MSG_DONTWAIT | MSG_TRUNC);
            if (got < 0)
                continue; /* e.g. ECONNREFUSED from ICMP: keep waiting */
            if ((size_t)got > sizeof buf || got < 4)
                continue;
            if (memcmp(buf, "RSP ", 4) == 0) {
                if (parse_reply_tail(buf + 4, (size_t)got - 4, id, field))
                    return R_RSP;
            } else if (memcmp(buf, "ERR ", 4) == 0) {
                if (parse_reply_tail(buf + 4, (size_t)got - 4, id, field))
                    return R_ERR;
            }
        }
    }
    return R_TIMEOUT;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return usage();
    int port = parse_port(argv[1]);
    if (port < 0)
        return usage();

    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) {
        perror("udpq: socket");
        return 1;
    }
    struct sockaddr_in daemon;
    memset(&daemon, 0, sizeof daemon);
    daemon.sin_family = AF_INET;
    daemon.sin_port = htons((unsigned short)port);
    daemon.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    /* A connected UDP socket only delivers datagrams from 127.0.0.1:PORT. */
    if (connect(fd, (struct sockaddr *)&daemon, sizeof daemon) < 0) {
        perror("udpq: connect");
        return 1;
    }

    setvbuf(stdout, NULL, _IOLBF, 0);

    char line[256];
    unsigned long lineno = 0, next_id = 1;
    int all_ok = 1;

    while (fgets(line, sizeof line, stdin)) {
        size_t len = strlen(line);
        lineno++;
        if (len > 0 && line[len - 1] == '\n')
            line[--len] = '\0';
        else if (len == sizeof line - 1) {
            /* overlong line: swallow the rest */
            int c;
            while ((c = getchar()) != EOF && c != '\n')
                ;
            len = 0;
        }
        if (!valid_name(line, len)) {
            printf("line %lu: invalid\n", lineno);
            all_ok = 0;
            continue;
        }

        char field[FIELD_MAX_LEN + 1];
        switch (transact(fd, next_id++, line, field)) {
        case R_RSP:
            printf("%s = %s\n", line, field);
            break;
        case R_ERR:
            printf("%s: error %s\n", line, field);
            all_ok = 0;
            break;
        default:
            printf("%s: timeout\n", line);
            all_ok = 0;
            break;
        }
    }

    close(fd);
    return all_ok ? 0 : 1;
}
