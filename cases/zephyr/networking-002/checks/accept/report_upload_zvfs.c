/*
 * Upload one 512-byte telemetry report to the collector over TCP.
 *
 * The collector address is resolved at run time, the connect is bounded by a
 * non-blocking connect plus poll(), and the send loop copes with the stack
 * accepting only part of the buffer per call. The address list and the
 * socket are released on every path, since this runs periodically.
 *
 * The descriptor flags use the ZVFS_* names from <zephyr/sys/fdtable.h>,
 * which are the values zsock_fcntl() compares against, so no C library
 * <fcntl.h> (whose O_NONBLOCK may differ from Zephyr's) is involved.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/net/socket.h>
#include <zephyr/sys/fdtable.h>
#include <zephyr/sys/printk.h>

#define COLLECTOR_HOST "127.0.0.1"
#define COLLECTOR_PORT "5555"

#define UPLOAD_SIZE     512
#define DIAL_TIMEOUT_MS (3 * MSEC_PER_SEC)

static uint8_t upload_buf[UPLOAD_SIZE];

static size_t compose_report(uint8_t *dst, size_t cap)
{
	static const char head[] = "report seq=1 ";

	for (size_t i = 0; i < cap; i++) {
		if (i < sizeof(head) - 1) {
			dst[i] = (uint8_t)head[i];
		} else {
			dst[i] = (uint8_t)('a' + (i % 26));
		}
	}
	return cap;
}

static int write_fully(int fd, const uint8_t *data, size_t len)
{
	size_t remaining = len;
	ssize_t chunk;

	for (const uint8_t *pos = data; remaining > 0; pos += chunk) {
		chunk = zsock_send(fd, pos, remaining, 0);
		if (chunk <= 0) {
			/* 0 would never make progress: treat it as an I/O error. */
			return (chunk < 0) ? -errno : -EIO;
		}
		remaining -= (size_t)chunk;
	}
	return 0;
}

/* Wait for an in-progress connect to finish; 0 once the peer accepted. */
static int await_connected(int fd, int timeout_ms)
{
	struct zsock_pollfd waiter = {
		.fd = fd,
		.events = ZSOCK_POLLOUT,
	};
	int so_err = 0;
	socklen_t so_len = sizeof(so_err);
	int n = zsock_poll(&waiter, 1, timeout_ms);

	if (n == 0) {
		return -ETIMEDOUT;
	}
	if (n < 0) {
		return -errno;
	}
	if (zsock_getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_err, &so_len) < 0) {
		return -errno;
	}
	if (so_err != 0) {
		return -so_err;
	}
	return (waiter.revents & ZSOCK_POLLOUT) ? 0 : -ECONNREFUSED;
}

static int connect_bounded(int fd, const struct sockaddr *sa, socklen_t sa_len, int timeout_ms)
{
	int saved = zsock_fcntl(fd, ZVFS_F_GETFL, 0);
	int rc;

	if (saved < 0) {
		return -errno;
	}
	if (zsock_fcntl(fd, ZVFS_F_SETFL, saved | ZVFS_O_NONBLOCK) < 0) {
		return -errno;
	}

	rc = zsock_connect(fd, sa, sa_len);
	if (rc < 0) {
		rc = (errno == EINPROGRESS) ? await_connected(fd, timeout_ms) : -errno;
	}

	/* Back to blocking mode so the send loop waits for buffer space. */
	if (rc == 0 && zsock_fcntl(fd, ZVFS_F_SETFL, saved) < 0) {
		rc = -errno;
	}
	return rc;
}

/* Returns a connected descriptor, or a negative errno with nothing left open. */
static int dial(const struct zsock_addrinfo *ai)
{
	int fd = zsock_socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
	int rc;

	if (fd < 0) {
		rc = -errno;
		printk("socket failed: %d\n", rc);
		return rc;
	}

	rc = connect_bounded(fd, ai->ai_addr, ai->ai_addrlen, DIAL_TIMEOUT_MS);
	if (rc < 0) {
		printk("connect failed: %d\n", rc);
		(void)zsock_close(fd);
		return rc;
	}
	return fd;
}

static int upload_report(const uint8_t *data, size_t len)
{
	static const struct zsock_addrinfo hints = {
		.ai_family = AF_INET,
		.ai_socktype = SOCK_STREAM,
		.ai_protocol = IPPROTO_TCP,
	};
	struct zsock_addrinfo *peer = NULL;
	int fd;
	int rc;

	rc = zsock_getaddrinfo(COLLECTOR_HOST, COLLECTOR_PORT, &hints, &peer);
	if (rc != 0) {
		printk("resolve %s:%s failed: %d\n", COLLECTOR_HOST, COLLECTOR_PORT, rc);
		return (rc == DNS_EAI_MEMORY) ? -ENOMEM : -EHOSTUNREACH;
	}

	/* Only the first result is used; the list is not needed after dialing. */
	fd = dial(peer);
	zsock_freeaddrinfo(peer);
	if (fd < 0) {
		return fd;
	}

	rc = write_fully(fd, data, len);
	if (rc == 0) {
		printk("report sent\n");
	} else {
		printk("send failed: %d\n", rc);
	}
	(void)zsock_close(fd);
	return rc;
}

int main(void)
{
	size_t len = compose_report(upload_buf, sizeof(upload_buf));

	return upload_report(upload_buf, len);
}
