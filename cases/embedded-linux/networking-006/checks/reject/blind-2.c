/* defect: SIGPIPE is never ignored (and send() has no MSG_NOSIGNAL), so writing replies to a peer that has gone away kills the server.
 * breaks: "Writing to a connection the peer has closed must not kill the server (`SIGPIPE`)."
 * must_fail: scenario_peer_closed_before_replies, scenario_peer_reset
 */
/*
 * lined - configuration service of the gateway.
 *
 * Single-threaded TCP line-protocol server.  The listening socket is
 * passed in as file descriptor 3 (socket activation).  All sockets are
 * non-blocking and the only place the server waits is poll().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#define LISTEN_FD      3
#define MAX_CONNS      8
#define MAX_LINE       64
#define MAX_KEYS       32
#define MAX_KEY_LEN    16
#define MAX_VAL_LEN    32
#define RECV_CHUNK     4096

struct conn {
    int    fd;                 /* -1: slot unused */
    int    reading;            /* 0 after QUIT, EOF or an overlong line */
    char   line[MAX_LINE];     /* bytes of the current, incomplete line */
    size_t line_len;
    char  *out;                /* unsent reply bytes: out[out_off..out_len) */
    size_t out_off, out_len, out_cap;
};

struct entry {
    char key[MAX_KEY_LEN + 1];
    char val[MAX_VAL_LEN + 1];
};

static struct conn  conns[MAX_CONNS];
static struct entry store[MAX_KEYS];
static int          nstore;
static int          listen_fd = LISTEN_FD;
static int          shutting_down;

/* ------------------------------------------------------------------ */

static int set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);

    if (fl < 0)
        return -1;
    return fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* Read and throw away whatever the kernel still holds for fd so that the
 * following close() ends the connection with FIN instead of RST (which
 * could destroy replies still on their way to the peer). */
static void drain_and_close(int fd)
{
    char junk[1024];
    int i;

    for (i = 0; i < 64; i++) {
        ssize_t n = recv(fd, junk, sizeof junk, MSG_DONTWAIT);
        if (n <= 0)
            break;
    }
    close(fd);
}

static void conn_close(struct conn *c)
{
    drain_and_close(c->fd);
    free(c->out);
    memset(c, 0, sizeof *c);
    c->fd = -1;
}

static void conn_drop(struct conn *c)   /* error: close at once */
{
    close(c->fd);
    free(c->out);
    memset(c, 0, sizeof *c);
    c->fd = -1;
}

static int queue(struct conn *c, const char *s, size_t n)
{
    if (c->out_off > 0 && c->out_off == c->out_len)
        c->out_off = c->out_len = 0;
    if (c->out_len + n > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 256;
        char *p;

        /* reclaim the already sent front of the buffer first */
        if (c->out_off > 0) {
            memmove(c->out, c->out + c->out_off, c->out_len - c->out_off);
            c->out_len -= c->out_off;
            c->out_off = 0;
        }
        while (cap < c->out_len + n)
            cap *= 2;
        if (cap != c->out_cap) {
            p = realloc(c->out, cap);
            if (p == NULL)
                return -1;
            c->out = p;
            c->out_cap = cap;
        }
    }
    memcpy(c->out + c->out_len, s, n);
    c->out_len += n;
    return 0;
}

static int reply(struct conn *c, const char *s)
{
    return queue(c, s, strlen(s));
}

/* ------------------------------------------------------------------ */
/* Protocol                                                            */
/* ------------------------------------------------------------------ */

static int valid_key(const char *s, size_t n)
{
    size_t i;

    if (n < 1 || n > MAX_KEY_LEN)
        return 0;
    for (i = 0; i < n; i++) {
        char ch = s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
              ch == '_'))
            return 0;
    }
    return 1;
}

static int valid_value(const char *s, size_t n)
{
    size_t i;

    if (n < 1 || n > MAX_VAL_LEN)
        return 0;
    for (i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e)
            return 0;
    return 1;
}

static int is_word(const char *s, size_t n, const char *w)
{
    return n == strlen(w) && memcmp(s, w, n) == 0;
}

static struct entry *find_key(const char *k, size_t n)
{
    int i;

    for (i = 0; i < nstore; i++)
        if (strlen(store[i].key) == n && memcmp(store[i].key, k, n) == 0)
            return &store[i];
    return NULL;
}

enum action { KEEP, CLOSE_AFTER, SHUTDOWN_SERVER };

static enum action execute(struct conn *c, const char *s, size_t n, int *err)
{
    const char *sp;
    struct entry *e;
    char buf[8 + MAX_VAL_LEN];

    *err = 0;
    if (is_word(s, n, "PING")) {
        *err = reply(c, "PONG\n");
        return KEEP;
    }
    if (is_word(s, n, "QUIT")) {
        *err = reply(c, "BYE\n");
        return CLOSE_AFTER;
    }
    if (is_word(s, n, "SHUTDOWN")) {
        *err = reply(c, "BYE\n");
        return SHUTDOWN_SERVER;
    }
    if (n > 4 && memcmp(s, "GET ", 4) == 0) {
        if (!valid_key(s + 4, n - 4)) {
            *err = reply(c, "ERR syntax\n");
            return KEEP;
        }
        e = find_key(s + 4, n - 4);
        if (e == NULL) {
            *err = reply(c, "ERR nokey\n");
        } else {
            size_t vl = strlen(e->val);
            memcpy(buf, "VAL ", 4);
            memcpy(buf + 4, e->val, vl);
            buf[4 + vl] = '\n';
            *err = queue(c, buf, 5 + vl);
        }
        return KEEP;
    }
    if (n > 4 && memcmp(s, "SET ", 4) == 0) {
        const char *key = s + 4, *val;
        size_t klen, vlen;

        sp = memchr(key, ' ', n - 4);
        if (sp == NULL) {
            *err = reply(c, "ERR syntax\n");
            return KEEP;
        }
        klen = (size_t)(sp - key);
        val = sp + 1;
        vlen = n - (size_t)(val - s);
        if (!valid_key(key, klen) || !valid_value(val, vlen)) {
            *err = reply(c, "ERR syntax\n");
            return KEEP;
        }
        e = find_key(key, klen);
        if (e == NULL) {
            if (nstore == MAX_KEYS) {
                *err = reply(c, "ERR full\n");
                return KEEP;
            }
            e = &store[nstore++];
            memcpy(e->key, key, klen);
            e->key[klen] = '\0';
        }
        memcpy(e->val, val, vlen);
        e->val[vlen] = '\0';
        *err = reply(c, "OK\n");
        return KEEP;
    }
    *err = reply(c, "ERR syntax\n");
    return KEEP;
}

