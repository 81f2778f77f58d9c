#include <errno.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/net/socket.h>

#define ECHO_PORT 4242
#define MSG       "ping 42"

static int make_addr(struct sockaddr_in *addr)
{
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_port = htons(ECHO_PORT);
	if (zsock_inet_pton(AF_INET, "127.0.0.1", &addr->sin_addr) != 1) {
		return -EINVAL;
	}
	return 0;
}

int main(void)
{
	struct sockaddr_in server_addr;
	struct sockaddr_in peer;
	socklen_t peer_len = sizeof(peer);
	struct timeval timeout = { .tv_sec = 2, .tv_usec = 0 };
	char server_buf[64];
	char client_buf[64];
	ssize_t len;
	int server;
	int client;
	int ret;

	ret = make_addr(&server_addr);
	if (ret < 0) {
		printk("address: %d\n", ret);
		return ret;
	}

	server = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (server < 0) {
		ret = -errno;
		printk("server socket: %d\n", ret);
		return ret;
	}
	if (zsock_bind(server, (struct sockaddr *)&server_addr, sizeof(server_addr)) < 0) {
		ret = -errno;
		printk("bind: %d\n", ret);
		goto close_server;
	}

	client = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (client < 0) {
		ret = -errno;
		printk("client socket: %d\n", ret);
		goto close_server;
	}
	if (zsock_setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)) < 0) {
		ret = -errno;
		printk("setsockopt: %d\n", ret);
		goto close_client;
	}

	len = zsock_sendto(client, MSG, strlen(MSG), 0,
			   (struct sockaddr *)&server_addr, sizeof(server_addr));
	if (len < 0) {
		ret = -errno;
		printk("client send: %d\n", ret);
		goto close_client;
	}

	len = zsock_recvfrom(server, server_buf, sizeof(server_buf), 0,
			     (struct sockaddr *)&peer, &peer_len);
	if (len < 0) {
		ret = -errno;
		printk("server receive: %d\n", ret);
		goto close_client;
	}
	if (zsock_sendto(server, server_buf, len, 0, (struct sockaddr *)&peer, peer_len) < 0) {
		ret = -errno;
		printk("server send: %d\n", ret);
		goto close_client;
	}

	len = zsock_recv(client, client_buf, sizeof(client_buf) - 1, 0);
	if (len < 0) {
		ret = -errno;
		if (ret == -EAGAIN || ret == -EWOULDBLOCK) {
			printk("udp echo timeout\n");
		} else {
			printk("client receive: %d\n", ret);
		}
		goto close_client;
	}
	client_buf[len] = '\0';

	if (len == (ssize_t)strlen(MSG) && memcmp(client_buf, MSG, len) == 0) {
		printk("udp echo ok\n");
		ret = 0;
	} else {
		printk("udp echo mismatch\n");
		ret = -EIO;
	}

close_client:
	(void)zsock_close(client);
close_server:
	(void)zsock_close(server);
	return ret;
}
