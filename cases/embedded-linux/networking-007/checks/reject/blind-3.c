/* defect: the request id is taken from the input line number, so invalid lines
 * consume ids and the ids sent skip numbers after an invalid line.
 * breaks: "Ids start at 1 and increase by 1 for every request sent (invalid lines use no id); a retransmission sends the identical datagram with the same id."
 * must_fail: scenario_invalid_lines
 */
/*
 * udpq: ask the sensor daemon on 127.0.0.1:PORT for readings, one request
 * at a time, with retransmission (40/80/160/320 ms) and id matching.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static const int wait_table_ms[4] = { 40, 80, 160, 320 };

struct reply {
    int is_err;          /* 0 = RSP, 1 = ERR */
    char text[33];       /* value or reason */
};

static int is_name_char(int c)
{
    return islower(c) || isdigit(c) || c == '_';
}

/* Returns 1 if buf[0..n) is exactly "RSP <id> <x>" or "ERR <id> <x>" with id == want. */
static int match_reply(const char *buf, size_t n, unsigned long want, struct reply *out)
{
    char idtxt[24];
    int k = snprintf(idtxt, sizeof idtxt, "%lu", want);
    size_t hdr = 4 + (size_t)k + 1;   /* "XXX " + id + " " */

    if (n <= hdr || n > hdr + 32)
        return 0;
    if (memcmp(buf, "RSP ", 4) == 0)
        out->is_err = 0;
    else if (memcmp(buf, "ERR ", 4) == 0)
        out->is_err = 1;
    else
        return 0;
    /* the canonical decimal form of the id has no sign and no leading zeros */
    if (memcmp(buf + 4, idtxt, (size_t)k) != 0 || buf[4 + k] != ' ')
        return 0;
    for (size_t i = hdr; i < n; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c < 0x21 || c > 0x7e)
            return 0;
    }
    memcpy(out->text, buf + hdr, n - hdr);
    out->text[n - hdr] = '\0';
    return 1;
}

static void ts_add_ms(struct timespec *t, int ms)
{
    t->tv_sec += ms / 1000;
    t->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t->tv_nsec >= 1000000000L) {
        t->tv_sec++;
        t->tv_nsec -= 1000000000L;
    }
}

/* Time left until deadline as a timeval; returns 0 if already past. */
static int time_left(const struct timespec *deadline, struct timeval *tv)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long ns = (long long)(deadline->tv_sec - now.tv_sec) * 1000000000LL
                 + (deadline->tv_nsec - now.tv_nsec);
    if (ns <= 0)
        return 0;
    tv->tv_sec = (time_t)(ns / 1000000000LL);
    tv->tv_usec = (suseconds_t)((ns % 1000000000LL + 999) / 1000);
    return 1;
}

/* Returns 1 with *r filled on a matching reply, 0 on timeout. */
static int query(int sock, const struct sockaddr_in *peer, unsigned long id,
                 const char *name, struct reply *r)
{
    char req[48];
    int len = snprintf(req, sizeof req, "REQ %lu %s", id, name);

    for (int attempt = 0; attempt < 4; attempt++) {
        struct timespec deadline;
        sendto(sock, req, (size_t)len, 0, (const struct sockaddr *)peer, sizeof *peer);
        clock_gettime(CLOCK_MONOTONIC, &deadline);
        ts_add_ms(&deadline, wait_table_ms[attempt]);

        struct timeval tv;
        while (time_left(&deadline, &tv)) {
            fd_set rd;
            FD_ZERO(&rd);
            FD_SET(sock, &rd);
            int s = select(sock + 1, &rd, NULL, NULL, &tv);
            if (s < 0 && errno == EINTR)
                continue;
            if (s <= 0)
                break;

            char buf[1500];
            struct sockaddr_in from;
            socklen_t flen = sizeof from;
            ssize_t n = recvfrom(sock, buf, sizeof buf, MSG_DONTWAIT,
                                 (struct sockaddr *)&from, &flen);
            if (n < 0)
                continue;
            if (flen < sizeof from || from.sin_family != AF_INET ||
                from.sin_addr.s_addr != peer->sin_addr.s_addr ||
                from.sin_port != peer->sin_port)
                continue;
            if (match_reply(buf, (size_t)n, id, r))
                return 1;
        }
    }
    return 0;
}

int main(int argc, char *argv[])
{
    char *end;
    unsigned long port;

    if (argc != 2 || !isdigit((unsigned char)argv[1][0]))
        goto usage;
    errno = 0;
    port = strtoul(argv[1], &end, 10);
    if (errno || *end != '\0' || port < 1 || port > 65535)
        goto usage;

    int sock = socket(AF_INET, SOCK_DGRAM, 0);
    if (sock < 0) {
        perror("udpq: socket");
        return 1;
    }
    struct sockaddr_in peer = { 0 };
    peer.sin_family = AF_INET;
    peer.sin_port = htons((uint16_t)port);
    inet_pton(AF_INET, "127.0.0.1", &peer.sin_addr);

    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned long line_no = 0;
    int status = 0;

    while ((n = getline(&line, &cap, stdin)) != -1) {
        line_no++;
        if (n > 0 && line[n - 1] == '\n')
            line[--n] = '\0';

        int ok = n >= 1 && n <= 16;
        for (ssize_t i = 0; ok && i < n; i++)
            ok = is_name_char((unsigned char)line[i]);
        if (!ok) {
            printf("line %lu: invalid\n", line_no);
            fflush(stdout);
            status = 1;
            continue;
        }

        struct reply r;
        if (!query(sock, &peer, line_no, line, &r)) {
            printf("%s: timeout\n", line);
            status = 1;
        } else if (r.is_err) {
            printf("%s: error %s\n", line, r.text);
            status = 1;
        } else {
            printf("%s = %s\n", line, r.text);
        }
        fflush(stdout);
    }
    free(line);
    close(sock);
    return status;

usage:
    fputs("usage: udpq PORT\n", stderr);
    return 2;
}
