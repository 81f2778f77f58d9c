/* defect: off-by-one in the line limit: one byte of the 64-byte line buffer is reserved for a NUL, so a 64-byte line already gets ERR too long.
 * breaks: "A line of exactly 64 bytes is processed normally."
 * must_fail: scenario_line_of_64_bytes
 */
/* lined: single-threaded, poll()-driven configuration server.
 * fd 3 = listening TCP socket handed over by systemd. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

enum {
    LISTEN_FD = 3,
    CLIENT_MAX = 8,
    LINE_MAX_BYTES = 64,
    STORE_MAX = 32,
    KEY_MAX = 16,
    VALUE_MAX = 32,
};

typedef enum {
    ST_ACTIVE,     /* reading and answering commands */
    ST_FLUSHING,   /* no more input; close once the replies are out */
} client_state;

typedef struct client {
    int fd;
    client_state st;
    char pend[LINE_MAX_BYTES];    /* current line, NUL-terminated */
    int npend;
    char *tx;          /* reply bytes, tx[txpos .. txend) not yet sent */
    size_t txpos, txend, txsize;
} client;

static client *clients[CLIENT_MAX];
static int nclients;

static char store_key[STORE_MAX][KEY_MAX + 1];
static char store_val[STORE_MAX][VALUE_MAX + 1];
static int store_used;

static bool stopping;   /* SHUTDOWN received */

/* ---------------------------------------------------------------- */

static void make_nonblocking(int fd)
{
    int on = 1;

    ioctl(fd, FIONBIO, &on);
}

static bool tx_append(client *c, const char *p, size_t n)
{
    if (c->txend + n > c->txsize) {
        size_t live = c->txend - c->txpos;

        if (live + n <= c->txsize && c->txpos > 0) {
            memmove(c->tx, c->tx + c->txpos, live);
        } else {
            size_t nsize = (live + n) * 2 + 128;
            char *nt = malloc(nsize);

            if (nt == NULL)
                return false;
            if (live)
                memcpy(nt, c->tx + c->txpos, live);
            free(c->tx);
            c->tx = nt;
            c->txsize = nsize;
        }
        c->txpos = 0;
        c->txend = live;
    }
    memcpy(c->tx + c->txend, p, n);
    c->txend += n;
    return true;
}

static bool say(client *c, const char *s)
{
    return tx_append(c, s, strlen(s));
}

/* Push out as much as the socket takes. false: connection is broken. */
static bool tx_flush(client *c)
{
    while (c->txpos < c->txend) {
        ssize_t k = send(c->fd, c->tx + c->txpos, c->txend - c->txpos,
                         MSG_NOSIGNAL);
        if (k > 0) {
            c->txpos += (size_t)k;
        } else if (k < 0 && errno == EINTR) {
            continue;
        } else if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return true;
        } else {
            return false;
        }
    }
    c->txpos = c->txend = 0;
    return true;
}

/* Graceful close: swallow any unread input first so the kernel sends FIN,
 * not RST (an RST would throw away replies that are still in flight). */
static void close_quietly(int fd)
{
    unsigned char sink[512];
    int guard = 128;

    shutdown(fd, SHUT_WR);
    while (guard-- > 0 && recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0)
        ;
    close(fd);
}

static void remove_client(int i, bool graceful)
{
    client *c = clients[i];

    if (graceful)
        close_quietly(c->fd);
    else
        close(c->fd);
    free(c->tx);
    free(c);
    clients[i] = clients[--nclients];
    clients[nclients] = NULL;
}

/* ---------------------------------------------------------------- */
/* command handling                                                  */

static bool key_ok(const char *k)
{
    size_t n = strlen(k);

    if (n == 0 || n > KEY_MAX)
        return false;
    return strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789_") == n;
}

static bool value_ok(const char *v)
{
    size_t n = strlen(v);

    if (n == 0 || n > VALUE_MAX)
        return false;
    for (; *v; v++)
        if (*v < 0x21 || *v > 0x7e)
            return false;
    return true;
}

static int store_find(const char *k)
{
    for (int i = 0; i < store_used; i++)
        if (strcmp(store_key[i], k) == 0)
            return i;
    return -1;
}

typedef enum { NEXT, STOP_CONN, STOP_SERVER } verdict;

/* line: NUL-terminated command of len bytes (may contain NUL bytes, in
 * which case it is malformed anyway). */
static verdict run(client *c, char *line, int len, bool *oom)
{
    char *f[3];
    int nf = 0;
    char *p = line;

    *oom = false;
    if ((int)strlen(line) != len)
        goto syntax;

    /* split on single spaces; empty fields are malformed */
    for (;;) {
        char *sp = strchr(p, ' ');

        if (nf == 3)
            goto syntax;
        f[nf++] = p;
        if (sp == NULL)
            break;
        *sp = '\0';
        p = sp + 1;
    }
    for (int i = 0; i < nf; i++)
        if (*f[i] == '\0')
            goto syntax;

    if (nf == 1 && strcmp(f[0], "PING") == 0) {
        *oom = !say(c, "PONG\n");
        return NEXT;
    }
    if (nf == 1 && strcmp(f[0], "QUIT") == 0) {
        *oom = !say(c, "BYE\n");
        return STOP_CONN;
    }
    if (nf == 1 && strcmp(f[0], "SHUTDOWN") == 0) {
        *oom = !say(c, "BYE\n");
        return STOP_SERVER;
    }
    if (nf == 2 && strcmp(f[0], "GET") == 0 && key_ok(f[1])) {
        int i = store_find(f[1]);

        if (i < 0)
            *oom = !say(c, "ERR nokey\n");
        else
            *oom = !(say(c, "VAL ") && say(c, store_val[i]) && say(c, "\n"));
        return NEXT;
    }
    if (nf == 3 && strcmp(f[0], "SET") == 0 && key_ok(f[1]) &&
        value_ok(f[2])) {
        int i = store_find(f[1]);

        if (i < 0) {
            if (store_used == STORE_MAX) {
                *oom = !say(c, "ERR full\n");
                return NEXT;
            }
            i = store_used++;
            strcpy(store_key[i], f[1]);
        }
        strcpy(store_val[i], f[2]);
        *oom = !say(c, "OK\n");
        return NEXT;
    }
syntax:
    *oom = !say(c, "ERR syntax\n");
    return NEXT;
}