static void begin_shutdown(void)
{
    int i;

    shutting_down = 1;
    if (listen_fd >= 0) {
        close(listen_fd);
        listen_fd = -1;
    }
    for (i = 0; i < MAX_CONNS; i++)
        if (conns[i].fd >= 0)
            conns[i].reading = 0;
}

/* Feed received bytes through the line framer. Returns -1 if the
 * connection must be dropped (out of memory). */
static int consume(struct conn *c, const char *data, size_t n)
{
    size_t i;
    int err;

    for (i = 0; i < n && c->reading && !shutting_down; i++) {
        if (data[i] == '\n') {
            enum action a = execute(c, c->line, c->line_len, &err);

            c->line_len = 0;
            if (err)
                return -1;
            if (a == CLOSE_AFTER)
                c->reading = 0;
            else if (a == SHUTDOWN_SERVER)
                begin_shutdown();
        } else if (c->line_len == MAX_LINE) {
            c->reading = 0;
            c->line_len = 0;
            if (reply(c, "ERR too long\n") < 0)
                return -1;
        } else {
            c->line[c->line_len++] = data[i];
        }
    }
    return 0;
}

static void handle_readable(struct conn *c)
{
    char buf[RECV_CHUNK];
    ssize_t n = recv(c->fd, buf, sizeof buf, 0);

    if (n > 0) {
        if (consume(c, buf, (size_t)n) < 0)
            conn_drop(c);
    } else if (n == 0) {
        c->reading = 0;          /* EOF: drop the incomplete last line */
        c->line_len = 0;
    } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        conn_drop(c);
    }
}

static void handle_writable(struct conn *c)
{
    while (c->out_off < c->out_len) {
        ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
                         0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                conn_drop(c);
            return;
        }
        c->out_off += (size_t)n;
    }
    c->out_off = c->out_len = 0;
}

static void accept_clients(void)
{
    for (;;) {
        int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        int i, slot = -1;

        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            return;                     /* EAGAIN or a resource problem */
        }
        for (i = 0; i < MAX_CONNS; i++)
            if (conns[i].fd < 0) {
                slot = i;
                break;
            }
        if (slot < 0) {
            static const char busy[] = "ERR busy\n";
            ssize_t r = send(fd, busy, sizeof busy - 1, 0);
            (void)r;
            drain_and_close(fd);
            continue;
        }
        memset(&conns[slot], 0, sizeof conns[slot]);
        conns[slot].fd = fd;
        conns[slot].reading = 1;
    }
}

int main(void)
{
    struct pollfd pfd[MAX_CONNS + 1];
    int idx[MAX_CONNS + 1];
    int i;

    for (i = 0; i < MAX_CONNS; i++)
        conns[i].fd = -1;
    if (set_nonblock(listen_fd) < 0)
        return 1;

    for (;;) {
        int n = 0, active = 0;

        /* close connections that are done and have nothing left to send */
        for (i = 0; i < MAX_CONNS; i++) {
            struct conn *c = &conns[i];

            if (c->fd < 0)
                continue;
            if (!c->reading && c->out_off == c->out_len)
                conn_close(c);
            else
                active++;
        }
        if (shutting_down && active == 0)
            return 0;

        if (listen_fd >= 0) {
            pfd[n].fd = listen_fd;
            pfd[n].events = POLLIN;
            idx[n++] = -1;
        }
        for (i = 0; i < MAX_CONNS; i++) {
            struct conn *c = &conns[i];

            if (c->fd < 0)
                continue;
            pfd[n].fd = c->fd;
            pfd[n].events = 0;
            if (c->reading)
                pfd[n].events |= POLLIN;
            if (c->out_off < c->out_len)
                pfd[n].events |= POLLOUT;
            idx[n++] = i;
        }

        if (poll(pfd, (nfds_t)n, -1) < 0) {
            if (errno == EINTR)
                continue;
            return 1;
        }

        for (i = 0; i < n; i++) {
            short re = pfd[i].revents;
            struct conn *c;

            if (re == 0)
                continue;
            if (idx[i] < 0) {
                if (listen_fd >= 0 && !shutting_down)
                    accept_clients();
                continue;
            }
            c = &conns[idx[i]];
            if (c->fd != pfd[i].fd)
                continue;               /* slot changed during this round */
            if ((re & (POLLOUT | POLLERR | POLLHUP)) &&
                c->out_off < c->out_len)
                handle_writable(c);
            if (c->fd >= 0 && c->reading && !shutting_down &&
                (re & (POLLIN | POLLERR | POLLHUP)))
                handle_readable(c);
            if (c->fd >= 0 && (re & POLLNVAL))
                conn_drop(c);
        }
    }
}
