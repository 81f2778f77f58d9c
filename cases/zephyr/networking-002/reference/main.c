#include <errno.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/net/socket.h>
#include <zephyr/sys/fdtable.h>

#define COLLECTOR_HOST "127.0.0.1"
#define COLLECTOR_PORT "5555"
#define CONNECT_TIMEOUT_MS 3000
#define REPORT_LEN 512

static char report[REPORT_LEN];

static int connect_with_timeout(int sock, const struct sockaddr *addr, socklen_t addrlen)
{
	struct zsock_pollfd pfd = { .fd = sock, .events = ZSOCK_POLLOUT };
	int flags;
	int err = 0;
	socklen_t len = sizeof(err);
	int ret;

	flags = zsock_fcntl(sock, ZVFS_F_GETFL, 0);
	if (flags < 0 || zsock_fcntl(sock, ZVFS_F_SETFL, flags | ZVFS_O_NONBLOCK) < 0) {
		return -errno;
	}

	if (zsock_connect(sock, addr, addrlen) == 0) {
		goto restore;
	}
	if (errno != EINPROGRESS) {
		return -errno;
	}

	ret = zsock_poll(&pfd, 1, CONNECT_TIMEOUT_MS);
	if (ret < 0) {
		return -errno;
	}
	if (ret == 0) {
		return -ETIMEDOUT;
	}
	if (zsock_getsockopt(sock, SOL_SOCKET, SO_ERROR, &err, &len) < 0) {
		return -errno;
	}
	if (err != 0) {
		return -err;
	}

restore:
	if (zsock_fcntl(sock, ZVFS_F_SETFL, flags) < 0) {
		return -errno;
	}
	return 0;
}

static int send_all(int sock, const char *buf, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = zsock_send(sock, buf + off, len - off, 0);

		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			return -errno;
		}
		off += (size_t)n;
	}
	return 0;
}

int main(void)
{
	struct zsock_addrinfo hints = {
		.ai_family = AF_INET,
		.ai_socktype = SOCK_STREAM,
	};
	struct zsock_addrinfo *res = NULL;
	int sock;
	int ret;

	memset(report, '.', sizeof(report));
	memcpy(report, "report seq=1 ", strlen("report seq=1 "));

	ret = zsock_getaddrinfo(COLLECTOR_HOST, COLLECTOR_PORT, &hints, &res);
	if (ret != 0) {
		printk("getaddrinfo: %d\n", ret);
		return -EHOSTUNREACH;
	}

	sock = zsock_socket(res->ai_family, res->ai_socktype, res->ai_protocol);
	if (sock < 0) {
		ret = -errno;
		printk("socket: %d\n", ret);
		goto free_addr;
	}

	ret = connect_with_timeout(sock, res->ai_addr, res->ai_addrlen);
	if (ret < 0) {
		printk("connect: %d\n", ret);
		goto close_sock;
	}

	ret = send_all(sock, report, sizeof(report));
	if (ret < 0) {
		printk("send: %d\n", ret);
		goto close_sock;
	}

	printk("report sent\n");

close_sock:
	(void)zsock_close(sock);
free_addr:
	zsock_freeaddrinfo(res);
	return ret;
}