/* Returns false if the client must be dropped at once. */
static bool on_input(client *c)
{
    unsigned char in[2048];
    ssize_t got = recv(c->fd, in, sizeof in, 0);

    if (got < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    if (got == 0) {               /* peer finished sending */
        c->npend = 0;
        c->st = ST_FLUSHING;
        return true;
    }

    for (ssize_t i = 0; i < got; i++) {
        if (in[i] != '\n') {
            if (c->npend >= (int)sizeof c->pend - 1) {
                c->st = ST_FLUSHING;
                c->npend = 0;
                return say(c, "ERR too long\n");
            }
            c->pend[c->npend++] = (char)in[i];
            continue;
        }

        bool oom;
        int len = c->npend;

        c->pend[len] = '\0';
        c->npend = 0;

        verdict v = run(c, c->pend, len, &oom);
        if (oom)
            return false;
        if (v == STOP_CONN) {
            c->st = ST_FLUSHING;
            break;
        }
        if (v == STOP_SERVER) {
            stopping = true;
            break;
        }
    }
    return true;
}

static void take_new_connections(int lfd)
{
    int fd;

    while ((fd = accept(lfd, NULL, NULL)) >= 0 || errno == EINTR ||
           errno == ECONNABORTED) {
        if (fd < 0)
            continue;
        make_nonblocking(fd);
        if (nclients == CLIENT_MAX) {
            (void)send(fd, "ERR busy\n", 9, MSG_NOSIGNAL);
            close_quietly(fd);
            continue;
        }
        client *c = calloc(1, sizeof *c);
        if (c == NULL) {
            close(fd);
            continue;
        }
        c->fd = fd;
        c->st = ST_ACTIVE;
        clients[nclients++] = c;
    }
}

/* After SHUTDOWN: no listening, no reading, only sending what is queued. */
static int finish(void)
{
    struct pollfd pfd[CLIENT_MAX];

    for (;;) {
        int i = 0;

        while (i < nclients) {
            if (clients[i]->txpos == clients[i]->txend)
                remove_client(i, true);
            else
                i++;
        }
        if (nclients == 0)
            return 0;

        for (i = 0; i < nclients; i++) {
            pfd[i].fd = clients[i]->fd;
            pfd[i].events = POLLOUT;
            pfd[i].revents = 0;
        }
        if (poll(pfd, (nfds_t)nclients, -1) < 0 && errno != EINTR)
            return 1;

        for (i = nclients - 1; i >= 0; i--)
            if (pfd[i].revents && !tx_flush(clients[i]))
                remove_client(i, false);
    }
}

int main(void)
{
    struct pollfd pfd[CLIENT_MAX + 1];
    client *owner[CLIENT_MAX + 1];

    make_nonblocking(LISTEN_FD);

    while (!stopping) {
        int n = 0;

        for (int i = 0; i < nclients;) {
            client *c = clients[i];

            if (c->st == ST_FLUSHING && c->txpos == c->txend) {
                remove_client(i, true);
                continue;
            }
            pfd[n].fd = c->fd;
            pfd[n].events = (short)((c->st == ST_ACTIVE ? POLLIN : 0) |
                                    (c->txpos < c->txend ? POLLOUT : 0));
            pfd[n].revents = 0;
            owner[n++] = c;
            i++;
        }
        pfd[n].fd = LISTEN_FD;
        pfd[n].events = POLLIN;
        pfd[n].revents = 0;
        owner[n] = NULL;

        if (poll(pfd, (nfds_t)(n + 1), -1) < 0) {
            if (errno == EINTR)
                continue;
            return 1;
        }

        for (int k = 0; k < n && !stopping; k++) {
            client *c = owner[k];
            short ev = pfd[k].revents;
            bool alive = true;
            int slot;

            if (ev == 0)
                continue;
            if (c->txpos < c->txend && (ev & (POLLOUT | POLLERR | POLLHUP)))
                alive = tx_flush(c);
            if (alive && c->st == ST_ACTIVE &&
                (ev & (POLLIN | POLLERR | POLLHUP)))
                alive = on_input(c);
            if (alive && (ev & POLLNVAL))
                alive = false;
            if (!alive) {
                for (slot = 0; clients[slot] != c; slot++)
                    ;
                remove_client(slot, false);
            }
        }

        if (!stopping && (pfd[n].revents & POLLIN))
            take_new_connections(LISTEN_FD);
    }

    close(LISTEN_FD);
    return finish();
}
