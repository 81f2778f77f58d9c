#include <errno.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/net/socket.h>

static const char payload[] = "ping 42";

static int open_server(const struct sockaddr_in *addr)
{
	int fd = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);

	if (fd < 0) {
		return -errno;
	}
	if (zsock_bind(fd, (const struct sockaddr *)addr, sizeof(*addr)) < 0) {
		int err = -errno;

		zsock_close(fd);
		return err;
	}
	return fd;
}

static int exchange(int srv, int cli, const struct sockaddr_in *addr)
{
	char rx[32];
	char echo[32];
	struct sockaddr_in from;
	socklen_t from_len = sizeof(from);
	struct zsock_pollfd pfd = { .fd = cli, .events = ZSOCK_POLLIN };
	ssize_t n;
	int ready;

	if (zsock_sendto(cli, payload, sizeof(payload) - 1, 0, (const struct sockaddr *)addr,
			 sizeof(*addr)) < 0) {
		return -errno;
	}
	n = zsock_recvfrom(srv, rx, sizeof(rx), 0, (struct sockaddr *)&from, &from_len);
	if (n < 0) {
		return -errno;
	}
	if (zsock_sendto(srv, rx, n, 0, (struct sockaddr *)&from, from_len) < 0) {
		return -errno;
	}
	ready = zsock_poll(&pfd, 1, 2000);
	if (ready < 0) {
		return -errno;
	}
	if (ready == 0) {
		printk("udp echo timeout\n");
		return -ETIMEDOUT;
	}
	n = zsock_recv(cli, echo, sizeof(echo), 0);
	if (n < 0) {
		return -errno;
	}
	if (n == sizeof(payload) - 1 && memcmp(echo, payload, n) == 0) {
		printk("udp echo ok\n");
		return 0;
	}
	printk("udp echo mismatch\n");
	return -EIO;
}

int main(void)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_port = htons(4242),
	};
	int srv;
	int cli;
	int err;

	if (zsock_inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr) != 1) {
		return -EINVAL;
	}
	srv = open_server(&addr);
	if (srv < 0) {
		printk("server setup failed: %d\n", srv);
		return srv;
	}
	cli = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (cli < 0) {
		err = -errno;
		printk("client socket failed: %d\n", err);
		zsock_close(srv);
		return err;
	}
	err = exchange(srv, cli, &addr);
	if (err < 0) {
		printk("exchange failed: %d\n", err);
	}
	zsock_close(cli);
	zsock_close(srv);
	return err;
}
