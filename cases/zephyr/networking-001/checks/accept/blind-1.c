#include <errno.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/net/socket.h>

#define ECHO_PORT       4242
#define REPLY_TIMEOUT_MS 2000
#define RX_BUF_SIZE     64

static const char ping_msg[] = "ping 42";

static int fail(const char *step)
{
	int err = errno;

	printk("%s failed: %d (%s)\n", step, -err, strerror(err));
	return -err;
}

static int wait_readable(int sock, int timeout_ms)
{
	struct zsock_pollfd pfd = {
		.fd = sock,
		.events = ZSOCK_POLLIN,
	};

	return zsock_poll(&pfd, 1, timeout_ms);
}

int main(void)
{
	struct sockaddr_in server_addr;
	struct sockaddr_in peer_addr;
	socklen_t peer_len;
	char srv_buf[RX_BUF_SIZE];
	char cli_buf[RX_BUF_SIZE];
	int server = -1;
	int client = -1;
	ssize_t n;
	ssize_t got;
	int rc;
	int ret = 0;

	memset(&server_addr, 0, sizeof(server_addr));
	server_addr.sin_family = AF_INET;
	server_addr.sin_port = htons(ECHO_PORT);
	if (zsock_inet_pton(AF_INET, "127.0.0.1", &server_addr.sin_addr) != 1) {
		printk("inet_pton failed: %d\n", -EINVAL);
		return -EINVAL;
	}

	server = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (server < 0) {
		ret = fail("server socket");
		goto out;
	}

	if (zsock_bind(server, (struct sockaddr *)&server_addr,
		       sizeof(server_addr)) < 0) {
		ret = fail("server bind");
		goto out;
	}

	client = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (client < 0) {
		ret = fail("client socket");
		goto out;
	}

	n = zsock_sendto(client, ping_msg, strlen(ping_msg), 0,
			 (struct sockaddr *)&server_addr, sizeof(server_addr));
	if (n < 0) {
		ret = fail("client sendto");
		goto out;
	}
	if ((size_t)n != strlen(ping_msg)) {
		printk("client sendto failed: short write %d\n", (int)n);
		ret = -EIO;
		goto out;
	}

	/* Server side: bounded wait as well, so a lost datagram cannot hang us. */
	rc = wait_readable(server, REPLY_TIMEOUT_MS);
	if (rc < 0) {
		ret = fail("server poll");
		goto out;
	}
	if (rc == 0) {
		printk("server recvfrom failed: %d\n", -ETIMEDOUT);
		ret = -ETIMEDOUT;
		goto out;
	}

	peer_len = sizeof(peer_addr);
	n = zsock_recvfrom(server, srv_buf, sizeof(srv_buf), 0,
			   (struct sockaddr *)&peer_addr, &peer_len);
	if (n < 0) {
		ret = fail("server recvfrom");
		goto out;
	}

	got = zsock_sendto(server, srv_buf, (size_t)n, 0,
			   (struct sockaddr *)&peer_addr, peer_len);
	if (got < 0) {
		ret = fail("server sendto");
		goto out;
	}
	if (got != n) {
		printk("server sendto failed: short write %d\n", (int)got);
		ret = -EIO;
		goto out;
	}

	/* Client side: give up after two seconds. */
	rc = wait_readable(client, REPLY_TIMEOUT_MS);
	if (rc < 0) {
		ret = fail("client poll");
		goto out;
	}
	if (rc == 0) {
		printk("udp echo timeout\n");
		ret = -ETIMEDOUT;
		goto out;
	}

	n = zsock_recv(client, cli_buf, sizeof(cli_buf), 0);
	if (n < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			printk("udp echo timeout\n");
			ret = -ETIMEDOUT;
		} else {
			ret = fail("client recv");
		}
		goto out;
	}

	/* A datagram filling the whole buffer may have been truncated. */
	if ((size_t)n == strlen(ping_msg) && (size_t)n < sizeof(cli_buf) &&
	    memcmp(cli_buf, ping_msg, (size_t)n) == 0) {
		printk("udp echo ok\n");
		ret = 0;
	} else {
		printk("udp echo mismatch\n");
		ret = -EBADMSG;
	}

out:
	if (client >= 0) {
		(void)zsock_close(client);
	}
	if (server >= 0) {
		(void)zsock_close(server);
	}
	return ret;
}
