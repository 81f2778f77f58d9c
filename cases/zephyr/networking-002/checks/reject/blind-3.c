/* defect: The connect wait passes 3 to zsock_poll(), whose timeout is in milliseconds, so the attempt gives up after 3 ms instead of three seconds.
 * breaks: "The connection attempt must give up after three seconds instead of waiting for the stack's default TCP timeout."
 * must_fail: connect_timeout_bounded
 */
/*
 * Telemetry uploader: resolve the collector, connect with a 3 s bound,
 * send a 512-byte report completely, close.
 */

#include <errno.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/net/socket.h>

#define COLLECTOR_HOST "127.0.0.1"
#define COLLECTOR_PORT "5555"

#define CONNECT_TIMEOUT_S  3
#define REPORT_SIZE        512

static uint8_t report[REPORT_SIZE];

static int gai_to_errno(int gai_rc)
{
	switch (gai_rc) {
	case DNS_EAI_SYSTEM:
		return errno > 0 ? -errno : -EIO;
	case DNS_EAI_MEMORY:
		return -ENOMEM;
	case DNS_EAI_AGAIN:
		return -EAGAIN;
	case DNS_EAI_NONAME:
	case DNS_EAI_NODATA:
		return -ENOENT;
	case DNS_EAI_FAMILY:
	case DNS_EAI_ADDRFAMILY:
		return -EAFNOSUPPORT;
	default:
		return -EHOSTUNREACH;
	}
}

int main(void)
{
	struct zsock_addrinfo hints;
	struct zsock_addrinfo *res = NULL;
	struct zsock_pollfd pfd;
	static const char prefix[] = "report seq=1 ";
	size_t sent = 0;
	int sock = -1;
	int flags;
	int ret;

	memset(report, '.', sizeof(report));
	memcpy(report, prefix, sizeof(prefix) - 1);

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_protocol = IPPROTO_TCP;

	ret = zsock_getaddrinfo(COLLECTOR_HOST, COLLECTOR_PORT, &hints, &res);
	if (ret != 0) {
		ret = gai_to_errno(ret);
		printk("getaddrinfo failed: %d\n", ret);
		return ret;
	}
	if (res == NULL) {
		printk("getaddrinfo failed: %d\n", -ENOENT);
		return -ENOENT;
	}

	sock = zsock_socket(res->ai_family, res->ai_socktype, res->ai_protocol);
	if (sock < 0) {
		ret = -errno;
		printk("socket failed: %d\n", ret);
		goto out_free;
	}

	/* Non-blocking connect so that the wait can be bounded with poll(). */
	flags = zsock_fcntl(sock, ZVFS_F_GETFL, 0);
	if (flags < 0 ||
	    zsock_fcntl(sock, ZVFS_F_SETFL, flags | ZVFS_O_NONBLOCK) < 0) {
		ret = -errno;
		printk("fcntl failed: %d\n", ret);
		goto out_close;
	}

	ret = zsock_connect(sock, res->ai_addr, res->ai_addrlen);
	if (ret < 0) {
		if (errno != EINPROGRESS) {
			ret = -errno;
			printk("connect failed: %d\n", ret);
			goto out_close;
		}

		pfd.fd = sock;
		pfd.events = ZSOCK_POLLOUT;
		pfd.revents = 0;

		ret = zsock_poll(&pfd, 1, CONNECT_TIMEOUT_S);
		if (ret < 0) {
			ret = -errno;
			printk("connect failed (poll): %d\n", ret);
			goto out_close;
		}
		if (ret == 0) {
			ret = -ETIMEDOUT;
			printk("connect failed: %d\n", ret);
			goto out_close;
		}

		int so_error = 0;
		socklen_t optlen = sizeof(so_error);

		if (zsock_getsockopt(sock, SOL_SOCKET, SO_ERROR, &so_error,
				     &optlen) < 0) {
			ret = -errno;
			printk("connect failed (getsockopt): %d\n", ret);
			goto out_close;
		}
		if (so_error != 0) {
			ret = -so_error;
			printk("connect failed: %d\n", ret);
			goto out_close;
		}
		if (!(pfd.revents & ZSOCK_POLLOUT)) {
			ret = -ECONNREFUSED;
			printk("connect failed: %d\n", ret);
			goto out_close;
		}
	}

	/* Connected: go back to blocking mode for the send loop. */
	if (zsock_fcntl(sock, ZVFS_F_SETFL, flags) < 0) {
		ret = -errno;
		printk("fcntl failed: %d\n", ret);
		goto out_close;
	}

	while (sent < sizeof(report)) {
		ssize_t n = zsock_send(sock, report + sent,
				       sizeof(report) - sent, 0);

		if (n < 0) {
			ret = -errno;
			printk("send failed: %d\n", ret);
			goto out_close;
		}
		sent += (size_t)n;
	}

	printk("report sent\n");
	ret = 0;

out_close:
	if (zsock_close(sock) < 0 && ret == 0) {
		ret = -errno;
		printk("close failed: %d\n", ret);
	}
out_free:
	zsock_freeaddrinfo(res);
	return ret;
}
