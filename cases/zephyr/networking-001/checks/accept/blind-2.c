#include <errno.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/net/socket.h>

#define ECHO_PORT      4242
#define TIMEOUT_SEC    2
#define BUF_LEN        32

static const char msg[] = "ping 42";

static void loopback_addr(struct sockaddr_in *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons(ECHO_PORT);
	sa->sin_addr.s4_addr[0] = 127;
	sa->sin_addr.s4_addr[1] = 0;
	sa->sin_addr.s4_addr[2] = 0;
	sa->sin_addr.s4_addr[3] = 1;
}

static int report(const char *step)
{
	int err = errno;

	printk("%s failed: errno %d\n", step, err);
	return err > 0 ? -err : -EIO;
}

static int set_rx_timeout(int sock)
{
	struct zsock_timeval tv = {
		.tv_sec = TIMEOUT_SEC,
		.tv_usec = 0,
	};

	return zsock_setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

/* Receive one datagram on the server socket and send it back to its source. */
static int serve_one(int server)
{
	char buf[BUF_LEN];
	struct sockaddr_in from;
	socklen_t from_len = sizeof(from);
	ssize_t len;
	ssize_t sent;

	len = zsock_recvfrom(server, buf, sizeof(buf), 0,
			     (struct sockaddr *)&from, &from_len);
	if (len < 0) {
		return report("server recvfrom");
	}

	sent = zsock_sendto(server, buf, (size_t)len, 0,
			    (struct sockaddr *)&from, from_len);
	if (sent < 0) {
		return report("server sendto");
	}
	if (sent != len) {
		printk("server sendto failed: sent %d of %d\n", (int)sent, (int)len);
		return -EIO;
	}
	return 0;
}

static int exchange(int server, int client, const struct sockaddr_in *srv)
{
	char reply[BUF_LEN];
	ssize_t len;
	int rc;

	if (zsock_connect(client, (const struct sockaddr *)srv, sizeof(*srv)) < 0) {
		return report("client connect");
	}

	if (set_rx_timeout(client) < 0) {
		return report("client setsockopt(SO_RCVTIMEO)");
	}

	len = zsock_send(client, msg, sizeof(msg) - 1, 0);
	if (len < 0) {
		return report("client send");
	}
	if ((size_t)len != sizeof(msg) - 1) {
		printk("client send failed: sent %d bytes\n", (int)len);
		return -EIO;
	}

	rc = serve_one(server);
	if (rc < 0) {
		return rc;
	}

	len = zsock_recv(client, reply, sizeof(reply), 0);
	if (len < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			printk("udp echo timeout\n");
			return -ETIMEDOUT;
		}
		return report("client recv");
	}

	if ((size_t)len == sizeof(msg) - 1 &&
	    memcmp(reply, msg, sizeof(msg) - 1) == 0) {
		printk("udp echo ok\n");
		return 0;
	}

	printk("udp echo mismatch\n");
	return -EBADMSG;
}

int main(void)
{
	struct sockaddr_in srv;
	int server;
	int client;
	int rc;

	loopback_addr(&srv);

	server = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (server < 0) {
		return report("server socket");
	}

	if (zsock_bind(server, (struct sockaddr *)&srv, sizeof(srv)) < 0) {
		rc = report("server bind");
		zsock_close(server);
		return rc;
	}

	/* Bound the server's wait too, so a lost datagram cannot block forever. */
	if (set_rx_timeout(server) < 0) {
		rc = report("server setsockopt(SO_RCVTIMEO)");
		zsock_close(server);
		return rc;
	}

	client = zsock_socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (client < 0) {
		rc = report("client socket");
		zsock_close(server);
		return rc;
	}

	rc = exchange(server, client, &srv);

	zsock_close(client);
	zsock_close(server);
	return rc;
}
