#include <errno.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/net/socket.h>

#define COLLECTOR_HOST "127.0.0.1"
#define COLLECTOR_PORT "5555"

#define CONNECT_TIMEOUT_MS 3000
#define SEND_TIMEOUT_MS    3000
#define REPORT_LEN         512

/* Wait until @p sock becomes writable; returns 0, -ETIMEDOUT or -errno. */
static int wait_writable(int sock, int timeout_ms)
{
	struct zsock_pollfd pfd = {
		.fd = sock,
		.events = ZSOCK_POLLOUT,
	};
	int ret;

	ret = zsock_poll(&pfd, 1, timeout_ms);
	if (ret < 0) {
		return -errno;
	}
	if (ret == 0) {
		return -ETIMEDOUT;
	}
	if (pfd.revents & ZSOCK_POLLNVAL) {
		return -EBADF;
	}
	return 0;
}

static int resolve_collector(struct zsock_addrinfo **res)
{
	const struct zsock_addrinfo hints = {
		.ai_family = AF_INET,
		.ai_socktype = SOCK_STREAM,
	};
	int rc;

	*res = NULL;
	rc = zsock_getaddrinfo(COLLECTOR_HOST, COLLECTOR_PORT, &hints, res);
	if (rc == DNS_EAI_SYSTEM) {
		return -errno;
	}
	if (rc != 0) {
		printk("resolve: %s\n", zsock_gai_strerror(rc));
		return -EHOSTUNREACH;
	}
	if (*res == NULL) {
		return -ENOENT;
	}
	return 0;
}

/*
 * Connect a non-blocking socket and wait at most @p timeout_ms for the
 * handshake to complete. The socket stays non-blocking afterwards.
 */
static int connect_bounded(int sock, const struct sockaddr *addr,
			   socklen_t addrlen, int timeout_ms)
{
	int so_error = 0;
	socklen_t len = sizeof(so_error);
	int flags;
	int rc;

	flags = zsock_fcntl(sock, ZVFS_F_GETFL, 0);
	if (flags < 0) {
		return -errno;
	}
	if (zsock_fcntl(sock, ZVFS_F_SETFL, flags | ZVFS_O_NONBLOCK) < 0) {
		return -errno;
	}

	if (zsock_connect(sock, addr, addrlen) == 0) {
		return 0;
	}
	if (errno != EINPROGRESS) {
		return -errno;
	}

	rc = wait_writable(sock, timeout_ms);
	if (rc < 0) {
		return rc;
	}

	if (zsock_getsockopt(sock, SOL_SOCKET, SO_ERROR, &so_error, &len) < 0) {
		return -errno;
	}
	if (so_error != 0) {
		return -so_error;
	}
	return 0;
}

/* Send all of @p buf on a non-blocking socket. */
static int send_all(int sock, const uint8_t *buf, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = zsock_send(sock, buf + off, len - off, 0);

		if (n >= 0) {
			off += (size_t)n;
			continue;
		}

		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			int rc = wait_writable(sock, SEND_TIMEOUT_MS);

			if (rc < 0) {
				return rc;
			}
			continue;
		}

		return -errno;
	}

	return 0;
}

static void build_report(uint8_t *buf, size_t len)
{
	static const char head[] = "report seq=1 ";

	for (size_t i = 0; i < len; i++) {
		buf[i] = (uint8_t)('a' + (i % 26));
	}
	memcpy(buf, head, strlen(head));
}

int main(void)
{
	static uint8_t report[REPORT_LEN];
	struct zsock_addrinfo *ai;
	int sock;
	int rc;

	build_report(report, sizeof(report));

	rc = resolve_collector(&ai);
	if (rc < 0) {
		printk("getaddrinfo failed: %d\n", rc);
		return rc;
	}

	sock = zsock_socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
	if (sock < 0) {
		rc = -errno;
		printk("socket failed: %d\n", rc);
		zsock_freeaddrinfo(ai);
		return rc;
	}

	rc = connect_bounded(sock, ai->ai_addr, ai->ai_addrlen,
			     CONNECT_TIMEOUT_MS);

	/* The address list is not needed past this point. */
	zsock_freeaddrinfo(ai);

	if (rc < 0) {
		printk("connect failed: %d\n", rc);
	} else {
		rc = send_all(sock, report, sizeof(report));
		if (rc < 0) {
			printk("send failed: %d\n", rc);
		} else {
			printk("report sent\n");
		}
	}

	if (zsock_close(sock) < 0 && rc == 0) {
		rc = -errno;
		printk("close failed: %d\n", rc);
	}

	return rc;
}
